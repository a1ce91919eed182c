"""Executors play the games they are given and report each one finished or void, the local
one and the Dask one alike: a run's store, progress and summary do not depend on which played.

The players are in-process (the executors' `make_player` hook): "broken" fails inside the
referee at its first decision, so every game it sits in is void, three attempts each."""

from __future__ import annotations

import errno
import random
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.game import Action, Decision
from referee.match.game import OutOfResources
from referee.match.player import Player
from referee.match.policy_player import PolicyPlayer, random_player
from referee.tournament.config import TournamentConfig
from referee.tournament.executors import Executor, Finished, Outcome, Voided
from referee.tournament.executors.dask import DaskExecutor
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.executors.worker import MAX_ATTEMPTS
from referee.tournament.progress import Progress
from referee.tournament.schedule import ScheduledGame, schedule
from referee.tournament.session import run_tournament
from referee.tournament.start_probe import NotTried
from referee.tournament.store import open_store

from ..processes import BOT_PYTHON

# 4 tables of three, 3 rotations each: "broken" sits in 3 tables, 9 games
CONFIG = TournamentConfig.model_validate({
    "name": "executors", "seed": 3, "table_size": 3, "seat_orders": "rotations",
    "bots": [{"name": n, "command": "unused"} for n in ("a", "b", "c", "broken")],
})
GAMES = schedule(CONFIG)
WHOLE = [g for g in GAMES if "broken" not in g.seats]
BROKEN = [g for g in GAMES if "broken" in g.seats]


def fails(decision: Decision, view: dict[str, Any], rng: random.Random) -> Action:
    raise RuntimeError("the referee's own player failed")


def make(name: str, table: int) -> Player:
    """A module's function, so that Dask can send it to its workers."""
    if name == "broken":
        return PolicyPlayer(name, fails)
    return random_player(name, zlib.crc32(name.encode()))


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A Dask cluster in this process: its worker plays the in-process players."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None,
                                       scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def executor_named(name: str, request: pytest.FixtureRequest) -> Executor:
    if name == "local":
        return LocalExecutor(2, make)
    return DaskExecutor(client=request.getfixturevalue("client"), batch_size=4,
                        make_player=make)


async def play(executor: Executor, games: Sequence[ScheduledGame]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    await executor.start(CONFIG, Path("executors.toml"))
    try:
        await executor.play(games, outcomes.append)
    finally:
        await executor.aclose()
    return outcomes


@pytest.mark.parametrize("name", ["local", "dask"])
def test_an_executor_reports_every_game_finished_or_void(name: str,
                                                         request: pytest.FixtureRequest) -> None:
    """Every game comes back once as finished, with its seats and seed, or as void in each of
    its attempts, with the referee's reason; nothing else is reported."""
    outcomes = trio.run(play, executor_named(name, request), GAMES)
    finished = {o.game_id: o for o in outcomes if isinstance(o, Finished)}
    voided = [o for o in outcomes if isinstance(o, Voided)]
    assert len(finished) + len(voided) == len(outcomes)
    assert sorted(finished) == sorted(g.game_id for g in WHOLE)
    for game in WHOLE:
        f = finished[game.game_id]
        assert (f.seats, f.seed, f.attempts) == (list(game.seats), game.seed, 1)
        assert list(f.result.names) == list(game.seats)
    assert sorted((v.game_id, v.attempt) for v in voided) == sorted(
        (g.game_id, attempt) for g in BROKEN for attempt in range(1, MAX_ATTEMPTS + 1))
    assert all("RuntimeError: the referee's own player failed" in v.reason for v in voided)


def test_both_executors_play_the_same_games_to_the_same_results(client: Any) -> None:
    local = trio.run(play, LocalExecutor(2, make), WHOLE)
    dask = trio.run(play, DaskExecutor(client=client, batch_size=4, make_player=make), WHOLE)

    def results(outcomes: list[Outcome]) -> dict[str, tuple[Any, ...]]:
        return {o.game_id: (o.result.money, o.result.ranks) for o in outcomes
                if isinstance(o, Finished)}

    assert results(local) == results(dask) and len(results(local)) == len(WHOLE)


@pytest.mark.parametrize("name", ["local", "dask"])
def test_a_run_stores_counts_and_says_each_void_attempt(name: str, tmp_path: Path,
                                                       request: pytest.FixtureRequest) -> None:
    """On either executor: each void attempt is stored, counted in the progress and the
    summary, and said (played again, then given up); the other games are stored."""
    said: list[str] = []
    seen: list[Progress] = []
    store = open_store(tmp_path / "t.db")
    try:
        summary = trio.run(run_tournament, CONFIG, tmp_path / "t.toml", store,
                           executor_named(name, request), said.append, seen.append)
        stored, voids = store.count(), store.voids()
    finally:
        store.close()
    attempts = len(BROKEN) * MAX_ATTEMPTS
    assert (summary.played, len(summary.voids), stored, len(voids)) == (
        len(WHOLE), attempts, len(WHOLE), attempts)
    assert (seen[-1].played, seen[-1].voids) == (len(WHOLE), attempts)
    again = [m for m in said if m.startswith("void: ") and m.endswith("; playing it again")]
    given_up = [m for m in said if m.startswith("void: ") and m.endswith("; giving up")]
    assert (len(again), len(given_up)) == (len(BROKEN) * (MAX_ATTEMPTS - 1), len(BROKEN))


def starved(decision: Decision, view: dict[str, Any], rng: random.Random) -> Action:
    raise OSError(errno.EMFILE, "Too many open files")


def make_starved(name: str, table: int) -> Player:
    """As `make`, but "broken" is the referee out of descriptors at its first decision."""
    return PolicyPlayer(name, starved) if name == "broken" else make(name, table)


@pytest.mark.parametrize("name", ["local", "dask"])
def test_a_referee_short_of_resources_for_good_stops_the_run(
        name: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """On either executor: a game the referee cannot play for want of its own descriptors is
    void three times, stored as void, and then the run stops (OutOfResources) instead of
    voiding game after game; no game charges a bot with it."""
    executor: Executor = (LocalExecutor(1, make_starved) if name == "local" else DaskExecutor(
        client=request.getfixturevalue("client"), batch_size=4, make_player=make_starved))
    store = open_store(tmp_path / "t.db")
    try:
        with pytest.raises(OutOfResources, match=r"void 3 times; the last time: \[Errno 24\] "
                                                 "Too many open files"):
            trio.run(run_tournament, CONFIG, tmp_path / "t.toml", store, executor,
                     lambda _: None)
        voids, results = store.voids(), list(store.results())
    finally:
        store.close()
    assert [attempt for _, attempt, _ in voids] == [1, 2, 3]
    assert all("OSError: [Errno 24] Too many open files" in reason for _, _, reason in voids)
    assert len({game_id for game_id, _, _ in voids}) == 1
    assert all("broken" not in r.names for r in results)


def test_the_dask_executor_tries_a_bots_start_on_a_worker(client: Any) -> None:
    """An adaptive run tries a bot that never started before seating it again; on Dask the
    try is a task on a worker, where its games would start it (what it lacked is mended on
    the workers, not on the organiser's machine), and says why it failed there."""
    distributed = pytest.importorskip("distributed")
    script = Path(__file__).resolve().parents[1] / "scripted_bots" / "crash_at_start.py"
    config = TournamentConfig.model_validate({
        "name": "probe", "seed": 3, "table_size": 3,
        "bots": [{"name": n, "command": f"{BOT_PYTHON} {script}"} for n in ("a", "b", "c")]})

    async def try_start() -> str | None:
        executor = DaskExecutor(client=client)
        await executor.start(config, Path("probe.toml"))
        try:
            return await executor.start_fault("a")
        finally:
            await executor.aclose()

    with distributed.get_task_stream(client) as tasks:
        reason = trio.run(try_start)
    assert reason is not None and reason.startswith(
        "closed its output before its hello; exit status 3"), reason
    assert [t["key"].startswith("start_in_worker") for t in tasks.data] == [True]


def test_a_start_probe_on_a_cluster_with_no_workers_gives_up_in_one_line() -> None:
    """A Dask cluster with no workers never runs the start probe's task: the try waits no
    longer than the bot's start-up time and `probe_wait`, then says so in one line (the run
    notes it and seats the bot as any), where it used to wait for ever."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None,
                                       scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
    client = distributed.Client(cluster)
    config = CONFIG.model_copy(update={"limits": CONFIG.limits.model_copy(
        update={"startup_time": 0.1})})

    async def try_start() -> None:
        executor = DaskExecutor(client=client, probe_wait=0.2)
        await executor.start(config, Path("probe.toml"))
        try:
            with pytest.raises(NotTried) as raised:
                await executor.start_fault("a")
        finally:
            await executor.aclose()
        assert str(raised.value) == ("no worker of the cluster ran its task within 0.3 s: it "
                                     "has no workers, or none free")

    try:
        trio.run(try_start)
    finally:
        client.close()
        cluster.close()
