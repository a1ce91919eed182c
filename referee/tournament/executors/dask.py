"""The Dask executor (`--executor dask`): batches of games played on a Dask cluster.

Each task plays one batch of games inside a worker with the same trio code, limits and fault
policy as the local executor (`Worker`), keeping its bot processes across the batch.  The
organiser's machine stores each batch's games as its result arrives and then releases it, so
that the cluster forgets it: a worker lost later costs only the batches it had not finished,
which Dask runs again elsewhere, and the run says which games and why (`Requeued`, from the
scheduler's "remove-worker" events).  The store, idempotent per game id, never counts a game
twice.  An entrant that never started is tried again in a task too (`start_in_worker`), where
its games would run.  Bots must be reachable by the same command and directory on every
worker (a shared directory, or the same image).

Dask's client blocks.  Its waits hold the run's one trio task, which has nothing else to do
meanwhile (the games run in the workers), under `signals_interrupt`, so that SIGTERM and
SIGHUP stop them as Ctrl-C does.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from referee.interrupts import signals_interrupt
from referee.match.game import OutOfResources

from ..config import TournamentConfig
from ..entrants import PlayerFactory, bot_factory
from ..schedule import ScheduledGame
from ..start_probe import NotTried, start_fault
from . import Finished, Lost, Report, Requeued, Voided
from .worker import Worker

BATCH_SIZE = 8
WATCH = 0.5  # seconds between looks for lost workers while no batch finishes
# Seconds, beyond the bot's own start-up time, that the start probe's task is waited for.  A
# cluster with no worker (none joined yet, or all lost) never runs it: the run does not wait
# on it for ever, but plays on without the try, as its games wait for workers to come.
PROBE_WAIT = 30.0


@dataclass
class Batch:
    """What a task played: its finished games, its void attempts, and, if the referee ran
    short of its own resources there for good, why (the rest of the batch was not played)."""

    finished: list[Finished]
    voided: list[Voided]
    short: str | None = None


def threads_here() -> int:
    """The tasks this Dask worker process runs at once, which share its descriptors."""
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        return 1


def play_batch(config_json: str, config_path: str, games: list[ScheduledGame],
               make_player: PlayerFactory | None = None) -> Batch:
    """A Dask task: play a batch of games in this worker process, return their results."""
    config = TournamentConfig.model_validate_json(config_json)
    path = Path(config_path)
    batch = Batch([], [])

    async def run() -> None:
        # No polling: a Dask worker may run other tasks in its other threads.
        worker = Worker(config, path, 0, make_player or bot_factory(config, path, polling=False),
                        sharing=threads_here())
        try:
            for game in games:
                done = await worker.play(game, batch.voided.append)
                if done is not None:
                    batch.finished.append(done)
        except OutOfResources as exc:
            batch.short = str(exc)
        finally:
            await worker.aclose()

    trio.run(run)
    return batch


def start_in_worker(config_json: str, config_path: str, name: str) -> str | None:
    """A Dask task: start entrant `name`'s bot once in this worker, read its hello, close
    it: why it failed to start, or None (`start_probe.py`)."""
    config = TournamentConfig.model_validate_json(config_json)
    return trio.run(start_fault, config, Path(config_path), name)


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
    `make_player` (picklable: a module's function) replaces the bot processes; `probe_wait`:
    the seconds beyond a bot's start-up time that a start probe's task is waited for."""

    def __init__(self, scheduler: str | None = None, workers: int = 2,
                 batch_size: int = BATCH_SIZE, client: Any = None,
                 make_player: PlayerFactory | None = None,
                 probe_wait: float = PROBE_WAIT) -> None:
        self.scheduler = scheduler
        self.workers = workers
        self.batch_size = batch_size
        self.client = client
        self.make_player = make_player
        self.probe_wait = probe_wait
        self.stderr_dir: Path | None = None  # the bots' stderr stays on the cluster's workers
        self.startup_time = 0.0  # the file's, once started
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
        self.startup_time = config.limits.startup_time
        if self.client is None and self.scheduler is not None:
            with signals_interrupt():
                self.client = connect(Client, self.scheduler)

    def _connected(self) -> Any:
        """The client, with a LocalCluster started first if there is none (call it under
        `signals_interrupt`: it blocks)."""
        if self.client is None:
            from distributed import Client, LocalCluster

            # No dashboard; the scheduler's HTTP routes (health, metrics) on a free port of
            # this machine only, not on 8787, where a second cluster would print a warning
            # that the port is taken.
            self.cluster = LocalCluster(
                n_workers=self.workers, threads_per_worker=1, processes=True,
                dashboard_address=None,
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
            self.client = Client(self.cluster)
        return self.client

    async def start_fault(self, name: str) -> str | None:
        """Tried in a task on a worker, where the games would start it.  A task that fails
        there (its worker lost again and again, a cluster that cannot read it), or that no
        worker runs within the bot's start-up time and `probe_wait` (a cluster with no
        workers), is no verdict on the bot: NotTried."""
        if not self.runs_bots:
            return None
        within = self.startup_time + self.probe_wait
        with signals_interrupt():
            future = self._connected().submit(start_in_worker, self.config_json,
                                              self.config_path, name, pure=False)
            try:
                reason: str | None = future.result(timeout=within)
            except Exception as exc:
                if not future.done():  # the wait timed out (not an error raised by the task)
                    future.cancel()  # not run later, when a worker joins
                    raise NotTried(f"no worker of the cluster ran its task within {within:g} "
                                   "s: it has no workers, or none free") from None
                said = " ".join(str(exc).split())  # Dask wraps its messages
                raise NotTried(f"its task failed on the cluster: {type(exc).__name__}: "
                               f"{said}") from None
            finally:
                future.release()
        return reason

    async def play(self, games: Iterable[ScheduledGame], report: Report) -> None:
        work = batches(games, self.batch_size)
        if not work:
            return
        with signals_interrupt():
            self._connected()
            losses = WorkerLosses(self.client)
            pending: dict[str, tuple[Any, list[ScheduledGame]]] = {}
            try:
                for batch in work:
                    future = self.client.submit(play_batch, self.config_json,
                                                self.config_path, batch, self.make_player,
                                                pure=False)
                    pending[future.key] = (future, batch)
                while pending:
                    done = self._first_done(pending)
                    for requeued in losses.since(pending):
                        report(requeued)
                    for key in done:
                        future, batch = pending.pop(key)
                        try:
                            self._report(future, batch, report)
                        finally:
                            future.release()  # the cluster forgets it: never played again
            finally:
                losses.close()
                if pending:
                    self.client.cancel([f for f, _ in pending.values()])

    @staticmethod
    def _first_done(pending: dict[str, tuple[Any, list[ScheduledGame]]]) -> list[str]:
        """The keys of the batches finished (or failed) now, waiting WATCH seconds at most."""
        from distributed import wait

        futures = [f for f, _ in pending.values()]
        try:
            wait(futures, timeout=WATCH, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        return [f.key for f in futures if f.done()]

    @staticmethod
    def _report(future: Any, batch: list[ScheduledGame], report: Report) -> None:
        """Report one batch's games; raise OutOfResources if it stopped for want of the
        referee's resources, after its games finished before that are stored."""
        try:
            played: Batch = future.result()
        except Exception as exc:  # a batch that failed on its worker, however often
            report(Lost([g.game_id for g in batch],
                        f"a batch failed on its worker ({type(exc).__name__}: {exc})"))
            return
        for v in played.voided:
            report(v)
        for f in played.finished:
            report(f)
        if played.short is not None:
            raise OutOfResources(played.short)

    async def aclose(self) -> None:
        if self.own_client and self.client is not None:
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


class WorkerLosses:
    """The scheduler's "remove-worker" events while a run waits, as the games they send
    elsewhere: those of the batches the lost worker was playing or held unsent."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.events: deque[tuple[float, dict[str, Any]]] = deque()  # from Dask's thread
        client.subscribe_topic("all", self.events.append)

    def since(self, pending: dict[str, tuple[Any, list[ScheduledGame]]]) -> list[Requeued]:
        """The losses since the last call that cost batches still `pending`."""
        found = []
        while self.events:
            _, event = self.events.popleft()
            if not isinstance(event, dict) or event.get("action") != "remove-worker":
                continue
            keys = set(event.get("processing-tasks", ())) | set(
                event.get("lost-computed-tasks", ()))
            ids = [g.game_id for key in sorted(keys) if key in pending
                   for g in pending[key][1]]
            if ids:
                how = "left the cluster" if event.get("expected") else "was lost"
                found.append(Requeued(sorted(ids), f"worker {event.get('worker')} {how} "
                                                   "before these games were stored"))
        return found

    def close(self) -> None:
        self.client.unsubscribe_topic("all")
