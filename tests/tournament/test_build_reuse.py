"""A resumed tournament does not build again an entrant whose folder has not changed since its
last successful build here, and names the entrants whose builds it reused; a changed source, a
deleted output, a changed build command or a failed build builds again, and `--rebuild` builds
all.
Each entrant's build appends its name to a log beside the tournament file, so that the test
counts the builds that ran."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from referee.bots.build_lock import lock_paths
from referee.bots.build_state import build_digest
from referee.tournament.config import load_tournament
from referee.tournament.entrants import PLAN_BUILDS_MOST, REUSED_NAMED, Builds, planned_builds

from .. import in_process
from ..processes import BOT_PYTHON, wait_until
from .test_field import FIRST_LEGAL, entrant, field_file, run

# Writes the program the command runs (out.py): deleting it is deleting the build's output.
# The log is named by its absolute path: a build command naming `..` is never reused.
BUILD = "sh -c 'basename \\\"$PWD\\\" >> {log}; cp bot.py out.py'"


def builds_run(log: Path) -> list[str]:
    """The entrants built since the log was last read, in order; the log emptied."""
    names = log.read_text().split() if log.exists() else []
    log.write_text("")
    return names


def built_field(folder: Path, names: list[str]) -> tuple[Path, Path, str]:
    """A field of `names` in `folder`, each entrant built by BUILD (its program out.py, its
    name logged): the tournament file, the log and the build command."""
    for n in names:
        entrant(folder, n)
    file = field_file(folder, names)
    log = folder / "builds.log"
    build = BUILD.format(log=log)
    file.write_text(file.read_text().replace(f'"{BOT_PYTHON} bot.py"',
                                             f'"{BOT_PYTHON} out.py"\nbuild = "{build}"'))
    return file, log, build


def plan(file: Path, *more: str) -> str:
    """What `referee tournament plan FILE MORE` printed (in-process), its exit status 0."""
    out = in_process.referee("tournament", "plan", str(file), *more, cwd=file.parent)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_resumed_run_builds_only_what_changed_since_its_last_build(tmp_path: Path) -> None:
    """A run whose entrants' folders are as their last builds left them builds none of them,
    naming them in one line (`plan` counts every build as to run before the first run, then
    them up to date, and then the one edited as to build); a source edited (its games played
    again), an output deleted (the same program built again: no game played again), a build
    command changed, each builds that entrant alone.  A failed build leaves its entrant out
    and is built again at the next run, never taken for up to date; `--rebuild` builds every
    entrant."""
    names = ["ann", "ben", "cal"]
    file, log, build = built_field(tmp_path, names)
    assert "builds: 3 to run (ann, ben, cal), none up to date\n" in plan(file)  # no store yet
    assert "3 games played" in run(file)
    assert builds_run(log) == names

    said = run(file)
    assert "builds reused, their folders unchanged since their last build (--rebuild builds " \
           "them again): ann, ben, cal\n" in said, said
    assert "building" not in said and "0 games played, 3 were already stored" in said, said
    assert builds_run(log) == []

    assert "builds: 3 up to date (a run reuses them)\n" in plan(file)
    with (tmp_path / "ann" / "bot.py").open("a") as f:
        f.write("# edited\n")
    assert "builds: 2 up to date (a run reuses them), 1 to run (ann)\n" in plan(file)
    said = run(file)
    assert builds_run(log) == ["ann"]
    assert "builds reused, their folders unchanged since their last build (--rebuild builds " \
           "them again): ben, cal; 1 other build ran\n" in said, said
    assert "changed since the last run: ann" in said, said

    (tmp_path / "ben" / "out.py").unlink()
    said = run(file)
    assert builds_run(log) == ["ben"]
    assert "0 games played, 3 were already stored" in said, said

    text = file.read_text()
    file.write_text(text.replace(build, build.replace("out.py'", "out.py; exit 3'"), 1))
    assert "left out ann: its build failed (exit status 3)" in run(file)
    assert builds_run(log) == ["ann"]
    assert "left out ann: its build failed (exit status 3)" in run(file)
    assert builds_run(log) == ["ann"]  # the failed build, not its folder's earlier one
    file.write_text(text)
    said = run(file, "--rebuild")
    assert builds_run(log) == names and "reused" not in said, said


def test_a_folder_with_a_link_leading_out_of_it_is_never_taken_for_up_to_date(
        tmp_path: Path) -> None:
    """What a build reads through a link out of its folder is not seen, so such a folder
    has no digest and its build always runs; its digest otherwise changes with a file's
    bytes or mode, and with the build command."""
    (tmp_path / "bot").mkdir()
    program = tmp_path / "bot" / "bot"
    program.write_text("#!/bin/sh\n")
    before = build_digest("make", tmp_path / "bot", "none")
    assert before is not None and before == build_digest("make", tmp_path / "bot", "none")
    assert build_digest("make -B", tmp_path / "bot", "none") != before
    program.chmod(0o755)
    assert build_digest("make", tmp_path / "bot", "none") != before
    os.symlink(tmp_path, tmp_path / "bot" / "up")
    assert build_digest("make", tmp_path / "bot", "none") is None


def test_a_build_command_naming_a_path_up_out_of_its_folder_is_never_taken_for_up_to_date(
        tmp_path: Path) -> None:
    """A build command that reads out of its folder by a relative path (`-I../common`,
    `cd ..`) has no digest, its build always runs, unless `read_only` names what it reads
    there (then hashed with it); `...` in a command is no path."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "common").mkdir()
    for command in ["gcc -I../common bot.c", "sh -c 'cd .. && make'", "make -C .."]:
        assert build_digest(command, tmp_path / "bot", "none") is None, command
    assert build_digest("sh -c 'echo built...'", tmp_path / "bot", "none") is not None
    assert build_digest("gcc -I../common bot.c", tmp_path / "bot", "none",
                        [tmp_path / "common"]) is not None


def test_a_source_edited_after_its_build_and_before_the_others_end_builds_again(
        tmp_path: Path) -> None:
    """An entrant's source edited after its build ran (here by the next entrant's build, as
    an organiser's fix would land while other kits compile) is not taken for built: the next
    run builds it again and plays its games again, and the program it plays is the edited
    source's."""
    names = ["ann", "ben", "cal"]
    file, log, build = built_field(tmp_path, names)
    edits_ann = build.replace("out.py'", f"out.py; echo pass >> {tmp_path / 'ann' / 'bot.py'}'")
    text = file.read_text()
    file.write_text(text.replace(build, edits_ann, 2).replace(edits_ann, build, 1))
    run(file)
    assert builds_run(log) == names
    assert (tmp_path / "ann" / "out.py").read_text() != (tmp_path / "ann" / "bot.py").read_text()

    said = run(file)
    assert builds_run(log) == ["ann"], said
    assert "changed since the last run: ann;" in said, said
    assert (tmp_path / "ann" / "out.py").read_text() == (tmp_path / "ann" / "bot.py").read_text()


def field_at_home(tmp_path: Path, more: str = "") -> tuple[Path, Path]:
    """A field of ann, ben and cal in `home` whose ann's `dir` is the tournament file's own
    folder (with `more` lines in its entry): the folder and the file."""
    home = tmp_path / "home"
    home.mkdir()
    for n in ("ben", "cal"):
        entrant(home, n)
    shutil.copy(FIRST_LEGAL, home / "bot.py")
    file = field_file(home, ["ann", "ben", "cal"])
    file.write_text(file.read_text().replace('dir = "ann"', f'dir = "."{more}', 1))
    return home, file


def test_an_entrant_in_the_folder_of_the_file_and_store_is_not_changed_by_a_run(
        tmp_path: Path) -> None:
    """An entrant whose `dir` is the tournament file's own folder, where the store and the
    stderr logs (--stderr-dir) are kept (without the sandbox): what a run writes to the store
    and the logs, and an edit of the file, are not a new version of it nor a change to its
    build's folder: the next run plays none of its games again and reuses its build."""
    log = tmp_path / "builds.log"
    home, file = field_at_home(tmp_path, f'\nbuild = "{BUILD.format(log=log)}"')
    assert "3 games played" in run(file, "--stderr-dir", "logs/bots")
    assert builds_run(log) == ["home"] and list((home / "logs" / "bots").iterdir())
    file.write_text(file.read_text() + "# the organiser's note\n")
    said = run(file, "--stderr-dir", "logs/bots")
    assert "changed since the last run" not in said, said
    assert "0 games played, 3 were already stored" in said, said
    assert "build reused, its folder unchanged since its last build (--rebuild builds it " \
           "again): ann\n" in said and builds_run(log) == [], said


def test_plan_given_the_runs_stderr_dir_does_not_count_its_logs_as_a_change(
        tmp_path: Path) -> None:
    """Logs a run kept (`run --stderr-dir`) in an entrant's folder are a change of that
    entrant to a `plan` not told of them, and none to a `plan --stderr-dir` naming the same
    folder, as they are none to the next run; that plan writes nothing there."""
    home, file = field_at_home(tmp_path)
    run(file, "--stderr-dir", "logs/bots", "-q")
    logs = sorted((home / "logs" / "bots").iterdir())
    assert logs
    assert "changed since the store's last run: ann: its stored games are superseded" in plan(
        file)
    said = plan(file, "--stderr-dir", "logs/bots")
    assert "changed since" not in said and "0 to play" in said, said
    assert sorted((home / "logs" / "bots").iterdir()) == logs


def test_a_large_field_names_the_first_entrants_whose_builds_were_reused_and_counts_the_rest(
        ) -> None:
    """Past `REUSED_NAMED` entrants, the line names the first of those reused and counts the
    others, then how many builds ran."""
    names = [f"b{i:02}" for i in range(REUSED_NAMED + 3)]
    builds = Builds(last={}, reused=names, ran=2)
    assert builds.line() == (
        "builds reused, their folders unchanged since their last build (--rebuild builds them "
        f"again): {', '.join(names[:REUSED_NAMED])} and 3 more; 2 other builds ran")
    assert Builds(last={}).line() is None


def test_a_folder_the_referee_cannot_list_is_never_taken_for_up_to_date(tmp_path: Path) -> None:
    """A folder inside a bot's that cannot be listed (here one whose path is longer than the
    system allows, which a build still reaches by relative paths: the tests run as root, whom
    a folder's mode does not stop) would hide what the build reads there, so the bot's folder
    has no digest and its build always runs."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "bot.c").write_text("int main(void) { return 0; }\n")
    assert build_digest("make", tmp_path / "bot", "none") is not None
    fd = os.open(tmp_path / "bot", os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(os.pathconf(tmp_path, "PC_PATH_MAX") // 200 + 1):  # past PATH_MAX
            os.mkdir("d" * 200, dir_fd=fd)
            deeper = os.open("d" * 200, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = deeper
    finally:
        os.close(fd)
    assert build_digest("make", tmp_path / "bot", "none") is None


def test_a_run_into_merged_shards_reuses_the_builds_every_shard_made_alike(
        tmp_path: Path) -> None:
    """The merge of a tournament's shards keeps the builds they agree on: the first run into
    the merged store builds again only the entrant whose folder differed between the shards'
    builds (here a cache that is no part of its version), and plays nothing again."""
    names = ["ann", "ben", "cal"]
    file, log, _ = built_field(tmp_path, names)
    run(file, "--shard", "1/2", "--db", "s1.db", "-q")
    (tmp_path / "cal" / "__pycache__").mkdir()
    (tmp_path / "cal" / "__pycache__" / "out.pyc").write_bytes(b"cached")
    run(file, "--shard", "2/2", "--db", "s2.db", "-q")
    assert builds_run(log) == names + names
    merged = in_process.referee("tournament", "merge", "s1.db", "s2.db", "--out", "all.db",
                                cwd=tmp_path)
    assert merged.returncode == 0, merged.stderr

    said = run(file, "--db", "all.db")
    assert builds_run(log) == ["cal"], said
    assert "builds reused, their folders unchanged since their last build (--rebuild builds " \
           "them again): ann, ben; 1 other build ran\n" in said, said
    assert "0 games played, 3 were already stored" in said, said


def test_plan_does_not_count_the_builds_of_a_field_past_its_bound(tmp_path: Path) -> None:
    """Past `PLAN_BUILDS_MOST` entrants with a build, `plan` says their builds are not
    counted rather than read every folder (a moment each), whatever the store knows."""
    names = [f"b{i:03}" for i in range(PLAN_BUILDS_MOST + 1)]
    file = field_file(tmp_path, names)
    file.write_text(file.read_text().replace(f'"{BOT_PYTHON} bot.py"',
                                             f'"{BOT_PYTHON} out.py"\nbuild = "make"'))
    builds = planned_builds(load_tournament(file), file, {n: "0" * 64 for n in names}, {},
                            frozenset())
    assert not builds.counted and builds.line() == (
        f"builds: not counted (more than {PLAN_BUILDS_MOST}; a run reuses those whose folders "
        "are unchanged since their last build)")


def test_plan_says_how_many_builds_are_up_to_date_in_the_number_it_names(
        tmp_path: Path) -> None:
    """`plan`'s builds line says "it" of one build a run reuses, "none up to date" where every
    build would run (not "0 up to date (a run reuses them)"), and nothing for a file whose
    entrants have no build, whatever digests the store knows."""
    names = ["ann", "ben", "cal"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names)
    config = load_tournament(file)
    assert planned_builds(config, file, {"ann": "0" * 64}, {}, frozenset()).line() is None
    built = file.read_text().replace(f'"{BOT_PYTHON} bot.py"',
                                     f'"{BOT_PYTHON} out.py"\nbuild = "true"')
    file.write_text(built)
    config = load_tournament(file)
    assert planned_builds(config, file, {"ann": "0" * 64}, {}, frozenset()).line() == \
        "builds: 3 to run (ann, ben, cal), none up to date"
    ann = build_digest("true", tmp_path / "ann", config.sandbox)
    assert ann is not None
    out = {"ben": "its build failed", "cal": "its build failed"}
    assert planned_builds(config, file, {"ann": ann}, out, frozenset()).line() == \
        "builds: 1 up to date (a run reuses it)"


def test_a_file_of_a_bots_folder_is_left_out_of_its_digests_only_at_a_run_files_real_path(
        tmp_path: Path) -> None:
    """A bot's file named as the run's store, elsewhere, still counts in its version and its
    build's digest; the store itself in the bot's folder, reached through a linked folder,
    does not."""
    from referee.bots.version import folder_digest
    from referee.tournament.isolation import own_files

    real = tmp_path / "real"
    entrant(tmp_path, "real")
    (tmp_path / "via").symlink_to(real)
    (real / "cup.db").write_bytes(b"the bot's own")
    other = own_files(tmp_path / "t.toml", tmp_path / "cup.db")  # a store beside, not in it
    store = own_files(tmp_path / "t.toml", tmp_path / "via" / "cup.db")  # this one
    before = {s: (folder_digest(real, s), build_digest("true", real, "none", (), s))
              for s in (other, store)}
    (real / "cup.db").write_bytes(b"changed")
    (real / "cup.db-wal").write_bytes(b"a run's")
    after = {s: (folder_digest(real, s), build_digest("true", real, "none", (), s))
             for s in (other, store)}
    assert before[other][0] != after[other][0] and before[other][1] != after[other][1]
    assert before[store] == after[store]


# Logs its start, waits for a line on a FIFO (the test's word: no sleep), logs its end and
# writes the program the command runs.
SLOW_BUILD = """echo start >> "$1"
read word < "$2"
echo end >> "$1"
cp bot.py out.py
"""


def test_two_shards_at_once_take_turns_to_build_a_folder_and_the_second_reuses_the_build(
        tmp_path: Path) -> None:
    """Two shards of one tournament run at once, each with its own store, never build one
    entrant's folder at the same time: the second says it waits for the first's build, in
    one line, and then, the folder being as that build left it, reuses the build rather than
    run it again; no lock file is left.  (Shards past the schedule's 3 games, which play
    none: only their builds are tested.)"""
    names = ["ann", "ben", "cal"]
    for n in names:
        entrant(tmp_path, n)
    log, go = tmp_path / "builds.log", tmp_path / "go"
    os.mkfifo(go)
    (tmp_path / "ann" / "build.sh").write_text(SLOW_BUILD)
    file = field_file(tmp_path, names)
    file.write_text(file.read_text().replace(
        f'command = "{BOT_PYTHON} bot.py"\ndir = "ann"',
        f'command = "{BOT_PYTHON} out.py"\ndir = "ann"\nbuild = "sh build.sh {log} {go}"'))

    def shard(number: int) -> tuple[subprocess.Popen[bytes], Path]:
        said = tmp_path / f"shard{number}.stderr"
        with said.open("wb") as err:
            return subprocess.Popen(
                [sys.executable, "-m", "referee", "tournament", "run", str(file), "--shard",
                 f"{number}/5", "--db", f"s{number}.db"], cwd=tmp_path,
                stdout=subprocess.DEVNULL, stderr=err), said

    first, _ = shard(4)
    second: subprocess.Popen[bytes] | None = None
    try:
        wait_until(lambda: log.exists() and log.read_text() == "start\n", "the first build",
                   process=first)
        second, said = shard(5)
        waiting = f"waiting for another referee's build of ann in {tmp_path / 'ann'}\n"
        wait_until(lambda: waiting in said.read_text() or log.read_text() != "start\n",
                   "the second shard to wait", process=second)
        assert log.read_text() == "start\n", said.read_text()  # not a second build at once
        with go.open("w") as word:
            word.write("built\n")
        assert first.wait(timeout=120) == 0 and second.wait(timeout=120) == 0, said.read_text()
        assert log.read_text() == "start\nend\n"
        assert "build reused, its folder unchanged since its last build (--rebuild builds it " \
               "again): ann\n" in said.read_text(), said.read_text()
        assert "building" not in said.read_text()
        assert not list(tmp_path.glob(".*")), "a lock file left beside the folder"
    finally:  # a failure stops both, and lets their builds end
        with contextlib.suppress(OSError):
            os.close(os.open(go, os.O_WRONLY | os.O_NONBLOCK))
        for shard_run in (first, second):
            if shard_run is not None and shard_run.poll() is None:
                shard_run.kill()
                shard_run.wait()


def test_a_time_budget_ends_a_wait_for_another_referees_build(tmp_path: Path) -> None:
    """A run whose time budget runs out while an entrant's build waits for another referee's
    (a lock this test holds) ends with its budget, not when that build ends: it says why in
    its stop line, builds nothing more and plays no game; the other referee's lock file is
    left as it was."""
    names = ["ann", "ben", "cal"]
    file, log, _ = built_field(tmp_path, names)
    held = os.open(lock_paths(tmp_path / "ann")[0], os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        began = time.monotonic()
        out = in_process.referee("tournament", "run", str(file), "--time-budget", "1s",
                                 cwd=tmp_path, timeout=30)
        took = time.monotonic() - began
    finally:
        os.close(held)
    said = out.stderr
    assert out.returncode == 0, said
    assert f"waiting for another referee's build of ann in {tmp_path / 'ann'}\n" in said, said
    assert "stopped when the time budget of 1 s ran out while waiting for another referee's " \
           "build of ann, before the first game; run again to play on\n" in said, said
    assert "0 games played" in said and builds_run(log) == [], said
    assert took < 3, f"the run ended {took:.1f} s after it began"
    assert lock_paths(tmp_path / "ann")[0].exists()
