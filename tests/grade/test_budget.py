"""`[limits] submission_time`: one submission's build, check and games get so long together;
a slower one is "out of grading time" (not "timed out", a bot too slow in the check) with what
it finished graded, and the others are graded as usual."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.check import CHECK_COUNT
from referee.grade.state import Spent
from referee.tournament.store import open_store

from .. import in_process
from ..processes import BOT_PYTHON

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "scripted_bots"
SAMPLES = ROOT / "sample_bots"
# Seconds: a quick bot's check and 4 games take a few on an idle machine, and 10-20 on one
# with a load of 12 on its 2 cores, where 16 s ran out; the slow bots' sleeps, not the CPU,
# take them past it, and most of the test's time is theirs, spent idle.
BUDGET = 30

# Answers in 0.25 s (legal: the move time is 1 s) in the graded games only, which name the
# baselines, and at once in the check: it runs out of time during its games (of some 60
# decisions, 15 s or more each), having finished one at most.
SLOW_IN_GAMES = (BOTS / "first_legal.py").read_text().replace(
    '        elif kind == "request":\n',
    '        elif kind == "new_game":\n'
    '            slow = "random-1" in message.get("names", [])\n'
    '        elif kind == "request":\n'
    '            if slow:\n'
    '                __import__("time").sleep(0.25)\n').replace(
    "def main():\n", "def main():\n    slow = False\n")


def make_class(tmp: Path) -> tuple[Path, Path]:
    """Two quick bots, one slow (0.5 s a reply) everywhere and one slow in its graded games
    only; the baselines are copies under `tmp`, so that every bot process of the class names
    `tmp` (in its command, or its folder)."""
    subs = tmp / "subs"
    for student, files in {
        "ann": {"bot.py": (SAMPLES / "python" / "random_bot.py").read_text()},
        "ben": {"bot.py": (SAMPLES / "python" / "baseline_bot.py").read_text()},
        "sloth": {"bot.py": (BOTS / "answers_late.py").read_text(),
                  "bot.toml": 'command = "python3 bot.py --delay 0.5"\n'},
        "snail": {"bot.py": SLOW_IN_GAMES},
    }.items():
        (subs / student).mkdir(parents=True)
        for name, text in files.items():
            (subs / student / name).write_text(text)
    assert "time\").sleep(0.25)" in SLOW_IN_GAMES
    base = tmp / "base"
    base.mkdir()
    shutil.copy(SAMPLES / "python" / "random_bot.py", base / "random_bot.py")
    config = tmp / "class.toml"
    config.write_text(f'''
name = "budget"
seed = 3
table_size = 4
format = "gauntlet"
baselines = ["random-1", "random-2", "random-3"]
deals = 1
seat_orders = "rotations"
[limits]
move_time = 1.0
time_bank = 5.0
startup_time = 10
submission_time = {BUDGET}
[grading]
otherwise = "C"
broken = "F"
''' + "".join(f'''
[[bots]]
name = "random-{i}"
command = "{BOT_PYTHON} {base / 'random_bot.py'} --seed {i}"
''' for i in (1, 2, 3)))
    return subs, config


def grade(subs: Path, config: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", "grade", str(subs), "--config",
                           str(config), "--out", str(out), "--workers", "4"],
                          capture_output=True, text=True, timeout=600)


def grade_again(subs: Path, config: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """`grade` in the test process (`in_process`), for a run that plays nothing: what it
    says and writes is the claim, not its process."""
    return in_process.referee("grade", str(subs), "--config", str(config), "--out", str(out),
                              "--workers", "4", cwd=out.parent, timeout=600)


def processes_of(tmp: Path) -> list[str]:
    """The command lines of running processes that name `tmp` or run in a folder under it."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:  # gone meanwhile, or not ours to look into
            continue
        if str(tmp) in cmdline or cwd.startswith(str(tmp)):
            found.append(f"{pid}: {cmdline} (in {cwd})")
    return found


@pytest.mark.slow
def test_a_submission_past_its_budget_is_timed_out_and_the_others_graded(
        tmp_path: Path) -> None:
    """A bot slow in the check and one slow in its games are "out of grading time" within
    their budget and a few seconds, the second with the games it finished graded, and the
    teacher is told each held a grading worker all along; the quick bots, graded beside
    them, get their usual status, games and grade; no bot of the class is left running; a
    second run keeps every grade, theirs too (one an older referee called "timed out" is told
    anew from what it stored).  Their feedback says how long a decision the budget allows on
    average, and that the budget is the grading's, not the move time."""
    subs, config = make_class(tmp_path)
    out = tmp_path / "out"
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert processes_of(tmp_path) == []
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert {s: r["status"] for s, r in rows.items()} == {
        "ann": "ok", "ben": "ok", "sloth": "out of grading time", "snail": "out of grading time"}
    for student in ("sloth", "snail"):
        assert (f"{student}: out of grading time after {BUDGET} s (submission_time), all of "
                "which it held a grading worker; grading what it finished") in done.stderr
    for student in ("ann", "ben"):
        assert (rows[student]["games"], rows[student]["grade"]) == ("4", "C")
        assert rows[student]["checks_passed"] == str(CHECK_COUNT)
    spent = json.loads((out / "state.json").read_text())["spent"]
    for student in ("sloth", "snail"):
        assert spent[student]["ran_out_of"] == BUDGET
        assert BUDGET <= spent[student]["seconds"] < BUDGET + 10, spent
        assert rows[student]["grade"] == "F"
    assert spent["ann"]["ran_out_of"] is None and spent["ann"]["seconds"] < BUDGET

    sloth = (out / "feedback" / "sloth.md").read_text()
    assert "- status: **out of grading time** (its grading ran past the time it gives each " \
        "submission (`submission_time`)" in sloth
    assert ("it is the grading's, not the game's move time, and a bot graded holds one of the "
            "grading's workers for up to all of it" in " ".join(sloth.split())), sloth
    assert f"stopped at its time budget of {BUDGET} s, during the check" in sloth
    # 11 check games and 4 graded ones, a quarter of a table of four's 255 steps each
    assert ("grading asks it about 956 decisions (the check's and 4 games'), so this budget "
            f"allows it at most about {BUDGET / 956 * 1000:.0f} ms a decision on average"
            in " ".join(sloth.split())), sloth
    assert rows["sloth"]["games"] == "0" and rows["sloth"]["checks_passed"] == "0"
    # The snail passed the check; the games it finished before its time ran out are graded.
    snail = (out / "feedback" / "snail.md").read_text()
    store = open_store(out / "games" / "snail.db")
    try:
        finished = len(list(store.results()))
    finally:
        store.close()
    assert finished < 4 and rows["snail"]["games"] == str(finished)
    assert f"during its games, with {finished} of 4 finished" in snail
    assert rows["snail"]["checks_passed"] == str(CHECK_COUNT)
    assert "`submission_time` in the grading config's `[limits]`" in snail

    again = grade_again(subs, config, out)
    assert again.returncode == 0, again.stderr
    assert again.stderr.count("unchanged, kept its grade") == 4, again.stderr

    # A state.json of an older referee, which said "timed out" for the budget too: the
    # status and feedback are told anew from what it stored, nothing run again.
    state = json.loads((out / "state.json").read_text())
    state["outcomes"]["snail"]["status"] = "timed out"
    (out / "state.json").write_text(json.dumps(state))
    told = grade_again(subs, config, out)
    assert told.returncode == 0, told.stderr
    assert ('snail: unchanged, graded F from its games and check as stored, its status now '
            '"out of grading time" (was "timed out"): nothing run again') in told.stderr
    assert told.stderr.count("unchanged, kept its grade") == 3, told.stderr
    assert "- status: **out of grading time**" in (out / "feedback" / "snail.md").read_text()


def test_a_grade_stands_while_the_budget_would_give_it_again() -> None:
    """A grading that ran out is graded again under any other budget: a larger one may let
    it finish, and under a smaller one it finishes fewer of the games its points count, as
    the others graded again under it do; one that finished, only under a budget shorter
    than it took."""
    ran_out, finished = Spent(31.2, ran_out_of=30), Spent(12.5)
    assert ran_out.stands(30) and not ran_out.stands(20) and not ran_out.stands(60)
    assert finished.stands(900) and finished.stands(13) and not finished.stands(10)
