"""Running tournaments: resume after SIGKILL, left-out bots, refusing a changed file."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .. import in_process, terminal
from ..in_process import referee  # what only a process shows (SIGKILL, a signal): Popen below
from ..processes import BOT_PYTHON, wait_until

ROOT = Path(__file__).resolve().parents[2]
FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"
HELD = ROOT / "tests" / "scripted_bots" / "held.py"


def write_config(folder: Path, bots: int = 5, extra: str = "", deals: int = 2) -> Path:
    lines = ['name = "resume-test"', "seed = 11", "table_size = 3",
             'seat_orders = "rotations"', f"deals = {deals}", extra]
    for i in range(bots):
        lines += ["[[bots]]", f'name = "b{i}"',
                  f'command = "{BOT_PYTHON} {FIRST_LEGAL}"']
    path = folder / "t.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def leaderboard(db: Path, cwd: Path) -> list[dict[str, object]]:
    out = in_process.referee("leaderboard", str(db), "--format", "json", cwd=cwd)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["entrants"]
    for r in rows:
        del r["response_ms"]  # timings differ between runs; everything else must not
    return rows


def game_ids(db: Path) -> list[str]:
    import sqlite3

    with sqlite3.connect(db) as con:
        return [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id")]


def stored_games(db: Path) -> int:
    """Games stored so far by a run that may be writing; 0 before it has made its tables."""
    import sqlite3

    if not db.exists():
        return 0
    try:
        return len(game_ids(db))
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_killed_and_resumed_run_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    """SIGKILL at random moments, resume each time: no game lost, none twice, same board."""
    # 12 short games (the tiny edition): four kills, each at a random game
    shutil.copy(ROOT / "protocol" / "examples" / "tiny.toml", tmp_path / "tiny.toml")
    config = write_config(tmp_path, bots=4, deals=1, extra='edition = "tiny.toml"')
    whole = tmp_path / "whole.db"
    done = referee("tournament", "run", str(config), "--db", str(whole), "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    expected_ids = game_ids(whole)
    assert len(expected_ids) == 4 * 3  # C(4,3) tables x 3 rotations

    resumed = tmp_path / "resumed.db"
    rng = random.Random(5)
    kills = 0
    for _ in range(4):
        # Killed once a random share (at most a third) of the games left are stored, and a
        # random moment after: so at any point of a game, whatever the machine's speed.
        before = stored_games(resumed)
        target = before + rng.randint(1, max(1, (len(expected_ids) - before) // 3))
        proc = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "run",
                                 str(config), "--db", str(resumed), "-q"], cwd=tmp_path,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while proc.poll() is None and stored_games(resumed) < target:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.05))
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
        stored = game_ids(resumed) if resumed.exists() else []
        assert len(stored) == len(set(stored))
    assert kills >= 2, "the tournament finished before it could be killed"
    final = referee("tournament", "run", str(config), "--db", str(resumed), cwd=tmp_path)
    assert final.returncode == 0, final.stderr
    assert game_ids(resumed) == expected_ids
    assert leaderboard(resumed, tmp_path) == leaderboard(whole, tmp_path)
    again = referee("tournament", "run", str(config), "--db", str(resumed), cwd=tmp_path)
    assert again.returncode == 0 and "0 games played" in again.stderr, again.stderr


def test_a_bot_that_fails_to_build_is_left_out(tmp_path: Path) -> None:
    """A bot whose build fails is left out, with why; the run counts only the games it can
    play (the plan says how many it skips); the leaderboard holds the others; `plan`, which
    builds nothing, says who the last run left out; with --quiet the left-out bot and its
    skipped games are still said."""
    config = write_config(tmp_path, bots=4, deals=1)
    text = config.read_text() + ('[[bots]]\nname = "broken"\nbuild = "false"\n'
                                 f'command = "{BOT_PYTHON} {FIRST_LEGAL}"\n')
    config.write_text(text)
    out = referee("tournament", "run", str(config), "--db", str(tmp_path / "x.db"),
                  cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "left out broken: its build failed (exit status 1)" in out.stderr
    # its 18 games are not counted as to play: the run plays 12, and counts to 12
    assert ("stored already: 0 of them; 12 to play, 18 skipped: they need a left-out "
            "entrant\n") in out.stderr, out.stderr
    assert "12/12 games" in out.stderr and "/30 games" not in out.stderr, out.stderr
    names = {r["name"] for r in leaderboard(tmp_path / "x.db", tmp_path)}
    assert names == {"b0", "b1", "b2", "b3"}
    # plan builds nothing, so it says who the last run left out, and why
    plan = referee("tournament", "plan", str(config), "--db", str(tmp_path / "x.db"),
                   cwd=tmp_path)
    assert ("note: the last run left out broken: its build failed (exit status 1); plan "
            "builds nothing, so it counts its games as to play: a run builds it again, and "
            "leaves it out again if it still fails") in plan.stdout, plan.stdout
    # With --quiet (a job array's shards) it is still said: its games are missing.
    quiet = referee("tournament", "run", str(config), "--db", str(tmp_path / "q.db"), "-q",
                    cwd=tmp_path)
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stderr == ("warning: left out broken: its build failed (exit status 1)\n"
                            "warning: 18 games skipped (left-out bots); run again once they "
                            "are fixed to play them\n"), quiet.stderr


def test_a_builds_escape_sequences_are_shown_not_obeyed(tmp_path: Path) -> None:
    """A build that prints sequences to clear the screen, set the window title, overwrite a
    line with "ALL BOTS PASSED" and reverse text: the "left out" line shows them as escapes,
    the build's output indented under it; with --quiet, its one line (the first error) shows
    them as escapes too."""
    config = write_config(tmp_path, bots=3, deals=1)
    hostile = ROOT / "tests" / "scripted_bots" / "terminal_escape.py"
    config.write_text(config.read_text() + (
        f'[[bots]]\nname = "hostile"\nbuild = "{BOT_PYTHON} {hostile} --build"\n'
        f'command = "{BOT_PYTHON} {hostile}"\n'))
    shown = ("left out hostile: its build failed (exit status 1): compiling "
             "\\x1b[2J\\x1b]0;pwned\\x07\n    ALL BOTS PASSED\n    error: "
             "\\x1b[2J\\x1b]0;pwned\\x07\n    ALL BOTS PASSED\\x9b31m\\u202edeliaf\n")
    out = terminal.referee("tournament", "run", str(config), "--db", str(tmp_path / "x.db"),
                           cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    terminal.assert_shown_safely(out.stdout + out.stderr, shown)
    quiet = terminal.referee("tournament", "run", str(config), "--db",
                             str(tmp_path / "q.db"), "-q", cwd=tmp_path)
    assert quiet.returncode == 0, quiet.stderr
    terminal.assert_shown_safely(quiet.stdout + quiet.stderr,
                                 "warning: left out hostile: its build failed (exit status 1): "
                                 "error: \\x1b[2J\\x1b]0;pwned\\x07\n")


def test_a_changed_schedule_is_refused(tmp_path: Path) -> None:
    config = write_config(tmp_path, bots=3, deals=1)
    db = tmp_path / "x.db"
    assert referee("tournament", "run", str(config), "--db", str(db), "-q",
                   cwd=tmp_path).returncode == 0
    write_config(tmp_path, bots=3, deals=1, extra="[limits]\nmove_time = 2.0")
    out = in_process.referee("tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
    assert out.returncode == 2
    assert "changes the games" in out.stderr and "Traceback" not in out.stderr


def test_stored_games_replay_and_bad_files_name_the_key(tmp_path: Path) -> None:
    config = write_config(tmp_path, bots=3, deals=1)
    db = tmp_path / "x.db"
    assert referee("tournament", "run", str(config), "--db", str(db), "-q",
                   cwd=tmp_path).returncode == 0
    first = game_ids(db)[0]
    out = referee("replay", "--db", str(db), first, "-q", cwd=tmp_path)
    assert out.returncode == 0 and "agrees with the rules" in out.stdout
    assert in_process.referee("replay", "--db", str(db), "nope", cwd=tmp_path).returncode == 2
    config.write_text(config.read_text().replace("table_size = 3", "table_size = 7"))
    out = in_process.referee("tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
    assert out.returncode == 2 and "table_size" in out.stderr


@pytest.fixture(scope="module")
def three_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of three bots' three games, which the leaderboard tests only read."""
    folder = tmp_path_factory.mktemp("three")
    config = write_config(folder, bots=3, deals=1)
    db = folder / "x.db"
    done = referee("tournament", "run", str(config), "--db", str(db), "-q", cwd=folder)
    assert done.returncode == 0, done.stderr
    return db


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "json"])
def test_leaderboard_formats(three_games: Path, fmt: str) -> None:
    db = three_games
    out = in_process.referee("leaderboard", str(db), "--format", fmt, cwd=db.parent)
    assert out.returncode == 0
    for name in ("b0", "b1", "b2"):
        assert name in out.stdout


def test_a_command_that_cannot_be_split_names_its_key(tmp_path: Path) -> None:
    config = write_config(tmp_path, bots=3, deals=1)
    config.write_text(config.read_text().replace(f'"{BOT_PYTHON} {FIRST_LEGAL}"',
                                                 f"\"{BOT_PYTHON} '{FIRST_LEGAL}\"", 1))
    out = in_process.referee("tournament", "run", str(config), "--db", str(tmp_path / "x.db"),
                             cwd=tmp_path)
    assert out.returncode == 2
    assert "bots #1 (b0) command" in out.stderr and "No closing quotation" in out.stderr
    assert "Traceback" not in out.stderr


def test_an_edition_file_is_found_beside_the_tournament_file(tmp_path: Path) -> None:
    """Relative to the tournament file, like the bots; editing it changes the games."""
    folder = tmp_path / "contest"
    folder.mkdir()
    write_config(folder, bots=3, deals=1, extra='edition = "small.toml"')
    edition = (ROOT / "protocol" / "examples" / "tiny.toml").read_text()
    (folder / "small.toml").write_text(edition)
    db = tmp_path / "x.db"
    out = referee("tournament", "run", "contest/t.toml", "--db", str(db), "-q", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (folder / "small.toml").write_text(edition.replace("open = 1", "open = 2", 1))
    again = in_process.referee("tournament", "run", "contest/t.toml", "--db", str(db),
                               cwd=tmp_path)
    assert again.returncode == 2 and "changes the games" in again.stderr


def test_reading_commands_refuse_a_file_that_is_not_a_store(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    for args in (["leaderboard", str(empty)], ["replay", "--db", str(empty), "g"],
                 ["report", str(empty), "--out", str(tmp_path / "site")]):
        out = in_process.referee(*args, cwd=tmp_path)
        assert out.returncode == 2, args
        assert "not a results store" in out.stderr and "Traceback" not in out.stderr
    assert empty.read_bytes() == b""  # left as it was


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_ends_a_run_in_one_line_and_it_resumes(tmp_path: Path, signum: int) -> None:
    """SIGINT (Ctrl-C) or SIGTERM (a job's time limit) once some games are stored: the one
    line docs/security.md promises, exit 2, no traceback (no trio exception group around the
    KeyboardInterrupt; no bot left running after SIGTERM); running again plays the rest."""
    hold = tmp_path / "hold"  # b0 waits from its 60th answer on (7 games stored) while it is
    hold.touch()
    shutil.copy(ROOT / "protocol" / "examples" / "tiny.toml", tmp_path / "tiny.toml")
    config = write_config(tmp_path, bots=4, deals=1, extra='edition = "tiny.toml"\n[limits]\n'
                          "move_time = 300.0")  # 12 short games
    held = f"{BOT_PYTHON} {HELD} --while {hold} --after 60"
    config.write_text(config.read_text().replace(f"{BOT_PYTHON} {FIRST_LEGAL}", held, 1))
    db = tmp_path / "t.db"
    proc = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "run", str(config),
                             "--db", str(db), "-q"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: stored_games(db) >= 5, "five games stored", process=proc)
        proc.send_signal(signum)
        _, said = proc.communicate(timeout=300)
    finally:
        hold.unlink()
        proc.kill()
    assert proc.returncode == 2, said
    assert said == (f"error: interrupted; finished games are kept in {db}; run again to "
                    "resume\n"), said
    kept = stored_games(db)
    assert 5 <= kept < 4 * 3, kept
    again = referee("tournament", "run", str(config), "--db", str(db), "-q", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert stored_games(db) == 4 * 3


def test_a_new_primary_metric_or_name_takes_effect_on_the_next_run(tmp_path: Path) -> None:
    """Neither changes the games, so the store is resumed; the leaderboard follows the file
    as it is now, not the first run's settings."""
    config = write_config(tmp_path, bots=3, deals=1)
    db = tmp_path / "x.db"
    assert referee("tournament", "run", str(config), "--db", str(db), "-q",
                   cwd=tmp_path).returncode == 0
    config.write_text(config.read_text().replace('name = "resume-test"',
                                                 'name = "renamed"\nprimary_metric = "money"'))
    again = referee("tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
    assert again.returncode == 0 and "0 games played" in again.stderr, again.stderr
    out = in_process.referee("leaderboard", str(db), "--format", "json", cwd=tmp_path)
    assert json.loads(out.stdout)["primary_metric"] == "money"
    import sqlite3

    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'name'").fetchone() == (
            "renamed",)
    # A run refused (another shard) takes nothing into the store.
    config.write_text(config.read_text().replace('name = "renamed"', 'name = "refused"'))
    other = referee("tournament", "run", str(config), "--db", str(db), "--shard", "1/2",
                    cwd=tmp_path)
    assert other.returncode == 2 and other.stderr == (
        f"error: {db} holds the whole schedule (a run without --shard), not shard 1/2; use "
        "another --db\n"), other.stderr
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'name'").fetchone() == (
            "renamed",)


def test_plan_of_a_shard_written_with_a_leading_zero_counts_its_store(tmp_path: Path) -> None:
    """`plan --shard 01/2` is shard 1/2, as `run --shard 01/2` plays it: the plan counts the
    games that shard's store holds, where it refused the store as another shard's."""
    config = write_config(tmp_path, bots=3, deals=1)
    db = tmp_path / "t.shard1of2.db"
    ran = referee("tournament", "run", str(config), "--shard", "01/2", "-q", cwd=tmp_path)
    assert ran.returncode == 0 and db.is_file(), ran.stderr
    planned = referee("tournament", "plan", str(config), "--shard", "01/2", cwd=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert planned.stdout.startswith("shard 1/2, of the schedule's 3 games: 2 games: ")
    assert "stored already: 2 of them; 0 to play" in planned.stdout, planned.stdout
    other = referee("tournament", "plan", str(config), "--shard", "2/2", "--db", str(db),
                    cwd=tmp_path)
    assert other.returncode == 2 and other.stderr == (
        f"error: {db} holds shard 1/2, not 2/2; use another --db\n"), other.stderr


def test_plan_of_a_shard_counts_the_seat_orders_its_tables_hold(tmp_path: Path) -> None:
    """A shard takes every N-th game, so each of its tables holds a few of the table's seat
    orders: `plan --shard` says as many as it plays, not the whole schedule's three."""
    config = write_config(tmp_path, bots=5, deals=1)  # 10 tables, 3 rotations: 30 games
    planned = referee("tournament", "plan", str(config), "--shard", "1/4", "--json",
                      cwd=tmp_path)
    plan = json.loads(planned.stdout)
    assert (plan["games"], plan["tables"], plan["deals"], plan["seat_orders_per_table"]) == (
        8, 8, 1, 1), plan
    said = referee("tournament", "plan", str(config), "--shard", "1/4", cwd=tmp_path).stdout
    assert said.startswith("shard 1/4, of the schedule's 30 games: 8 games: 8 tables of 3, "
                           "1 deal, 1 seat order per table; "), said
