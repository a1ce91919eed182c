"""The Dask executor (`--executor dask`): batches of games played on a Dask cluster.

Each task plays one batch of games inside a worker with the same trio code, limits and fault
policy as the local executor (`Table`), keeping its bot processes across the batch.  The
organiser's machine reports each batch's games as its results arrive, so a lost worker costs
only its unfinished batch: Dask runs that task again elsewhere, and the store, idempotent per
game id, never counts a game twice.  Bots must be reachable by the same command and directory
on every worker (a shared directory, or the same image).

Dask's client blocks.  Its waits hold the run's one trio task, which has nothing else to do
meanwhile (the games run in the workers), under `signals_interrupt`, so that SIGTERM and
SIGHUP stop them as Ctrl-C does.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import trio

from referee.interrupts import signals_interrupt

from ..config import TournamentConfig
from ..entrants import PlayerFactory, bot_factory
from ..schedule import ScheduledGame
from . import Finished, Lost, Report, Voided
from .table import Table

BATCH_SIZE = 8


def play_batch(config_json: str, config_path: str, games: list[ScheduledGame],
               make_player: PlayerFactory | None = None) -> tuple[list[Finished], list[Voided]]:
    """A Dask task: play a batch of games in this worker process, return their results."""
    config = TournamentConfig.model_validate_json(config_json)
    path = Path(config_path)
    finished: list[Finished] = []
    voided: list[Voided] = []

    async def run() -> None:
        # No polling: a Dask worker may run other tasks in its other threads.
        table = Table(config, path, 0, make_player or bot_factory(config, path, polling=False))
        try:
            for game in games:
                done = await table.play(game, voided.append)
                if done is not None:
                    finished.append(done)
        finally:
            await table.aclose()

    trio.run(run)
    return finished, voided


def batches(games: Iterable[ScheduledGame], size: int) -> list[list[ScheduledGame]]:
    """Games in the schedule's order, `size` at a time: a table's seat orders come together,
    so a batch reuses its bot processes, and batches are submitted round by round."""
    it = iter(games)
    return list(iter(lambda: list(itertools.islice(it, size)), []))


class SchedulerError(RuntimeError):
    """The scheduler named by the user cannot be reached (or its address is not one)."""


def connect(client_class: Any, scheduler: str) -> Any:
    """A client of the running cluster at `scheduler`.  Waits as long as Dask's
    `distributed.comm.timeouts.connect` (30 s)."""
    try:
        return client_class(scheduler)
    except Exception as exc:  # a bad address raises ValueError or TypeError, no answer OSError
        raise SchedulerError(f"cannot connect: {exc}") from None


class DaskExecutor:
    """`scheduler` is a running cluster's address; without one (or a `client`) a
    LocalCluster of `workers` processes is started once there are games to play.
    `make_player` (picklable: a module's function) replaces the bot processes."""

    def __init__(self, scheduler: str | None = None, workers: int = 2,
                 batch_size: int = BATCH_SIZE, client: Any = None,
                 make_player: PlayerFactory | None = None) -> None:
        self.scheduler = scheduler
        self.workers = workers
        self.batch_size = batch_size
        self.client = client
        self.make_player = make_player
        self.own_client = client is None  # closed with the executor
        self.cluster: Any = None
        self.config_json = ""
        self.config_path = ""

    @property
    def runs_bots(self) -> bool:
        return self.make_player is None

    async def start(self, config: TournamentConfig, config_path: Path) -> None:
        """Connect to the scheduler first thing, before the store is bound or any bot
        built, so that a wrong address fails at once."""
        try:
            from distributed import Client
        except ImportError:
            raise RuntimeError("the Dask executor needs the dask extra: "
                               "pip install 'modern-art-referee[dask]'") from None
        self.config_json = config.model_dump_json()
        self.config_path = str(config_path.resolve())
        if self.client is None and self.scheduler is not None:
            with signals_interrupt():
                self.client = connect(Client, self.scheduler)

    async def play(self, games: Iterable[ScheduledGame], report: Report) -> None:
        work = batches(games, self.batch_size)
        if not work:
            return
        from distributed import Client, LocalCluster, as_completed

        with signals_interrupt():
            if self.client is None:
                self.cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=self.workers, threads_per_worker=1, processes=True,
                    dashboard_address=None)
                self.client = Client(self.cluster)  # type: ignore[no-untyped-call]
            futures = []
            batch_of: dict[Any, list[ScheduledGame]] = {}
            for batch in work:
                future = self.client.submit(play_batch, self.config_json, self.config_path,
                                            batch, self.make_player, pure=False)
                futures.append(future)
                batch_of[future.key] = batch
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                try:
                    finished, voided = future.result()
                except Exception as exc:  # a batch that failed on its worker, however often
                    report(Lost([g.game_id for g in batch_of[future.key]],
                                f"a batch failed on its worker ({type(exc).__name__}: {exc})"))
                    continue
                for v in voided:
                    report(v)
                for f in finished:
                    report(f)

    async def aclose(self) -> None:
        if self.own_client and self.client is not None:
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None
