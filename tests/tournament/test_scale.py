"""Beyond one machine: the Dask executor and sharded runs give the same tournament."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import tomllib
from collections import Counter
from functools import partial
from pathlib import Path

import pytest
import trio

pytest.importorskip("distributed")

from distributed import Client, LocalCluster, get_task_stream

from referee.files import write_whole
from referee.tournament.config import load_tournament
from referee.tournament.executors import Finished, Outcome
from referee.tournament.executors.dask import DaskExecutor
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.schedule import schedule
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

from .. import in_process
from ..processes import BOT_PYTHON
from .held_players import held_player

ROOT = Path(__file__).resolve().parents[2]
FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"


def write_config(folder: Path, bots: int, deals: int) -> Path:
    lines = ['name = "scale"', "seed = 4", "table_size = 3", 'seat_orders = "rotations"',
             f"deals = {deals}"]
    for i in range(bots):
        lines += ["[[bots]]", f'name = "b{i}"', f'command = "{BOT_PYTHON} {FIRST_LEGAL}"']
    path = folder / "t.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def referee(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def ids(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        return [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id")]


def board(db: Path, cwd: Path) -> list[dict[str, object]]:
    out = in_process.referee("leaderboard", str(db), "--format", "json", cwd=cwd)
    rows = json.loads(out.stdout)["entrants"]
    for r in rows:
        del r["response_ms"]
    return rows


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file of the 4 bots' 2 deals (24 games) whose stores the module plays once (`whole`,
    `shards`).  Tests only read those stores; one that changes a store changes its own copy
    (`copy_store`)."""
    return write_config(tmp_path_factory.mktemp("played"), bots=4, deals=2)


def play(config: Path, name: str, *more: str) -> Path:
    """The store `name` beside `config`, played in-process with `more` options, closed."""
    db = config.parent / name
    out = in_process.referee("tournament", "run", str(config), "--db", str(db), "-q", *more,
                             cwd=config.parent)
    assert out.returncode == 0, out.stderr
    assert not list(config.parent.glob(f"{name}-*")), "left open: a copy would lack games"
    return db


@pytest.fixture(scope="module")
def whole(played: Path) -> Path:
    """The whole run of `played`, by the local executor."""
    return play(played, "whole.db")


@pytest.fixture(scope="module")
def shards(played: Path) -> list[Path]:
    """The same run as three shards (each fixture apart: under pytest -n, a worker that runs
    only the Dask test plays only the whole run)."""
    return [play(played, f"s{i}.db", "--shard", f"{i}/3") for i in (1, 2, 3)]


def copy_store(db: Path, to: Path) -> Path:
    """A copy of the closed store `db` (a WAL store folded into its one file) at `to`."""
    shutil.copy(db, to)
    return to


@pytest.mark.slow
def test_dask_local_cluster_matches_the_local_executor(tmp_path: Path, whole: Path) -> None:
    """The same games and board as the local executor; and no word about Dask's port 8787
    when another program (or another run's cluster) holds it."""
    config = write_config(tmp_path, bots=4, deals=2)
    local, dask = whole, tmp_path / "dask.db"
    with socket.socket() as other:
        with contextlib.suppress(OSError):  # taken already: as good
            other.bind(("127.0.0.1", 8787))
            other.listen()
        # One worker: a second costs a process's start-up, and its sharing of the batches
        # is the killed-worker test's (below).
        out = referee("tournament", "run", str(config), "--db", str(dask), "--executor",
                      "dask", "--workers", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "8787" not in out.stderr and "Warning" not in out.stderr, out.stderr
    assert ids(dask) == ids(local) and len(ids(local)) == 4 * 3 * 2
    assert board(dask, tmp_path) == board(local, tmp_path)


@pytest.mark.slow
def test_a_killed_dask_worker_loses_nothing_and_says_what_it_plays_again(
        tmp_path: Path) -> None:
    """A worker killed mid-run: every game is stored once, and the run says which games it
    plays again on another worker and why; only games not stored yet (a batch is released
    once stored, so a lost worker costs only what had not reached the store); those played
    again are stored with the results they have when played here."""
    config_path = write_config(tmp_path, bots=4, deals=2)  # 24 games: 6 batches of 4
    config = load_tournament(config_path)
    games = schedule(config)
    scheduled = sorted(g.game_id for g in games)
    # The players are in-process (the worker's process is the point, not the bots'): the
    # first 3 batches play freely; the others wait at the gate until the test names the
    # worker to kill, whose batch then holds until it is killed.
    gate = tmp_path / "gate"
    gate.mkdir()
    players = partial(held_player, gate, frozenset(g.game_id for g in games[:12]))
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None,
                           scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
    client = Client(cluster)
    killed: list[int] = []
    finished_by_killed: list[int] = []  # the batches the killed worker had finished
    some_stored, finished = threading.Event(), threading.Event()

    def kill_one() -> None:
        # Once the free batches are stored, the worker that played most of them: its
        # finished batches would be played again if the run still held them.
        try:
            while not some_stored.wait(0.05):
                if finished.is_set():
                    return
            ended = Counter(t["worker"] for t in client.get_task_stream()
                            if t["status"] == "OK")
            worker, batches = ended.most_common(1)[0]
            pid = client.run(os.getpid)[worker]
            write_whole(gate / "armed", str(pid))
            deadline = time.monotonic() + 120
            while not (gate / "held").exists() or (gate / "held").read_text() != str(pid):
                if time.monotonic() > deadline:
                    return
                time.sleep(0.005)  # until that worker holds a batch: a state, not a moment
            os.kill(pid, signal.SIGKILL)
            finished_by_killed.append(batches)
            killed.append(pid)
        finally:  # the gate opened, whatever happened here: the run ends, never hangs
            if not (gate / "armed").exists():
                write_whole(gate / "armed", "none")
            (gate / "killed").touch()

    store = open_store(tmp_path / "dask.db")
    said: list[tuple[str, set[str]]] = []  # each line, with the games stored as it was said
    killer = threading.Thread(target=kill_one)
    killer.start()
    try:
        with get_task_stream(client=client) as tasks:  # every batch played to its end
            summary = trio.run(run_tournament, config, config_path, store,
                               DaskExecutor(client=client, batch_size=4, make_player=players),
                               lambda line: said.append((line, store.done())),
                               lambda p: p.done >= 12 and some_stored.set())
    finally:
        finished.set()
        killer.join()
        store.close()
        client.close()
        cluster.close()
    assert killed, "no worker was killed"
    # The killed worker had finished batches, all stored (the free ones) and none named.
    assert finished_by_killed[0] >= 1, finished_by_killed
    again = [(line, stored) for line, stored in said if "playing them again" in line]
    assert len(again) == 1, said
    line, stored = again[0]
    assert re.match(r"worker tcp://\S+ was lost before these games were stored; playing them "
                    r"again on another worker: t\S+", line), line
    named = set(line.rpartition(": ")[2].split(", "))
    assert named <= set(scheduled) and not named & stored, line
    assert not named & {g.game_id for g in games[:12]}, line
    # A batch played again holds games the line names (none stored): one the lost worker had
    # finished but whose games had not reached the store yet is lost with it, as it should be.
    played = Counter(t["key"] for t in tasks.data if t["status"] == "OK")
    again_played = sum(n - 1 for n in played.values())
    assert played and again_played <= len(named), (played, line)
    assert summary.played == 4 * 3 * 2
    assert ids(tmp_path / "dask.db") == scheduled  # nothing lost; the key forbids twice
    replayed: list[Outcome] = []

    async def play_here() -> None:
        executor = LocalExecutor(1, make_player=players)
        await executor.start(config, config_path)
        try:
            await executor.play([g for g in games if g.game_id in named], replayed.append)
        finally:
            await executor.aclose()

    trio.run(play_here)
    here = {o.game_id: o.result for o in replayed if isinstance(o, Finished)}
    store = open_store(tmp_path / "dask.db")
    try:
        there = {r.game_id: r for r in store.results() if r.game_id in named}
    finally:
        store.close()
    assert set(here) == named and {g: (r.money, r.ranks) for g, r in here.items()} == {
        g: (r.money, r.ranks) for g, r in there.items()}


def config_name(config: Path) -> str:
    return str(tomllib.loads(config.read_text())["name"])


def test_three_shards_merge_into_one_run(tmp_path: Path, played: Path, whole: Path,
                                         shards: list[Path]) -> None:
    """Three shards hold the games of one run; a plan or a leaderboard of one shard says it
    is not the whole, and `plan --shard` counts that shard's games (refusing another's
    store); merged, they are that run's games and board, with no such note; a missing,
    doubled or unfinished shard, or a whole run's store among them, is refused, each store
    named, and a shard of another file is named."""
    config = played
    whole = copy_store(whole, tmp_path / "whole.db")
    shards = [str(copy_store(s, tmp_path / s.name)) for s in shards]
    sizes = [len(ids(Path(s))) for s in shards]
    assert sum(sizes) == 24 and all(s == 8 for s in sizes)
    planned = in_process.referee("tournament", "plan", str(config), "--db", shards[0],
                                 cwd=tmp_path)
    assert (f"note: {shards[0]} holds shard 1/3: this plan counts the whole schedule against "
            "it") in planned.stdout, planned.stdout
    counted = in_process.referee("tournament", "plan", str(config), "--shard", "1/3", "--db",
                                 shards[0], cwd=tmp_path)  # that shard's games alone
    assert counted.stdout.startswith("shard 1/3, of the schedule's 24 games: 8 games: ")
    assert "stored already: 8 of them; 0 to play" in counted.stdout, counted.stdout
    wrong = in_process.referee("tournament", "plan", str(config), "--shard", "2/3", "--db",
                               shards[0], cwd=tmp_path)
    assert wrong.returncode == 2 and wrong.stderr == (
        f"error: {shards[0]} holds shard 1/3, not 2/3; use another --db\n"), wrong.stderr
    one = in_process.referee("leaderboard", shards[0], cwd=tmp_path)  # not to be published
    assert one.stderr == (f"note: {shards[0]} holds shard 1/3 of tournament "
                          f"{config_name(config)!r}, not all of it: merge the shards (referee "
                          "tournament merge) before publishing\n"), one.stderr
    # refused: a missing shard, a shard twice, and a shard of another run
    gap = in_process.referee("tournament", "merge", shards[0], shards[1], "--out",
                             str(tmp_path / "g.db"), cwd=tmp_path)
    assert gap.returncode == 2 and "gap: shard(s) 3/3 missing" in gap.stderr
    with_whole = in_process.referee("tournament", "merge", shards[0], str(whole), "--out",
                                    str(tmp_path / "w.db"), cwd=tmp_path)
    assert with_whole.returncode == 2 and (f"not the shards of one run: {shards[0]} holds "
                                           f"shard 1/3, {whole} holds every game") \
        in with_whole.stderr, with_whole.stderr
    twice = in_process.referee("tournament", "merge", shards[0], shards[0], shards[1], "--out",
                               str(tmp_path / "t.db"), cwd=tmp_path)
    assert twice.returncode == 2 and "given twice" in twice.stderr
    assert not (tmp_path / "t.db").exists()
    other = tmp_path / "other"  # shard 3/3 of another file: that store is named
    other.mkdir()
    config_b = write_config(other, bots=4, deals=2)
    config_b.write_text(config_b.read_text().replace("seed = 4", "seed = 5"))
    assert in_process.referee("tournament", "run", str(config_b), "--shard", "3/3", "--db",
                              str(other / "s3.db"), "-q", cwd=other).returncode == 0
    mixed = in_process.referee("tournament", "merge", shards[0], shards[1],
                               str(other / "s3.db"), "--out", str(tmp_path / "x.db"),
                               cwd=tmp_path)
    assert mixed.returncode == 2 and (f"the stores come from different tournament files: "
                                      f"{other / 's3.db'} ('scale') is not of {shards[0]}'s"
                                      ) in mixed.stderr, mixed.stderr
    merged = tmp_path / "merged.db"
    out = in_process.referee("tournament", "merge", *shards, "--out", str(merged), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert ids(merged) == ids(whole)
    assert board(merged, tmp_path) == board(whole, tmp_path)
    assert in_process.referee("leaderboard", str(merged), cwd=tmp_path).stderr == ""
    # a shard that is not finished is a gap too
    with sqlite3.connect(shards[2]) as con:
        con.execute("DELETE FROM games WHERE rowid = (SELECT MIN(rowid) FROM games)")
    out = in_process.referee("tournament", "merge", *shards, "--out", str(tmp_path / "m2.db"),
                             cwd=tmp_path)
    assert out.returncode == 2 and "lacks 1 games" in out.stderr


def test_a_merge_stopped_partway_leaves_no_store(tmp_path: Path, shards: list[Path]) -> None:
    """SIGTERM (a job's time limit) partway through a merge: no file under --out's name, no
    partial file beside it (no store with the shards copied so far, which would look
    finished), exit 2 in one line; merging again works."""
    copies = []
    for shard in shards:
        db = copy_store(shard, tmp_path / shard.name)
        with sqlite3.connect(db) as con:  # big records, so the copy takes a while
            con.execute("UPDATE games SET record = randomblob(4000000)")
        copies.append(str(db))
    merged = tmp_path / "merged.db"
    proc = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "merge", *copies,
                             "--out", str(merged)], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not [p for p in tmp_path.iterdir() if p.name.startswith("merged.db")]:
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.0005)
    proc.send_signal(signal.SIGSTOP)
    try:
        assert not merged.exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGCONT)
    _, said = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert said == f"error: interrupted; nothing was merged ({merged} was not made)\n", said
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("merged")) == []
    out = in_process.referee("tournament", "merge", *copies, "--out", str(merged), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert len(ids(merged)) == 24


def test_sigterm_stops_a_dask_run_in_one_line(tmp_path: Path) -> None:
    """The Dask executor waits outside trio; SIGTERM still ends the run in the one line that
    says its finished games are kept, not at once without a word."""
    config = write_config(tmp_path, bots=4, deals=30)
    db = tmp_path / "d.db"
    proc = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "run", str(config),
                             "--db", str(db), "-q", "--executor", "dask", "--workers", "1"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if db.exists() and ids_or_none(db):
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, said = proc.communicate(timeout=120)
    assert proc.returncode == 2, said
    assert said.endswith(f"error: interrupted; finished games are kept in {db}; run again to "
                         "resume\n"), said


def ids_or_none(db: Path) -> list[str]:
    try:
        return ids(db)
    except sqlite3.OperationalError:
        return []
