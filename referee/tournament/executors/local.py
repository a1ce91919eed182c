"""The local executor: `workers` workers on this machine.

Each worker takes the next game from one queue and keeps its own players from game to game and
from batch to batch (a run with `until` hands it a batch per stage), until `aclose`: at most
`max_bot_processes` bot processes each (`bot_pool.py`), whose default the workers share.  The
file's bots with two workers or more play in a process per worker (`processes.py`) when a
batch has PROCESSES_FROM games a worker or more: a worker's process costs about half a second
of CPU to start (its imports), which its cheaper waits repay over about that many games
(`benchmarks/README.md`).  An adaptive run's rounds are each small, but its budget is known
from the start: worker processes play every round where the budget holds that many games
(`benchmarks/adaptive_pace.py`).  Smaller
batches, one worker, and in-process players (tests, simulations) play in this trio program.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import partial
from pathlib import Path

from ..config import TournamentConfig, tournament_edition
from ..entrants import PlayerFactory, bot_factory
from ..rounds import budget_games
from ..schedule import ScheduledGame
from ..start_probe import start_fault
from . import Report, from_one_queue
from .processes import ProcessWorkers
from .worker import Worker

PROCESSES_FROM = 60


class LocalExecutor:
    """`make_player(name, worker)` replaces the bot processes (in-process players for tests,
    simulations and benchmarks); `stderr_dir` keeps each bot's stderr; `restart_each_game`
    stops every bot after each game instead of keeping it, to measure what keeping them
    saves; `processes_from`: the games a worker a batch needs to be played in worker
    processes (fewer in tests, which check what the processes do, not what they repay)."""

    def __init__(self, workers: int = 1, make_player: PlayerFactory | None = None,
                 stderr_dir: Path | None = None, restart_each_game: bool = False,
                 processes_from: int = PROCESSES_FROM) -> None:
        self.workers = max(1, workers)
        self.processes_from = processes_from
        self.run_games = 0  # the games the run means to play, where known as it starts
        self.make_player = make_player
        self.stderr_dir = stderr_dir
        self.restart_each_game = restart_each_game
        self.running: list[Worker] = []
        self.config: TournamentConfig | None = None
        self.config_path = Path()
        self.processes = (ProcessWorkers(self.workers, stderr_dir, restart_each_game)
                          if make_player is None and self.workers > 1 else None)

    @property
    def runs_bots(self) -> bool:
        return self.make_player is None

    async def start(self, config: TournamentConfig, config_path: Path) -> None:
        self.config, self.config_path = config, config_path
        if config.schedule == "adaptive":
            self.run_games = budget_games(config) or 0
        if self.processes is not None:
            await self.processes.start(config, config_path)
        # Players in one event loop: the bots' readers may poll only where there is one
        # worker (polling for one table's bot delays the others).
        make_player = self.make_player or bot_factory(config, config_path, self.stderr_dir,
                                                      polling=self.workers <= 1)
        # Read once, for every worker here and in worker processes alike.
        edition = (self.processes.edition if self.processes is not None
                   else tournament_edition(config, config_path))
        assert edition is not None
        self.running = [Worker(config, config_path, number, make_player, self.restart_each_game,
                               sharing=self.workers, edition=edition)
                        for number in range(self.workers)]

    async def start_fault(self, name: str) -> str | None:
        """Tried in this process: its workers' processes run on this machine too."""
        if not self.runs_bots or self.config is None:
            return None  # no bot processes to start
        return await start_fault(self.config, self.config_path, name)

    async def play(self, games: Iterable[ScheduledGame], report: Report) -> None:
        queue = iter(games)
        if self.processes is not None:
            enough = self.processes_from * self.workers
            ahead = list(itertools.islice(queue, enough))
            queue = itertools.chain(ahead, queue)
            if len(ahead) == enough or self.run_games >= enough:
                # the bots kept here give way to the processes'
                for worker in self.running:
                    await worker.aclose()
                await self.processes.play(queue, report)
                return
            await self.processes.aclose()

        async def play_on(worker: Worker, game: ScheduledGame) -> None:
            finished = await worker.play(game, report)
            if finished is not None:
                report(finished)

        await from_one_queue(queue, [partial(play_on, w) for w in self.running])

    async def aclose(self) -> None:
        if self.processes is not None:
            await self.processes.aclose()
        for worker in self.running:
            await worker.aclose()
