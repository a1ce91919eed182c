"""Stopping a bot process: goodbye, grace, SIGTERM and SIGKILL to its process group, reap; then
whatever of its tree left the group (setsid), found from /proc or its pids cgroup, is killed
too."""

from __future__ import annotations

import os
import signal
from contextlib import suppress
from typing import Protocol

import trio

from . import proc_tree
from .errors import BotGone
from .pids_cgroup import PidsCgroup


class Graces(Protocol):
    """How long a stopping bot is given at each step (`process.ProcessLimits`)."""

    @property
    def goodbye_grace(self) -> float: ...  # to exit after goodbye, before SIGTERM
    @property
    def term_grace(self) -> float: ...  # after SIGTERM, before SIGKILL
    @property
    def reap_within(self) -> float: ...  # after SIGKILL, before going on without it


class Stoppable(Protocol):
    """What stopping needs of a running bot (`process.BotProcess` is one): its process, its
    graces, its process tree, a way to send it its goodbye, and its pids cgroup.  Named here
    so that this module does not import the one that calls it."""

    group: PidsCgroup | None

    @property
    def process(self) -> trio.Process: ...
    @property
    def limits(self) -> Graces: ...
    def processes(self) -> list[proc_tree.ProcStat]: ...
    async def send(self, data: bytes) -> None: ...
    @property
    def own_process_ended(self) -> bool: ...


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


async def shutdown(bot: Stoppable, goodbye: bytes | None) -> bool:
    """Goodbye, grace, SIGTERM to the group, grace, SIGKILL to the group, reap.  Whether the
    bot, told goodbye, was still running when its grace ended (a thread or a child kept it)."""
    process = bot.process
    limits = bot.limits
    # Before the bot can exit: once it has, its children are orphans, no longer in its tree.
    tree = bot.processes() if process.returncode is None else []
    if process.returncode is None and goodbye is not None:
        with trio.move_on_after(limits.goodbye_grace):
            try:
                await bot.send(goodbye)
                assert process.stdin is not None
                await process.stdin.aclose()
            except (BotGone, trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass
            await process.wait()
    # (in the sandbox the bot's own process may have ended before bwrap, on a busy machine)
    lingered = goodbye is not None and process.returncode is None and \
        not bot.own_process_ended
    if process.returncode is None:
        _signal_group(process.pid, signal.SIGTERM)
        with trio.move_on_after(limits.term_grace):
            await process.wait()
    # Always kill the group: a grandchild may outlive the bot and ignore SIGTERM.
    _signal_group(process.pid, signal.SIGKILL)
    with trio.move_on_after(limits.reap_within):  # a frozen process, or one stuck in the
        await process.wait()  # kernel (a hung file system), is not waited for forever
    proc_tree.kill_all(tree[1:])  # any that left the group (setsid), and all they started
    await _remove_group(bot)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                await stream.aclose()
    return lingered


async def _remove_group(bot: Stoppable) -> None:
    """Kill whatever is left in the bot's cgroup (what /proc's tree no longer showed), and
    remove the group once the killed are gone; one still busy after a second is left."""
    group, bot.group = bot.group, None
    if group is None:
        return
    for _ in range(200):
        proc_tree.kill_all(group.members())
        if group.remove():
            return
        await trio.sleep(0.005)
