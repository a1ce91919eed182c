"""The local executor: `workers` workers on this machine, in one trio program.

Each worker takes the next game from one queue and keeps its own players from game to game and
from batch to batch (a run with `until` hands it a batch per stage), until `aclose`: at most
`max_bot_processes` bot processes each (`bot_pool.py`), whose default the workers share.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import trio

from ..config import TournamentConfig
from ..entrants import PlayerFactory, bot_factory
from ..schedule import ScheduledGame
from . import Report
from .worker import Worker


class LocalExecutor:
    """`make_player(name, worker)` replaces the bot processes (in-process players for tests,
    simulations and benchmarks); `stderr_dir` keeps each bot's stderr; `restart_each_game`
    stops every bot after each game instead of keeping it, to measure what keeping them
    saves."""

    def __init__(self, workers: int = 1, make_player: PlayerFactory | None = None,
                 stderr_dir: Path | None = None, restart_each_game: bool = False) -> None:
        self.workers = max(1, workers)
        self.make_player = make_player
        self.stderr_dir = stderr_dir
        self.restart_each_game = restart_each_game
        self.running: list[Worker] = []

    @property
    def runs_bots(self) -> bool:
        return self.make_player is None

    async def start(self, config: TournamentConfig, config_path: Path) -> None:
        # A single worker may poll for a quick bot's reply; workers that share the event loop
        # may not (polling for one delays the others).
        make_player = self.make_player or bot_factory(config, config_path, self.stderr_dir,
                                                      polling=self.workers <= 1)
        self.running = [Worker(config, config_path, number, make_player, self.restart_each_game,
                               sharing=self.workers)
                        for number in range(self.workers)]

    async def play(self, games: Iterable[ScheduledGame], report: Report) -> None:
        failed: list[Exception] = []

        async def work(worker: Worker, queue: Iterator[ScheduledGame],
                       nursery: trio.Nursery) -> None:
            try:
                for game in queue:
                    finished = await worker.play(game, report)
                    if finished is not None:
                        report(finished)
            except Exception as exc:  # the store failed (a full disk), or the referee is
                # short of descriptors (OutOfResources): every worker stops
                failed.append(exc)
                nursery.cancel_scope.cancel()

        queue = iter(games)
        async with trio.open_nursery() as nursery:
            for worker in self.running:
                nursery.start_soon(work, worker, queue, nursery)
        if failed:
            raise failed[0]

    async def aclose(self) -> None:
        for worker in self.running:
            await worker.aclose()
