"""`referee grade` over a folder of student bots in several languages, some broken."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.check import CHECK_COUNT, MOVE_TIME_CHECK

from .. import in_process, terminal
from ..processes import BOT_PYTHON
from .baselines_in_process import baselines_in_process
from .rendering import headings, rendered, summary_items

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "scripted_bots"
SAMPLES = ROOT / "sample_bots"


def make_submissions(root: Path) -> None:
    def put(student: str, files: dict[str, str | Path]) -> None:
        folder = root / student
        folder.mkdir(parents=True)
        for name, content in files.items():
            if isinstance(content, Path):
                shutil.copy(content, folder / name)
            else:
                (folder / name).write_text(content)

    put("alice", {"bot.py": SAMPLES / "python" / "baseline_bot.py"})
    put("bob", {"bot.js": SAMPLES / "javascript" / "bot.js"})
    put("carol", {"main.pl": SAMPLES / "perl" / "bot.pl",
                  "bot.toml": 'name = "carol"\ncommand = "perl main.pl"\n'})
    put("dave", {"Makefile": "bot: bot.c\n\tcc -o bot bot.c\n",
                 "bot.c": "int main(void) { return syntax error; }\n"})
    put("erin", {"bot.py": BOTS / "crash_mid_game.py"})
    put("frank", {"bot.py": BOTS / "never_answers.py"})
    put("grace", {"bot.py": BOTS / "illegal.py",
                  "bot.toml": 'command = "python3 bot.py --kind over_money"\n'})
    put("heidi", {"notes.txt": "I did not finish"})
    put("ivan", {"bot.py": crashes_in_some_games()})
    put("judy", {})
    put("kim", {"bot.toml": 'command = "python3 missing.py"\n'})


def crashes_in_some_games() -> str:
    """The random sample bot, made to divide by zero at its first request in each game
    where it sits in seat 2 or 3 against random-1: never in the check, in 2 of its 4 graded
    games (rotations: it sits in each seat once)."""
    code = (SAMPLES / "python" / "random_bot.py").read_text()
    new_game = "                bot.new_game(message)\n"
    request = "            elif kind == \"request\":\n"
    assert new_game in code and request in code
    return code.replace(new_game, new_game + (
        "                doomed = message.get(\"seat\") in (2, 3) and "
        "\"random-1\" in message.get(\"names\", [])\n")).replace(
        request, request + "                if doomed:\n"
                           "                    print(1 / 0)\n").replace(
        "    try:\n        for raw in", "    doomed = False\n    try:\n        for raw in")


def write_config(path: Path, seat_orders: str = "all") -> None:
    """A class against three random baselines at tables of four, one deal: 24 games a
    student in every seat order, 4 in `rotations`."""
    random_bot = SAMPLES / "python" / "random_bot.py"
    path.write_text(f'''
name = "class"
seed = 5
table_size = 4
format = "gauntlet"
baselines = ["random-1", "random-2", "random-3"]
deals = 1
seat_orders = "{seat_orders}"
[limits]
move_time = 0.3
time_bank = 0.6
startup_time = 5
build_time = 60
[grading]
otherwise = "C"
broken = "F"
[[grading.rules]]
grade = "A"
beats = ["random-1", "random-2", "random-3"]
''' + "".join(f'''
[[bots]]
name = "random-{i}"
command = "{BOT_PYTHON} {random_bot} --seed {i}"
''' for i in (1, 2, 3)))


# `python -m referee`, its random and sample baselines played inside it (grade_process.py).
REFEREE_BASELINES_INSIDE = [sys.executable, str(Path(__file__).with_name("grade_process.py"))]


def grade(subs: Path, config: Path, out: Path, prefix: list[str] | None = None,
          workers: int | None = None,
          baselines_inside: bool = False) -> subprocess.CompletedProcess[str]:
    """Run with paths relative to the working directory, as a teacher would type them;
    `prefix` goes before the command (see `without_reading_all`).  `baselines_inside`: the
    baselines played in the referee's process (`REFEREE_BASELINES_INSIDE`), for the tests
    that need its process but not theirs."""
    cwd = out.parent
    more = [] if workers is None else ["--workers", str(workers)]
    referee = REFEREE_BASELINES_INSIDE if baselines_inside else [sys.executable, "-m", "referee"]
    return subprocess.run([*(prefix or []), *referee, "grade",
                           os.path.relpath(subs, cwd), "--config", os.path.relpath(config, cwd),
                           "--out", os.path.relpath(out, cwd), *more], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def grade_here(subs: Path, config: Path, out: Path,
               workers: int = 1) -> subprocess.CompletedProcess[str]:
    """`grade` inside the test process (`in_process`), for the tests that read what grading
    says and writes, not what its process does: half a second of start-up less each.  Its
    games on one worker unless told (a student's games on two start its bots twice), and the
    random baselines' own code in the test process (`baselines_in_process`): each student's
    bot is still a process, and its games are move for move those of the baselines'
    processes."""
    cwd = out.parent
    with baselines_in_process():
        return in_process.referee("grade", os.path.relpath(subs, cwd), "--config",
                                  os.path.relpath(config, cwd), "--out",
                                  os.path.relpath(out, cwd), "--workers", str(workers), cwd=cwd,
                                  timeout=600)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None or shutil.which("perl") is None
                    or shutil.which("cc") is None, reason="node, perl or cc is missing")
def test_grading_a_class(tmp_path: Path) -> None:
    """A class in several languages, some broken: each gets its status, games, grade, points
    and feedback; one deal separates no one, so the baseline sample is level with every random
    bot and gets `otherwise`; graded again, only the changed submission is played."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    make_submissions(subs)
    write_config(config, seat_orders="rotations")  # 4 games a student: as telling as 24
    config.write_text(config.read_text().replace(
        'broken = "F"\n', 'broken = "F"\npoints = {check = 1, placement = 20}\n'))
    done = grade_here(subs, config, out)
    assert done.returncode == 0, done.stderr
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert {s: r["status"] for s, r in rows.items()} == {
        "alice": "ok", "bob": "ok", "carol": "ok", "dave": "build failed", "erin": "crashed",
        "frank": "timed out", "grace": "failed the check", "heidi": "no bot found",
        "ivan": "ok", "judy": "no bot found", "kim": "crashed",
    }
    for student in ("alice", "bob", "carol", "grace", "ivan"):
        assert int(rows[student]["games"]) == 4  # each seat once, at one deal
    for student in ("dave", "erin", "frank", "heidi", "judy", "kim"):
        assert rows[student]["games"] == "0" and rows[student]["grade"] == "F"
    # One deal: the smallest one-sided p is 1/2, and there is no interval.
    assert (rows["alice"]["grade"], rows["alice"]["rule"]) == ("C", "otherwise")
    for b in ("random-1", "random-2", "random-3"):
        assert rows["alice"][f"vs_{b}"] == "level" and float(rows["alice"][f"vs_{b}_diff"]) > 0
        assert rows["alice"][f"vs_{b}_low"] == rows["alice"][f"vs_{b}_high"] == ""
    assert (rows["dave"]["rule"], rows["dave"]["vs_random-1"]) == ("broken", "")
    assert rows["grace"]["grade"] == "F" and int(rows["grace"]["faults"]) > 0
    assert rows["erin"]["faults"] == "0"  # no games: the check's crash is in its status
    assert_points(rows)
    header = next(csv.reader((out / "grades.csv").open()))
    assert header[:11] == ["student", "status", "grade", "games", "win_share", "placement",
                           "placement_low", "placement_high", "money", "faults", "rule"]
    assert header[-2:] == ["points", "checks_passed"]

    feedback = {p.stem: p.read_text() for p in (out / "feedback").glob("*.md")}
    assert set(feedback) == set(rows)
    assert "syntax error" in feedback["dave"] or "error" in feedback["dave"]
    assert "ZeroDivisionError" in feedback["erin"]
    assert "timed out" in feedback["frank"]
    assert ("referee check --move-time 0.3 --time-bank 0.6 --startup-time 5 "
            "'python3 bot.py'\n") in feedback["frank"]  # to meet the same time limits
    assert "is more than seat" in feedback["grace"] and "referee> " in feedback["grace"]
    assert ("referee check --move-time 0.3 --time-bank 0.6 --startup-time 5 "
            "'python3 bot.py --kind over_money'") in feedback["grace"]
    for student in ("heidi", "judy"):
        assert "no bot found" in feedback[student]
    assert "- grade: **C**, it met no rule" in feedback["alice"]
    assert "level with random-1, not separated either way" in feedback["alice"]
    assert "too few deals to bound it at this confidence" in feedback["alice"]
    assert_feedback_for_students(out, subs, feedback)

    again = grade_here(subs, config, out)
    assert again.returncode == 0
    assert again.stderr.count("unchanged") == 11
    # The table's placements with grades.csv's three decimals (tabulate once printed 0.85).
    table = {line.split()[0]: line.split() for line in again.stdout.splitlines()[2:] if line}
    for student in ("alice", "bob", "carol", "grace", "ivan"):
        assert table[student][-1] == f"{float(rows[student]['placement']):.3f}", again.stdout
    (subs / "bob" / "bot.js").write_text((subs / "bob" / "bot.js").read_text() + "\n// v2\n")
    third = grade_here(subs, config, out)
    assert third.stderr.count("unchanged") == 10 and "bob: grading" in third.stderr
    assert list(csv.DictReader((out / "grades.csv").open()))[1]["status"] == "ok"


def assert_points(rows: dict[str, dict[str, str]]) -> None:
    """Points are a point per check passed and 20 times the mean placement; the working bots
    earn the most, a bot that passed some checks more than an empty folder or a failed
    build, which earn none; grades.csv keeps its columns and adds these two last."""
    for r in rows.values():
        placement = float(r["placement"] or 0)
        assert float(r["points"]) == pytest.approx(int(r["checks_passed"]) + 20 * placement,
                                                   abs=0.01)
    points = {s: float(r["points"]) for s, r in rows.items()}
    working = [points[s] for s in ("alice", "bob", "carol")]
    partial = [points[s] for s in ("erin", "frank", "grace")]
    assert min(working) > points["ivan"] > max(partial)
    assert min(partial) > 0 == points["judy"] == points["heidi"] == points["dave"]


def assert_feedback_for_students(out: Path, subs: Path, feedback: dict[str, str]) -> None:
    """Every feedback file renders with each traceback and exchange in a fenced block; none
    names the teacher's folders (kim's missing file, which Python names by its absolute path
    in the copy, is named as kim has it); ivan's crash in 2 of its 4 games is one problem
    with that count, the first such game's record copied next to the feedback."""
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    for student, text in feedback.items():
        tokens = rendered(text)
        assert headings(tokens)[0] == ("h1", f"Feedback: {student}")
        none_played = rows[student]["games"] == "0"
        assert [item.split(":")[0] for item in summary_items(tokens)] == [
            "status", "grade", "points", "bot", *(["games"] * none_played), "fix first"]
        assert ("no game was played** because" in text) == none_played, (student, text)
    teachers = {str(out.resolve()), str(subs.resolve()), str(out.parent.resolve())}
    for path in (out / "feedback").rglob("*"):
        if path.is_file():
            text = path.read_text()
            assert not [t for t in teachers if t in text], (path, text)
    assert "can't open file 'missing.py'" in feedback["kim"]
    # a bot that cannot start fails them all
    assert f"(0 of {CHECK_COUNT} checks passed" in feedback["kim"]
    assert "no game was played** because it crashed in the check" in feedback["kim"]
    fix_first = next(ln for ln in feedback["kim"].splitlines() if ln.startswith("- fix first"))
    assert "can't open file" in fix_first, fix_first  # the error, not "its stderr ends:"
    ivan = feedback["ivan"]
    # (on a loaded machine, answers over the move time, in its games or in the check's timing
    # of them, may be one more problem)
    loaded = ("It answers slower than the move time",
              "Checks it did not pass, with no faulty answer of their own")
    assert [h for h in re.findall(r"^### \d+\. (.*)", ivan, re.M) if h not in loaded] == [
        "It crashes"]
    untimed = re.search(r"^### \d+\. " + re.escape(loaded[1]) + r"\n(.*?)(?=^#|\Z)", ivan,
                        re.M | re.S)  # its reason names the one check, inline or fenced
    assert untimed is None or untimed[1].strip().lstrip("`").lstrip().startswith(
        f"{MOVE_TIME_CHECK}: "), untimed
    problems = ivan.split("## Problems")[1]
    assert problems.count("ZeroDivisionError") == 1  # one problem, its traceback shown once
    assert "ZeroDivisionError" in ivan.split("## Problems")[0]  # and named in "fix first"
    assert "It came up in 2 of 4 games (2 times)." in ivan
    (record,) = (out / "feedback" / "ivan").glob("game-*.jsonl")
    assert f"referee replay ivan/{record.name}" in ivan
    assert "'ivan=python3 bot.py'" in ivan
    python = Path(sys.executable).name  # the baselines' interpreter, by its name alone
    assert f'"random-1={python} -S $REFEREE/sample_bots/python/random_bot.py --seed 1"' in ivan


def test_a_submissions_escape_sequences_are_shown_not_obeyed(tmp_path: Path) -> None:
    """A student's folder name, build output, reply and stderr that would clear the screen,
    set the window title and overwrite a line with "ALL BOTS PASSED": the teacher's terminal,
    grades.csv and the feedback files show them as escapes."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    write_config(config)
    evil = "mallory\x1b]0;pwned\x07\rALL BOTS PASSED"
    for student, toml in ((evil, 'command = "python3 bot.py"\nbuild = "python3 bot.py --build"'),
                          ("oscar", 'command = "python3 bot.py"')):
        (subs / student).mkdir(parents=True)
        shutil.copy(BOTS / "terminal_escape.py", subs / student / "bot.py")
        (subs / student / "bot.toml").write_text(toml + "\n")
    done = terminal.referee("grade", "subs", "--config", "class.toml", "--out", "out",
                            cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    shown = "mallory\\x1b]0;pwned\\x07\\rALL BOTS PASSED"
    terminal.assert_shown_safely(done.stdout + done.stderr, shown + ": grading", shown + "  ")
    grades = (out / "grades.csv").read_text().replace("\r\n", "\n")  # CSV's own line ends
    terminal.assert_shown_safely(grades, shown + ",build failed,F")
    terminal.assert_shown_safely((out / "feedback" / f"{evil}.md").read_text(),
                                 "# Feedback: `" + shown + "`",
                                 "error: \\x1b[2J\\x1b]0;pwned\\x07\n",
                                 "\nALL BOTS PASSED\\x9b31m\\u202edeliaf\n")
    terminal.assert_shown_safely((out / "feedback" / "oscar.md").read_text(),
                                 "- status: **crashed**",
                                 "bot>     \\x1b[2J\\x1b]0;pwned\\x07",
                                 "its stderr ends:\nTraceback: \\x1b[2J\\x1b]0;pwned\\x07\n")


@pytest.mark.slow
def test_grading_in_the_sandbox(tmp_path: Path) -> None:
    """--sandbox bwrap: builds, checks and games all run sandboxed, and still grade."""
    from referee.bots.sandbox import SandboxError, check_sandbox_available

    try:
        check_sandbox_available("bwrap")
    except SandboxError as exc:
        pytest.skip(str(exc))
    if shutil.which("cc") is None or not Path("/usr/include/cjson/cJSON.h").exists():
        pytest.skip("no C compiler or cJSON for the C submission")
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "alice").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "baseline_bot.py", subs / "alice" / "bot.py")
    (subs / "carol").mkdir()
    for name in ("Makefile", "bot.c"):
        shutil.copy(SAMPLES / "c" / name, subs / "carol" / name)
    write_config(config, seat_orders="rotations")
    done = subprocess.run([sys.executable, "-m", "referee", "grade", str(subs), "--config",
                           str(config), "--out", str(out), "--sandbox", "bwrap"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert rows["alice"]["status"] == rows["carol"]["status"] == "ok"
    assert int(rows["carol"]["games"]) == 4


def test_a_platforms_feedback_shows_a_games_lines_but_names_no_record(tmp_path: Path) -> None:
    """On a platform (`grade-one`) the student gets the feedback text only: a crash in its
    games is shown by the record's lines around it, with no record file named and no `referee
    replay` of one; the command that plays the game again is still given.  Its heading names
    no one: the folder's name is the platform's (`submission`, `student`), not the
    student's."""
    ivan, config = tmp_path / "ivan", tmp_path / "class.toml"
    ivan.mkdir()
    (ivan / "bot.py").write_text(crashes_in_some_games())
    write_config(config, seat_orders="rotations")
    with baselines_in_process():
        done = in_process.referee("grade-one", "ivan", "--config", "class.toml", "--results",
                                  "results.json", "--format", "gradescope", "--workers", "1",
                                  "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    output = json.loads((tmp_path / "results.json").read_text())["output"]
    assert output.startswith("# Feedback\n\n- status: "), output
    assert "It came up in 2 of 4 games (2 times)." in output, output
    assert re.search(r"The first game it came up in, lines \d+ to \d+ of its record \(your bot "
                     r"is seat \d", output), output
    assert "ZeroDivisionError" in output and "referee play" in output, output
    assert "referee replay" not in output and ".jsonl" not in output, output


def test_a_built_file_handed_in_is_named_when_the_bot_then_cannot_start(tmp_path: Path) -> None:
    """A student who hands in a `bot` built elsewhere beside its sources has `make` say it is
    up to date and run that file, which cannot start here: the feedback says, at that
    problem and in the build's section, that the build made nothing because the built file
    was handed in, and to hand in the sources without it.  Given `--name`, its heading names
    the student by it."""
    if shutil.which("make") is None:
        pytest.skip("no make")
    sub, config = tmp_path / "eve", tmp_path / "class.toml"
    sub.mkdir()
    (sub / "bot.c").write_text("int main(void) { return 0; }\n")
    (sub / "Makefile").write_text("bot: bot.c\n\tcc -o bot bot.c\n")
    built = sub / "bot"  # another machine's build: here it cannot start
    built.write_text("#!/no/such/interpreter\n")
    built.chmod(0o755)
    os.utime(sub / "bot.c", (1_000_000_000, 1_000_000_000))  # older than the built file
    write_config(config, seat_orders="rotations")
    done = in_process.referee("grade-one", "eve", "--name", "Eve", "--config", "class.toml",
                              "--results", "results.json", "--format", "gradescope",
                              "--workers", "1", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    output = json.loads((tmp_path / "results.json").read_text())["output"]
    assert output.startswith("# Feedback: Eve\n"), output
    assert "make: 'bot' is up to date." in output, output
    assert ("Your build made nothing (its output, below, says so): the file it makes was "
            "handed in already built, so that file ran as it came, not one built here from "
            "your sources. Hand in your sources without it (`make clean` first, or delete the "
            "built file).") in output, output
    assert ("It built nothing, the file it makes having been handed in already built: that "
            "file is what ran. Its output:") in output, output


def test_the_status_words_of_a_bot_over_the_move_time_say_so(tmp_path: Path) -> None:
    """A bot whose answers in the check overran the move time (a check that alone does not
    fail the status: the time bank pays for them) is `ok`, and its feedback's status line no
    longer says it passed every check: it names the one it failed, as its check list does."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "lena").mkdir(parents=True)
    shutil.copy(BOTS / "answers_late.py", subs / "lena" / "bot.py")
    # Answers of 0.4 s at a move time of 0.3 s, its requests 5, 105, ... 605: seven in the
    # check (one a game: more than the 1 in 200 it forgives as a machine's stalls, so it
    # fails), one in each graded game; the time bank of 0.6 s takes each 0.1 s overrun.
    only = "".join(f" --only {n}" for n in range(5, 700, 100))
    (subs / "lena" / "bot.toml").write_text(f'command = "python3 bot.py{only} --delay 0.4"\n')
    write_config(config, seat_orders="rotations")
    done = grade_here(subs, config, out)
    assert done.returncode == 0, done.stderr
    text = (out / "feedback" / "lena.md").read_text()
    assert f"\nFAIL  {MOVE_TIME_CHECK}: " in text, text
    status = next(line for line in text.splitlines() if line.startswith("- status:"))
    assert status == ("- status: **ok** (it built, passed every check but answering within "
                      "the move time (which alone does not fail a bot), and played its games)"
                      ), status


def test_a_bug_the_kit_catches_is_a_problem_in_the_feedback(tmp_path: Path) -> None:
    """The baseline with a bug in playing a card, which its safety net catches (every check
    passes, status ok): the feedback's first problem is the error it lived through, quoted,
    with how many lines and the check command that keeps its stderr."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "frank").mkdir(parents=True)
    source = (SAMPLES / "python" / "baseline_bot.py").read_text()
    buggy = source.replace('        if kind == "play":\n',
                           '        if kind == "play":\n            raise KeyError("ratio")\n', 1)
    assert buggy != source
    (subs / "frank" / "bot.py").write_text(buggy)
    write_config(config, seat_orders="rotations")
    done = grade_here(subs, config, out)
    assert done.returncode == 0, done.stderr
    feedback = (out / "feedback" / "frank.md").read_text()
    assert "status: **ok**" in feedback
    raised = buggy.splitlines().index('            raise KeyError("ratio")') + 1  # its line
    assert ("fix first: problem 1 below, it logs errors it lived through: `baseline: request "
            f"2 (play): no field or key 'ratio' (KeyError) at bot.py:{raised} in decide; falling "
            "back`") in feedback, feedback
    assert "### 1. It logs errors it lived through" in feedback
    assert "referee check --move-time 0.3 --time-bank 0.6 --startup-time 5 'python3 bot.py' " \
           "--stderr stderr.log" in feedback, feedback
