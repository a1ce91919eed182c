"""The strong reference bot (`sample_bots/python/strong_bot.py`): reproducible from its seed,
and fit to play a sandboxed tournament."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from referee.bots.sandbox import SandboxError, check_sandbox_available

from . import in_process
from .processes import BOT_PYTHON

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / "sample_bots" / "python"


def referee(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` inside the test process (its bots are processes as ever)."""
    return in_process.referee(*args, cwd=cwd, timeout=300)


def test_the_strong_bot_answers_a_replayed_game_as_it_played_it(tmp_path: Path) -> None:
    """Given again what it was sent in a game (`referee replay --bot`, a fresh process), the
    strong bot gives every answer it gave: its simulations are seeded from the game's seed."""
    strong = f"{BOT_PYTHON} {PYTHON / 'strong_bot.py'}"
    log = tmp_path / "game.jsonl"
    done = referee("play", f"strong={strong}", f"baseline={BOT_PYTHON} "
                   f"{PYTHON / 'baseline_bot.py'}", f"random={BOT_PYTHON} "
                   f"{PYTHON / 'random_bot.py'}", "--seed", "12", "--log", str(log), "--json")
    assert done.returncode == 0, done.stderr
    assert [s["faults"] for s in json.loads(done.stdout)["seats"]] == [[], [], []]
    again = referee("replay", str(log), "--bot", strong, "--seat", "0")
    assert again.returncode == 0, again.stdout + again.stderr
    assert " same" in again.stdout and "differs" not in again.stdout


def test_the_strong_bot_plays_a_sandboxed_tournament_without_a_fault(tmp_path: Path) -> None:
    """Under bubblewrap (its folder read-only, no network), the strong bot plays every game
    of a tournament with the other Python sample bots, with no fault."""
    try:
        check_sandbox_available("bwrap")
    except SandboxError as exc:
        pytest.skip(str(exc))
    bots = "".join(f'''
[[bots]]
name = "{name}"
command = "{BOT_PYTHON} {file}"
dir = "{PYTHON}"
''' for name, file in (("strong", "strong_bot.py"), ("baseline", "baseline_bot.py"),
                       ("random", "random_bot.py")))
    (tmp_path / "t.toml").write_text(f'''name = "sandboxed-ladder"
seed = 3
table_size = 3
deals = 1
seat_orders = "rotations"
sandbox = "bwrap"
{bots}''')
    done = referee("tournament", "run", "t.toml", "--db", "t.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    board = in_process.referee("leaderboard", "t.db", "--format", "json", cwd=tmp_path)
    assert board.returncode == 0, board.stderr
    rows = json.loads(board.stdout)["entrants"]
    assert {r["name"]: r["games"] for r in rows} == {"strong": 3, "baseline": 3, "random": 3}
    assert all(sum(r["faults"].values()) == 0 for r in rows), rows
