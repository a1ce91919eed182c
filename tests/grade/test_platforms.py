"""Grading inside Gradescope and PrairieLearn: `referee autograder` writes the platform's files,
and its entry point, run against a temporary root laid out as the platform lays it (the
submission in, the results file out), grades as `referee grade` does.

Real runs: the scripts as the platform runs them, the referee in subprocesses, its bots real
processes.  Each results file is checked against a JSON Schema written from the platform's
documentation (`schemas/`).
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from referee.check import CHECK_COUNT
from referee.grade.one import gradescope_names
from referee.grade.reproduce import SAMPLE_MANIFEST, sample_hashes

from .. import in_process
from ..processes import BOT_PYTHON, processes_with, wait_until
from .test_grade import BOTS, ROOT, SAMPLES, grade_here

SCHEMAS = Path(__file__).with_name("schemas")
# The platform's scripts run with their own default of one worker (REFEREE_WORKERS unset): a
# submission's games on two would start its bots twice.
ENV = {**{k: v for k, v in os.environ.items() if k != "REFEREE_WORKERS"},
       "PYTHONPATH": str(ROOT), "REFEREE_PYTHON": sys.executable}

CONFIG = """
name = "course"
seed = 3
table_size = 4
format = "gauntlet"
baselines = ["random-1", "random-2", "random-3"]
deals = 1
seat_orders = "rotations"
[limits]
move_time = 5
time_bank = 10
startup_time = 10
submission_time = 300
[grading]
points = {check = 1, placement = 10, beats = 2}
otherwise = "C"
broken = "F"
[[grading.rules]]
grade = "A"
beats = ["random-1", "random-2", "random-3"]
""" + "".join(f"""
[[bots]]
name = "random-{i}"
command = "{BOT_PYTHON} ../bots/random_bot.py --seed {i}"
""" for i in (1, 2, 3))

SUBMISSIONS: dict[str, dict[str, str | Path]] = {
    "good": {"bot.py": SAMPLES / "python" / "random_bot.py"},
    "crashing": {"bot.py": BOTS / "crash_mid_game.py"},
    "syntax": {"bot.py": "def broken(:\n"},  # Python names the file by its whole path
    "empty": {},
    "unbuildable": {"bot.py": SAMPLES / "python" / "random_bot.py",
                    "bot.toml": 'command = "python3 bot.py"\nbuild = "false"\n'},
}


def referee(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=300)


def put(folder: Path, files: dict[str, str | Path]) -> Path:
    folder.mkdir(parents=True)
    for name, content in files.items():
        if isinstance(content, Path):
            shutil.copy(content, folder / name)
        else:
            (folder / name).write_text(content)
    return folder


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A teacher's folder: the grading config in config/, the baselines' bot in bots/."""
    folder = tmp_path_factory.mktemp("course")
    put(folder / "bots", {"random_bot.py": SAMPLES / "python" / "random_bot.py"})
    put(folder / "config", {"grading.toml": CONFIG})
    return folder


@pytest.fixture(scope="module")
def graded(course: Path) -> dict[str, dict[str, str]]:
    """`referee grade` over the five submissions, each in a folder named as the platforms
    name theirs: grades.csv's rows.  What the platforms' scripts give is compared with it,
    so it runs in the test process (`grade_here`: its baselines too), its bots processes."""
    subs = course / "class"
    for name, files in SUBMISSIONS.items():
        put(subs / name, files)
    done = grade_here(subs, course / "config" / "grading.toml", course / "graded")
    assert done.returncode == 0, done.stderr
    return {r["student"]: r for r in csv.DictReader((course / "graded" / "grades.csv").open())}


def valid(path: Path, schema: str) -> dict[str, object]:
    """The results file at `path`, checked against the platform's schema and size limit."""
    assert path.stat().st_size < 1_000_000
    results: dict[str, object] = json.loads(path.read_text())
    validator = Draft202012Validator(json.loads((SCHEMAS / schema).read_text()))
    errors = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator.iter_errors(results)]
    assert not errors, errors
    return results


# A submission_metadata.json as Gradescope writes it, from its documentation's example
# (https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/): a group
# submission, whose "users" lists each of its students.
METADATA = {
    "id": 123456, "created_at": "2018-07-01T14:22:32.365935-07:00",
    "assignment": {"due_date": "2018-07-31T23:00:00.000000-07:00", "group_size": 4,
                   "group_submission": True, "id": 25828, "course_id": 1234,
                   "late_due_date": None, "release_date": "2018-07-02T00:00:00.000000-07:00",
                   "title": "Programming Assignment 1", "total_points": "20.0"},
    "submission_method": "upload",
    "users": [{"email": "ann@example.com", "id": 1234, "name": "Ann Smith"},
              {"email": "bob@example.com", "id": 1235, "name": "Bob  Jones"}],
    "previous_submissions": [{"submission_time": "2017-04-06T14:24:48.087023-07:00",
                              "score": 0.0, "results": {}}],
}
# The submission graded without a submission_metadata.json (as when a teacher tries it).
NO_METADATA = "empty"


def gradescope_root(course: Path, tmp_path: Path, submission: str) -> Path:
    """/autograder as Gradescope lays it: the zip's contents in source/, run_autograder
    copied beside it, the student's files in submission/, and (but for NO_METADATA) the
    submission's metadata."""
    root = tmp_path / "autograder"
    with zipfile.ZipFile(course / "gradescope" / "autograder.zip") as archive:
        for info in archive.infolist():  # as unzip does: with the modes the zip keeps
            path = Path(archive.extract(info, root / "source"))
            path.chmod(info.external_attr >> 16 & 0o777 or 0o644)
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    put(root / "submission", SUBMISSIONS[submission])
    if submission != NO_METADATA:
        (root / "submission_metadata.json").write_text(json.dumps(METADATA, indent=2))
    return root


@pytest.fixture(scope="module")
def gradescope_zip(course: Path) -> Path:
    done = in_process.referee("autograder", "--config", "config/grading.toml", "--out",
                              "gradescope", cwd=course)  # what it writes is what is tried
    assert done.returncode == 0, done.stderr
    assert "autograder.zip" in done.stdout
    assert done.stdout.splitlines()[0] == (  # where the bundle's baselines were taken from
        f"baselines (in {course.resolve() / 'bots'}): random-1 = random_bot.py, random-2 = "
        "random_bot.py, random-3 = random_bot.py"), done.stdout
    assert (f"the most a submission can earn: {CHECK_COUNT + 10 + 3 * 2} points (set the "
            "assignment's total points to it)") in done.stdout
    return course / "gradescope" / "autograder.zip"


@pytest.mark.parametrize("submission", list(SUBMISSIONS))
def test_gradescope_run_autograder(course: Path, graded: dict[str, dict[str, str]],
                                   gradescope_zip: Path, tmp_path: Path,
                                   submission: str) -> None:
    """run_autograder, run as Gradescope runs it, writes results/results.json in Gradescope's
    format: the score is the points `referee grade` gives the same submission (0 for one with
    no bot or a failed build, with the reason in a visible test), a test per check and per
    baseline (the difference worded as the feedback words it), the feedback as Markdown
    output headed with the names of the submission's users (a group's joined; no name
    without its metadata), and its points, placement and grade on the leaderboard, a
    submission that played no game having no placement there.  The checks' tests are worth
    every check's points, those that could not run too, and no test shows a folder of the
    grader's machine.  It does not name the baselines' folder: `autograder` did."""
    with zipfile.ZipFile(gradescope_zip) as archive:
        names = archive.namelist()
        assert {"setup.sh", "run_autograder", "config/grading.toml",
                "bots/random_bot.py"} <= {n.removeprefix("grading/") for n in names} | set(names)
        assert any(n.startswith("wheels/modern_art_referee-") and n.endswith(".whl")
                   for n in names)
        assert archive.getinfo("run_autograder").external_attr >> 16 & 0o111
    root = gradescope_root(course, tmp_path, submission)
    done = subprocess.run([str(root / "run_autograder")], cwd=root,
                          env={**ENV, "AUTOGRADER_ROOT": str(root)}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "baselines" not in done.stdout + done.stderr  # the platform's log: said by autograder
    results = valid(root / "results" / "results.json", "gradescope-results.json")
    row = graded[submission]
    tests = {t["name"]: t for t in results["tests"]}  # type: ignore[attr-defined]
    grade_test = next(t for name, t in tests.items() if name.startswith("grade: "))
    assert grade_test["name"] == f"grade: {row['grade']}"
    assert all(t["visibility"] == "visible" for t in tests.values())
    assert all(t["output_format"] == "text" for t in tests.values())  # quotes of the bot
    board = {c["name"]: c["value"] for c in results["leaderboard"]}  # type: ignore[attr-defined]
    # No game played: no placement, rather than 0.0 (a real score of always last) or a
    # string among the other submissions' numbers.
    played = row["games"] != "0"
    assert list(board) == (["points", "placement", "grade"] if played else ["points", "grade"])
    assert board["points"] == pytest.approx(float(row["points"]), abs=0.01)
    if played:
        assert board["placement"] == pytest.approx(float(row["placement"]), abs=1e-4)
    assert f"- grade: **{row['grade']}**" in str(results["output"])
    heading = str(results["output"]).split("\n", 1)[0]
    assert heading == ("# Feedback" if submission == NO_METADATA else
                       "# Feedback: Ann Smith, Bob Jones"), heading
    if submission in ("empty", "unbuildable"):
        assert results["score"] == 0
        reason = tests["submission: a bot is found and builds"]
        assert reason["status"] == "failed"
        assert ("no bot found" if submission == "empty" else "build failed") in reason["output"]
    else:
        assert results["score"] == pytest.approx(float(row["points"]), abs=0.01)
        checks = [t for name, t in tests.items() if name.startswith("check: ")]
        assert sum(t["score"] for t in checks) == int(row["checks_passed"])
        assert sum(t["max_score"] for t in checks) == CHECK_COUNT  # those not run too
        assert len(checks) == CHECK_COUNT or submission in ("crashing", "syntax")
        for b in ("random-1", "random-2", "random-3"):
            assert tests[f"against {b}"]["max_score"] == 2
            if played:  # the difference named as the feedback names it, not as a mean
                assert f": your mean placement points less {b}'s, " in \
                    tests[f"against {b}"]["output"], tests[f"against {b}"]["output"]
    shown = json.dumps(results)
    assert str(tmp_path) not in shown and 'File \\"/' not in shown and \
        "referee-grade-one-" not in shown and "<submissions folder>/" not in shown, \
        "a grader's folder is shown"


@pytest.fixture(scope="module")
def prairielearn(course: Path) -> Path:
    done = in_process.referee("autograder", "--config", "config/grading.toml", "--out",
                              "prairielearn", "--platform", "prairielearn", cwd=course)
    assert done.returncode == 0, done.stderr
    return course / "prairielearn"


@pytest.mark.parametrize("submission", list(SUBMISSIONS))
def test_prairielearn_grader(course: Path, graded: dict[str, dict[str, str]],
                             prairielearn: Path, tmp_path: Path, submission: str) -> None:
    """The PrairieLearn grader's run.sh, run in a /grade laid out as PrairieLearn lays it,
    writes results/results.json in PrairieLearn's format: the score the points of `referee
    grade` over the most there are (0 to 1); a submission with no bot, or a failed build, is
    not gradable, with the reason as its message (a line of its own); a gradable one that
    played no game says so in its message, and each says its status once ("build failed
    (exit status 1)").  info.json's timeout covers the config's time budget."""
    out = prairielearn
    options = json.loads((out / "info.json").read_text())["externalGradingOptions"]
    assert options["timeout"] > 300 and options["serverFilesCourse"] == ["modern-art-grader/"]
    root = tmp_path / "grade"
    shutil.copytree(out / "serverFilesCourse", root / "serverFilesCourse")
    put(root / "student", SUBMISSIONS[submission])
    entry = root / options["entrypoint"].removeprefix("/grade/")
    run = subprocess.run(["bash", str(entry)], cwd=tmp_path,
                         env={**ENV, "GRADE_ROOT": str(root)}, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    results = valid(root / "results" / "results.json", "prairielearn-results.json")
    row = graded[submission]
    shown = json.dumps(results)
    assert str(tmp_path) not in shown and 'File \\"/' not in shown and \
        "referee-grade-one-" not in shown and "<submissions folder>/" not in shown, \
        "a grader's folder is shown"
    if submission in ("good", "crashing", "syntax"):
        most = CHECK_COUNT * 1 + 10 + 3 * 2
        assert results["gradable"] is True
        assert results["score"] == pytest.approx(float(row["points"]) / most, abs=1e-3)
        assert f"grade {row['grade']}" in str(results["message"])
        assert ("no games" in str(results["message"])) == (row["games"] == "0")
    else:
        assert results["gradable"] is False and "score" not in results
        assert str(results["message"]).startswith(row["status"])
        assert "below" not in str(results["message"])  # one line: no problem list under it
        if submission == "empty":  # said once: "no bot found: your folder is empty ..."
            assert str(results["message"]).count("no bot found") == 1, results["message"]
        if submission == "unbuildable":  # "build failed (exit status 1)", said once
            assert str(results["message"]).count("build failed") == 1, results["message"]
            assert "exit status 1" in str(results["message"]), results["message"]


def test_gradescopes_metadata_names_its_users_or_no_one(tmp_path: Path) -> None:
    """Gradescope's submission_metadata.json gives the feedback's heading its users' names, a
    group's joined, each name's runs of spaces made one; a file absent, not JSON, or laid out
    otherwise (no users, a user without a name) gives none, and grading goes on."""
    metadata = tmp_path / "submission_metadata.json"
    assert gradescope_names(metadata) is None
    metadata.write_text(json.dumps(METADATA))
    assert gradescope_names(metadata) == "Ann Smith, Bob Jones"
    metadata.write_text(json.dumps({**METADATA, "users": METADATA["users"][:1]}))
    assert gradescope_names(metadata) == "Ann Smith"
    for broken in ("{", "[]", '{"users": null}', '{"users": [{"id": 1}]}',
                   '{"users": [{"name": 7}]}', '{"users": [{"name": "  "}]}'):
        metadata.write_text(broken)
        assert gradescope_names(metadata) is None, broken


def test_the_dockerfile_stops_where_prlimit_is_missing_and_setup_installs_it(
        gradescope_zip: Path, prairielearn: Path, tmp_path: Path) -> None:
    """The Dockerfile's check of its base image passes where prlimit is installed and, on a
    base without it, stops the build saying to install util-linux; setup.sh installs
    util-linux where the image has no prlimit."""
    (check,) = [line for line in (prairielearn / "Dockerfile").read_text().splitlines()
                if line.startswith("RUN command -v prlimit")]
    script = check.removeprefix("RUN ")
    assert subprocess.run(["sh", "-c", script], capture_output=True, timeout=30).returncode == 0
    empty = tmp_path / "bin"
    empty.mkdir()
    missing = subprocess.run(["/bin/sh", "-c", script], env={"PATH": str(empty)},
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode == 1 and "apt-get install -y util-linux" in missing.stderr, \
        missing.stderr
    with zipfile.ZipFile(gradescope_zip) as archive:
        setup = archive.read("setup.sh").decode()
    assert "command -v prlimit >/dev/null || { apt-get update && apt-get install -y " \
           "util-linux; }" in setup.splitlines()


def test_the_wheel_installs_and_runs(gradescope_zip: Path, tmp_path: Path) -> None:
    """The referee's wheel in the autograder installs (its dependencies left to the platform's
    setup) and runs as the `referee` it was made from, and knows the sample bots' files (to
    name a baseline that is a copy of one in a student's replay command) without them."""
    with zipfile.ZipFile(gradescope_zip) as archive:
        (wheel,) = [n for n in archive.namelist() if n.endswith(".whl")]
        archive.extract(wheel, tmp_path)
    target = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                           "--quiet", "--target", str(target), str(tmp_path / wheel)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (target / "bin" / "referee").is_file()
    run = subprocess.run([sys.executable, "-m", "referee", "grade-one", "--help"],
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(target)},
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "--format" in run.stdout, run.stderr
    known = subprocess.run(  # the installed referee has no sample_bots/ beside it
        [sys.executable, "-c", "from referee.grade.reproduce import SAMPLES, _sample_files; "
                               "print(SAMPLES.is_dir(), len(_sample_files()))"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(target)}, capture_output=True,
        text=True, timeout=60)
    assert known.stdout.split() == ["False", str(len(sample_hashes(SAMPLES)))], known.stderr


def test_the_commented_install_line_builds_every_starter_kit(gradescope_zip: Path,
                                                             prairielearn: Path) -> None:
    """setup.sh's and the Dockerfile's commented `apt-get install` line, which a teacher
    uncomments for students' other languages, names every package a starter kit's README says
    to install (the C kit's cJSON too: build-essential alone left its bots "build failed")."""
    with zipfile.ZipFile(gradescope_zip) as archive:
        setup = archive.read("setup.sh").decode()
    dockerfile = (prairielearn / "Dockerfile").read_text()
    essential = {"gcc", "g++", "make"}  # build-essential's
    for text in (setup, dockerfile):
        (line,) = [x for x in text.splitlines() if x.startswith("#") and "apt-get install" in x]
        named = set(line.split("install -y", 1)[1].split())
        assert "build-essential" in named
        for readme in sorted(SAMPLES.glob("*/README.md")):
            for wanted in re.findall(r"apt-get install -y ([^\n`]+)", readme.read_text()):
                assert set(wanted.split()) - essential <= named, (readme, line)


def test_autograder_refuses_what_a_platform_cannot_run(course: Path, tmp_path: Path) -> None:
    """A time budget over PrairieLearn's longest job, a baseline named by an absolute path
    the platform will not have, and one whose script is not there (whatever its ending) are
    each one error line, no traceback, and nothing written for the last; a baseline whose
    program is on PATH with words that name no file passes; one whose program is not
    installed here is a note (the platform's image may have it), and packaged.  (What it
    says and writes is the claim: `referee autograder` runs in the test process.)"""
    slow = tmp_path / "slow.toml"
    slow.write_text(CONFIG.replace("submission_time = 300", "submission_time = 900")
                    .replace("../bots/", str(course / "bots") + "/"))
    done = in_process.referee("autograder", "--config", str(slow), "--out",
                              str(tmp_path / "pl"), "--platform", "prairielearn", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: [limits] submission_time is 900 s")
    done = in_process.referee("autograder", "--config", str(slow), "--out",
                              str(tmp_path / "gs"), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: baseline random-1: its command or build names /")
    typo = tmp_path / "config" / "typo.toml"  # a baseline's path misspelt: every student fails
    typo.parent.mkdir()
    typo.write_text(CONFIG.replace("../bots/random_bot.py --seed 2", "../bot/random_bot.py"))
    shutil.copytree(course / "bots", tmp_path / "bots")
    done = in_process.referee("autograder", "--config", str(typo), "--out",
                              str(tmp_path / "gs2"), cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("error: baseline random-2 cannot play: its command cannot "
                                  "run: ../bot/random_bot.py not found"), done.stderr
    assert not (tmp_path / "gs2").exists()
    ending = typo.with_name("ending.toml")  # misspelt at its ending: not a known script's
    ending.write_text(CONFIG.replace("random_bot.py --seed 2", "random_bot.pyy --seed 2"))
    done = in_process.referee("autograder", "--config", str(ending), "--out",
                              str(tmp_path / "gs2"), cwd=tmp_path)
    assert done.stderr == ("error: baseline random-2 cannot play: its command cannot run: "
                           f"../bots/random_bot.pyy not found in {typo.parent}; fix the "
                           "grading config (grading would stop at it for every student)\n")
    assert not (tmp_path / "gs2").exists()
    elsewhere = typo.with_name("elsewhere.toml")  # a program the platform's image will have
    elsewhere.write_text(CONFIG.replace(f"{BOT_PYTHON} ../bots/random_bot.py --seed 3",
                                        "no-such-runtime-here ../bots/random_bot.py")
                         .replace(f"{BOT_PYTHON} ../bots/random_bot.py --seed 1",  # on PATH,
                                  "env python3 ../bots/random_bot.py"))  # a program, no file
    done = in_process.referee("autograder", "--config", str(elsewhere), "--out",
                              str(tmp_path / "gs3"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert ("note: baseline random-3 runs no-such-runtime-here, which is not installed here: "
            "the platform's image must have it") in done.stdout, done.stdout


@pytest.mark.parametrize("platform", ["gradescope", "prairielearn"])
def test_the_totals_a_teacher_is_told_are_the_most_a_bot_can_earn(platform: str) -> None:
    """The points the platform files and docs/grading.md tell a teacher to set as the
    assignment's total are what the referee gives at most: as many checks as `referee check`
    runs, and the file's placement and baselines."""
    from referee.grade.platform_results import max_points
    from referee.tournament.config import load_tournament

    path = ROOT / "tournaments" / f"{platform}.toml"
    said = path.read_text()
    assert f"{CHECK_COUNT} for the checks" in said
    most = max_points(load_tournament(path))
    docs = (ROOT / "docs" / "grading.md").read_text()
    assert f"Points: 1 per check ({CHECK_COUNT})" in docs and f"({most:g} at most)" in docs
    times = "\N{MULTIPLICATION SIGN}"
    assert f"{CHECK_COUNT} {times} `check`" in docs
    assert f"({CHECK_COUNT} {times} `points.check`" in docs
    if platform == "prairielearn":
        assert f"the most ({most:g})" in said


@pytest.mark.parametrize(("platform", "schema"), [
    ("gradescope", "gradescope-results.json"), ("prairielearn", "prairielearn-results.json")])
def test_grading_stopped_by_the_platform_still_tells_the_student(
        course: Path, tmp_path: Path, platform: str, schema: str) -> None:
    """`grade-one` ended by SIGTERM (the platform's timeout) before it finished: one error
    line that says after how long (to hold against the platform's timeout), exit status 2,
    and a results file in the platform's format that gives no score and tells the student
    grading was stopped, after how long, and that it is not their bot's fault."""
    gate = tmp_path / "gate"
    gate.touch()  # the bot waits at its first request while this exists
    sub = put(tmp_path / "sub", {"bot.py": BOTS / "held.py", "first_legal.py":
                                 BOTS / "first_legal.py"})
    (sub / "bot.toml").write_text(f'command = "{BOT_PYTHON} bot.py --while {gate}"\n')
    results = tmp_path / "results.json"
    run = subprocess.Popen(
        [sys.executable, "-m", "referee", "grade-one", str(sub), "--config",
         str(course / "config" / "grading.toml"), "--results", str(results), "--format",
         platform, "--quiet"], cwd=tmp_path, env=ENV, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    wait_until(lambda: processes_with(str(gate)), "the bot waiting at its gate", process=run)
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 2 and re.fullmatch(
        rf"error: interrupted after \d+ s \(submission_time is \d+ s\); {re.escape(str(results))} "
        "says grading was stopped before it finished\n", err), err
    written = valid(results, schema)
    said = str(written["output"])
    assert re.search(r"Grading was stopped after \d+ s, before it finished", said), said
    assert "not your bot's fault" in said
    assert written.get("score", 0.0) == 0.0 and written.get("gradable", False) is False


NOT_GRADED = ("Your submission was not graded: the grader is not set up right ({}). This is "
              "not your bot's fault: tell your teacher.")


@pytest.mark.parametrize(("platform", "schema"), [
    ("gradescope", "gradescope-results.json"), ("prairielearn", "prairielearn-results.json")])
def test_a_baseline_that_cannot_play_is_said_before_grading_and_to_the_student(
        tmp_path: Path, platform: str, schema: str) -> None:
    """`grade-one` whose config names a baseline's script that is not there says so in one
    error line before anything else (no "grading" line, no work folder: nothing graded),
    exit status 2, as `referee grade` does; and its results file, which the platform shows
    the student, says the grader is not set up right, why, and that it is not their bot's
    fault: on PrairieLearn not gradable (no score, the attempt kept), on Gradescope, which
    has no such field, a score of 0 with that text."""
    config = tmp_path / "config" / "typo.toml"
    put(config.parent, {"typo.toml": CONFIG.replace("../bots/random_bot.py --seed 2",
                                                    "../bot/random_bot.py --seed 2")})
    put(tmp_path / "bots", {"random_bot.py": SAMPLES / "python" / "random_bot.py"})
    put(tmp_path / "sub", SUBMISSIONS["good"])
    results = tmp_path / "results.json"
    done = in_process.referee("grade-one", "sub", "--config", str(config), "--results",
                              str(results), "--format", platform, "--work", "work",
                              cwd=tmp_path)
    problem = ("baseline random-2 cannot play: its command cannot run: ../bot/random_bot.py "
               f"not found in {config.parent}")
    assert (done.returncode, done.stdout) == (2, ""), done
    assert done.stderr == (f"error: {problem}; nothing was graded: {results} tells the student "
                           "it is not their bot's fault\n"), done.stderr
    assert not (tmp_path / "work").exists()
    written = valid(results, schema)
    assert written["output"] == NOT_GRADED.format(problem)
    if platform == "prairielearn":
        assert written["gradable"] is False and "score" not in written
        assert written["format_errors"] == [NOT_GRADED.format(problem)]
    else:
        assert written["score"] == 0.0 and written["tests"] == []


def test_a_baseline_failing_in_a_game_is_most_likely_not_the_students_fault() -> None:
    """A baseline that failed in a game against the student's bot (which may have starved the
    machine) is reported to the student as most likely, not surely, not their bot's fault."""
    from referee.grade.platform_results import staff_problem

    written = staff_problem("prairielearn", "baseline b failed in game g1 (playing ann)",
                            certain=False)
    assert written["message"] == (
        "Your submission was not graded: the grader is not set up right (baseline b failed "
        "in game g1 (playing ann)). Most likely this is not your bot's fault: tell your "
        "teacher.")


def test_a_grader_without_prlimit_tells_the_student_it_is_not_their_fault(
        course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On an image without util-linux's prlimit (a PATH without it here), `grade-one` says
    how to install it in one error line, exit status 2, and writes the results file in the
    same form as for a baseline that cannot play: the student is told the grader is not set
    up right and why, not the platform's bare failure."""
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # no program at all: no prlimit
    put(tmp_path / "sub", SUBMISSIONS["good"])
    results = tmp_path / "results" / "results.json"
    done = in_process.referee("grade-one", "sub", "--config",
                              str(course / "config" / "grading.toml"), "--results",
                              str(results), "--format", "prairielearn", cwd=tmp_path)
    problem = ("prlimit is not installed, and every bot runs under its limits with it: "
               "install util-linux: `apt-get install util-linux` on Debian or Ubuntu, `dnf "
               "install util-linux` on Fedora or Amazon Linux")
    assert done.returncode == 2 and done.stderr == (
        f"error: {problem}; nothing was graded: {results} tells the student it is not "
        "their bot's fault\n"), done.stderr
    written = valid(results, "prairielearn-results.json")
    assert written["gradable"] is False and written["message"] == NOT_GRADED.format(problem)


def test_the_leaderboards_grade_column_sorts_the_best_grade_first(tmp_path: Path) -> None:
    """Gradescope sorts a leaderboard column by its entries' `order`, "desc" (higher first)
    by default (its Leaderboards page): letters alone, sorted so, put F above C above A.
    Each grade of the shipped Gradescope file, written in a results.json, reads as itself
    after its rank, and sorted by its column's order (ascending), best first: A+, A, B, C,
    D, F."""
    from referee.grade.one import write_results
    from referee.grade.platform_results import results
    from referee.grade.result import StudentResult
    from referee.tournament.config import load_tournament

    config = load_tournament(ROOT / "tournaments" / "gradescope.toml")
    grades = ["A+", "A", "B", "C", "D", "F"]
    entries: list[dict[str, str]] = []
    for grade in reversed(grades):
        path = tmp_path / f"{grade}.json"
        write_results(path, results("gradescope", StudentResult("s", "ok", "", grade=grade),
                                    config, None))
        board = valid(path, "gradescope-results.json")["leaderboard"]
        entry = next(c for c in board if c["name"] == "grade")  # type: ignore[attr-defined]
        assert entry["value"].endswith(f" {grade}"), entry
        entries.append(entry)
    order = {e.get("order", "desc") for e in entries}
    assert len(order) == 1
    ranked = sorted(entries, key=lambda e: e["value"], reverse=order == {"desc"})
    assert [e["value"].split(" ", 1)[1] for e in ranked] == grades


def test_the_sample_manifest_is_the_sample_bots_as_they_are() -> None:
    """referee/grade/sample_bots.json, which an installed referee reads, holds the hash of
    every sample bot's source file now (run `python -c "import json; from
    referee.grade.reproduce import *; SAMPLE_MANIFEST.write_text(json.dumps(sample_hashes(
    SAMPLES), indent=1, sort_keys=True) + chr(10))"` after changing one)."""
    assert json.loads(SAMPLE_MANIFEST.read_text()) == sample_hashes(SAMPLES)


def test_a_copy_of_a_sample_bot_is_named_as_one_where_no_sample_bots_are(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the referee is installed without sample_bots/ (a platform's), a baseline that
    is a byte-for-byte copy of the random bot, in a folder of any name, is still named under
    $REFEREE/sample_bots in a student's replay command, with its arguments; a file of the
    teacher's own is not."""
    from referee.grade import reproduce
    from referee.tournament.config import BotEntry

    monkeypatch.setattr(reproduce, "SAMPLES", tmp_path / "nowhere")
    reproduce._sample_files.cache_clear()
    try:
        (tmp_path / "teacher").mkdir()
        shutil.copy(SAMPLES / "python" / "random_bot.py", tmp_path / "teacher" / "rb.py")
        (tmp_path / "teacher" / "own.py").write_text("print('mine')\n")
        config = tmp_path / "teacher" / "grading.toml"
        copy = BotEntry(name="r", command="python3 rb.py --seed 2")
        own = BotEntry(name="o", command="python3 own.py")
        assert reproduce.sample_command(copy, config) == \
            "python3 $REFEREE/sample_bots/python/random_bot.py --seed 2"
        assert reproduce.sample_command(own, config) is None
    finally:
        reproduce._sample_files.cache_clear()
