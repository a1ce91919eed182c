"""A bot that fails before its hello game after game is left out of the rest of the run, as a
bot whose build failed is: the others' tables are not played a player short for nothing, the
leaderboard says why, and the next run tries it again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .. import in_process
from ..processes import BOT_PYTHON

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "scripted_bots"


def write_config(folder: Path) -> Path:
    """Four bots at tables of three, one deal in rotations: 12 games, 9 of them the
    crasher's."""
    lines = ['name = "unstarted"', "seed = 3", "table_size = 3", 'seat_orders = "rotations"']
    for name, script in (("a", "first_legal.py"), ("b", "first_legal.py"),
                         ("c", "first_legal.py"), ("crasher", "crash_at_start.py")):
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{BOT_PYTHON} {BOTS / script}"']
    path = folder / "t.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def stored(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT count(*) FROM games WHERE seats LIKE '%crasher%'"
                               ).fetchone()[0])


def test_a_bot_that_keeps_failing_to_start_is_left_out_of_the_rest_of_the_run(
        tmp_path: Path) -> None:
    """Its first two games end at its start, then its other seven are skipped, and the run
    says why; the leaderboard's left-out line says it too.  The next run plays two more of
    its games (a fix outside its folder would bring it back) before leaving it out again."""
    config, db = write_config(tmp_path), tmp_path / "t.db"
    done = in_process.referee("tournament", "run", str(config), "--workers", "1",
                              cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert ("left out crasher: it did not start in 2 games in a row (the last: closed its "
            "output before its hello; exit status 3") in said, said
    assert "5 games played, 0 were already stored, 7 skipped (left-out bots)" in said, said
    assert stored(db) == 2
    board = in_process.referee("leaderboard", str(db), cwd=tmp_path)
    assert "left out: crasher: it did not start in 2 games in a row" in board.stdout
    again = in_process.referee("tournament", "run", str(config), "--workers", "1",
                               cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert stored(db) == 4
