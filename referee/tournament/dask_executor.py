"""Running a tournament's games on a Dask cluster (`--executor dask`).

Each task plays one batch of games inside a worker with the same trio code, limits and fault
policy as the local executor (`Table`), keeping its bot processes across the batch.  The
organiser's machine writes each finished game to its one SQLite store as the results arrive,
so a lost worker costs only its unfinished batch: Dask runs that task again elsewhere, and the
store, idempotent per game id, never counts a game twice.  Bots must be reachable by the same
command and directory on every worker (a shared directory, or the same image).  With `until`
the stages are sent one after another, and the look after each decides whether to go on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from referee.interrupts import run_trio

from .config import TournamentConfig
from .runner import (
    Finished,
    Progress,
    RunSummary,
    Staged,
    Table,
    Voided,
    bot_factory,
    build_bots,
    prepare,
    store_finished,
)
from .schedule import ScheduledGame
from .store import Store
from .until import stages


def play_batch(config_json: str, config_path: str,
               games: list[ScheduledGame]) -> tuple[list[Finished], list[Voided]]:
    """A Dask task: play a batch of games in this worker process, return their results."""
    config = TournamentConfig.model_validate_json(config_json)
    path = Path(config_path)
    finished: list[Finished] = []
    voided: list[Voided] = []

    async def run() -> None:
        # No polling: a Dask worker may run other tasks in its other threads.
        table = Table(config, path, 0, bot_factory(config, path, polling=False))
        try:
            for game in games:
                done = await table.play(game, voided.append)
                if done is not None:
                    finished.append(done)
        finally:
            await table.aclose()

    trio.run(run)
    return finished, voided


def batches(games: list[ScheduledGame], size: int) -> list[list[ScheduledGame]]:
    """Games grouped by table so a batch reuses its bot processes."""
    games = sorted(games, key=lambda g: (g.table, g.deal, g.order))
    return [games[i:i + size] for i in range(0, len(games), size)]


class SchedulerError(RuntimeError):
    """The scheduler named by the user cannot be reached (or its address is not one)."""


def connect(client_class: Any, scheduler: str) -> Any:
    """A client of the running cluster at `scheduler`, first thing, before the store is bound
    or any bot built.  Waits as long as Dask's `distributed.comm.timeouts.connect` (30 s)."""
    try:
        return client_class(scheduler)
    except Exception as exc:  # a bad address raises ValueError or TypeError, no answer OSError
        raise SchedulerError(f"cannot connect: {exc}") from None


def run_on_dask(
    config: TournamentConfig,
    config_path: Path,
    store: Store,
    say: Callable[[str], None],
    on_update: Callable[[Progress], None] | None = None,
    scheduler: str | None = None,
    workers: int = 2,
    batch_size: int = 8,
    shard: tuple[int, int] | None = None,
    client: Any = None,
) -> RunSummary:
    """Play the unplayed games on Dask: `scheduler` is a running cluster's address; without
    one a LocalCluster of `workers` processes is started for this run."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RuntimeError("the Dask executor needs the dask extra: "
                           "pip install 'modern-art-referee[dask]'") from None
    cluster = None
    own_client = client is None
    if own_client and scheduler is not None:  # first, so a wrong address fails at once
        client = connect(Client, scheduler)
    left_out: dict[str, str] | None = None  # built before the first stage with games to play
    voids: list[str] = []
    try:
        games, done = prepare(config, config_path, store, shard)
        run = Staged(config, store, games, done, say)
        progress = run.progress
        config_json = config.model_dump_json()
        for stage in stages(config, games):
            if left_out is None and any(g.game_id not in done for g in stage.games):
                left_out = run_trio(build_bots, config, config_path, say)
            playable = run.begin(stage, left_out or {})
            if playable and client is None:
                cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=None)
                client = Client(cluster)  # type: ignore[no-untyped-call]
            futures = [client.submit(play_batch, config_json, str(config_path.resolve()),
                                     batch, pure=False)
                       for batch in batches(playable, batch_size)]
            for future in as_completed(futures) if futures else ():  # type: ignore[no-untyped-call]
                try:
                    finished, voided = future.result()
                except Exception as exc:  # a batch that failed on its worker, however often
                    say(f"a batch failed on its worker ({type(exc).__name__}: {exc}); its "
                        "games are left for the next run")
                    continue
                for v in voided:
                    store.save_void(v.game_id, v.attempt, v.reason)
                    voids.append(f"{v.game_id} (attempt {v.attempt}): {v.reason}")
                    say(f"void: {v.reason}")
                for f in finished:
                    if not store_finished(store, f):
                        continue  # a batch run again after a lost worker: stored already
                    progress.done += 1
                    progress.played += 1
                    progress.faults += sum(len(x) for x in f.result.faults)
                if on_update is not None:
                    on_update(progress)
            if run.end(stage):
                break
    finally:
        if own_client and client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    return run.summary(progress.played, left_out or {}, voids)
