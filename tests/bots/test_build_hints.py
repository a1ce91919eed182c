"""A failed build is shown from its first error, and one whose output shows a known cause says
what to do about it, in the one verdict `play`, `check`, tournaments and grading all give."""

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


def test_a_long_failed_build_is_shown_from_its_first_error_with_its_cuts_said() -> None:
    """31 lines of javac whose first error is its first line: shown from that line (the file
    and line number), the middle cut with how much, and the last two; 40 lines of progress
    then an error near the end: the last lines, with how many before are left out."""
    from referee.bots.build import BuildResult

    javac = ["Bot.java:106: error: cannot find symbol",
             "        int i = undefinedThing + d;", "                ^",
             *(f"  detail {i}" for i in range(26)), "1 error", "error: compilation failed"]
    shown = BuildResult(returncode=1, stderr="\n".join(javac).encode()).excerpt(15).splitlines()
    assert shown == [*javac[:11], "... (18 lines)", *javac[-2:]]
    cargo = [*(f"   Compiling dep{i}" for i in range(40)), "error[E0425]: cannot find value",
             " --> src/main.rs:3:5"]
    shown = BuildResult(returncode=101, stdout="\n".join(cargo).encode()).excerpt(15)
    assert shown.splitlines() == ["... (28 lines)", *cargo[-14:]]
    short = BuildResult(returncode=1, stdout=b"a\nb").excerpt(15)
    assert short == "a\nb"


def test_a_first_error_just_above_the_last_lines_is_shown() -> None:
    """A build of 20 lines whose first error is its sixth, shown in 15: the error line itself
    is among those shown (the last 14 alone began one line under it)."""
    from referee.bots.build import BuildResult

    out = [*(f"   Compiling dep{i}" for i in range(5)), "bot.c:3:5: error: expected ';'",
           *(f"  note {i}" for i in range(14))]
    shown = BuildResult(returncode=1, stderr="\n".join(out).encode()).excerpt(15)
    assert "bot.c:3:5: error: expected ';'" in shown.splitlines(), shown
    assert len(shown.splitlines()) <= 15


def test_a_warning_in_error_rs_or_a_no_error_flag_is_not_taken_for_the_first_error() -> None:
    """A Rust bot with a module src/error.rs whose warnings come before the compiler's error,
    and a make whose echoed command says -Wno-error=...: each long failed build is shown
    from the real error, not from the warning's `--> src/error.rs` or the command."""
    from referee.bots.build import BuildResult

    warnings = [line for i in range(12) for line in (
        f"warning: unused variable: `x{i}`", f"  --> src/error.rs:{i + 3}:9", "   |")]
    cargo = ["   Compiling bot v0.1.0", *warnings, "error[E0425]: cannot find value `y`",
             " --> src/main.rs:3:5", *(f"   | detail {i}" for i in range(20)),
             "error: could not compile `bot`"]
    shown = BuildResult(returncode=101, stderr="\n".join(cargo).encode()).excerpt(15)
    assert shown.splitlines()[:2] == ["... (37 lines)", "error[E0425]: cannot find value `y`"]
    make = ["gcc -O2 -Wall -Wno-error=unused-result -o bot bot.c",
            *(f"bot.c:{i}:1: warning: unused {i}" for i in range(30)),
            "bot.c:40:5: error: expected ';'", *(f"  note {i}" for i in range(10)),
            "make: *** [Makefile:2: bot] Error 1"]
    shown = BuildResult(returncode=2, stdout=make[0].encode(),
                        stderr="\n".join(make[1:]).encode()).excerpt(15)
    assert "bot.c:40:5: error: expected ';'" in shown.splitlines(), shown
