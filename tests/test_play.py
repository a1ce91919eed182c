"""`referee play` and `referee replay` show what a hostile bot wrote as escapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from . import terminal
from .terminal import assert_shown_safely

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
BOTS = ROOT / "tests" / "scripted_bots"


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    return terminal.referee(*args, cwd=ROOT, timeout=120)


def test_a_bots_escape_sequences_do_not_reach_the_terminal(tmp_path: Path) -> None:
    """A bot whose stderr clears the screen, sets the window title and reverses text before
    it crashes: `play` (the standings, its faults and the transcript) shows those sequences as
    `\\x1b`, `\\x07` and `\\u202e`, and the organiser's terminal is left alone."""
    log = tmp_path / "game.jsonl"
    out = referee("play", f"{PY} {BOTS / 'terminal_escape.py'}", f"{PY} {BOTS / 'first_legal.py'}",
                  f"{PY} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}", "-v",
                  "--log", str(log))
    assert out.returncode == 0, out.stderr
    assert_shown_safely(out.stdout + out.stderr, "crash fault: closed its output",
                        "Traceback: \\x1b[2J\\x1b]0;pwned\\x07", "\\u202edeliaf\\x1b[0m")
    assert "\n      ALL BOTS PASSED" in out.stdout  # the tail, indented under its fault


def test_replay_shows_a_records_names_as_escapes(tmp_path: Path) -> None:
    """A game record whose bot names hold escape sequences (a record is a file anyone can
    hand over): `replay` prints its transcript with them as escapes."""
    log = tmp_path / "game.jsonl"
    first_legal = f"{PY} {BOTS / 'first_legal.py'}"
    played = referee("play", f"a={first_legal}", f"b={first_legal}", f"c={first_legal}",
                     "--log", str(log))
    assert played.returncode == 0, played.stderr
    evil = "\x1b]0;pwned\x07\rALL BOTS PASSED\u202e"
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    for line in lines:
        if "names" in line:
            line["names"][0] = evil
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = referee("replay", str(log))
    assert_shown_safely(out.stdout + out.stderr,
                        "\\x1b]0;pwned\\x07\\rALL BOTS PASSED\\u202e plays")
