"""A failed build whose output shows a known cause says what to do about it, in the one
verdict `play`, `check`, tournaments and grading all give."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import trio

from referee.bots.build import build_bot

KIT = Path(__file__).resolve().parents[2] / "sample_bots" / "typescript"


@pytest.mark.skipif(shutil.which("tsc") is None, reason="no TypeScript compiler")
def test_console_log_in_the_typescript_kit_says_to_use_its_log(tmp_path: Path) -> None:
    """The TypeScript kit with a console.log added: tsc fails on the undeclared console, and
    the verdict says to log with the kit's log() (stderr), not to add "dom" as tsc advises."""
    bot = tmp_path / "bot"
    shutil.copytree(KIT, bot, ignore=shutil.ignore_patterns("out"))
    source = bot / "src" / "bot.ts"
    source.write_text(source.read_text() + '\nconsole.log("debug");\n')
    done = trio.run(build_bot, "tsc", bot, 120.0)
    assert done.problem is not None and done.problem.startswith(
        "failed (exit status 2): console is not declared, as console.log would write to "
        "stdout, where only protocol messages go: log with the kit's log(), which writes to "
        "stderr"), done.problem
