"""The Python, JavaScript and Perl sample bots play real games through `referee play` cleanly.

Each bot's folder is copied alone to a temporary directory (the bots must work from a bare
copy) and plays mixed four-player games over three seeds, two seats against two `first_legal`
bots, each seed with other rules: no fault for any seat, and every seat has its money and rank.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_bots"
FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"

# Three seeds, each with different rules, so the bots meet every auction and the variants.
GAMES = [
    ("3", []),
    ("4", ["--variant", "split-double", "--variant", "hidden-money"]),
    ("5", ["--edition", "classic", "--variant", "split-double"]),
]

# folder, program that must be on PATH, script
BOTS = {
    "python": ("python", None, "random_bot.py"),
    "javascript": ("javascript", "node", "bot.js"),
    "perl": ("perl", "perl", "bot.pl"),
}


def bot_command(lang: str, tmp_path: Path) -> str:
    """Copy the bot's folder alone and return the command line that runs the copy."""
    folder, program, script = BOTS[lang]
    if program is not None and shutil.which(program) is None:
        pytest.skip(f"{program} is not on PATH")
    copy = tmp_path / folder
    shutil.copytree(SAMPLES / folder, copy)
    interpreter = sys.executable if program is None else program
    return f"{interpreter} {copy / script}"


def play(bots: list[str], seed: str, extra: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "referee", "play", *bots, "--json", "--seed", seed, *extra],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


@pytest.mark.parametrize("lang", list(BOTS))
def test_sample_bot_plays_mixed_games_without_faults(lang: str, tmp_path: Path) -> None:
    bot = bot_command(lang, tmp_path)
    first_legal = f"{sys.executable} {FIRST_LEGAL}"
    bots = [f"{lang}-a={bot}", f"first-a={first_legal}", f"{lang}-b={bot}",
            f"first-b={first_legal}"]
    # The seeds' games run at once (each is mostly waiting on its bots).
    games = [(seed, extra, play(bots, seed, extra, tmp_path)) for seed, extra in GAMES]
    for seed, extra, proc in games:
        try:
            out, err = proc.communicate(timeout=120)
        finally:
            proc.kill()
        where = f"seed {seed} {' '.join(extra)}"
        assert proc.returncode == 0, f"{where}: {err}"
        result: dict[str, Any] = json.loads(out)
        seats = result["seats"]
        assert [s["name"] for s in seats] == [b.split("=")[0] for b in bots], where
        for s in seats:
            assert s["faults"] == [], f"{where}: {s['name']} faulted: {s['faults']}"
            assert not s["retired"], f"{where}: {s['name']} was retired"
            assert isinstance(s["money"], int) and s["money"] >= 0, (where, s)
            assert isinstance(s["rank"], int) and 1 <= s["rank"] <= len(seats), (where, s)
