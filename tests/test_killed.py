"""A referee killed with SIGKILL (the OOM killer, `kill -9`, a cluster's hard time limit) runs
no cleanup, so whatever it leaves behind must not need one: the conformance check's transcript
has no name in the temporary folder, and the partial file of a killed merge is removed by the
next merge into the same file."""

from __future__ import annotations

import fcntl
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from referee.tournament.merge import remove_stale_parts

from . import in_process
from .grade.test_grade import write_config as write_grading_config
from .processes import BOT_PYTHON, leftover_processes, wait_until

ROOT = Path(__file__).resolve().parent.parent
FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"

# A bot that says it started, then waits for its input to close (the referee's death).
WAITS = """
import pathlib, sys
pathlib.Path(sys.argv[1]).touch()
sys.stdin.read()
"""


def start(args: list[str], cwd: Path, env: dict[str, str] | None = None,
          ) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "referee", *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=None if env is None else {**os.environ, **env})


def kill(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)


@pytest.mark.parametrize("command", ["check", "grade"])
def test_a_killed_check_leaves_nothing_in_the_temporary_folder(tmp_path: Path,
                                                               command: str) -> None:
    """`referee check` and `referee grade` (which checks each submission), killed while the
    check runs, leave no referee-check-*.jsonl transcript in the temporary folder: killed runs
    do not pile files up there."""
    temp, started = tmp_path / "tmp", tmp_path / "started"
    temp.mkdir()
    bot = tmp_path / "subs" / "ann" / "bot.py"
    bot.parent.mkdir(parents=True)
    bot.write_text(WAITS)
    if command == "check":
        args = ["check", f"{BOT_PYTHON} {bot} {started}"]
    else:
        (bot.parent / "bot.toml").write_text(f'command = "python3 bot.py {started}"\n')
        write_grading_config(tmp_path / "class.toml")
        args = ["grade", str(bot.parent.parent), "--config", str(tmp_path / "class.toml"),
                "--out", str(tmp_path / "out")]
    referee = start(args, tmp_path, env={"TMPDIR": str(temp)})
    try:  # the check has begun: its transcript was made before the bot was started
        wait_until(started.exists, "the bot to start", process=referee)
    finally:
        kill(referee)
    assert sorted(p.name for p in temp.iterdir()) == []
    assert leftover_processes(str(bot.parent.parent)) == []  # its input closed: it exited


def write_shards(folder: Path) -> list[Path]:
    """Two finished shards of 12 games, their records blown up to 4 MB each so that merging
    them takes a while."""
    lines = ['name = "killed"', "seed = 4", "table_size = 3", 'seat_orders = "rotations"',
             "deals = 2"]
    for i in range(4):
        lines += ["[[bots]]", f'name = "b{i}"', f'command = "{BOT_PYTHON} {FIRST_LEGAL}"']
    config = folder / "t.toml"
    config.write_text("\n".join(lines) + "\n")
    shards = []
    for i in (1, 2):  # in-process: the merge's process is the one killed
        db = folder / f"s{i}.db"
        out = in_process.referee("tournament", "run", str(config), "--shard", f"{i}/2",
                                 "--db", str(db), "-q", cwd=folder)
        assert out.returncode == 0, out.stderr
        with sqlite3.connect(db) as con:
            con.execute("UPDATE games SET record = randomblob(4000000)")
        con.close()
        shards.append(db)
    return shards


def test_the_next_merge_removes_what_a_killed_merge_left(tmp_path: Path) -> None:
    """A merge writes OUT.merging-PID and names it OUT once whole; killed partway it leaves
    that file (hundreds of MB for a big tournament) and its -wal and -shm, which the next
    merge to OUT removes."""
    shards = [str(s) for s in write_shards(tmp_path)]
    merged = tmp_path / "merged.db"

    def partial() -> list[str]:
        return sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("merged.db."))

    merge = start(["tournament", "merge", *shards, "--out", str(merged)], tmp_path)
    try:
        wait_until(partial, "the merge to begin writing", process=merge)
        merge.send_signal(signal.SIGSTOP)
        assert partial() and not merged.exists()  # caught partway
    finally:
        kill(merge)
    assert all(name.startswith(f"merged.db.merging-{merge.pid}") for name in partial())
    out = in_process.referee("tournament", "merge", *shards, "--out", str(merged), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert partial() == []
    with sqlite3.connect(merged) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone() == (24,)
    con.close()


def test_only_the_files_of_merges_no_longer_running_are_removed(tmp_path: Path) -> None:
    """A partial file is another merge's while its process runs, or while a process holds
    the store's lock on it (a merge on another machine sharing the folder, whose pid means
    nothing here); other files beside it are never touched."""
    out = tmp_path / "m.db"
    ended, other = subprocess.Popen(["true"]), subprocess.Popen(["true"])
    ended.wait(), other.wait()  # pids that no process has now
    files = {name: tmp_path / name for name in (
        f"m.db.merging-{ended.pid}", f"m.db.merging-{ended.pid}-journal",
        f"m.db.merging-{ended.pid}-wal", f"m.db.merging-{ended.pid}-shm",  # a killed merge's
        f"m.db.merging-{os.getpid()}",  # a running one's: kept
        "m.db.merging-1-wal",  # init's pid: running
        "m.db.merging-99999999", "m.db.merging-x", "m.db", "other.db.merging-5")}
    for path in files.values():
        path.write_bytes(b"")
    elsewhere = tmp_path / f"m.db.merging-{other.pid}"  # its process is not here ...
    elsewhere.write_bytes(b"")
    with open(elsewhere, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # ... but holds its lock
        remove_stale_parts(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [elsewhere.name] + [name for name in files if not name.startswith(
            f"m.db.merging-{ended.pid}")])
