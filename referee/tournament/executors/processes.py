"""Local workers in processes of their own: how the local executor plays bots with two
workers or more.

In one process the workers share one thread: a table's reply waits while another's is handled,
and every wait goes through trio's scheduler, as no reader may hold a loop that other tables
share.  A process per worker lets each table's reader poll for a quick bot and sleep in poll(2)
as a lone table does, and the machine's cores run the referees as they run the bots; on two
cores the Python samples play about 1.7 times as many games a second for a third less referee
CPU a decision (`benchmarks/README.md`, "the referee's own CPU").

Each process (`worker_process.py`) keeps its bots from game to game and is handed one game at a
time; this process stores each game as it comes, so the store has one owner and a game is
stored only once finished.  Stopping the run (Ctrl-C, a time budget, an error) closes every
worker's stdin: it stops its game and its bots and exits, and is started afresh if games
are left.  A worker process that ends unasked stops the run, keeping every game stored.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterable
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import Any, NoReturn

import trio

import referee
from referee.bots.errors import RESOURCE_ERRNOS, want_of_resources
from referee.game.edition import Edition
from referee.match.game import OutOfResources, RefereeError

from ..budget import BudgetSpent
from ..config import TournamentConfig, tournament_edition
from ..schedule import ScheduledGame
from . import Report, from_one_queue
from .worker_process import FrameError, Frames, Setup, frame

# Seconds a worker process is given to stop its bots and exit once its stdin is closed: each
# kept bot's goodbye, SIGTERM and SIGKILL may take ProcessLimits' goodbye_grace + term_grace +
# reap_within (6 s), one after another; most bots leave at the goodbye.
EXIT_WITHIN = 60.0
# How a worker process starts: the referee this one is, found by its folder (argv[1]) rather
# than by PYTHONPATH, which the worker's bots would inherit.
BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); "
        "from referee.tournament.executors.worker_process import main; main()")


def _how(returncode: int | None) -> str:
    if returncode is None:
        return "still running: killed"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


class WorkerFailed(RefereeError, RuntimeError):
    """A worker process ended without being asked to."""


class _Process:
    """One worker process: its pipes and what it reported of its own CPU."""

    def __init__(self, process: trio.Process, number: int) -> None:
        self.process = process
        self.number = number
        assert process.stdin is not None and process.stdout is not None
        self.stdin = process.stdin
        self.stdout = process.stdout
        self.frames = Frames(process.stdout)
        self.cpu = (0.0, 0.0)  # its own CPU seconds, and those of its start-up
        self.unstored: Exception | None = None  # what `report` raised as it stopped

    async def stop(self, report: Report | None) -> None:
        """Close its stdin, read what it still says and wait for its exit, killing it if it
        takes longer than EXIT_WITHIN.  Its void attempts and a game it finished as the stop
        came are reported all the same (a stop saves what was played), and its CPU kept.  An
        error `report` raises (the store failed) ends the reports and is kept in `unstored`;
        BudgetSpent is not one: the outcome was stored, and the run is stopping already."""
        with trio.CancelScope(shield=True):
            await self.stdin.aclose()
            with trio.move_on_after(EXIT_WITHIN), suppress(FrameError):  # then killed
                while (said := await self.frames.receive()) is not None:
                    kind, what = said
                    if kind == "cpu":
                        self.cpu = what
                    elif kind in ("void", "done") and what is not None and report is not None:
                        try:
                            report(what)
                        except BudgetSpent:
                            pass
                        except Exception as exc:
                            self.unstored, report = exc, None
                await self.process.wait()
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
            await self.stdout.aclose()


class ProcessWorkers:
    """`workers` worker processes playing the file's bots; `stderr_dir` keeps each bot's
    stderr (`{name}.w{worker}.stderr.log`, as in one process); `restart_each_game` stops
    every bot after each game.  `cpu`, `startup_cpu`: the workers' own CPU seconds (not
    their bots'), and those of their start-ups (imports, setup), once they have stopped."""

    boot = BOOT  # (a benchmark switches polling off in it)

    def __init__(self, workers: int, stderr_dir: Path | None = None,
                 restart_each_game: bool = False) -> None:
        self.workers = workers
        self.stderr_dir = stderr_dir
        self.restart_each_game = restart_each_game
        self.config_json = ""
        self.config_path = ""
        self.edition: Edition | None = None
        self.running: dict[int, _Process] = {}
        self.cpu = 0.0
        self.startup_cpu = 0.0

    @property
    def runs_bots(self) -> bool:
        return True

    async def start(self, config: TournamentConfig, config_path: Path) -> None:
        self.config_json = config.model_dump_json()
        self.config_path = str(config_path.resolve())
        # Read here, where a file that cannot be read is one line, and sent to each worker.
        self.edition = tournament_edition(config, config_path)

    async def _process(self, number: int, report: Report) -> _Process:
        """Worker `number`'s process, started with its setup if it is not running."""
        running = self.running.get(number)
        if running is not None:
            return running
        # The same referee as this one, wherever it was imported from; in a session of its
        # own, so that Ctrl-C at the terminal reaches this process only, which stops it.
        package_root = str(Path(referee.__file__).resolve().parent.parent)
        try:
            process = await trio.lowlevel.open_process(
                [sys.executable, "-c", self.boot, package_root], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            why = f"cannot start worker {number}'s process: {exc.strerror or exc}"
            if want_of_resources(exc) is not None or exc.errno in RESOURCE_ERRNOS:
                raise OutOfResources(why) from exc
            raise WorkerFailed(why) from exc
        running = self.running[number] = _Process(process, number)
        assert self.edition is not None, "start() comes first"
        setup = Setup(self.config_json, self.config_path, self.edition, number, self.workers,
                      None if self.stderr_dir is None else str(self.stderr_dir),
                      self.restart_each_game)
        await self._send(running, setup, report)
        return running

    async def _send(self, worker: _Process, what: object, report: Report) -> None:
        """Send a worker a frame; a worker gone is WorkerFailed."""
        try:
            await worker.stdin.send_all(frame(what))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            await self._lost(worker, "before its next game", report)

    async def _play_one(self, number: int, game: ScheduledGame, *, report: Report) -> None:
        """Play `game` on worker `number`, reporting its void attempts and its end."""
        worker = await self._process(number, report)
        await self._send(worker, game, report)
        while True:
            try:
                said: tuple[str, Any] = await worker.frames.receive() or ("ended", None)
            except FrameError as exc:
                await self._lost(worker, f"during game {game.game_id}: {exc}", report,
                                 stopped=True)
            kind, what = said
            if kind == "void":
                report(what)
            elif kind == "done":
                if what is not None:
                    report(what)
                return
            elif kind == "short":
                raise OutOfResources(what)
            else:  # it is ending (its last word is its CPU), or has ended
                if kind == "cpu":
                    worker.cpu = what
                await self._lost(worker, f"during game {game.game_id}", report)

    async def _lost(self, worker: _Process, when: str, report: Report,
                    stopped: bool = False) -> NoReturn:
        """A worker process ended unasked, or (`stopped`) was stopped for what it wrote:
        raise WorkerFailed, saying how."""
        del self.running[worker.number]
        await worker.stop(report)
        self._count([worker])
        how = "was stopped" if stopped else "ended"
        raise WorkerFailed(f"worker {worker.number}'s process {how} {when} "
                           f"({_how(worker.process.returncode)}); the games stored are kept: "
                           "run again to resume")

    async def play(self, games: Iterable[ScheduledGame], report: Report) -> None:
        try:
            await from_one_queue(games, [partial(self._play_one, n, report=report)
                                         for n in range(self.workers)])
        except BaseException:  # stopped, or failed: no worker is left playing
            await self._stop_all(report)
            raise

    def _count(self, stopped: list[_Process]) -> None:
        """Add stopped workers' CPU; raise what `report` raised as they stopped (the store
        failed: a stop that loses games says so, rather than what stopped it)."""
        self.cpu += sum(w.cpu[0] for w in stopped)
        self.startup_cpu += sum(w.cpu[1] for w in stopped)
        for worker in stopped:
            if worker.unstored is not None:
                raise worker.unstored

    async def _stop_all(self, report: Report | None) -> None:
        """Stop every worker process (a stopped game of theirs is not reported; what they
        voided or finished before is, to `report`)."""
        with trio.CancelScope(shield=True):
            async with trio.open_nursery() as nursery:
                for worker in self.running.values():
                    nursery.start_soon(worker.stop, report)
            stopped = list(self.running.values())
            self.running.clear()
        self._count(stopped)

    async def aclose(self) -> None:
        await self._stop_all(None)  # between batches: nothing is in play
