"""Every sample bot passes `referee check` (each built from a fresh copy of its folder)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "sample_bots"


def referee_check(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", "check", command],
        cwd=cwd, capture_output=True, text=True, timeout=180,
    )


def built(lang: str, tmp_path: Path) -> str:
    """Copy the bot's folder and build it there; return the command that runs it."""
    folder = tmp_path / lang
    shutil.copytree(BOTS / lang, folder, ignore=shutil.ignore_patterns("bot", "out"))
    if lang == "c":
        if not shutil.which("make") or not Path("/usr/include/cjson/cJSON.h").exists():
            pytest.skip("make or libcjson-dev is missing")
        subprocess.run(["make"], cwd=folder, check=True, capture_output=True)
        return str(folder / "bot")
    if lang == "java":
        if not shutil.which("javac"):
            pytest.skip("javac is missing")
        subprocess.run(["javac", "-d", "out", "Bot.java"], cwd=folder, check=True)
        return f"java -cp {folder / 'out'} Bot"
    if lang == "javascript":
        if not shutil.which("node"):
            pytest.skip("node is missing")
        return f"node {folder / 'bot.js'}"
    if lang == "perl":
        return f"perl {folder / 'bot.pl'}"
    raise AssertionError(lang)


@pytest.mark.parametrize("lang", ["c", "java", "javascript", "perl"])
def test_sample_bot_passes_every_check(lang: str, tmp_path: Path) -> None:
    result = referee_check(built(lang, tmp_path), ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "17 passed, 0 failed" in result.stdout
