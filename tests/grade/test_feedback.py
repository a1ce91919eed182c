"""A student's feedback file read through a real Markdown renderer: the summary and headings
render, and every traceback and exchange sits in a fenced block that its own text cannot
close.  Each distinct problem is told once, with its count."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from referee.check import MOVE_TIME_CHECK, CheckResult
from referee.grade.feedback import Findings, feedback
from referee.grade.markdown import code, fenced, plain_or_code
from referee.grade.problems import Problems, add_check
from referee.grade.result import StudentResult, grade_for, total_points
from referee.grade.submissions import Submission
from referee.protocol.messages import FaultKind
from referee.text import visible
from referee.tournament.config import load_tournament

from .rendering import headings, rendered, summary_items
from .test_grade import ROOT, SAMPLES, grade_here, write_config


def test_a_fence_is_longer_than_any_run_of_backticks_inside() -> None:
    """A bot's stderr that holds ``` and ```` lines stays one block, as it was."""
    text = "Traceback (most recent call last):\n```\n# not a heading\n````\nValueError: x"
    tokens = MarkdownIt("commonmark").parse(fenced(text) + "\n\nafter\n")
    assert tokens[0].type == "fence"
    assert tokens[0].content == text + "\n"
    assert tokens[-2].content == "after"
    span = MarkdownIt("commonmark").parseInline(code("a `b` ``c``"))[0].children
    assert span is not None and [(t.type, t.content) for t in span] == [
        ("code_inline", "a `b` ``c``")]


def test_a_name_of_any_script_heads_as_itself_and_markup_as_code() -> None:
    """A heading's name in letters of any script (Gradescope's names of a group) reads as it
    is; one that Markdown would read as markup or a link shows in a code span, as written."""
    for name, kind in (("José García, 王小明", "text"), ("O'Brien, Ann-Marie", "text"),
                       ("*Ann*", "code_inline"), ("[x](https://a.example)", "code_inline"),
                       ("<b>Ann</b>", "code_inline")):
        children = MarkdownIt("commonmark").parseInline(plain_or_code(name))[0].children
        assert children is not None and [(t.type, t.content) for t in children] == [
            (kind, name)], name


HOSTILE_STDERR = ("closed its output; exit status 1; its stderr ends:\nTraceback (most recent "
                  "call last):\n```\n# Heading from the bot\n  File \"bot.py\", line 3\n"
                  "ZeroDivisionError: division by zero")


def crashing_check() -> list[CheckResult]:
    """A check in which one crash (its stderr trying to close the block) fails two checks."""
    def failed(name: str, request: int) -> CheckResult:
        return CheckResult(
            name, False, f"1 of 5 answers failed; first: crash: {HOSTILE_STDERR}",
            [f"scenario auctioneer-open, request id {request}:",
             f'referee> {{"type":"request","id":{request}}}', "bot>     (no reply) ```"],
            {FaultKind.CRASH})

    return [CheckResult("starts and says hello", True, "hello from '# <b>bold</b>'"),
            failed("plays a card as auctioneer", 3),
            failed("bids in another's open auction", 7),
            CheckResult("plays several games in one process", False,
                        "the bot process was started 3 times for 3 games")]


def test_a_feedback_file_renders_with_its_blocks_closed(tmp_path: Path) -> None:
    """Rendered as Markdown, the summary is a list (status, grade, points, bot, that no game
    was played and why, what to fix first), each problem a heading; the crash that failed
    two checks is one problem with its count, its traceback and exchange in fenced blocks
    that the bot's own backticks and "# Heading" line do not end; the headings after them
    still render."""
    write_config(tmp_path / "class.toml")
    config = load_tournament(tmp_path / "class.toml")
    results = crashing_check()
    found = Findings(check=results, times=[0.01])
    add_check(found.problems, results, "referee check 'python3 bot.py'")
    outcome = StudentResult("erin", "crashed", "digest", checks=len(results), checks_passed=1)
    outcome.points = total_points(outcome, config.grading.points)
    outcome.grade, outcome.rule = grade_for(outcome, config)
    sub = Submission("erin", tmp_path / "erin", "python3 bot.py", None, None, "digest")
    text = visible(feedback(outcome, sub, config, found), indent="")
    tokens = rendered(text)
    assert headings(tokens) == [
        ("h1", "Feedback: erin"), ("h2", "Problems (2)"), ("h3", "1. It crashes"),
        ("h3", "2. Checks it did not pass, with no faulty answer of their own"),
        ("h2", "Conformance check")]
    assert [item.split(":")[0] for item in summary_items(tokens)] == [
        "status", "grade", "points", "bot", "games", "fix first"]
    assert "- games: **no game was played** because it crashed in the check" in text
    assert "- points: **1** (1 of 4 checks passed, 1 each = 1)" in text
    # told once in its problem, not once per check (and named in "fix first")
    assert text.split("## Problems")[1].count("ZeroDivisionError") == 1
    assert "It failed 2 of 4 checks (2 of their answers failed): plays a card as " \
        "auctioneer, bids in another's open auction." in text
    fences = [t for t in tokens if t.type == "fence"]
    assert fences[0].content == HOSTILE_STDERR + "\n"  # the whole stderr, in one block
    assert any(t.content.startswith("referee check") for t in fences)
    assert any("hello from '# <b>bold</b>'" in t.content for t in fences)  # not bold


def test_a_working_bot_that_crashed_in_some_games_says_so_in_its_status(tmp_path: Path) -> None:
    """A bot that passed the check and crashed in 10 of its 60 games is `ok`: its status line,
    and the teacher's line as it is graded, say how many faults its games had and of which
    kind (not its seat's retirements, which follow from them), rather than "played its games"
    alone; one whose games had none says nothing of faults."""
    from referee.grade.result import done_line

    write_config(tmp_path / "class.toml")
    config = load_tournament(tmp_path / "class.toml")
    sub = Submission("fay", tmp_path / "fay", "python3 bot.py", None, None, "digest")
    faults = {"crashes": 10, "retirements": 10, "timeouts": 1, "stderr_over_limit": 0}
    outcome = StudentResult("fay", "ok", "digest", grade="C", games=60, faults=faults,
                            checks=21, checks_passed=21, points=21)
    text = feedback(outcome, sub, config, Findings())
    assert ("- status: **ok** (it built, passed every check and played its games, but with "
            "11 faults in its 60 games (10 crashes, 1 timeout): see the problems below)") in text, \
        text
    assert done_line(outcome) == ("ok, grade C, 21 points; 11 faults in its 60 games (10 "
                                  "crashes, 1 timeout)")
    clean = replace(outcome, faults={})
    assert "- status: **ok** (it built, passed every check and played its games)\n" in \
        feedback(clean, sub, config, Findings())
    assert done_line(clean) == "ok, grade C, 21 points"
    from referee.check import MOVE_TIME_CHECK
    from referee.grade.feedback import OK_BUT_MOVE_TIME, status_words
    late = [CheckResult(MOVE_TIME_CHECK, False, "late", [], set())]
    assert status_words("ok", late, "2 faults in its 60 games (2 timeouts)") == (
        f"{OK_BUT_MOVE_TIME}, with 2 faults in its 60 games (2 timeouts): see the problems "
        "below")  # one "but" only


def test_a_bot_that_prints_debug_before_its_hello_is_not_said_to_crash(tmp_path: Path) -> None:
    """A student's debug line on stdout before its hello stops the check at its start, so the
    bot is `crashed` and plays no game; its feedback says so without claiming it crashed: the
    status covers a bot that said no valid hello, and the games line says that is why."""
    write_config(tmp_path / "class.toml")
    config = load_tournament(tmp_path / "class.toml")
    results = [CheckResult(
        "starts and says hello", False, "bad hello: Invalid JSON: expected value at line 1 "
        "column 1; the line began 'DEBUG got hello' (stdout is for protocol messages only)",
        [], {FaultKind.START})]
    found = Findings(check=results, times=[])
    add_check(found.problems, results, "referee check 'python3 bot.py'")
    outcome = StudentResult("carol", "crashed", "digest", checks=1, checks_passed=0)
    outcome.grade, outcome.rule = grade_for(outcome, config)
    sub = Submission("carol", tmp_path / "carol", "python3 bot.py", None, None, "digest")
    text = visible(feedback(outcome, sub, config, found), indent="")
    assert ("- status: **crashed** (it crashed, could not start or said no valid hello in "
            "the check, or crashed in every game it played)") in text
    assert ("- games: **no game was played** because it said no valid hello in the check, "
            "and a bot that cannot begin a game there cannot play its games") in text


def test_a_check_that_was_not_run_is_not_said_to_have_failed(tmp_path: Path) -> None:
    """Debug lines on stdout fail a check, a double never offered fails one with no faulty
    answer, and the check that needs a warning is never run (SKIP in the list, as check says
    it): the problems say it failed 2 checks, and name only those two."""
    write_config(tmp_path / "class.toml")
    config = load_tournament(tmp_path / "class.toml")
    why = "first: malformed: bad reply: Invalid JSON; the line began 'DEBUG x'"
    double = "offers or declines a second card for its own double"
    results = [
        CheckResult("starts and says hello", True, "hello from 'erin'"),
        CheckResult("writes replies to requests only", False, f"1 of 5 answers failed; {why}",
                    ["scenario x, request id 3:", "bot>     DEBUG x"], {FaultKind.MALFORMED}),
        CheckResult(double, False, "it declined every double it could have added to"),
        CheckResult("keeps playing after a warning", False, "never warned: no answer of it "
                    "was refused", not_run=True)]
    found = Findings(check=results, times=[0.01])
    add_check(found.problems, results, "referee check 'python3 bot.py'")
    outcome = StudentResult("erin", "failed the check", "digest", checks=4, checks_passed=1)
    outcome.points = total_points(outcome, config.grading.points)
    outcome.grade, outcome.rule = grade_for(outcome, config)
    sub = Submission("erin", tmp_path / "erin", "python3 bot.py", None, None, "digest")
    text = " ".join(visible(feedback(outcome, sub, config, found), indent="").split())
    problems = text.split("## Problems")[1].split("## Conformance check")[0]
    assert "It failed 1 of 4 checks (1 of its answers failed): writes replies to requests " \
        "only." in problems
    assert f"It failed 1 of 4 checks: {double}." in problems, problems
    assert "keeps playing after a warning" not in problems, problems


def test_one_crash_in_many_games_is_one_problem_with_its_counts() -> None:
    """Faults that differ only in their numbers, or in where the check met them, are one
    problem; another exception is another problem."""
    problems = Problems()
    for game in range(12):
        p = problems.add("crash", f"closed its output; exit status 1; its stderr ends:\n"
                                  f"[bot] game {game}\nTraceback (most recent call last):\n"
                                  f'  File "bot.py", line {100 + game}\nKeyError: {game}')
        p.games.add(f"g{game}")
        p.times += 1
    problems.add("crash", "in the classic edition, the bot crashed: closed its output; exit "
                          "status 1; its stderr ends:\nTraceback (most recent call last):\n"
                          "KeyError: 99")
    problems.add("crash", "closed its output; exit status 1; its stderr ends:\nValueError: 3")
    for amount in (101, 245):
        problems.add("illegal", f"bid {amount} is more than seat 0's money {amount - 1} (R4)")
    told = problems.ordered()
    assert [(p.kind, len(p.games)) for p in told] == [("crash", 12), ("crash", 0),
                                                      ("illegal", 0)]
    assert told[0].times == 12 and told[1].reason.endswith("ValueError: 3")


def test_a_check_stopped_at_its_first_failure_counts_every_check() -> None:
    """A bot that cannot start fails the first check and the check stops there: its feedback
    says 0 of all the checks passed and how many could not run, not "0 of 1"."""
    from referee.check import CHECK_COUNT
    from referee.grade.notes import check_note

    note = check_note([CheckResult("starts and says hello", False, "closed its output")], [],
                      {"starts and says hello": 1})
    assert note.startswith(f"## Conformance check\n\n0 of {CHECK_COUNT} checks passed "
                           f"({CHECK_COUNT - 1} could not run); "), note
    assert "FAIL  starts and says hello: closed its output  (problem 1)" in note


def test_commands_for_students_run_without_bubblewrap_and_say_the_sandbox(
        tmp_path: Path) -> None:
    """Grading in the sandbox: the check and play commands a student is given have no
    `--sandbox bwrap` (which fails where bubblewrap is not installed, as on a Mac), keep the
    grading's time limits, and the game's command comes with a note saying how to add it."""
    from referee.grade.reproduce import SANDBOX_NOTE, check_command, play_command

    path = tmp_path / "class.toml"
    write_config(path)
    path.write_text('sandbox = "bwrap"\n' + path.read_text())
    config = load_tournament(path)
    assert config.sandbox == "bwrap"
    check = check_command("python3 bot.py", config)
    assert check == ("referee check --move-time 0.3 --time-bank 0.6 --startup-time 5 "
                     "'python3 bot.py'")
    play, notes = play_command(config, path, ["me", "random-1", "random-2", "random-3"], "me",
                               "python3 bot.py", seed=3)
    assert "--sandbox" not in play and "--move-time 0.3" in play
    assert SANDBOX_NOTE in notes and "add --sandbox bwrap" in SANDBOX_NOTE


def late_in_the_check_only() -> str:
    """The random sample bot, made to answer seven requests in 0.45 s (over the move time of
    0.3 s, under twice it, one a game, within the time bank), its requests 5, 105, ... 605 of
    the first process started in its folder only (the check's, which plays its 11 games):
    late more often than the check forgives as a machine's stalls (1 in 200), no fault, one
    failed check."""
    code = (SAMPLES / "python" / "random_bot.py").read_text()
    request = "            elif kind == \"request\":\n"
    assert request in code
    return code.replace(request, request + (
        "                import time\n"
        "                from pathlib import Path\n"
        "                slowed = Path('slowed')\n"
        "                done = slowed.read_text() if slowed.exists() else ''\n"
        "                if len(done) < 7 and message.get('id', 0) % 100 == 5:\n"
        "                    slowed.write_text(done + 'x')\n"
        "                    time.sleep(0.45)\n"))


def test_fix_first_names_the_check_that_failed_with_no_faulty_answer(tmp_path: Path) -> None:
    """A bot whose only failed check is answering within the move time (seven answers late
    in the check, no fault) is told, on its "fix first" line, which check failed and why (the
    answers over the move time and the slowest), not "1 check(s) failed with no faulty
    answer", which named nothing to fix; its problem tells the reason once."""
    subs = tmp_path / "subs"
    (subs / "alice").mkdir(parents=True)
    (subs / "alice" / "bot.py").write_text(late_in_the_check_only())
    write_config(tmp_path / "class.toml", seat_orders="rotations")
    done = grade_here(subs, tmp_path / "class.toml", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "out" / "feedback" / "alice.md").read_text()
    fix_first = next(ln for ln in text.splitlines() if ln.startswith("- fix first"))
    assert f"`{MOVE_TIME_CHECK}: " in fix_first and "accepted answers took longer than " \
        "the move time of 0.3 s" in fix_first, text
    assert "check(s)" not in text and "with no faulty answer`" not in text, text
    problems = text.split("## Problems")[1].split("## Conformance check")[0]
    assert problems.count("accepted answers took longer than") == 1, problems


@pytest.fixture(scope="module")
def crashed_feedback(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The feedback of a student whose bot crashes in the check (a Python traceback on its
    stderr), graded once for the tests that read it."""
    tmp_path = tmp_path_factory.mktemp("crashed")
    subs = tmp_path / "subs"
    (subs / "erin").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "scripted_bots" / "crash_mid_game.py", subs / "erin" / "bot.py")
    write_config(tmp_path / "class.toml", seat_orders="rotations")
    done = grade_here(subs, tmp_path / "class.toml", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    return (tmp_path / "out" / "feedback" / "erin.md").read_text()


def test_the_check_list_points_to_the_problem_that_quotes_a_crash(crashed_feedback: str) -> None:
    """A bot that crashes in the check: each check it failed is one line of the list, which
    ends where the reason announces its stderr by pointing to the problem above that quotes
    it (`its stderr ends: see problem 1 above`); the error itself is told once, in its
    problem."""
    text = crashed_feedback
    listed = text.split("## Conformance check")[1]
    failed = [ln for ln in listed.splitlines() if ln.startswith("FAIL")]
    assert failed and all("problem 1" in ln for ln in failed), listed
    assert all("exit status 1; " in ln and ln.endswith("; its stderr ends: see problem 1 above")
               for ln in failed if "stderr" in ln), listed
    assert "ends:  (problem" not in text, listed
    assert text.split("## Problems")[1].count("ZeroDivisionError: division by zero") == 1, text


def test_a_problems_count_of_answers_says_they_failed(crashed_feedback: str) -> None:
    """A bot that crashes in the check: its problem says how many checks it failed and how
    many of their answers failed (`It failed 10 of 21 checks (15 of their answers
    failed)`)."""
    text = crashed_feedback
    said = re.search(r"It failed (\d+) of (\d+) checks \((\d+) of their answers failed\): ",
                     text)
    assert said is not None, text
    assert int(said[3]) >= int(said[1]) > 1, text  # at least one answer a failed check
    assert not re.search(r"checks \(\d+ answers?\)", text), text
