"""Builds of one folder take turns across referees (`bots/build_lock.py`): the lock file lies
beside the folder, in a parent another entrant's build may write, and the referee writes the
digest of its build into it outside any sandbox."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

import pytest
import trio

from referee.bots.build_lock import build_turn, lock_paths


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
