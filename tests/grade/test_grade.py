"""`referee grade` over a folder of student bots in several languages, some broken."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .. import terminal

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


def write_config(path: Path) -> None:
    random_bot = SAMPLES / "python" / "random_bot.py"
    path.write_text('''
name = "class"
seed = 5
table_size = 4
format = "gauntlet"
baselines = ["random-1", "random-2", "random-3"]
deals = 1
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
command = "{sys.executable} {random_bot} --seed {i}"
''' for i in (1, 2, 3)))


def grade(subs: Path, config: Path, out: Path, prefix: list[str] | None = None,
          workers: int | None = None) -> subprocess.CompletedProcess[str]:
    """Run with paths relative to the working directory, as a teacher would type them;
    `prefix` goes before the command (see `without_reading_all`)."""
    cwd = out.parent
    more = [] if workers is None else ["--workers", str(workers)]
    return subprocess.run([*(prefix or []), sys.executable, "-m", "referee", "grade",
                           os.path.relpath(subs, cwd), "--config", os.path.relpath(config, cwd),
                           "--out", os.path.relpath(out, cwd), *more], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("perl") is None
                    or shutil.which("cc") is None, reason="node, perl or cc is missing")
def test_grading_a_class(tmp_path: Path) -> None:
    """A class in several languages, some broken: each gets its status, games, grade and
    feedback; one deal separates no one, so the baseline sample is level with every random
    bot and gets `otherwise`; graded again, only the changed submission is played."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    make_submissions(subs)
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert {s: r["status"] for s, r in rows.items()} == {
        "alice": "ok", "bob": "ok", "carol": "ok", "dave": "build failed", "erin": "crashed",
        "frank": "timed out", "grace": "failed the check", "heidi": "build failed",
    }
    for student in ("alice", "bob", "carol", "grace"):
        assert int(rows[student]["games"]) == 24  # every seat order of one deal
    for student in ("dave", "erin", "frank", "heidi"):
        assert rows[student]["games"] == "0" and rows[student]["grade"] == "F"
    # One deal: the smallest one-sided p is 1/2, and there is no interval.
    assert (rows["alice"]["grade"], rows["alice"]["rule"]) == ("C", "otherwise")
    for b in ("random-1", "random-2", "random-3"):
        assert rows["alice"][f"vs_{b}"] == "level" and float(rows["alice"][f"vs_{b}_diff"]) > 0
        assert rows["alice"][f"vs_{b}_low"] == rows["alice"][f"vs_{b}_high"] == ""
    assert (rows["dave"]["rule"], rows["dave"]["vs_random-1"]) == ("broken", "")
    assert rows["grace"]["grade"] == "F" and int(rows["grace"]["faults"]) > 0
    assert rows["erin"]["faults"] == "0"  # no games: the check's crash is in its status

    feedback = {p.stem: p.read_text() for p in (out / "feedback").glob("*.md")}
    assert set(feedback) == set(rows)
    assert "syntax error" in feedback["dave"] or "error" in feedback["dave"]
    assert "ZeroDivisionError" in feedback["erin"]
    assert "timed out" in feedback["frank"]
    assert "is more than seat" in feedback["grace"] and "referee> " in feedback["grace"]
    assert ("referee check --move-time 0.3 --time-bank 0.6 --startup-time 5 "
            "'python3 bot.py --kind over_money'") in feedback["grace"]
    assert "no bot found" in feedback["heidi"]
    assert "- grade: **C**, it met no rule" in feedback["alice"]
    assert "level with random-1, not separated either way" in feedback["alice"]
    assert "no interval from a single deal" in feedback["alice"]

    again = grade(subs, config, out)
    assert again.returncode == 0
    assert again.stderr.count("unchanged") == 8
    (subs / "bob" / "bot.js").write_text((subs / "bob" / "bot.js").read_text() + "\n// v2\n")
    third = grade(subs, config, out)
    assert third.stderr.count("unchanged") == 7 and "bob: grading" in third.stderr
    assert list(csv.DictReader((out / "grades.csv").open()))[1]["status"] == "ok"


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
                                 "# " + shown, "error: \\x1b[2J\\x1b]0;pwned\\x07\n",
                                 "\nALL BOTS PASSED\\x9b31m\\u202edeliaf\n")
    terminal.assert_shown_safely((out / "feedback" / "oscar.md").read_text(),
                                 "- status: **crashed**",
                                 "bot>     \\x1b[2J\\x1b]0;pwned\\x07",
                                 "its stderr ends:\nTraceback: \\x1b[2J\\x1b]0;pwned\\x07\n")


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
    write_config(config)
    done = subprocess.run([sys.executable, "-m", "referee", "grade", str(subs), "--config",
                           str(config), "--out", str(out), "--sandbox", "bwrap"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert rows["alice"]["status"] == rows["carol"]["status"] == "ok"
    assert int(rows["carol"]["games"]) == 24
