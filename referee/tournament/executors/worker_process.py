"""One local worker in a process of its own (`processes.py`, which starts it: `main`).

It reads frames from its stdin, the setup and then one game at a time, plays each with a
`Worker` alone in its event loop, and writes frames to its stdout: each void attempt as it
comes, then the game finished (or None); and as it exits, its own CPU seconds and its
start-up's.  It
stops, its bots with it, when its stdin closes, even in the middle of a game: the run is done
with it, was stopped (Ctrl-C, a time budget), or its process died (kill -9).  It runs in a
session of its own, and SIGINT, SIGHUP and SIGTERM sent to its process group all the same are
left to the run, which closes the stdin.

A frame is a pickle (both ends are this package) after its length, 4 bytes big-endian.
"""

from __future__ import annotations

import math
import os
import pickle
import resource
import signal
import struct
import sys
import traceback
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from referee.bots.polling import spin_beside
from referee.game.edition import Edition
from referee.match.game import OutOfResources

from ..config import TournamentConfig
from ..entrants import bot_factory
from ..schedule import ScheduledGame
from . import Voided
from .worker import Worker

HEADER = struct.Struct(">I")


@dataclass(frozen=True)
class Setup:
    """The first frame: what the worker plays and how."""

    config_json: str
    config_path: str
    edition: Edition  # read by the run, where a file that cannot be read is one line
    number: int
    sharing: int  # the workers of the run, which share the machine's memory
    stderr_dir: str | None
    restart_each_game: bool


def frame(obj: object) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


class FrameError(ValueError):
    """What a worker process wrote is not a frame of ours: something else wrote to its
    output."""


class Frames:
    """Frames read from a trio stream; None at the end of the stream.  A frame is taken from
    the buffer only once whole, so a read cancelled halfway loses nothing."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self.stream = stream
        self.buf = bytearray()

    async def _fill(self, n: int) -> bool:
        """At least `n` bytes buffered; False at the end of the stream before that."""
        while len(self.buf) < n:
            data = await self.stream.receive_some(max(65536, n - len(self.buf)))
            if not data:
                return False
            self.buf += data
        return True

    async def receive(self) -> Any:
        if not await self._fill(HEADER.size):
            return None
        end = HEADER.size + HEADER.unpack_from(self.buf)[0]
        if not await self._fill(end):
            return None
        data = bytes(self.buf[HEADER.size:end])
        del self.buf[:end]
        try:
            return pickle.loads(data)
        except Exception as exc:  # any: unpickling garbage can raise nearly anything
            raise FrameError(f"its output held something that is not a frame "
                             f"({type(exc).__name__})") from None


def _own_cpu() -> float:
    """This process's own CPU seconds so far (not its bots')."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


async def _cancel_once_readable(fd: int, scope: trio.CancelScope) -> None:
    """The run sends nothing while a game is played: anything readable is its end."""
    await trio.lowlevel.wait_readable(fd)
    scope.cancel()


async def _tell_voids(voided: trio.MemoryReceiveChannel[Voided],
                      out: trio.abc.SendStream) -> None:
    """Send the run each void attempt as it comes, so that it is stored even if the run is
    stopped before the game ends.  Shielded until the game's play closes the channel: a stop
    does not end it, so the attempts made after the stop (a retry stops its bots, shielded,
    before it reports) are sent too, and the run reads them as it stops."""
    with trio.CancelScope(shield=True):
        async with voided:
            async for void in voided:
                with suppress(trio.BrokenResourceError):  # the run is gone (kill -9)
                    await out.send_all(frame(("void", void)))


async def serve(fd_in: int, fd_out: int) -> None:
    frames = Frames(trio.lowlevel.FdStream(fd_in))
    out = trio.lowlevel.FdStream(fd_out)
    setup: Setup | None = await frames.receive()
    if setup is None:  # the run was stopped as this process started
        return
    config = TournamentConfig.model_validate_json(setup.config_json)
    path = Path(setup.config_path)
    stderr_dir = None if setup.stderr_dir is None else Path(setup.stderr_dir)
    make_player = bot_factory(config, path, stderr_dir, spin=spin_beside(setup.sharing))
    worker = Worker(config, path, setup.number, make_player, setup.restart_each_game,
                    on_machine=setup.sharing,  # the descriptors are this process's own
                    edition=setup.edition)
    ready = _own_cpu()  # the start-up's: imports and setup
    try:
        while (game := await frames.receive()) is not None:
            assert isinstance(game, ScheduledGame)
            reply: tuple[str, Any] | None = None
            with trio.CancelScope() as stopped:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(_cancel_once_readable, fd_in, stopped)
                    voids, voided = trio.open_memory_channel[Voided](math.inf)
                    async with trio.open_nursery() as telling:  # ends once all are told
                        telling.start_soon(_tell_voids, voided, out)
                        async with voids:
                            try:
                                reply = ("done", await worker.play(game, voids.send_nowait))
                            except OutOfResources as exc:
                                reply = ("short", str(exc))
                    nursery.cancel_scope.cancel()
            if reply is None:  # stopped during the game: it is played again by a later run
                break
            try:  # a game finished is told even if the stop came just after: it is stored
                await out.send_all(frame(reply))
            except trio.BrokenResourceError:  # the run is gone (kill -9): nothing to tell
                break
            if reply[0] == "short" or stopped.cancelled_caught:
                break
    finally:
        with trio.CancelScope(shield=True):
            await worker.aclose()
            with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await out.send_all(frame(("cpu", (_own_cpu(), ready))))


def _leave_to_the_run(signum: int, _frame: object) -> None:
    """A handler, not SIG_IGN: the bots this process starts get the default back."""


def main() -> None:
    # The frames get descriptors of their own; a stray print goes to stderr, not into them.
    fd_in, fd_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    for signum in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(signum, _leave_to_the_run)
    try:
        trio.run(serve, fd_in, fd_out)
    except Exception:
        # A fault of the referee's own: said on stderr, and the run sees the process end.
        traceback.print_exc()
        sys.exit(1)


if __name__ == "__main__":
    main()
