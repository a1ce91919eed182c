"""Builds of one folder take turns across referees (`bots/build_lock.py`): the lock file lies
beside the folder, in a parent another entrant's build may write, and the referee writes the
digest of its build into it outside any sandbox."""

from __future__ import annotations

import errno
import fcntl
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from referee.bots.build_lock import build_turn, lock_paths

from ..processes import BOT_PYTHON, wait_until


def test_a_link_left_where_the_lock_goes_is_never_written_through(tmp_path: Path) -> None:
    """A link planted beside a bot's folder, in the lock file's place (by a `dir = "."`
    entrant's build, which writes that parent), leads the referee to no file: the file it
    leads to keeps its bytes, the link stays as it was, and the build still takes its turn,
    in the temporary folder, which it leaves without a lock file."""
    folder = tmp_path / "bot"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    beside, shared = lock_paths(folder)
    os.symlink(victim, beside)
    said: list[str] = []

    async def build() -> bool:
        async with build_turn(folder, "bot", said.append) as turn:
            turn.built("a" * 64)
            return turn.fd is not None and shared.exists()

    assert trio.run(build)  # guarded all the same, in the temporary folder
    assert victim.read_text() == "keep me\n" and os.readlink(beside) == str(victim)
    assert not shared.exists() and said == []


def test_a_lock_file_made_where_flock_fails_is_removed_and_one_found_there_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beside a folder on a file system without flock (ENOLCK, stood in for here), the
    build takes its turn in the temporary folder and leaves no file of its own beside the
    user's folder; a file another referee left there (which it may hold, from a machine whose
    flock works) is kept."""
    folder = tmp_path / "bot"
    folder.mkdir()
    beside, shared = lock_paths(folder)
    flock = fcntl.flock

    def no_flock_beside(fd: int, operation: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}") == str(beside):
            raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))
        flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", no_flock_beside)

    said: list[str] = []

    async def build() -> tuple[bool, bool]:
        """Whether the turn is held in the temporary folder; whether a file is beside."""
        async with build_turn(folder, "bot", said.append) as turn:
            return turn.fd is not None and shared.exists(), beside.exists()

    assert trio.run(build) == (True, False)  # guarded all the same, nothing left beside
    assert not beside.exists() and not shared.exists()
    beside.write_text("")  # another referee's
    assert trio.run(build) == (True, True)
    assert beside.exists() and said == []


def test_play_says_its_wait_before_its_build_and_a_ctrl_c_while_waiting_as_such(
        tmp_path: Path) -> None:
    """`play` of two bot folders whose builds another referee holds (this test): it says it
    waits for the first, then, its turn come, that it builds it; Ctrl-C while it waits for
    the second ends it with a line saying it was waiting, not that a build was stopped, and
    that folder is not built.  (A process: a signal is the point.)"""
    folders = [tmp_path / "ann", tmp_path / "ben"]
    held = []
    for folder in folders:
        folder.mkdir()
        (folder / "bot.toml").write_text('build = "touch built"\ncommand = "python3 bot.py"\n')
        (folder / "bot.py").write_text("")
        held.append(os.open(lock_paths(folder)[0], os.O_RDWR | os.O_CREAT, 0o644))
        fcntl.flock(held[-1], fcntl.LOCK_EX)
    said = tmp_path / "stderr"
    waiting = [f"waiting for another referee's build of {f.name} in {f}\n" for f in folders]
    try:
        with said.open("wb") as err:
            play = subprocess.Popen([sys.executable, "-m", "referee", "play", *map(str, folders),
                                     f"{BOT_PYTHON} bot.py"], cwd=folders[0],
                                    stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_until(lambda: waiting[0] in said.read_text(), "the wait for ann", process=play)
            os.close(held.pop(0))  # ann's turn comes
            wait_until(lambda: waiting[1] in said.read_text(), "the wait for ben", process=play)
            play.send_signal(signal.SIGINT)
            assert play.wait(timeout=60) == 2
        finally:
            if play.poll() is None:
                play.kill()
                play.wait()
    finally:
        for fd in held:
            os.close(fd)
    assert said.read_text() == (
        f"{waiting[0]}building ann: touch built\n{waiting[1]}"
        "error: interrupted while waiting for another referee's build of ben\n")
    assert (folders[0] / "built").exists() and not (folders[1] / "built").exists()
