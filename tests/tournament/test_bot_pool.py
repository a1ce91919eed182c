"""Bounded bot processes: at most `max_bot_processes` alive per worker, the least recently used
stopped between games, with the same results; and the referee's own want of descriptors is
never a bot's fault.  Through the command line, with the sample random bot, 12 entrants and
short games (the tiny edition)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import trio

from referee.tournament.config import load_tournament
from referee.tournament.executors import Outcome, bot_pool
from referee.tournament.executors.processes import BOOT, ProcessWorkers
from referee.tournament.schedule import schedule

from .. import in_process, processes
from ..processes import BOT_PYTHON, ROOT

RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot.py"
TINY = ROOT / "protocol" / "examples" / "tiny.toml"
PRLIMIT = shutil.which("prlimit")


def write_config(folder: Path, extra: str = "", tables: int = 6) -> Path:
    """12 entrants of the random bot (a copy of its own, so that its processes are this
    test's), 6 sampled tables of three (some entrants at two), 3 seat orders each: 18 short
    games."""
    folder.mkdir(parents=True, exist_ok=True)
    bot = folder / "random_bot.py"
    shutil.copy(RANDOM_BOT, bot)
    shutil.copy(TINY, folder / "tiny.toml")
    lines = ['name = "pool"', "seed = 3", "table_size = 3", 'seat_orders = "rotations"',
             f"tables = {tables}", 'edition = "tiny.toml"', extra]
    for i in range(12):
        lines += ["[[bots]]", f'name = "r{i}"', f'command = "{BOT_PYTHON} {bot}"']
    path = folder / "t.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@dataclass
class Run:
    """A run of the command line, and the most bot processes seen alive at once: all of them,
    and per worker (the stderr logs the referee and its worker processes hold open,
    `NAME.wN.stderr.log`)."""

    returncode: int
    stderr: str
    most_alive: int = 0
    most_per_worker: Counter[str] = field(default_factory=Counter)


def run(config: Path, db: Path, *args: str, open_files: int | None = None) -> Run:
    """`referee tournament run` (under `prlimit --nofile`, given `open_files`), watched."""
    logs = db.with_suffix(".logs")
    command = [sys.executable, "-m", "referee", "tournament", "run", str(config), "--db",
               str(db), "-q", "--stderr-dir", str(logs), *args]
    if open_files is not None:
        if PRLIMIT is None:
            pytest.skip("prlimit (util-linux) is not here to limit the referee's descriptors")
        command = [PRLIMIT, f"--nofile={open_files}:{open_files}", *command]
    proc = subprocess.Popen(command, cwd=config.parent, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    seen = Run(0, "")
    marker = f"{config.parent}/random_bot.py"  # the bots' own (not a forked referee's)

    def children(pid: int | str) -> list[str]:
        return " ".join(p.read_text() for p in Path(f"/proc/{pid}").glob("task/*/children")
                        ).split()

    def cmdline(pid: int | str) -> str:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode()

    def watch() -> None:
        while proc.poll() is None:
            try:  # the referee, and its worker processes with two workers or more
                referees = [proc.pid, *(pid for pid in children(proc.pid)
                                        if "executors.worker_process" in cmdline(pid))]
                bots = [pid for r in referees for pid in children(r) if marker in cmdline(pid)]
                logs = [os.readlink(fd) for r in referees
                        for fd in Path(f"/proc/{r}/fd").iterdir()]
            except OSError:  # the referee ended, or a process or descriptor as it was read
                continue
            seen.most_alive = max(seen.most_alive, len(bots))
            workers = Counter(t.rsplit(".", 3)[-3] for t in logs if t.endswith(".stderr.log"))
            for worker, alive in workers.items():
                seen.most_per_worker[worker] = max(seen.most_per_worker[worker], alive)
            time.sleep(0.005)  # leave the referee the cores

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        _, seen.stderr = proc.communicate(timeout=300)
    finally:
        proc.kill()
        watcher.join()
    seen.returncode = proc.returncode
    return seen


def results(db: Path) -> dict[str, tuple[object, ...]]:
    """Each stored game's outcome: seats, money, ranks, retired seats and faults."""
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT game_id, result FROM games").fetchall()
    out = {}
    for game_id, text in rows:
        r = json.loads(text)
        out[game_id] = (r["names"], r["money"], r["ranks"], r["retired"], r["faults"])
    return out


def board(db: Path) -> list[dict[str, object]]:
    out = in_process.referee("leaderboard", str(db), "--format", "json", cwd=ROOT)
    rows: list[dict[str, object]] = json.loads(out.stdout)["entrants"]
    for r in rows:
        del r["response_ms"]
    return rows


@pytest.fixture(scope="module")
def unbounded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Run]:
    """The tournament played with every bot process kept, on one worker (the results do not
    depend on the workers; each entrant's process is started once)."""
    folder = tmp_path_factory.mktemp("unbounded")
    db = folder / "all.db"
    played = run(write_config(folder / "contest"), db, "--workers", "1")
    assert played.returncode == 0, played.stderr
    return db, played


def test_at_most_max_bot_processes_per_worker_give_the_same_results(
        tmp_path: Path, unbounded: tuple[Path, Run]) -> None:
    """`max_bot_processes = 4` with 12 entrants: never more than 4 bot processes alive per
    worker (8 on two), where the unbounded run kept more; the least recently used are
    stopped cleanly (no fault, no void) and the stored results and the leaderboard are the
    unbounded run's."""
    all_db, all_run = unbounded
    assert max(all_run.most_per_worker.values()) > 4  # the bound below is not idle
    config = write_config(tmp_path / "contest", "max_bot_processes = 4")
    db = tmp_path / "four.db"
    bounded = run(config, db, "--workers", "2")
    assert bounded.returncode == 0 and bounded.stderr == "", bounded.stderr
    assert sorted(bounded.most_per_worker) == ["w0", "w1"], bounded.most_per_worker
    assert max(bounded.most_per_worker.values()) <= 4, bounded.most_per_worker
    assert 4 <= bounded.most_alive <= 8
    assert results(db) == results(all_db) and len(results(db)) == 18
    assert board(db) == board(all_db)
    # the option says the same as the key (and overrides it): the sample's first 2 tables,
    # 6 entrants at them, at most 3 of their processes alive
    two = write_config(tmp_path / "two", "max_bot_processes = 4", tables=2)
    again = run(two, tmp_path / "three.db", "--workers", "1", "--max-bot-processes", "3")
    assert again.returncode == 0, again.stderr
    three = results(tmp_path / "three.db")
    assert again.most_alive <= 3 and len(three) == 6
    assert three == {game: r for game, r in results(all_db).items() if game in three}


def test_the_default_fits_the_referees_descriptor_limit(
        tmp_path: Path, unbounded: tuple[Path, Run]) -> None:
    """Under `ulimit -n 80`, where the 12 entrants' processes kept at once would not fit, the
    default number of bot processes does: no void, no bot fault, the same results."""
    all_db, _ = unbounded
    db = tmp_path / "low.db"
    played = run(write_config(tmp_path / "contest"), db, "--workers", "1", open_files=80)
    assert played.returncode == 0 and played.stderr == "", played.stderr
    assert results(db) == results(all_db)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM voids").fetchone() == (0,)


def test_worker_processes_share_the_memory_but_not_the_descriptors(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The default bound per worker: the workers of one process share its descriptors, a
    worker process has its own, and all share the machine's memory.  With descriptors for 20
    bots beyond the referee's own and memory for 30: one worker keeps 20, two workers of one
    process 10 each, two worker processes 15 each (memory is then the bound)."""
    monkeypatch.setattr(bot_pool, "available_memory", lambda: 30 * bot_pool.MEMORY_PER_BOT)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = bot_pool.DESCRIPTORS_KEPT + 20 * bot_pool.DESCRIPTORS_PER_BOT
    resource.setrlimit(resource.RLIMIT_NOFILE, (room, hard))
    try:
        assert bot_pool.default_max_bot_processes() == 20
        assert bot_pool.default_max_bot_processes(2) == 10
        assert bot_pool.default_max_bot_processes(1, on_machine=2) == 15
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_worker_process_keeps_as_many_bots_as_its_own_descriptors_allow(
        tmp_path: Path) -> None:
    """Two worker processes, each allowed descriptors for 6 bots beyond its own: each keeps up
    to 6 of the 12 entrants' processes alive (the descriptors are its own, not halved
    between the workers), and never more."""
    if bot_pool.available_memory() // bot_pool.MEMORY_PER_BOT // 2 < 6:
        pytest.skip("too little memory here for 6 bots a worker: memory would be the bound")
    path = write_config(tmp_path / "contest", tables=8)  # each worker meets 6 entrants
    config = load_tournament(path)
    room = bot_pool.DESCRIPTORS_KEPT + 6 * bot_pool.DESCRIPTORS_PER_BOT
    workers = ProcessWorkers(2)
    workers.boot = (f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, "
                    f"({room}, {room})); " + BOOT)
    marker = f"{path.parent}/random_bot.py"
    most: Counter[int] = Counter()
    finished: list[Outcome] = []

    def watch(done: threading.Event) -> None:
        while not done.is_set():
            for number, worker in list(workers.running.items()):
                bots = 0
                for pid in processes.children(worker.process.pid):
                    with contextlib.suppress(OSError):
                        bots += marker in Path(f"/proc/{pid}/cmdline").read_bytes().decode()
                most[number] = max(most[number], bots)
            time.sleep(0.005)  # leave the referee the cores

    async def main() -> None:
        await workers.start(config, path)
        try:
            await workers.play(schedule(config), finished.append)
        finally:
            await workers.aclose()

    done = threading.Event()
    watcher = threading.Thread(target=watch, args=(done,))
    watcher.start()
    try:
        trio.run(main)
    finally:
        done.set()
        watcher.join()
    assert len(finished) == 24
    assert sorted(most) == [0, 1] and max(most.values()) == 6, most


def test_a_spawn_failure_of_the_referee_voids_and_stops_in_one_line(tmp_path: Path) -> None:
    """The referee out of descriptors (`ulimit -n 24`: no three bots fit) with room asked for
    all 12: each attempt at the game is void, the run stops with one line saying what ran
    short and what to do, and no bot is charged with a fault."""
    db = tmp_path / "short.db"
    played = run(write_config(tmp_path / "contest"), db, "--workers", "1",
                 "--max-bot-processes", "12", open_files=24)
    assert played.returncode == 2, played.stderr
    lines = played.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "error: the referee ran short of its own resources: game "), played.stderr
    assert "Too many open files" in lines[0] and "ulimit -n" in lines[0], lines[0]
    with sqlite3.connect(db) as con:
        voids = con.execute("SELECT reason FROM voids").fetchall()
        stored = con.execute("SELECT result FROM games").fetchall()
    assert len(voids) == 3 and all("Too many open files" in r for (r,) in voids), voids
    assert not any('"start"' in r for (r,) in stored)  # no game blames a bot
