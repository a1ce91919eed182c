"""Starting a bot process: its command split like a shell would, then run in its own session
(so its whole process group can be signalled) with piped stdin and stdout and its stderr
drained into a size-capped log (`stderr_log.py`), so a noisy bot never blocks; `open_bot`
owns it for the length of a block.  A start the referee's own limits refuse (too many open
files, no memory, no process left) is `ResourcesExhausted`, not the bot's `StartError`."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import trio

from .errors import RESOURCE_ERRNOS, ResourcesExhausted, StartError
from .pids_cgroup import PidsCgroup
from .process import BotProcess, ProcessLimits
from .stderr_log import StderrLog

_DEFAULT_LIMITS = ProcessLimits()  # frozen, so one instance serves every call


def split_command(command: str) -> list[str]:
    """A command line split like a shell would, without running a shell."""
    if "\0" in command:
        raise StartError(f"cannot run command {command!r}: it holds a NUL character")
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise StartError(f"cannot parse command {command!r}: {exc}") from None
    if not argv:
        raise StartError("empty bot command")
    return argv


async def start_bot(
    argv: list[str],
    *,
    cwd: Path | None = None,
    stderr_path: Path | None = None,
    limits: ProcessLimits = _DEFAULT_LIMITS,
    env: dict[str, str] | None = None,
    sandboxed: bool = False,
    group: PidsCgroup | None = None,
) -> BotProcess:
    """Start a bot in its own session with piped stdin/stdout and stderr to its log, and in
    `group` if given (which the result then owns).

    The caller owns the result and must `aclose` it on every path (`open_bot` does that).
    """
    try:
        log = StderrLog(stderr_path, limits.stderr_per_game, limits.stderr_restart)
    except BaseException as exc:
        if group is not None:
            group.remove()
        _raise_if_short(exc)
        raise
    shown = shlex.join(argv)  # the command without the group's prefix
    if group is not None:
        argv = [*group.prefix(), *argv]
    try:
        process = await trio.lowlevel.open_process(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.writer,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        log.started()
    except BaseException as exc:
        log.close()
        if group is not None:
            group.remove()
        _raise_if_short(exc)
        if isinstance(exc, OSError):
            raise StartError(f"cannot start {shown}: {exc.strerror or exc}") from None
        raise
    return BotProcess(process, log, limits, sandboxed, group)


def _raise_if_short(exc: BaseException) -> None:
    """ResourcesExhausted if `exc` says the referee is short of descriptors, memory or
    processes (the bot's command is not to blame)."""
    if isinstance(exc, OSError) and exc.errno in RESOURCE_ERRNOS:
        raise ResourcesExhausted(f"cannot start a bot process: {exc.strerror or exc}") from None
