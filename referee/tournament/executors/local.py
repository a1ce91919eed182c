"""The local executor: `workers` tables on this machine, in one trio program.

Each table takes the next game from one queue and keeps its own players from game to game and
from batch to batch (a run with `until` hands it a batch per stage), until `aclose`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import trio

from ..config import TournamentConfig
from ..entrants import PlayerFactory, bot_factory
from ..schedule import ScheduledGame
from . import Report
from .table import Table


class LocalExecutor:
    """`make_player(name, table)` replaces the bot processes (in-process players for tests,
    simulations and benchmarks); `stderr_dir` keeps each bot's stderr; `restart_each_game`
    stops every bot after each game instead of keeping it, to measure what keeping them
    saves."""

    def __init__(self, workers: int = 1, make_player: PlayerFactory | None = None,
                 stderr_dir: Path | None = None, restart_each_game: bool = False) -> None:
        self.workers = max(1, workers)
        self.make_player = make_player
        self.stderr_dir = stderr_dir
        self.restart_each_game = restart_each_game
        self.tables: list[Table] = []

    @property
    def runs_bots(self) -> bool:
        return self.make_player is None

    async def start(self, config: TournamentConfig, config_path: Path) -> None:
        # A single table may poll for a quick bot's reply; tables that share the event loop
        # may not (polling for one delays the others).
        make_player = self.make_player or bot_factory(config, config_path, self.stderr_dir,
                                                      polling=self.workers <= 1)
        self.tables = [Table(config, config_path, number, make_player, self.restart_each_game)
                       for number in range(self.workers)]

    async def play(self, games: Iterable[ScheduledGame], report: Report) -> None:
        failed: list[Exception] = []

        async def work(table: Table, queue: Iterator[ScheduledGame],
                       nursery: trio.Nursery) -> None:
            try:
                for game in queue:
                    finished = await table.play(game, report)
                    if finished is not None:
                        report(finished)
            except Exception as exc:  # the store failed (a full disk), say: every table stops
                failed.append(exc)
                nursery.cancel_scope.cancel()

        queue = iter(games)
        async with trio.open_nursery() as nursery:
            for table in self.tables:
                nursery.start_soon(work, table, queue, nursery)
        if failed:
            raise failed[0]

    async def aclose(self) -> None:
        for table in self.tables:
            await table.aclose()
