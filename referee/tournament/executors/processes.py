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

import os
import signal
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import trio

import referee
from referee.match.game import OutOfResources

from ..config import TournamentConfig
from ..schedule import ScheduledGame
from . import Report
from .worker_process import Frames, Setup, frame

# Seconds a worker process is given to stop its bots and exit once its stdin is closed: a bot's
# goodbye, SIGTERM and SIGKILL take ProcessLimits' goodbye_grace + term_grace + reap_within.
EXIT_WITHIN = 10.0


def _how(returncode: int | None) -> str:
    if returncode is None:
        return "still running: killed"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


class WorkerFailed(RuntimeError):
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

    async def stop(self) -> None:
        """Close its stdin, read what it still says (its CPU) and wait for its exit, killing
        it if it takes longer than EXIT_WITHIN."""
        with trio.CancelScope(shield=True):
            await self.stdin.aclose()
            with trio.move_on_after(EXIT_WITHIN):
                while (said := await self.frames.receive()) is not None:
                    if said[0] == "cpu":
                        self.cpu = said[1]
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

    # A worker's command line (a benchmark runs it with polling switched off).
    command = [sys.executable, "-m", "referee.tournament.executors.worker_process"]

    def __init__(self, workers: int, stderr_dir: Path | None = None,
                 restart_each_game: bool = False) -> None:
        self.workers = workers
        self.stderr_dir = stderr_dir
        self.restart_each_game = restart_each_game
        self.config_json = ""
        self.config_path = ""
        self.running: dict[int, _Process] = {}
        self.cpu = 0.0
        self.startup_cpu = 0.0

    @property
    def runs_bots(self) -> bool:
        return True

    async def start(self, config: TournamentConfig, config_path: Path) -> None:
        self.config_json = config.model_dump_json()
        self.config_path = str(config_path.resolve())

    async def _process(self, number: int) -> _Process:
        """Worker `number`'s process, started with its setup if it is not running."""
        running = self.running.get(number)
        if running is not None:
            return running
        env = dict(os.environ)
        # The same referee as this one, wherever it was imported from.
        package_root = str(Path(referee.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root,
                                                           env.get("PYTHONPATH")]))
        process = await trio.lowlevel.open_process(self.command, stdin=subprocess.PIPE,
                                                   stdout=subprocess.PIPE, env=env)
        running = self.running[number] = _Process(process, number)
        setup = Setup(self.config_json, self.config_path, number, self.workers,
                      None if self.stderr_dir is None else str(self.stderr_dir),
                      self.restart_each_game)
        await running.stdin.send_all(frame(setup))
        return running

    async def _play_one(self, number: int, game: ScheduledGame, report: Report) -> None:
        """Play `game` on worker `number`, reporting its void attempts and its end."""
        worker = await self._process(number)
        await worker.stdin.send_all(frame(game))
        while True:
            said: tuple[str, Any] = await worker.frames.receive() or ("ended", None)
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
                with trio.move_on_after(EXIT_WITHIN):
                    await worker.process.wait()
                del self.running[number]
                await worker.stop()
                raise WorkerFailed(f"worker {number}'s process ended during game "
                                   f"{game.game_id} ({_how(worker.process.returncode)}); "
                                   "the games stored are kept: run again to resume")

    async def play(self, games: Iterable[ScheduledGame], report: Report) -> None:
        failed: list[Exception] = []

        async def work(number: int, queue: Iterator[ScheduledGame],
                       nursery: trio.Nursery) -> None:
            try:
                for game in queue:
                    await self._play_one(number, game, report)
            except Exception as exc:  # the store failed, the referee is short of its own
                # resources, or a worker process ended: every worker stops
                failed.append(exc)
                nursery.cancel_scope.cancel()

        queue = iter(games)
        try:
            async with trio.open_nursery() as nursery:
                for number in range(self.workers):
                    nursery.start_soon(work, number, queue, nursery)
        except BaseException:
            await self._stop_all()
            raise
        if failed:
            await self._stop_all()
            raise failed[0]

    async def _stop_all(self) -> None:
        """Stop every worker process (a stopped game of theirs is not reported)."""
        with trio.CancelScope(shield=True):
            async with trio.open_nursery() as nursery:
                for worker in self.running.values():
                    nursery.start_soon(worker.stop)
            self.cpu += sum(w.cpu[0] for w in self.running.values())
            self.startup_cpu += sum(w.cpu[1] for w in self.running.values())
            self.running.clear()

    async def aclose(self) -> None:
        await self._stop_all()
