"""A failed build is shown from its first error, and one whose output shows a known cause says
what to do about it, in the one verdict `play`, `check`, tournaments and grading all give."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
import trio

from referee.bots.build import BuildResult, build_bot

KIT = Path(__file__).resolve().parents[2] / "sample_bots" / "typescript"
CSHARP = KIT.parent / "csharp"


@pytest.mark.skipif(shutil.which("tsc") is None, reason="no TypeScript compiler")
def test_console_log_in_the_typescript_kit_says_to_use_its_log(tmp_path: Path) -> None:
    """The TypeScript kit with a console.log added to its strategy: tsc fails on the
    undeclared console, and the verdict says to log with the kit's log() (stderr), and how to
    import it, not to add "dom" as tsc advises."""
    bot = tmp_path / "bot"
    shutil.copytree(KIT, bot, ignore=shutil.ignore_patterns("out"))
    source = bot / "src" / "strategy.ts"
    source.write_text(source.read_text() + '\nconsole.log("debug");\n')
    done = trio.run(build_bot, "tsc", bot, 120.0)
    assert done.problem is not None and done.problem.startswith(
        "failed (exit status 2): console is not declared, as console.log would write to "
        "stdout, where only protocol messages go: log with the kit's log() (`import { log } "
        'from "./log";`), which writes to stderr'), done.problem


@pytest.mark.skipif(shutil.which("mcs") is None, reason="no Mono C# compiler")
def test_a_csharp_syntax_error_is_shown_before_mcs_summary(tmp_path: Path) -> None:
    """The C# kit with a `;` taken out: mcs writes the error (to stderr) then its summary
    (to stdout); the build's output shows the error line first, the summary after it, and
    the tournament's one line for it is that error line."""
    bot = tmp_path / "bot"
    shutil.copytree(CSHARP, bot, ignore=shutil.ignore_patterns("*.exe", "*.mdb", "*.pdb"))
    source = bot / "Strategy.cs"
    source.write_text(source.read_text().replace(";", "", 1))
    build = tomllib.loads((bot / "bot.toml").read_text())["build"]
    done = trio.run(build_bot, build, bot, 120.0)
    assert done.problem == "failed (exit status 1)"
    lines = done.excerpt(15).splitlines()
    assert lines[0].startswith("Strategy.cs(") and " error CS" in lines[0], lines
    assert lines[-1].startswith("Compilation failed: 1 error(s)"), lines
    assert done.headline() == lines[0], done.output  # a tournament's one line


def test_a_long_failed_build_is_shown_from_its_first_error_with_its_cuts_said() -> None:
    """31 lines of javac whose first error is its first line: shown from that line (the file
    and line number), the middle cut with how much, and the last two; 40 lines of progress
    then an error near the end: the last lines, with how many before are left out."""
    from referee.bots.build import BuildResult

    javac = ["Bot.java:106: error: cannot find symbol",
             "        int i = undefinedThing + d;", "                ^",
             *(f"  detail {i}" for i in range(26)), "1 error", "error: compilation failed"]
    shown = BuildResult(returncode=1, printed="\n".join(javac).encode()).excerpt(15).splitlines()
    assert shown == [*javac[:11], "... (18 lines)", *javac[-2:]]
    cargo = [*(f"   Compiling dep{i}" for i in range(40)), "error[E0425]: cannot find value",
             " --> src/main.rs:3:5"]
    shown = BuildResult(returncode=101, printed="\n".join(cargo).encode()).excerpt(15)
    assert shown.splitlines() == ["... (28 lines)", *cargo[-14:]]
    short = BuildResult(returncode=1, printed=b"a\nb").excerpt(15)
    assert short == "a\nb"


def test_a_first_error_just_above_the_last_lines_is_shown() -> None:
    """A build of 20 lines whose first error is its sixth, shown in 15: the error line itself
    is among those shown (the last 14 alone began one line under it)."""
    from referee.bots.build import BuildResult

    out = [*(f"   Compiling dep{i}" for i in range(5)), "bot.c:3:5: error: expected ';'",
           *(f"  note {i}" for i in range(14))]
    shown = BuildResult(returncode=1, printed="\n".join(out).encode()).excerpt(15)
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
    shown = BuildResult(returncode=101, printed="\n".join(cargo).encode()).excerpt(15)
    assert shown.splitlines()[:2] == ["... (37 lines)", "error[E0425]: cannot find value `y`"]
    make = ["gcc -O2 -Wall -Wno-error=unused-result -o bot bot.c",
            *(f"bot.c:{i}:1: warning: unused {i}" for i in range(30)),
            "bot.c:40:5: error: expected ';'", *(f"  note {i}" for i in range(10)),
            "make: *** [Makefile:2: bot] Error 1"]
    shown = BuildResult(returncode=2, printed="\n".join(make).encode()).excerpt(15)
    assert "bot.c:40:5: error: expected ';'" in shown.splitlines(), shown


def test_a_tournaments_left_out_line_keeps_the_builds_first_error(tmp_path: Path) -> None:
    """A tournament entrant whose build prints its error, then many lines of notes and
    warnings (gcc on one typo: 61 lines ending in a warning and make's `Error 1`): the
    left-out line names the error line itself, not just the last warnings, and the reason kept
    for the board is that line alone."""
    from referee.tournament.config import load_tournament
    from referee.tournament.entrants import build_bots

    printed = ["cc -o bot bot.c", "bot.c:32:13: error: expected ',' or '}' before 'is'",
               *(f"bot.c:{n}:1: warning: control reaches end" for n in range(40, 90)),
               "make: *** [Makefile:9: bot] Error 1"]
    (tmp_path / "out.txt").write_text("\n".join(printed) + "\n")
    file = tmp_path / "cup.toml"
    file.write_text('name = "cup"\ntable_size = 3\n' + "".join(
        f'[[bots]]\nname = "b{i}"\ncommand = "true"\n' for i in range(3)) +
        '[[bots]]\nname = "typo"\ncommand = "true"\nbuild = "sh -c \'cat out.txt; exit 2\'"\n')
    said: list[str] = []
    left_out = trio.run(build_bots, load_tournament(file), file, said.append)
    assert said[-1].startswith("left out typo: its build failed (exit status 2): ... (1 line)\n"
                               "bot.c:32:13: error: expected"), said
    assert said[-1].endswith("make: *** [Makefile:9: bot] Error 1"), said
    # what the store keeps for the board, the CSV and plan: one line, the first error
    assert left_out["typo"] == ("its build failed (exit status 2): bot.c:32:13: error: "
                                "expected ',' or '}' before 'is'"), left_out


def test_a_rust_builds_one_line_names_the_place_rustc_gives_after_its_error() -> None:
    """rustc says an error's file and line on the line after it (`--> src/...`): the one line
    a tournament keeps of the failed build (board, CSV, plan) names that place too."""
    rustc = ["rustc --edition 2021 -O --crate-name bot -o bot src/main.rs",
             "error[E0425]: cannot find value `undefined_thing` in this scope",
             "   --> src/strategy.rs:174:71", "    |", "174 |  let _z = undefined_thing;",
             "error: aborting due to 1 previous error", "make: *** [Makefile:10: bot] Error 1"]
    done = BuildResult(returncode=2, printed="\n".join(rustc).encode())
    assert done.headline() == ("error[E0425]: cannot find value `undefined_thing` in this scope "
                               "(src/strategy.rs:174:71)"), done.headline()
