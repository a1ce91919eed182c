"""`referee grade` given odd folders, a damaged state file or a grading rule with a typo: one
student's oddity is that student's outcome, a teacher's mistake is one `error:` line."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.grade.autograder import longest_budget
from referee.grade.config import grading_warnings
from referee.grade.submissions import WorkFolderFull, discover, fresh_copy
from referee.tournament.config import load_tournament
from referee.tournament.limits_table import SizeLimits

from .. import in_process
from ..disk import files_limited_to, without_reading_all
from ..processes import BOT_PYTHON, wait_until
from . import test_grade
from .test_grade import BOTS, REFEREE_BASELINES_INSIDE, ROOT, SAMPLES
from .test_grade import write_config as class_config


def write_config(path: Path) -> None:
    """test_grade's class config in rotations: 4 games a student, not 24.  Nothing checked
    here depends on how many games a student plays."""
    class_config(path, seat_orders="rotations")


def one_error_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    """A user error: a non-zero exit and nothing on stderr but one `error:` line."""
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: "), done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def grade(subs: Path, config: Path, out: Path,
          prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """test_grade's `grade`, inside the test process (`in_process`) unless a `prefix` runs it
    as another user: what is checked here is what grading says and writes, not its process
    (test_grade and the tests below that start it themselves see to that)."""
    if prefix is not None:
        return test_grade.grade(subs, config, out, prefix=prefix, baselines_inside=True)
    return test_grade.grade_here(subs, config, out)


def rows(out: Path) -> dict[str, dict[str, str]]:
    return {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}


def test_links_pipes_and_loops_are_left_out_and_the_others_graded(tmp_path: Path) -> None:
    """A dangling link, a pipe or a loop does not stop the whole run ('cannot write to OUT:
    None'): what cannot be copied is left out, with a line in that student's feedback (the
    bot may well not need it: an editor's lock file is a dangling link), and everyone is
    graded."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    for student in ("ann", "cid"):
        (subs / student).mkdir(parents=True)
        shutil.copy(SAMPLES / "python" / "random_bot.py", subs / student / "bot.py")
    (subs / "ann" / "link").symlink_to("/nonexistent/x")
    os.mkfifo(subs / "ann" / "pipe")
    (subs / "ann" / "self").symlink_to(".")
    (subs / "ann" / "d").mkdir()
    (subs / "ann" / "d" / "up").symlink_to("../..")  # the submissions folder: a loop too
    (subs / "ann" / "big").symlink_to("/usr")  # followed, it copied the teacher's /usr
    (subs / "ann" / "mem").symlink_to("/proc/self/mem")  # unreadable even by root
    (subs / "ann" / "alias.py").symlink_to("bot.py")  # inside: followed and copied, as
    (subs / "ann" / "bot.toml").write_text('command = "python3 alias.py"\n')  # it must be
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert {s: (r["status"], r["games"]) for s, r in rows(out).items()} == {
        "ann": ("ok", "4"), "cid": ("ok", "4")}
    ann = (out / "feedback" / "ann.md").read_text()
    assert "## Files left out" in ann
    for line in ("- `link`: a symlink to /nonexistent/x that cannot be followed",
                 "- `pipe`: not a file or a folder", "- `self`: a symlink to a folder that "
                 "contains it", "- `d/up`: a symlink to ../.., outside the submission's folder",
                 "- `big`: a symlink to /usr, outside", "- `mem`: a symlink to /proc/self/mem, "
                 "outside"):
        assert line in ann, ann
    assert "`alias.py`:" not in ann  # not left out: ann's 4 games were played by alias.py
    again = grade(subs, config, out)
    assert again.returncode == 0 and again.stderr.count("unchanged") == 2, again.stderr


def test_links_inside_a_submission_stay_links_in_its_copy(tmp_path: Path) -> None:
    """Links stay links, made relative so that the copy stands alone: a program run through
    one (as npm's node_modules/.bin links are) finds the files beside the one it leads to
    (here Python looks for `helper` next to src/bot.py, where the link leads), which a link
    copied as a file would not.  A link to a file in a folder that is not copied (.venv)
    becomes a copy of it, a link to a folder there is left out."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    eve = subs / "eve"
    (eve / "src").mkdir(parents=True)
    (eve / "src" / "helper.py").write_text("SEED = 7\n")
    (eve / "src" / "bot.py").write_text((SAMPLES / "python" / "random_bot.py").read_text().replace(
        "from __future__ import annotations\n",
        "from __future__ import annotations\n\nimport helper  # found beside this file only\n"))
    (eve / "bin").mkdir()
    (eve / "bin" / "bot").symlink_to("../src/bot.py")
    (eve / "bin" / "absolute").symlink_to(eve / "src" / "bot.py")  # into the submission too
    (eve / ".venv" / "lib").mkdir(parents=True)
    (eve / ".venv" / "notes.txt").write_text("kept through the link")
    (eve / "notes").symlink_to(".venv/notes.txt")
    (eve / "lib").symlink_to(".venv/lib")  # a folder there: left out (its links could loop)
    (eve / "bot.toml").write_text('command = "python3 bin/absolute"\n')
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert (rows(out)["eve"]["status"], rows(out)["eve"]["games"]) == ("ok", "4")
    (subs / "eve" / "bot.toml").write_text('command = "python3 bin/bot"\n')
    shutil.rmtree(out)
    done = grade(subs, config, out)
    assert (rows(out)["eve"]["status"], rows(out)["eve"]["games"]) == ("ok", "4")
    copy, skipped = fresh_copy(discover(subs)[0], tmp_path / "work")
    assert skipped == ["`lib`: a symlink to a folder in .venv, which is not copied"]
    assert "- `lib`: a symlink to a folder in .venv" in (out / "feedback" / "eve.md").read_text()
    assert os.readlink(copy / "bin" / "bot") == "../src/bot.py"
    assert os.readlink(copy / "bin" / "absolute") == "../src/bot.py"
    assert not (copy / "notes").is_symlink()
    assert (copy / "notes").read_text() == "kept through the link"


def test_a_go_submissions_modules_are_copied_and_its_build_cache_is_not(tmp_path: Path) -> None:
    """A Go entrant's modules, downloaded once into the kit's `.gopath` (its build, with
    GOPROXY=off, cannot fetch them in the copy), are copied with it and count in its digest;
    the kit's build cache (`.gocache`, which every build rewrites) is neither."""
    eve = tmp_path / "subs" / "eve"
    module = eve / ".gopath" / "pkg" / "mod" / "example.com" / "dep@v1.0.0"
    module.mkdir(parents=True)
    (module / "dep.go").write_text("package dep\n")
    (eve / ".gocache").mkdir()
    (eve / ".gocache" / "trim.txt").write_text("1\n")
    shutil.copy(SAMPLES / "python" / "random_bot.py", eve / "bot.py")
    [before] = discover(tmp_path / "subs")
    copy, skipped = fresh_copy(before, tmp_path / "work")
    assert skipped == [] and (copy / module.relative_to(eve) / "dep.go").is_file()
    assert not (copy / ".gocache").exists()
    (eve / ".gocache" / "trim.txt").write_text("2\n")
    assert discover(tmp_path / "subs")[0].digest == before.digest
    (module / "dep.go").write_text("package dep // v2\n")
    assert discover(tmp_path / "subs")[0].digest != before.digest


def test_an_unreadable_file_makes_only_that_submission_broken(tmp_path: Path) -> None:
    """A file that cannot be read (in the digest, or in the copy) does not stop the whole
    run: that submission is broken, its feedback says which file, and the next one is graded.
    The same through a link to a file in .venv (copied, not linked: .venv is not)."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    for student in ("bea", "amy"):
        (subs / student).mkdir(parents=True)
        shutil.copy(SAMPLES / "python" / "random_bot.py", subs / student / "bot.py")
    (subs / "bea" / "mem").write_text("secret")
    (subs / "bea" / "mem").chmod(0)
    (subs / "amy" / ".venv").mkdir()
    (subs / "amy" / ".venv" / "secret").write_text("secret")
    (subs / "amy" / ".venv" / "secret").chmod(0)
    (subs / "amy" / "data").symlink_to(".venv/secret")
    (subs / "heidi").mkdir()
    write_config(config)
    done = grade(subs, config, out, prefix=without_reading_all())
    assert done.returncode == 0, done.stderr
    assert {s: (r["status"], r["grade"]) for s, r in rows(out).items()} == {
        "amy": ("build failed", "F"), "bea": ("build failed", "F"),
        "heidi": ("no bot found", "F")}
    assert "\ncannot copy mem: " in (out / "feedback" / "bea.md").read_text()
    amy = (out / "feedback" / "amy.md").read_text()
    assert "\ncannot copy data: " in amy and "Permission denied" in amy
    assert "no bot found" in (out / "feedback" / "heidi.md").read_text()


@pytest.mark.slow
def test_read_only_folders_in_a_submission_or_made_by_its_build_do_not_stop_the_class(
        tmp_path: Path) -> None:
    """Neither a read-only folder holding a link (whose copy's link must be replaced) nor
    the copy of an earlier run where a build made folders read-only (as Go's module cache
    does: left in OUT/work by a run stopped in its games) stops the whole run with 'cannot
    read or write ...: Permission denied'; the copies whose builds made folders read-only are
    removed after grading too."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    for student in ("eve", "gus"):
        (subs / student).mkdir(parents=True)
        shutil.copy(SAMPLES / "python" / "random_bot.py", subs / student / "bot.py")
    (subs / "eve" / "pkg").mkdir()
    (subs / "eve" / "pkg" / "a.py").write_text("")
    (subs / "eve" / "pkg" / "b.py").symlink_to("a.py")
    (subs / "eve" / "pkg").chmod(0o555)
    build = "mkdir -p cache/mod && touch cache/mod/x && chmod 555 cache/mod cache"
    (subs / "gus" / "bot.toml").write_text(f'build = "{build}"\ncommand = "python3 bot.py"\n')
    earlier = out / "work" / "gus"  # the earlier run's copy, as its build left it
    earlier.mkdir(parents=True)
    subprocess.run(build, shell=True, cwd=earlier, check=True)
    write_config(config)
    try:
        done = grade(subs, config, out, prefix=without_reading_all())
        assert done.returncode == 0, done.stderr
        assert {s: r["status"] for s, r in rows(out).items()} == {"eve": "ok", "gus": "ok"}
        assert list((out / "work").iterdir()) == []  # every copy removed after grading
    finally:
        (subs / "eve" / "pkg").chmod(0o755)  # for pytest's own clean-up
        for folder in (earlier / "cache", earlier / "cache" / "mod"):
            if folder.exists():
                folder.chmod(0o755)


def test_no_room_for_a_copy_is_the_referees_failure(tmp_path: Path) -> None:
    """A folder of the copy that cannot be made for want of room (ENOSPC from mkdir, which
    copytree gathers into shutil.Error with the unreadable files) is the referee's failure,
    not the student's: no 'build failed', no F kept next time."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    deep = subs / "eve" / "d0" / "d1" / "d2" / "d3" / "d4" / "d5" / "d6" / "d7" / "d8"
    deep.mkdir(parents=True)  # more folders than the tmpfs below has inodes
    shutil.copy(SAMPLES / "python" / "random_bot.py", deep / "bot.py")
    (subs / "eve" / "bot.toml").write_text(
        f'command = "python3 {deep.relative_to(subs / "eve")}/bot.py"\n')
    (tmp_path / "folders" / "ann" / "d0" / "d1" / "d2" / "d3" / "d4" / "d5" / "d6" / "d7").mkdir(
        parents=True)  # folders only: no file's copy can fail first
    write_config(config)
    work = out / "work"
    work.mkdir(parents=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,nr_inodes=8", "tmpfs",
                              str(work)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root and mount rights)")
    try:
        done = grade(subs, config, out)
        with pytest.raises(WorkFolderFull, match="no room left"):
            fresh_copy(discover(tmp_path / "folders")[0], work)
        assert list(work.iterdir()) == []  # what was copied is removed: it takes the room
    finally:
        subprocess.run(["umount", str(work)], check=True)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert done.returncode == 2 and len(errors) == 1, done.stderr
    assert errors[0].startswith("error: the referee failed: cannot copy "), errors
    assert "graded submissions are kept" in errors[0]
    again = grade(subs, config, out)
    assert "eve: grading" in again.stderr, again.stderr
    assert rows(out)["eve"]["status"] == "ok"


def test_a_submission_too_large_to_copy_is_that_students_problem(tmp_path: Path) -> None:
    """A sparse file takes no room in a submission and its full size in the copy, so `truncate
    -s 1T` would fill the work disk and stop the whole class ('the referee failed'), after
    reading the terabyte of zeros for the digest.  A submission over `[limits]
    submission_size` (256 MiB by default) is not read or copied: 'too large' (not 'build
    failed', which sent the teacher looking for a build), its feedback naming its size, the
    limit and its largest files, and the teacher told which setting takes it; the others are
    graded, and raising the limit grades it."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    for student in ("ann", "eve"):
        (subs / student).mkdir(parents=True)
        shutil.copy(SAMPLES / "python" / "random_bot.py", subs / student / "bot.py")
    with (subs / "eve" / "data.bin").open("wb") as f:
        f.truncate(1 << 40)
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert {s: r["status"] for s, r in rows(out).items()} == {"ann": "ok", "eve": "too large"}
    assert ("eve: too large, not copied or graded: its files come to 1024 GiB, over the limit "
            "of 256 MiB; to grade it, raise `submission_size` in the grading config's [limits] "
            "(`submission_size = \"1025G\"` takes it; \"off\": no limit) and run again\n"
            ) in done.stderr, done.stderr
    eve = (out / "feedback" / "eve.md").read_text()
    assert "- status: **too large** (your folder is over the grading's limit" in eve, eve
    assert "because your folder is over the grading's size limit" in eve, eve
    assert "too large to copy and grade" in eve and "over the limit of 256 MiB" in eve, eve
    assert "its files come to 1024 GiB" in eve and "ask your teacher to raise" in eve, eve
    assert "`data.bin` (1024 GiB)" in eve and "`submission_size`" in eve, eve
    assert not (out / "work" / "eve").exists()
    assert "eve: unchanged" in grade(subs, config, out).stderr
    shutil.rmtree(subs / "ann")  # graded: the config's changes below would grade her again
    raised = config.read_text().replace("[limits]\n", '[limits]\nsubmission_size = "512M"\n')
    config.write_text(raised)  # still too large, and its feedback says so with the new limit
    assert "eve: grading" in grade(subs, config, out).stderr
    assert "over the limit of 512 MiB" in (out / "feedback" / "eve.md").read_text()
    (subs / "eve" / "data.bin").unlink()
    with (subs / "eve" / "data.bin").open("wb") as f:
        f.truncate(300 << 20)  # a bot may well need 300 MiB of data: the teacher allows it
    config.write_text(raised.replace('"512M"', '"1G"'))
    done = grade(subs, config, out)
    assert "eve: grading" in done.stderr, done.stderr
    assert rows(out)["eve"]["status"] == "ok"


def test_what_counts_against_a_submissions_limits(tmp_path: Path) -> None:
    """Each file, folder and link of a copy takes an inode of the work disk (a full one stops
    the class), so their number is capped too: 150,000 links to one file do not pass
    unnoticed (they take 30 s to copy).  A link to a file in .venv is copied as that file, so
    it counts at that file's size, while a link to a file that is copied costs only its entry.
    The largest files are named even when thousands of small ones come first in the walk."""
    subs = tmp_path / "subs"
    (subs / "many" / "d").mkdir(parents=True)
    for i in range(60):
        (subs / "many" / "d" / f"f{i}").touch()
    (subs / "links").mkdir()
    (subs / "links" / "data").touch()
    for i in range(60):
        (subs / "links" / f"alias{i}").symlink_to("data")
    (subs / "venv" / ".venv").mkdir(parents=True)
    with (subs / "venv" / ".venv" / "big").open("wb") as f:
        f.truncate(2 << 20)
    (subs / "venv" / "big").symlink_to(".venv/big")
    (subs / "linked").mkdir()
    with (subs / "linked" / "data").open("wb") as f:
        f.truncate(600 << 10)
    for i in range(3):
        (subs / "linked" / f"alias{i}").symlink_to("data")
    (subs / "model" / "a").mkdir(parents=True)
    for i in range(40):
        with (subs / "model" / "a" / f"f{i:02}").open("wb") as f:
            f.truncate(100 << 10)
    (subs / "model" / "z").mkdir()
    with (subs / "model" / "z" / "model.bin").open("wb") as f:
        f.truncate(10 << 30)
    found = {s.student: s.problem or "" for s in discover(subs, SizeLimits(1 << 20, 50))}
    assert "more than 50 files, folders and links" in found["many"], found
    teacher = {s.student: s.over_limit for s in discover(subs, SizeLimits(1 << 20, 50))}
    assert teacher["many"] == ("it has more than 50 files, folders and links (the limit); to "
                               "grade it, raise `submission_files` in the grading config's "
                               "[limits] above its count (\"off\": no limit) and run again")
    assert teacher["linked"] is None, teacher
    assert "more than 50 files, folders and links" in found["links"], found
    assert "come to 2 MiB, over the limit of 1 MiB" in found["venv"], found
    assert "`big` (2 MiB)" in found["venv"], found
    assert "no bot found" in found["linked"], found  # 600 KiB: the links are not copies
    assert "the largest are `z/model.bin` (10 GiB), `a/f" in found["model"], found


def test_a_change_of_mode_or_of_a_links_target_is_graded_again(tmp_path: Path) -> None:
    """The digest covers more than files' bytes: making the bot's script executable, or
    pointing a link elsewhere, grades the submission again (not 'unchanged, kept its grade
    F')."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "eve").mkdir(parents=True)
    script = subs / "eve" / "run.py"
    script.write_text("#!/usr/bin/env python3\n"
                      + (SAMPLES / "python" / "random_bot.py").read_text())
    script.chmod(0o644)
    (subs / "eve" / "bot.toml").write_text('command = "./run.py"\n')
    write_config(config)
    assert grade(subs, config, out).returncode == 0
    assert rows(out)["eve"]["status"] == "build failed"
    script.chmod(0o755)
    done = grade(subs, config, out)
    assert "eve: grading" in done.stderr, done.stderr
    assert rows(out)["eve"]["status"] == "ok"
    script.chmod(0o644)  # and back: the links below are graded without a game
    assert "eve: grading" in grade(subs, config, out).stderr
    assert rows(out)["eve"]["status"] == "build failed"
    (subs / "eve" / "v1").mkdir()
    (subs / "eve" / "v2").mkdir()
    (subs / "eve" / "lib").symlink_to("v1")
    assert "eve: grading" in grade(subs, config, out).stderr
    (subs / "eve" / "lib").unlink()
    (subs / "eve" / "lib").symlink_to("v2")
    assert "eve: grading" in grade(subs, config, out).stderr
    assert "eve: unchanged" in grade(subs, config, out).stderr


@pytest.mark.parametrize("damage", ["not json", "unknown key"])
def test_a_damaged_state_is_kept_aside_and_everyone_graded_again(tmp_path: Path,
                                                                  damage: str) -> None:
    """OUT/state.json is a cache: a damaged one is renamed, not deleted, with one warning
    line, not a traceback (JSONDecodeError, or a TypeError in StudentResult)."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)
    (subs / "heidi" / "notes.txt").write_text("I did not finish")
    write_config(config)
    assert grade(subs, config, out).returncode == 0
    state = out / "state.json"
    if damage == "not json":
        state.write_text("{garbage")
    else:
        data = json.loads(state.read_text())
        data["outcomes"]["heidi"]["bogus"] = 1
        state.write_text(json.dumps(data))
    bad = state.read_text()
    for n, kept in enumerate((out / "state.json.unreadable", out / "state.json.unreadable-2")):
        state.write_text(bad)
        done = grade(subs, config, out)
        assert done.returncode == 0, done.stderr
        warnings = [line for line in done.stderr.splitlines()
                    if line.startswith("warning:") and "deals = 1" not in line
                    and "without the sandbox" not in line]
        assert len(warnings) == 1 and "state.json is unreadable" in warnings[0], done.stderr
        assert f"moved it to {kept.name}" in warnings[0], done.stderr
        assert "heidi: grading" in done.stderr and "Traceback" not in done.stderr
        assert kept.read_text() == bad  # kept, not lost: also the first one, the second time
        assert len(list(out.glob("state.json.unreadable*"))) == n + 1
        assert "heidi" in json.loads(state.read_text())["outcomes"]
        assert rows(out)["heidi"]["status"] == "no bot found"


def test_an_unreadable_manifest_is_one_students_problem_and_vendored_folders_are_kept(
        tmp_path: Path) -> None:
    """A bot.toml that cannot be read is that student's problem; it does not stop the whole
    class ('cannot write to OUT: Input/output error').  And out/ and node_modules/ inside a
    submission are copied with it, so that a bot shipped there (or needing its vendored
    modules) runs."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    for student, folder in (("ann", "."), ("cid", "out"), ("dan", "node_modules")):
        (subs / student / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLES / "python" / "random_bot.py", subs / student / folder / "bot.py")
        (subs / student / "bot.toml").write_text(f'command = "python3 {folder}/bot.py"\n')
    (subs / "ann" / "bot.toml").unlink()
    (subs / "ann" / "bot.toml").symlink_to("/proc/self/mem")  # unreadable even by root
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert {s: r["status"] for s, r in rows(out).items()} == {
        "ann": "build failed", "cid": "ok", "dan": "ok"}
    feedback = (out / "feedback" / "ann.md").read_text()
    assert "bot.toml cannot be read: Input/output error" in feedback


def test_a_state_that_cannot_be_read_is_moved_aside(tmp_path: Path) -> None:
    """A read error is not a write error: it does not end the run with 'cannot write to OUT:
    Input/output error'.  (/proc/self/mem fails to read even for root.)"""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)
    (subs / "heidi" / "notes.txt").write_text("I did not finish")
    write_config(config)
    (out / "feedback").mkdir(parents=True)
    (out / "state.json").symlink_to("/proc/self/mem")
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines()
                if line.startswith("warning:") and "deals = 1" not in line
                and "without the sandbox" not in line]
    assert len(warnings) == 1, done.stderr
    assert "state.json is unreadable (Input/output error)" in warnings[0], done.stderr
    assert (out / "state.json.unreadable").is_symlink()
    assert "heidi" in json.loads((out / "state.json").read_text())["outcomes"]


@pytest.mark.parametrize(("failing", "limit", "deals", "named"), [
    ("the copy", 4 << 10, 1, "cannot copy "),  # random_bot.py is 6 KiB: bob was given an F
    ("the checks' transcript", 64 << 10, 1, "game check-"),  # it grows to about 830 KiB
    ("the games store", 960 << 10, 16, "bob.db: "),  # 64 games: it fails at the 45th
])
@pytest.mark.slow
def test_a_full_disk_ends_grading_in_one_line_keeping_the_graded(
        tmp_path: Path, failing: str, limit: int, deals: int, named: str) -> None:
    """A write the referee itself cannot make (the checks' transcript, a student's games
    store): one line, not a traceback, says the referee failed and where, and the students
    graded before are kept."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "ann").mkdir(parents=True)
    (subs / "ann" / "notes.txt").write_text("no bot yet")
    write_config(config)
    config.write_text(config.read_text().replace("deals = 1", f"deals = {deals}"))
    assert grade(subs, config, out).returncode == 0  # ann graded: "no bot found"
    (subs / "bob").mkdir()
    shutil.copy(SAMPLES / "python" / "random_bot.py", subs / "bob" / "bot.py")
    done = subprocess.run([*REFEREE_BASELINES_INSIDE, "grade", "subs", "--config",
                           "class.toml", "--out", "out", "--workers", "1"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600,
                          preexec_fn=files_limited_to(limit))  # one worker: its bots once
    lines = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1 and lines[0].startswith("error: the referee failed: "), failing
    assert named in lines[0] and "graded submissions are kept and skipped next time" in lines[0]
    again = grade(subs, config, out)
    assert again.returncode == 0, again.stderr
    assert "ann: unchanged" in again.stderr
    assert rows(out)["bob"]["status"] == "ok"


def test_a_state_that_cannot_be_written_whole_is_left_as_it_was(tmp_path: Path) -> None:
    """state.json is never rewritten in place: cut short by a full disk, it would be found
    damaged next time, and every student graded again.  The old one stays whole."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "ann").mkdir(parents=True)
    (subs / "ann" / "notes.txt").write_text("no bot yet")
    write_config(config)
    assert grade(subs, config, out).returncode == 0
    state = (out / "state.json").read_text()
    (subs / "bob").mkdir()
    (subs / "bob" / "notes.txt").write_text("no bot either")
    done = subprocess.run([sys.executable, "-m", "referee", "grade", "subs", "--config",
                           "class.toml", "--out", "out"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, preexec_fn=files_limited_to(len(state) + 64))
    assert done.returncode == 2 and "state.json: File too large" in done.stderr, done.stderr
    assert (out / "state.json").read_text() == state
    assert not list(out.glob("state.json.*part"))
    again = grade(subs, config, out)
    assert again.returncode == 0 and "state.json" not in again.stderr, again.stderr
    assert "ann: unchanged" in again.stderr and "bob: grading" in again.stderr


def test_out_in_a_folder_never_graded_is_allowed(tmp_path: Path) -> None:
    """SUBMISSIONS_DIR/out (like .git or node_modules) is never taken for a student, so an
    --out there is fine."""
    subs, config = tmp_path / "subs", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)
    (subs / "heidi" / "notes.txt").write_text("I did not finish")
    write_config(config)
    done = grade(subs, config, subs / "out")
    assert done.returncode == 0, done.stderr
    assert list(rows(subs / "out")) == ["heidi"]


def test_a_second_run_into_a_grading_folder_being_written_is_refused(tmp_path: Path) -> None:
    """While a run grades into a folder (here, its lock held by this test), a second run into
    it is refused in one line, and writes nothing there; once the first ends, it grades."""
    import fcntl

    subs, config, out = tmp_path / "subs", tmp_path / "class.toml", tmp_path / "out"
    (subs / "heidi").mkdir(parents=True)
    (subs / "heidi" / "notes.txt").write_text("I did not finish")
    write_config(config)
    out.mkdir()
    with (out / ".grade.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        second = grade(subs, config, out)
        one_error_line(second, f"another `referee grade` is writing {out}; wait for it to end")
        assert sorted(p.name for p in out.iterdir()) == [".grade.lock"]
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert list(rows(out)) == ["heidi"]

@pytest.mark.parametrize("where", ["subs/results", "subs", "subs/heidi", "submissions in work"])
def test_overlapping_out_and_submissions_are_refused(tmp_path: Path, where: str) -> None:
    """An --out in SUBMISSIONS_DIR (which would be graded as a student, and written into a
    student's folder) or submissions in OUT/work (which grading would delete): one error
    line, and nothing written."""
    subs = tmp_path / ("out/work" if where == "submissions in work" else "subs")
    out = tmp_path / ("out" if where == "submissions in work" else where)
    (subs / "heidi").mkdir(parents=True)
    (subs / "heidi" / "notes.txt").write_text("I did not finish")
    config = tmp_path / "class.toml"
    write_config(config)
    before = set(tmp_path.rglob("*"))
    done = grade(subs, config, out)
    one_error_line(done, "--out", str(subs))
    assert set(tmp_path.rglob("*")) == before  # nothing written, nothing lost


@pytest.mark.parametrize(("line", "error"), [
    ('beats = ["random-1", "Random-2"]',
     "grading.rules #1 beats: 'Random-2' is not one of the baselines (random-1, random-2, "
     "random-3)"),
    ('level_with = ["random-1", "Random-2"]',
     "grading.rules #1 level_with: 'Random-2' is not one of the baselines (random-1, random-2, "
     "random-3)"),
])
def test_a_rule_naming_no_baseline_is_a_config_error(tmp_path: Path, line: str,
                                                     error: str) -> None:
    """A name in `beats` or `level_with` that is not a baseline (here a case slip) is an
    error, not silently a rule nobody can meet (or everybody)."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)
    write_config(config)
    text = config.read_text()
    assert 'beats = ["random-1", "random-2", "random-3"]' in text
    config.write_text(text.replace('beats = ["random-1", "random-2", "random-3"]', line))
    done = grade(subs, config, out)
    one_error_line(done, f"class.toml: {error}")
    assert not out.exists()


@pytest.mark.parametrize("confidence", ["0.5", "1", "1.5", "0.2"])
def test_a_confidence_outside_one_half_to_one_is_a_config_error(tmp_path: Path,
                                                                 confidence: str) -> None:
    """`[grading] confidence` must lie strictly between 0.5 and 1: at 0.5 or below a bot could
    be separated both above and below one baseline, and 1 would never separate."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)
    write_config(config)
    config.write_text(config.read_text().replace('otherwise = "C"',
                                                 f'otherwise = "C"\nconfidence = {confidence}'))
    done = grade(subs, config, out)
    one_error_line(done, "class.toml: grading.confidence: Input should be")
    assert not out.exists()


def test_until_in_a_grading_config_is_refused(tmp_path: Path) -> None:
    """Grading plays every deal of its file for every student, so a file that asks to stop
    early is refused in one line before anything is graded."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)
    write_config(config)
    config.write_text('until = "separated"\n' + config.read_text())
    done = grade(subs, config, out)
    one_error_line(done, "class.toml: until: a grade is given on every deal of the file")
    assert not out.exists()


def test_the_default_config_missing_from_the_current_folder_says_where_it_looked(
        tmp_path: Path) -> None:
    """A teacher grading from the class's folder, not the repository's root, without
    --config: the one error line names the folder the default was looked for in and the
    file to give instead."""
    (tmp_path / "subs" / "heidi").mkdir(parents=True)
    done = in_process.referee("grade", "subs", "--out", "out", cwd=tmp_path)
    one_error_line(done, f"no grading config at tournaments/classroom.toml in {tmp_path} ",
                   "--config, such as the referee repository's tournaments/classroom.toml")
    assert not (tmp_path / "out").exists()


def test_a_folder_without_submissions_is_an_error(tmp_path: Path) -> None:
    """A teacher pointing at the wrong folder gets one error line, not an empty grades.csv
    and exit status 0."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / ".git").mkdir(parents=True)  # never a student
    write_config(config)
    done = grade(subs, config, out)
    one_error_line(done, f"SUBMISSIONS_DIR {subs.resolve()} holds no submissions")
    assert not out.exists()



def test_a_folder_of_files_only_names_them_in_its_error(tmp_path: Path) -> None:
    """A class that handed in files, not folders: the one error line says which files were
    not graded, as the warning beside graded folders does, and nothing is written."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    subs.mkdir()
    (subs / "ann_bot.py").write_text("print('hello')\n")
    (subs / "carl_bot.py").write_text("print('hello')\n")
    write_config(config)
    done = grade(subs, config, out)
    one_error_line(done, f"SUBMISSIONS_DIR {subs.resolve()} holds no submissions",
                   "ann_bot.py, carl_bot.py")
    assert not out.exists()

# Answers at once in the check, and never in the graded games (which name the baselines):
# each of its games lasts seconds of the referee waiting out its move times, and takes no CPU.
SILENT_IN_GAMES = (BOTS / "first_legal.py").read_text().replace(
    '        elif kind == "request":\n',
    '        elif kind == "new_game":\n'
    '            silent = "random-1" in message.get("names", [])\n'
    '        elif kind == "request" and not silent:\n').replace(
    "def main():\n", "def main():\n    silent = False\n")


def test_ctrl_c_while_grading_ends_in_one_line_and_keeps_the_graded(tmp_path: Path) -> None:
    """SIGINT (Ctrl-C) during the second student's games: one `interrupted` line, no
    traceback; the first student's grade is kept and not graded again."""
    subs = tmp_path / "subs"
    (subs / "alice").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "baseline_bot.py", subs / "alice" / "bot.py")
    (subs / "bob").mkdir()
    (subs / "bob" / "bot.py").write_text(SILENT_IN_GAMES)
    assert "and not silent" in SILENT_IN_GAMES
    config = tmp_path / "grading.toml"
    write_config(config)
    out = tmp_path / "out"

    def start() -> subprocess.Popen[str]:
        # One at a time, so that alice is graded before bob begins.
        return subprocess.Popen([sys.executable, "-m", "referee", "grade", str(subs),
                                 "--config", str(config), "--out", str(out), "--workers", "1"],
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)

    def said_until_bob_begins(child: subprocess.Popen[str]) -> list[str]:
        assert child.stderr is not None
        said = []
        for line in child.stderr:
            said.append(line)
            if line.startswith("bob: grading"):
                break
        return said

    child = start()
    said_until_bob_begins(child)
    # Past bob's check: the store of his games is made as they begin.
    wait_until((out / "games" / "bob.db").exists, "bob's games to begin", process=child)
    child.send_signal(signal.SIGINT)
    _, rest = child.communicate(timeout=60)
    assert child.returncode == 2
    assert rest.endswith("error: interrupted; graded submissions are kept and skipped next "
                         "time, but grades.csv is written only when a run finishes: run again "
                         "before handing out feedback/\n"), rest
    assert "Traceback" not in rest, rest
    again = start()  # stopped in turn once it has said what it grades
    said = said_until_bob_begins(again)
    again.send_signal(signal.SIGINT)
    again.communicate(timeout=60)
    students = [line for line in said  # one deal: a warning; and where the baselines are
                if not line.startswith(("warning: ", "baselines "))]
    assert students[0].startswith("alice: unchanged, kept its grade"), said
    assert students[-1].startswith("bob: grading"), said


def test_a_broken_manifest_is_that_students_problem(tmp_path: Path) -> None:
    """A build or command that cannot be split, or holds a NUL, and a `bot.toml` nested 600
    levels deep (a RecursionError that stopped the whole class, no grades.csv) are each one
    student's "build failed" naming what is wrong (not a traceback, or "the referee failed",
    for the whole class); a long `name`, which is not used, is accepted."""
    subs = tmp_path / "subs"
    bot = SAMPLES / "python" / "baseline_bot.py"
    manifests = {
        "quote": 'command = "python3 bot.py"\nbuild = "echo \'hi"\n',
        "nul": 'command = "python3 bot.py\\u0000"\n',
        "deep": 'command = "python3 bot.py"\nx = ' + "[" * 600 + "\n",
        "long_name": f'name = "{"n" * 70}"\ncommand = "python3 bot.py"\n',
    }
    for student, manifest in manifests.items():
        (subs / student).mkdir(parents=True)
        shutil.copy(bot, subs / student / "bot.py")
        (subs / student / "bot.toml").write_text(manifest)
    config = tmp_path / "grading.toml"
    write_config(config)
    # In a process of its own: how deep a parser may recurse depends on the process.
    done = test_grade.grade(subs, config, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    graded = rows(tmp_path / "out")
    assert {s: r["status"] for s, r in graded.items()} == {
        "quote": "build failed", "nul": "build failed", "deep": "build failed",
        "long_name": "ok"}
    feedback = tmp_path / "out" / "feedback"
    assert "bot.toml: build: cannot be split into words: No closing quotation" in \
        (feedback / "quote.md").read_text()
    assert "bot.toml: command: contains a NUL character" in (feedback / "nul.md").read_text()
    assert "bot.toml is not valid TOML: nested too deeply" in (feedback / "deep.md").read_text()


@pytest.mark.parametrize(("change", "says"), [
    (lambda text: text + "x = " + "[" * 600 + "\n",
     "class.toml is not valid TOML: nested too deeply"),
    (lambda text: text.replace("deals = 1", "deals = true"),
     "deals: Input should be a valid integer"),
])
def test_a_grading_config_nested_too_deeply_or_with_a_boolean_count_is_one_line(
        tmp_path: Path, change: Any, says: str) -> None:
    """A grading config nested 600 levels deep (a traceback before), or saying `deals =
    true` (taken as 1 before), is one error line, before any build."""
    subs, config = tmp_path / "subs", tmp_path / "class.toml"
    (subs / "ann").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "random_bot.py", subs / "ann" / "bot.py")
    write_config(config)
    config.write_text(change(config.read_text()))
    # In a process of its own: how deep a parser may recurse depends on the process.
    done = test_grade.grade(subs, config, tmp_path / "out")
    one_error_line(done, says)
    assert not (tmp_path / "out" / "grades.csv").exists()


@pytest.mark.parametrize(("script", "students_first", "words"), [
    ("random_bott.py", False, ("error: baseline random-2 cannot play: its command cannot run: ",
                               "random_bott.py not found;", "fix it and run again")),
    (str(BOTS / "crash_at_start.py"), True, ("error: baseline random-2 failed in game",
                                             "(playing alice): start:", "fix it and run again")),
])
def test_a_baseline_that_cannot_play_stops_grading(tmp_path: Path, script: str,
                                                   students_first: bool,
                                                   words: tuple[str, ...]) -> None:
    """A baseline that cannot play would crash in every game, and every student would beat
    it.  One whose script is not there (a typo) stops grading before any student; one that
    crashes as it starts, at the first student's games.  Either way one line names the
    baseline and why, and no grade is kept."""
    subs = tmp_path / "subs"
    (subs / "alice").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "random_bot.py", subs / "alice" / "bot.py")
    config = tmp_path / "grading.toml"
    write_config(config)
    text = config.read_text()
    random_bot = str(SAMPLES / "python" / "random_bot.py")
    assert f"{random_bot} --seed 2" in text
    config.write_text(text.replace(f"{random_bot} --seed 2",
                                   f"{SAMPLES / 'python' / script} --seed 2"))
    out = tmp_path / "out"
    done = grade(subs, config, out)
    assert done.returncode == 2
    assert ("alice: grading" in done.stderr) == students_first, done.stderr
    error = done.stderr.splitlines()[-1]
    for part in words:
        assert part in error, error
    assert not (out / "grades.csv").exists()
    assert not (out / "state.json").exists()


def test_a_baseline_script_misspelt_at_its_ending_stops_grading_before_anything(
        tmp_path: Path) -> None:
    """A baseline whose script is misspelt at its ending ("random_bot.pyy", no ending play
    or a tournament knows as a script's) is found before grading as `referee autograder`
    finds it: one line names it and where it was looked for, and nothing is graded (before,
    grading started and, with a bot to play, stopped at the first game)."""
    (tmp_path / "subs" / "heidi").mkdir(parents=True)  # no bot: nothing built or played
    config = tmp_path / "grading.toml"
    write_config(config)
    random_bot = str(SAMPLES / "python" / "random_bot.py")
    config.write_text(config.read_text().replace(f"{random_bot} --seed 2",
                                                 "random_bot.pyy --seed 2"))
    out = tmp_path / "out"
    done = grade(tmp_path / "subs", config, out)
    one_error_line(done)
    assert done.stderr == (
        "error: baseline random-2 cannot play: its command cannot run: random_bot.pyy not "
        f"found in {tmp_path}; fix it and run again (nothing was graded)\n"), done.stderr
    assert not out.exists()


def test_a_classroom_file_copied_away_from_its_baselines_is_one_line_before_anything(
        tmp_path: Path) -> None:
    """The classroom file copied out of the repository names its baselines by paths that are
    not there from its new folder: grading says so in one line, naming every such baseline,
    before any warning of the class's folder or the sandbox, and leaves the grading folder
    as it was (its unreadable state.json not moved aside, no word of grading again)."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    (subs / "ann").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "random_bot.py", subs / "ann" / "bot.py")
    (subs / "ivy.zip").write_bytes(b"PK")  # an archive handed in: a warning, before
    config = tmp_path / "teach" / "classroom.toml"
    config.parent.mkdir()
    shutil.copy(ROOT / "tournaments" / "classroom.toml", config)
    out.mkdir()
    (out / "state.json").write_text("not a state")
    done = grade(subs, config, out)
    one_error_line(done, "error: baseline baseline cannot play: its command cannot run: "
                   f"../sample_bots/python/baseline_bot.py not found in {config.parent} "
                   "(nor can random-1, random-2); fix it and run again (nothing was graded)")
    assert sorted(p.name for p in out.iterdir()) == ["state.json"]


def test_grading_names_the_folder_its_baselines_were_found_in(tmp_path: Path) -> None:
    """The classroom file copied beside someone else's sample_bots/ grades against those:
    grading says first which folder its baselines are in, and which file each runs (not
    under -q), so that a wrong folder shows."""
    (tmp_path / "sample_bots").mkdir()
    shutil.copytree(SAMPLES / "python", tmp_path / "sample_bots" / "python")
    config = tmp_path / "teach" / "classroom.toml"
    config.parent.mkdir()
    shutil.copy(ROOT / "tournaments" / "classroom.toml", config)
    (tmp_path / "subs" / "heidi").mkdir(parents=True)  # no bot: nothing built or played
    done = grade(tmp_path / "subs", config, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (
        f"baselines (in {tmp_path / 'sample_bots' / 'python'}): baseline = baseline_bot.py, "
        "random-1 = random_bot.py, random-2 = random_bot.py"), done.stderr
    quiet = in_process.referee("grade", "subs", "--config", str(config), "--out", "out", "-q",
                               cwd=tmp_path)
    assert (quiet.returncode, quiet.stderr) == (0, ""), quiet.stderr


def test_a_change_to_the_grading_settings_or_a_baseline_grades_everyone_again(
        tmp_path: Path) -> None:
    """Limits that are not in the schedule's fingerprint (the start-up time here), and the
    files a baseline's command names, count: a change grades everyone again, not keeping
    the earlier grades (whatever they were: alice's bot crashes at its start)."""
    subs = tmp_path / "subs"
    (subs / "alice").mkdir(parents=True)
    shutil.copy(BOTS / "crash_at_start.py", subs / "alice" / "bot.py")
    baseline = tmp_path / "base.py"
    shutil.copy(SAMPLES / "python" / "random_bot.py", baseline)
    config = tmp_path / "grading.toml"
    write_config(config)
    config.write_text(config.read_text().replace(
        str(SAMPLES / "python" / "random_bot.py"), str(baseline)))
    out = tmp_path / "out"
    assert "alice: grading" in grade(subs, config, out).stderr
    assert "alice: unchanged, kept its grade" in grade(subs, config, out).stderr
    config.write_text(config.read_text().replace("startup_time = 5", "startup_time = 6"))
    assert "alice: grading" in grade(subs, config, out).stderr
    assert "alice: unchanged, kept its grade" in grade(subs, config, out).stderr
    baseline.write_text(baseline.read_text() + "\n# stronger now\n")
    assert "alice: grading" in grade(subs, config, out).stderr


def test_a_change_to_the_grading_rules_alone_grades_again_from_the_stored_games(
        tmp_path: Path) -> None:
    """A change to `[grading]` alone (the grades, the points, the confidence) plays no game and
    runs no bot again (a class's hours of games were played again for a new weight): each
    unchanged student is graded by the new rules from its stored games and check, its grade,
    points and feedback as a full grading would give them (back to the first rules, the
    first feedback, byte for byte, a crash's record still beside it).  Under the same rules
    an unchanged student's feedback is written in this referee's words, not kept in an older
    one's.  A change to what plays the games (the move time) grades everyone again, as
    before."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    for student, code in (("ann", (SAMPLES / "python" / "random_bot.py").read_text()),
                          ("ivan", test_grade.crashes_in_some_games())):
        (subs / student).mkdir(parents=True)
        (subs / student / "bot.py").write_text(code)
    (subs / "heidi").mkdir()  # no bot: nothing found, nothing played
    write_config(config)
    first = config.read_text()
    assert grade(subs, config, out).returncode == 0
    before = {p.name: p.read_bytes() for p in (out / "feedback").glob("*.md")}
    grades = (out / "grades.csv").read_bytes()
    stores = {p.name: p.stat().st_mtime_ns for p in (out / "games").glob("*.db")}
    assert set(stores) == {"ann.db", "ivan.db"} and list((out / "feedback" / "ivan").glob(
        "game-*.jsonl")), stores
    was = rows(out)["ann"]
    assert was["grade"] == "C"
    config.write_text(first.replace('otherwise = "C"', 'otherwise = "B"\nconfidence = 0.6\n'
                                    'points = {check = 2, placement = 10, beats = 3}'))
    done = grade(subs, config, out)
    assert done.returncode == 0 and ": grading\n" not in done.stderr, done.stderr
    assert {p.name: p.stat().st_mtime_ns for p in (out / "games").glob("*.db")} == stores
    ann = rows(out)["ann"]
    # the points said too, as they changed: the new weights, whether or not the grade did
    assert (f"ann: unchanged, graded B, {float(ann['points']):g} points by the new [grading] "
            f"(was C, {float(was['points']):g} points), from its games and check as stored: "
            "nothing run again") in done.stderr, done.stderr
    assert (ann["grade"], ann["games"], ann["checks_passed"]) == ("B", "4", "21")
    assert float(ann["points"]) == pytest.approx(
        2 * 21 + 10 * float(ann["placement"]) + 3 * sum(
            ann[f"vs_random-{i}"] == "beats" for i in (1, 2, 3)), abs=0.01)
    assert "- grade: **B**" in (out / "feedback" / "ann.md").read_text()
    assert "times 10 = " in (out / "feedback" / "ann.md").read_text()
    assert "with 60% confidence" in (out / "feedback" / "ann.md").read_text()
    config.write_text(first)
    done = grade(subs, config, out)
    assert done.returncode == 0 and ": grading\n" not in done.stderr, done.stderr
    assert {p.name: p.read_bytes() for p in (out / "feedback").glob("*.md")} == before
    assert (out / "grades.csv").read_bytes() == grades
    state = json.loads((out / "state.json").read_text())  # as an older referee worded it
    for student in ("ann", "ivan", "heidi"):
        state["outcomes"][student]["feedback"] = "in an older referee's words"
    (out / "state.json").write_text(json.dumps(state))
    assert "ann: unchanged, kept its grade C" in grade(subs, config, out).stderr
    assert {p.name: p.read_bytes() for p in (out / "feedback").glob("*.md")} == before
    config.write_text(first.replace("move_time = 0.3", "move_time = 0.35"))
    done = grade(subs, config, out)
    assert "ann: grading" in done.stderr and "ivan: grading" in done.stderr, done.stderr


def test_each_student_graded_is_said_as_it_is_done(tmp_path: Path) -> None:
    """As each student's grading ends, the run says its status, grade and points in one line
    (as `grade-one` does), after its "grading" line: a teacher waiting on a slow student
    sees who is done, not only "grading" said of everyone until the table at the end."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)  # no bot: nothing built or played
    (subs / "ann").mkdir()
    (subs / "ann" / "bot.py").write_text((SAMPLES / "python" / "random_bot.py").read_text())
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert "heidi: no bot found, grade F, 0 points" in lines, done.stderr
    ann = rows(out)["ann"]
    said = f"ann: {ann['status']}, grade {ann['grade']}, {float(ann['points']):g} points"
    assert said in lines, done.stderr
    assert lines.index(said) > lines.index("ann: grading"), done.stderr


def test_a_config_change_that_grades_everyone_again_says_so(tmp_path: Path) -> None:
    """A teacher who changes the move time sees, in one line, that every submission is
    graded again because the config changed (it was graded again in silence, for as long as
    a class takes); a run under the same config, or a first run, says nothing of it."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)  # no bot: nothing built or played
    write_config(config)
    said = "every submission is graded again, games and all"
    first = grade(subs, config, out)
    assert first.returncode == 0 and said not in first.stderr, first.stderr
    again = grade(subs, config, out)
    assert "heidi: unchanged" in again.stderr and said not in again.stderr, again.stderr
    config.write_text(config.read_text().replace("move_time = 0.3", "move_time = 0.35"))
    done = grade(subs, config, out)
    assert done.returncode == 0 and "heidi: grading" in done.stderr, done.stderr
    assert ("note: the grading config changed since the last run in more than [grading] and "
            f"submission_time (or the referee's grading did): {said}\n") in done.stderr, \
        done.stderr


def test_a_new_version_of_the_grading_grades_everyone_again_in_full(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A referee whose grading changed (`GRADE_VERSION`: the same games graded otherwise)
    grades each student again in full, as the state's docstring says, saying why, and does
    not take what an older version found as stored (its statuses may be another
    version's)."""
    from referee.grade import state

    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)  # no bot: nothing built or played
    write_config(config)
    assert "heidi: grading" in grade(subs, config, out).stderr
    assert "heidi: unchanged, kept its grade" in grade(subs, config, out).stderr
    monkeypatch.setattr(state, "GRADE_VERSION", state.GRADE_VERSION + 1)
    done = grade(subs, config, out)
    assert "heidi: grading" in done.stderr and "by the new [grading]" not in done.stderr, \
        done.stderr
    assert ("note: the grading config changed since the last run in more than [grading] and "
            "submission_time (or the referee's grading did): every submission is graded again, "
            "games and all") in done.stderr, done.stderr


def test_raising_the_size_limit_grades_only_the_submission_over_it_again(
        tmp_path: Path) -> None:
    """The run tells the teacher to raise `submission_size` to grade a submission that is
    too large: that grades it again, and keeps every other student's grade (their games are
    not played again for a limit they were within)."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)  # no bot, and small
    (subs / "eve").mkdir()
    (subs / "eve" / "bot.py").write_text("print('hi')\n")
    (subs / "eve" / "data").write_bytes(b"")
    os.truncate(subs / "eve" / "data", 2 << 20)  # sparse: 2 MiB counted
    write_config(config)
    config.write_text(config.read_text().replace("[limits]", '[limits]\nsubmission_size = "1M"'))
    first = grade(subs, config, out)
    assert "heidi: grading" in first.stderr and "eve: too large" in first.stderr, first.stderr
    config.write_text(config.read_text().replace('submission_size = "1M"',
                                                 'submission_size = "3M"'))
    done = grade(subs, config, out)
    assert "heidi: unchanged, kept its grade" in done.stderr, done.stderr
    assert "eve: grading" in done.stderr and "eve: too large" not in done.stderr, done.stderr


def test_an_unknown_edition_is_one_line_before_any_build(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    (subs / "alice").mkdir(parents=True)
    (subs / "alice" / "bot.toml").write_text('command = "./bot"\nbuild = "touch built"\n')
    config = tmp_path / "grading.toml"
    write_config(config)
    config.write_text(config.read_text().replace("deals = 1", 'deals = 1\nedition = "cmonn"'))
    done = grade(subs, config, tmp_path / "out")
    one_error_line(done, "edition: no edition", "cmonn")
    assert not (tmp_path / "out").exists()


def test_a_bot_that_crashes_in_every_game_is_crashed_not_graded(tmp_path: Path) -> None:
    """It passes the check (which names no baseline) but exits at each real game: status
    crashed, grade F (not ok, with the grade for beating no baseline)."""
    subs = tmp_path / "subs"
    (subs / "nora").mkdir(parents=True)
    code = (SAMPLES / "python" / "random_bot.py").read_text()
    marker = 'if kind == "new_game":'
    assert marker in code
    code = code.replace(marker, marker + '\n                if "random-1" in message["names"]:'
                                         '\n                    raise SystemExit("only here")',
                        1)
    (subs / "nora" / "bot.py").write_text(code)
    config = tmp_path / "grading.toml"
    write_config(config)
    done = grade(subs, config, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    nora = rows(tmp_path / "out")["nora"]
    assert (nora["status"], nora["grade"]) == ("crashed", "F"), nora
    assert "crash" in (tmp_path / "out" / "feedback" / "nora.md").read_text()


def test_feedback_reproduces_the_check_with_the_grading_limits(tmp_path: Path) -> None:
    """The check command in the feedback carries the grading config's time limits, so a
    student running it meets what the grader met; a path with a space is quoted."""
    subs = tmp_path / "subs"
    (subs / "o'brien").mkdir(parents=True)
    shutil.copy(BOTS / "crash_at_start.py", subs / "o'brien" / "bot.py")  # (and a bot that
    # never answers: test_grade's frank)
    config = tmp_path / "grading.toml"
    write_config(config)
    done = grade(subs, config, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    feedback = (tmp_path / "out" / "feedback" / "o'brien.md").read_text()
    assert ("\nreferee check --move-time 0.3 --time-bank 0.6 --startup-time 5 "
            "'python3 bot.py'\n") in feedback, feedback


def test_a_bot_too_slow_to_say_hello_is_timed_out(tmp_path: Path) -> None:
    """Past the start-up limit: 'timed out', as the feedback's reason says (not 'crashed')."""
    subs = tmp_path / "subs"
    (subs / "vera").mkdir(parents=True)
    (subs / "vera" / "bot.py").write_text("import time\ntime.sleep(30)\n")  # then its hello
    config = tmp_path / "grading.toml"
    write_config(config)
    config.write_text(config.read_text().replace("startup_time = 5", "startup_time = 1"))
    done = grade(subs, config, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert rows(tmp_path / "out")["vera"]["status"] == "timed out"
    assert "no hello within the start-up limit of 1 s" in \
        (tmp_path / "out" / "feedback" / "vera.md").read_text()


def test_a_baseline_built_from_its_sources_does_not_regrade_an_unchanged_class(
        tmp_path: Path) -> None:
    """The file a baseline's build makes is named by its command: absent before the first
    build, it does not make the second run grade everyone again."""
    subs = tmp_path / "subs"
    (subs / "ann").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "random_bot.py", subs / "ann" / "bot.py")
    base = tmp_path / "base"
    base.mkdir()
    shutil.copy(SAMPLES / "python" / "random_bot.py", base / "src.py")
    config = tmp_path / "grading.toml"
    write_config(config)
    text = config.read_text().replace(
        f'command = "{BOT_PYTHON} {SAMPLES / "python" / "random_bot.py"} --seed 1"',
        'dir = "base"\nbuild = "cp src.py bot.py"\n'
        f'command = "{BOT_PYTHON} bot.py --seed 1"')
    assert 'build = "cp src.py bot.py"' in text
    config.write_text(text)
    out = tmp_path / "out"
    assert "ann: grading" in grade(subs, config, out).stderr
    again = grade(subs, config, out)
    assert "ann: unchanged, kept its grade" in again.stderr, again.stderr


def test_a_file_handed_in_beside_the_students_folders_is_named(tmp_path: Path) -> None:
    """A student who handed in a file, not a folder, is not graded: a warning names the file,
    so that the student is not missing from grades.csv unsaid; hidden files are not named."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "ann").mkdir(parents=True)
    (subs / "ann" / "notes.txt").write_text("no bot yet")
    (subs / "carl_bot.py").write_text("print('hello')\n")
    (subs / ".DS_Store").write_bytes(b"\0")
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert ("warning: not graded, being files and not students' folders: carl_bot.py (give "
            "each student a folder of their own)") in done.stderr.splitlines(), done.stderr
    assert list(rows(out)) == ["ann"]


@pytest.mark.parametrize(("change", "error"), [
    (('otherwise = "C"', 'otherwize = "C"'),
     "class.toml: grading.otherwize: Extra inputs are not permitted (did you mean "
     "'otherwise'?)"),
    (('format = "gauntlet"', 'format = "round-robin"'),
     'class.toml: format: grading needs a gauntlet (format = "gauntlet", with baselines)'),
    (('baselines = ["random-1"', 'baselines = ["randon-1"'),
     "class.toml: baselines: 'randon-1' is not one of the bots (random-1, random-2, "
     "random-3)"),
])
def test_a_mistyped_key_or_a_round_robin_config_is_named_as_such(
        tmp_path: Path, change: tuple[str, str], error: str) -> None:
    """A misspelt key of a grading config is named with the key it was meant to be, a
    misspelt baseline with the bots it can name, and a config for a round robin is told that
    grading needs a gauntlet, not that its bots cannot fill a table."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "heidi").mkdir(parents=True)
    write_config(config)
    assert change[0] in config.read_text()
    config.write_text(config.read_text().replace(*change))
    done = grade(subs, config, out)
    one_error_line(done, error)
    assert not out.exists()


def test_a_zips_mac_folder_is_no_student_and_a_bot_one_level_down_is_pointed_at(
        tmp_path: Path) -> None:
    """A class unzipped on a Mac holds __MACOSX/: no student is taken from it.  A student
    whose bot sits in a folder of its own (a zip's top folder) is told which folder to move
    up, not only that no bot was found."""
    subs = tmp_path / "subs"
    (subs / "__MACOSX" / "ann").mkdir(parents=True)
    (subs / "ann" / "ann_bot").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "random_bot.py", subs / "ann" / "ann_bot" / "bot.py")
    found = {s.student: s.problem for s in discover(subs)}
    assert list(found) == ["ann"]
    assert found["ann"] is not None and found["ann"].endswith(
        "the folder ann_bot/ holds bot.py: move its files up, out of ann_bot/"), found


def test_an_empty_folder_is_told_it_is_empty_and_what_to_hand_in(tmp_path: Path) -> None:
    """A student's folder with nothing in it is "no bot found", and its feedback says the
    folder is empty (no files) and what to hand in (the bot's source files, and a bot.toml
    unless one of them is a file of the conventions), not to "add a bot.toml" as if the
    bot's files were there; a folder of notes only is still told to add one.  Graded again
    once an empty folder is put in it, the empty one's feedback is told to add one too."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "judy").mkdir(parents=True)
    (subs / "heidi").mkdir()
    (subs / "heidi" / "notes.txt").write_text("I did not finish")
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert {s: r["status"] for s, r in rows(out).items()} == {
        "heidi": "no bot found", "judy": "no bot found"}
    judy = (out / "feedback" / "judy.md").read_text()
    assert "`no bot found: your folder is empty (no files): hand in your bot's source files, " \
        "and a bot.toml (command, build) unless one of them is Makefile, bot.py, main.py, " \
        "bot.js, main.js, bot.pl or Bot.java`" in judy, judy
    assert "add a bot.toml" not in judy, judy
    heidi = (out / "feedback" / "heidi.md").read_text()
    assert "no bot found: add a bot.toml" in heidi and "empty" not in heidi, heidi

    # An empty folder put in judy's (its files' digest the same): graded again, run again,
    # it is told what is now so, not the message kept from the last run.
    (subs / "judy" / "src").mkdir()
    again = grade(subs, config, out)
    assert again.returncode == 0, again.stderr
    assert "judy: no bot found, grade F" in again.stderr, again.stderr
    assert "heidi: unchanged, kept its grade F" in again.stderr, again.stderr
    judy = (out / "feedback" / "judy.md").read_text()
    assert "no bot found: add a bot.toml" in judy and "empty" not in judy, judy


def test_a_student_who_handed_in_an_archive_has_a_row_that_says_to_unpack_it(
        tmp_path: Path) -> None:
    """A student who handed in `cid.zip` in place of a folder is in grades.csv (no bot
    found, F, 0 points), their feedback says the archive is not unpacked and to hand in its
    files (its status and games lines too, not "nothing in your folder"), and the teacher
    is told where to unpack it; once unpacked, the folder is graded, and the archive left
    beside it is said to be not graded, not named as a student's file to give a folder.
    A zip inside a student's folder is that student's "no bot found" too.  A file that is no
    archive (the teacher's notes) stands for no student."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "dan").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "random_bot.py", tmp_path / "bot.py")
    for archive in (subs / "cid.zip", subs / "dan" / "bot.zip"):
        shutil.make_archive(str(archive.with_suffix("")), "zip", tmp_path, "bot.py")
    (subs / "notes.txt").write_text("who handed in what")
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    graded = rows(out)
    assert {s: (r["status"], r["grade"], r["points"]) for s, r in graded.items()} == {
        "cid": ("no bot found", "F", "0"), "dan": ("no bot found", "F", "0")}
    cid = (out / "feedback" / "cid.md").read_text()
    assert "you handed in cid.zip, an archive, not a folder of files, and grading does not " \
        "unpack archives: hand in the files themselves" in cid, cid
    # its status and games lines agree: it has no folder for "nothing in your folder"
    assert ("- status: **no bot found** (you handed in cid.zip, an archive, not a folder of "
            "files, and grading does not unpack archives, so nothing was built or played)\n"
            "- grade: ") in cid, cid
    assert ("- games: **no game was played** because you handed in cid.zip, an archive, not a "
            "folder of files, and grading does not unpack archives\n") in cid, cid
    assert "your folder" not in cid, cid
    assert "it holds bot.zip: unpack it" in (out / "feedback" / "dan.md").read_text()
    assert (f"warning: cid.zip is an archive, not a folder: cid is graded \"no bot found\" "
            f"(grading does not unpack archives); to grade its bot, unpack it into "
            f"{subs.resolve() / 'cid'}/") in done.stderr, done.stderr
    assert "not graded, being files and not students' folders: notes.txt (" in done.stderr
    shutil.unpack_archive(subs / "cid.zip", subs / "cid")  # as the teacher is told to
    done = grade(subs, config, out)
    assert done.returncode == 0 and "cid: grading" in done.stderr, done.stderr
    assert (rows(out)["cid"]["status"], rows(out)["cid"]["games"]) == ("ok", "4")
    assert "warning: cid.zip is an archive" not in done.stderr, done.stderr
    assert "note: cid.zip is not graded: the folder cid/ beside it is\n" in done.stderr
    assert "folders: notes.txt (" in done.stderr and "cid.zip (" not in done.stderr


def test_a_class_folder_given_one_level_too_high_is_warned_of(tmp_path: Path) -> None:
    """`grade course/` where course/subs/ holds the students: the one "student" subs has no
    bot, and a warning tells the teacher its folders each hold one and what to give instead."""
    course, out, config = tmp_path / "course", tmp_path / "out", tmp_path / "class.toml"
    for student in ("amy", "bo", "cy", "di"):
        (course / "subs" / student).mkdir(parents=True)
        shutil.copy(SAMPLES / "python" / "random_bot.py", course / "subs" / student / "bot.py")
    write_config(config)
    done = grade(course, config, out)
    assert done.returncode == 0, done.stderr
    assert (f"warning: subs/ is graded as one student, but its folders amy/, bo/, cy/ and 1 "
            f"more each hold a bot: if it is the class's folder, give {course / 'subs'} as "
            "SUBMISSIONS_DIR\n") in done.stderr, done.stderr
    assert rows(out)["subs"]["status"] == "no bot found"
    assert ("its folders amy/, bo/, cy/ and 1 more each hold a bot: name one of them, or put "
            "one bot's files at the top") in (
        out / "feedback" / "subs.md").read_text()


def test_a_config_that_grades_every_working_bot_alike_is_warned_of(tmp_path: Path) -> None:
    """Too few deals for the test to find anything (1 at 95%), a [grading] with no rules (or
    none at all), and bots run outside the sandbox, are named by `grade` as it starts (and by
    `autograder` as it writes a platform's files); a student's feedback under no rules does
    not say it met the first rule."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (tmp_path / "nobody" / "heidi").mkdir(parents=True)  # no bot: graded without a game
    (subs / "ann").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "random_bot.py", subs / "ann" / "bot.py")
    write_config(config)
    few = ("deals = 1: the paired test needs at least 5 deals to find any difference at "
           "confidence 0.95: no bot can be found to beat a baseline, and every bot is level "
           "with each")
    assert grading_warnings(load_tournament(config)) == [few]
    done = grade(tmp_path / "nobody", config, tmp_path / "nobody-out")
    assert done.returncode == 0 and f"warning: class.toml: {few}\n" in done.stderr, done.stderr
    assert "warning: the bots run without the sandbox: a student's bot can read the other " \
        "submissions" in done.stderr  # grading outside it is said too
    text = config.read_text()
    config.write_text(text[:text.index("[[grading.rules]]")] + text[text.index("[[bots]]"):])
    rules = "[grading] has no rules: every working bot gets the grade otherwise = 'C'"
    assert grading_warnings(load_tournament(config)) == [rules]
    done = grade(subs, config, out)
    assert done.returncode == 0 and f"warning: class.toml: {rules}\n" in done.stderr, done.stderr
    feedback = (out / "feedback" / "ann.md").read_text()
    assert "it met the first rule" not in feedback and "has no rules" in feedback, feedback
    text = config.read_text()  # no [grading] at all: every bot gets F, and where rules go
    config.write_text(text[:text.index("[grading]")] + text[text.index("[[bots]]"):])
    assert grading_warnings(load_tournament(config)) == [
        "no [grading] table: every bot gets the grade 'F' (otherwise and broken, by default); "
        "add [grading] with its [[grading.rules]] (docs/grading.md, The grading config and "
        "its rules)"]


def test_a_command_whose_program_the_grader_lacks_is_not_run_as_a_crash(tmp_path: Path) -> None:
    """A submission whose command's program cannot run here (the grading machine lacks a
    language's tools, or the command is wrong) is not run and called a crash: it is `build
    failed`, which a platform does not grade (PrairieLearn keeps the attempt), its feedback
    saying why: to tell the teacher where the grader lacks a program, how to set a variable
    where the command begins with one."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    for student, command in (("jo", "no-such-runtime-here bot.js"),
                             ("kim", "PYTHONHASHSEED=0 python3 bot.py")):
        (subs / student).mkdir(parents=True)
        (subs / student / "bot.js").write_text("console.log('hi')\n")
        (subs / student / "bot.toml").write_text(f'command = "{command}"\n')
    write_config(config)
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert {s: r["status"] for s, r in rows(out).items()} == {"jo": "build failed",
                                                              "kim": "build failed"}
    jo = " ".join((out / "feedback" / "jo.md").read_text().split())
    assert ("its command cannot run here: command 'no-such-runtime-here' not found: if that is "
            "not a typo, your teacher's grader lacks it and needs it installed (tell them); "
            "your bot was not run") in jo, jo
    kim = " ".join((out / "feedback" / "kim.md").read_text().split())
    assert "(to set a variable, write env PYTHONHASHSEED=0 python3 bot.py)" in kim, kim
    assert "grader lacks it" not in kim  # a variable is not a program to install


def test_a_student_gone_from_the_class_is_named_and_their_feedback_moved_aside(
        tmp_path: Path) -> None:
    """A student graded before whose folder is gone from SUBMISSIONS_DIR is named in one
    line: left out of grades.csv, their feedback and its game records moved out of
    feedback/ (which a teacher hands out) to withdrawn/, never deleted; the next run says
    nothing more of them.  Back and gone again, they are graded afresh, and their second
    feedback is set aside beside the first, not over it.  A teacher's own file in feedback/
    is left alone."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "class.toml"
    (subs / "alice").mkdir(parents=True)
    shutil.copy(SAMPLES / "python" / "random_bot.py", subs / "alice" / "bot.py")
    (subs / "niaj").mkdir()
    (subs / "niaj" / "bot.py").write_text(test_grade.crashes_in_some_games())  # records
    write_config(config)
    assert grade(subs, config, out).returncode == 0
    graded = (out / "feedback" / "niaj.md").read_text()
    (record,) = (out / "feedback" / "niaj").glob("game-*.jsonl")
    shutil.move(subs / "niaj", tmp_path / "niaj")
    (out / "feedback" / "README.md").write_text("Notes of mine\n")  # the teacher's, kept
    done = grade(subs, config, out)
    assert done.returncode == 0, done.stderr
    assert "README" not in done.stderr and (out / "feedback" / "README.md").is_file()
    (out / "feedback" / "README.md").unlink()
    aside = out.resolve() / "withdrawn"
    assert ("niaj: graded before, no longer in subs/: left out of grades.csv; its "
            f"feedback moved to {aside / 'niaj.md'}, its game records to {aside / 'niaj'}/, "
            f"its games' store to {aside / 'niaj.db'}\n"
            ) in done.stderr, done.stderr
    assert list(rows(out)) == ["alice"]
    assert sorted(p.name for p in (out / "feedback").iterdir()) == ["alice.md"]
    assert (aside / "niaj.md").read_text() == graded
    assert (aside / "niaj" / record.name).is_file()
    again = grade(subs, config, out)
    assert again.returncode == 0 and "niaj" not in again.stderr, again.stderr

    shutil.move(tmp_path / "niaj", subs / "niaj")
    back = grade(subs, config, out)
    assert "niaj: grading" in back.stderr, back.stderr
    assert list(rows(out)) == ["alice", "niaj"]
    shutil.rmtree(subs / "niaj")
    gone = grade(subs, config, out)
    assert f"its feedback moved to {aside / 'niaj-2.md'}, its game records to " \
        f"{aside / 'niaj-2'}/, its games' store to {aside / 'niaj-2.db'}\n" in gone.stderr, \
        gone.stderr
    assert (aside / "niaj.md").read_text() == graded
    assert sorted(p.name for p in aside.iterdir()) == ["niaj", "niaj-2", "niaj-2.db",
                                                       "niaj-2.md", "niaj.db", "niaj.md"]
    assert not (out / "games" / "niaj.db").exists()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_run_leaves_no_copy_of_a_submission_in_work(tmp_path: Path,
                                                                   signum: int) -> None:
    """Ctrl-C (SIGINT), or `timeout` (SIGTERM), while a student is being graded: the copy
    their bot runs in, OUT/work/STUDENT, is removed on the way out, as a finished run
    removes it."""
    subs, out, config = tmp_path / "subs", tmp_path / "out", tmp_path / "grading.toml"
    (subs / "bob").mkdir(parents=True)
    (subs / "bob" / "bot.py").write_text(SILENT_IN_GAMES)  # its games last: time to stop it
    write_config(config)
    child = subprocess.Popen([sys.executable, "-m", "referee", "grade", str(subs), "--config",
                              str(config), "--out", str(out)],
                             stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert child.stderr is not None
    for line in child.stderr:
        if line.startswith("bob: grading"):
            break
    # Its copy is made before its check, and its games (their store) begin after it.
    wait_until((out / "games" / "bob.db").exists, "bob's games to begin", process=child)
    assert (out / "work" / "bob" / "bot.py").is_file()
    child.send_signal(signum)
    _, rest = child.communicate(timeout=60)
    assert child.returncode == 2, rest
    assert rest.endswith("error: interrupted; graded submissions are kept and skipped next "
                         "time, but grades.csv is written only when a run finishes: run again "
                         "before handing out feedback/\n"), rest
    assert not (out / "work").exists() or list((out / "work").iterdir()) == []


def test_a_budget_far_under_the_move_time_is_warned_of(tmp_path: Path) -> None:
    """A submission_time that allows a bot a sixteenth of its move time a decision (30 s for
    some 950 decisions at move_time 0.5 s) is named with what it allows and a budget that
    gives room; the shipped classroom config is not warned of."""
    config = tmp_path / "class.toml"
    write_config(config)
    text = config.read_text()
    config.write_text(text.replace("move_time = 0.3\n", "move_time = 0.5\n"
                                                         "submission_time = 30.0\n", 1))
    warned = [w for w in grading_warnings(load_tournament(config))
              if w.startswith("submission_time")]
    assert len(warned) == 1 and re.fullmatch(
        r"submission_time = 30 s allows a bot about \d+ ms a decision \(about [\d,]+: the "
        r"check's and \d+ games'\), far under move_time = 0.5 s: a bot that takes a tenth of "
        r"its move time runs out, and is graded as one that does not work; about [\d,]+ s "
        r"gives one that takes a quarter of its move time room for its answers \(its build, "
        r"and the baselines' time, come on top\)", warned[0]), warned
    shipped = load_tournament(ROOT / "tournaments" / "classroom.toml")
    assert not [w for w in grading_warnings(shipped) if w.startswith("submission_time")]


SHIPPED_EXPECTED = ("; the shipped platform files (tournaments/gradescope.toml, "
                    "prairielearn.toml) get this warning by design: they keep their deals for "
                    "the grades' power (docs/grading.md, The platforms' classroom files)")


def test_a_budget_warning_on_a_platform_does_not_advise_more_than_it_allows() -> None:
    """PrairieLearn's shipped file allows a bot some 57 ms a decision; the budget the warning
    suggests (some 2,100 s) is over PrairieLearn's longest job, which `autograder` would then
    refuse, so the warning says so, how many deals would fit (6 of its 10 in 540 s), and that
    the shipped files are warned of by design; Gradescope's 40 minutes hold it."""
    shipped = load_tournament(ROOT / "tournaments" / "prairielearn.toml")
    (warned,) = [w for w in grading_warnings(shipped, longest_budget("prairielearn"))
                 if w.startswith("submission_time")]
    assert warned.endswith(
        "(its build, and the baselines' time, come on top); that is more than PrairieLearn "
        "allows (540 s at most): for slow bots, play fewer deals (6 deals or fewer fit a tenth "
        "of the move time in 540 s, and find only larger differences) or give a shorter move "
        "time" + SHIPPED_EXPECTED), warned
    (warned,) = [w for w in grading_warnings(shipped, longest_budget("gradescope"))
                 if w.startswith("submission_time")]
    assert warned.endswith("(its build, and the baselines' time, come on top)"
                           + SHIPPED_EXPECTED), warned
