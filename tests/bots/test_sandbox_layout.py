"""What the sandbox shows an entrant of the tournament's folder: its own files, never the
results store, the logs, the tournament file or another entrant; a layout that cannot hide
them is refused in one line before anything is written."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from referee.tournament.store import Store

from ..processes import SCRIPTED_BOTS, leftover_processes, referee

LEAK_TOURNAMENT = """\
name = "leak"
seed = 3
table_size = 3
deals = 1
seat_orders = "rotations"
sandbox = "bwrap"

[limits]
move_time = 2.0
processes = "off"

[[bots]]
name = "leak"
command = "{python} leak.py {reads}"

[[bots]]
name = "first"
command = "{python} first_legal.py"

[[bots]]
name = "second"
command = "{python} second.py"
"""


def test_bots_beside_the_tournament_file_see_only_their_own_file(tmp_path: Path,
                                                                 bwrap: str) -> None:
    """The leak of issue 39: entrants given as `python3 leak.py` beside the tournament file
    (no `dir`), the default store, logs in a folder there, sandbox on.  The snooping bot's
    working folder shows its own file alone, and the store (and its -wal and -shm files), the
    tournament file, the logs and the other entrants' files are not there; it plays every
    game without a fault."""
    folder = tmp_path / "contest"
    folder.mkdir()
    shutil.copy(SCRIPTED_BOTS / "leak.py", folder / "leak.py")
    shutil.copy(SCRIPTED_BOTS / "first_legal.py", folder / "first_legal.py")
    shutil.copy(SCRIPTED_BOTS / "first_legal.py", folder / "second.py")
    db, logs = folder / "leak.db", folder / "logs"
    secrets = [db, folder / "leak.db-wal", folder / "leak.db-shm", folder / "leak.toml",
               folder / "first_legal.py", logs]
    reads = " ".join(f"--read={p}" for p in secrets)  # `--read=`: not a path the command names
    path = folder / "leak.toml"
    path.write_text(LEAK_TOURNAMENT.format(python=sys.executable, reads=reads))
    done = referee("tournament", "run", str(path), "--workers", "1", "--stderr-dir",
                   str(logs), "--quiet", timeout=300)
    assert done.returncode == 0, done.stderr
    said = (logs / "leak.w0.stderr.log").read_text()
    seen = [line for line in said.splitlines() if line.startswith("leak: ")]
    assert seen, said
    assert {line for line in seen if line.startswith("leak: cwd:")} == {
        "leak: cwd: ['leak.py']"}
    for secret in secrets:
        assert f"leak: read {secret}:" not in said, said
        assert f"leak: denied {secret}: [Errno 2] No such file or directory" in said
    store = Store.for_reading(db)
    try:
        results = list(store.results())
    finally:
        store.close()
    assert len(results) == 3
    assert all(faults == () for r in results for faults in r.faults), results
    assert not leftover_processes(f"{folder}/")


def test_a_layout_the_sandbox_cannot_isolate_is_refused(tmp_path: Path, bwrap: str) -> None:
    """An entrant whose `dir` holds the store, the tournament file or another entrant: `plan`
    and `run` refuse it in one line naming the bot and what it would see, and how to fix it;
    nothing is written."""
    folder = tmp_path / "contest"
    bots = folder / "bots"
    bots.mkdir(parents=True)
    shutil.copy(SCRIPTED_BOTS / "first_legal.py", folder / "first_legal.py")
    shutil.copy(SCRIPTED_BOTS / "first_legal.py", bots / "first_legal.py")
    path = folder / "layout.toml"
    cases = [
        # its folder is the tournament's, which holds the store and the file
        ('dir = "."\ncommand = "{python} first_legal.py"', "the tournament file"),
        # its folder holds another entrant's file
        ('dir = "bots"\ncommand = "{python} first_legal.py"', "the files of entrant b"),
    ]
    for n, (first, what) in enumerate(cases):
        path.write_text(LAYOUT.format(first=first.format(python=sys.executable),
                                      python=sys.executable))
        for command in ("plan", "run")[:2 - n]:  # the same check: `run` once
            done = referee("tournament", command, str(path))
            assert done.returncode == 2, done.stdout + done.stderr
            line = done.stderr
            assert line.count("\n") == 1 and line.startswith("error: bot a: the sandbox "
                                                             f"would show it {what}"), line
            assert "give each bot a folder of its own" in line
        assert not (folder / "layout.db").exists()


LAYOUT = """\
name = "layout"
table_size = 3
sandbox = "bwrap"

[[bots]]
name = "a"
{first}

[[bots]]
name = "b"
command = "{python} bots/first_legal.py"

[[bots]]
name = "c"
command = "{python} -c pass"
"""


def test_an_interpreter_on_path_other_than_the_sandboxs_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A python3 first on PATH (as pyenv's or a virtual environment's is) that is not the
    system's a bare python3 runs in the sandbox: a line names both, for a virtual
    environment's link to the system's too; with the system's PATH, none."""
    from referee.bots.sandbox import SYSTEM_PATH, other_interpreters

    if shutil.which("python3", path=SYSTEM_PATH) is None:
        pytest.skip("no system python3")
    mine = tmp_path / "bin" / "python3"
    mine.parent.mkdir()
    mine.write_text("#!/bin/sh\n")
    mine.chmod(0o755)
    monkeypatch.setenv("PATH", f"{mine.parent}:{SYSTEM_PATH}")
    [line] = other_interpreters(["python3"])
    assert line.startswith(f"python3 on your PATH is {mine}, but a bare python3 in the sandbox "
                           "is ")
    monkeypatch.setenv("PATH", SYSTEM_PATH)
    assert other_interpreters(["python3"]) == []
    venv = tmp_path / "venv"  # as `python3 -m venv` makes it: a link to the system's
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "bin" / "python3").symlink_to(str(shutil.which("python3", path=SYSTEM_PATH)))
    monkeypatch.setenv("PATH", f"{venv / 'bin'}:{SYSTEM_PATH}")
    assert len(other_interpreters(["python3"])) == 1  # its packages are the venv's
