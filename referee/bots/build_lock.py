"""One build at a time in a bot's folder, across referee processes.

Two referees that build one folder at once (two shards of a tournament on one machine, or on
machines sharing the folder; a `play` beside a run; a class's baselines graded beside a
tournament) run `make` twice at once there, which can corrupt the build, or let one of them
start a program the other is still writing.  So a build takes its turn: an exclusive `flock`
on a lock file beside the folder, held by the referee (not the build, nor its sandbox) from
the check whether the build is up to date to the digest taken after it.

The lock file lies beside the folder, `.NAME.referee-build-lock` in its parent, where every
process that sees the folder, on any machine, finds it, and where the folder's own build and
sandbox do not see it; a parent this process cannot write (or whose file system has no
flock) gives way to a file in the temporary folder, named by the folder's real path, which
the processes of one user on one machine agree on.  So does a link in the file's place
(`_own_file`): a parent may be another entrant's folder (a `dir = "."` entrant's), which that
entrant's build writes.  A file the referee made beside the folder, only to find it cannot be
locked there, it removes again (`_lock`).  Where neither can be locked the build goes on
unguarded, as the store does.  The folder walk leaves out every file of that suffix
(`folder_walk.LOCK_SUFFIX`): a lock beside one entrant's folder and inside another's is no
change of that other's version nor of its build's digest.

A referee killed while it holds the lock frees it (the kernel releases a dead process's flock);
its file stays until the next turn's end.  The holder writes the digest of its successful
build into the file (`BuildTurn.built`), so that a referee that waited for it (another shard,
with its own store) can see the folder is as that build left it and reuse the build rather
than run it again; then it removes the file, so that none is left beside a bot's folder.
"""

from __future__ import annotations

import fcntl
import hashlib
import math
import os
import stat
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import trio

from .folder_walk import LOCK_SUFFIX

POLL = 0.1  # seconds between tries of a lock another referee holds: builds take seconds
MOST_SAID = 128  # bytes of a lock file read: a digest and its newline


class BuildTurn:
    """A build's turn in its folder: whether it `waited` for another referee's build, and
    `left`, the digest of the folder just after that build where it succeeded (None: it
    failed, was stopped, or said none)."""

    def __init__(self, fd: int | None, waited: bool, left: str | None) -> None:
        self.fd = fd  # the lock file, locked; None where it could not be
        self.waited = waited
        self.left = left

    def built(self, digest: str | None) -> None:
        """Say the folder's digest just after a successful build, for a referee that waits
        for this turn (None: none to say)."""
        if self.fd is None or digest is None:
            return
        with suppress(OSError):  # a full disk: the waiting referee builds again
            os.pwrite(self.fd, f"{digest}\n".encode("ascii"), 0)


class WaitEnded(Exception):
    """The wait for another referee's build outlasted the time given to it (`build_turn`'s
    `until`: a run's time budget); this referee neither built nor took the turn."""

    def __init__(self, name: str, folder: Path) -> None:
        super().__init__(f"the time ran out while waiting for another referee's build of "
                         f"{name} in {folder}")
        self.name = name
        self.folder = folder


def lock_paths(folder: Path) -> list[Path]:
    """Where a build of `folder` takes its turn, in order of preference (module doc)."""
    real = Path(os.path.realpath(folder))
    key = hashlib.sha256(os.fsencode(real)).hexdigest()[:32]
    shared = Path(tempfile.gettempdir()) / f"referee-build-locks-{os.getuid()}"
    beside = [real.parent / f".{real.name}{LOCK_SUFFIX}"] if real.name else []
    return [*beside, shared / f"{key}{LOCK_SUFFIX}"]


def _lock(folder: Path) -> tuple[Path, int, bool] | None:
    """The lock file of `folder`, opened, and whether it is locked now (False: another
    holds it); None where no place could be locked."""
    for path in lock_paths(folder):
        try:
            if path.parent.name.startswith("referee-build-locks-"):
                path.parent.mkdir(mode=0o700, exist_ok=True)
                _own_folder(path.parent)
            fd, made = _open(path)
        except OSError:
            continue
        if not _own_file(fd):
            os.close(fd)
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return path, fd, False
        except OSError:  # a file system without flock (ENOLCK): try the next place
            # The file this referee made is not left beside the user's folder.  No referee
            # holds it: the file system that refused this flock refuses theirs on the same
            # file; one found there (`made` False) may be held from elsewhere, and stays.
            if made and _still_there(path, fd):
                with suppress(OSError):
                    os.unlink(path)
            os.close(fd)
            continue
        return path, fd, True
    return None


def _open(path: Path) -> tuple[int, bool]:
    """The lock file at `path` opened, made if there is none, and whether this call made it
    (`O_EXCL`: a file found there is another referee's, held or not).  A file removed between
    the two tries (its holder's turn ended) is made again: never a reason to lock elsewhere
    than the referees still waiting on that path."""
    flags = os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW
    while True:
        try:
            return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o644), True
        except FileExistsError:
            pass
        try:
            return os.open(path, flags), False
        except FileNotFoundError:
            continue


def _own_folder(folder: Path) -> None:
    """OSError unless `folder` is a folder of this user that no other may write: another
    user's, made first in the shared temporary folder, could hold links to this user's files
    or a lock never released."""
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
        raise PermissionError(f"{folder} is not this user's own folder")


def _own_file(fd: int) -> bool:
    """Whether the lock file opened is one the referee may write its digest into: a plain
    file of this user with no other name.  The lock beside a folder lies in its parent, which
    may be another entrant's (`dir = "."`), written by that entrant's build: a link it left
    there (a symbolic one is not followed, `O_NOFOLLOW`; a hard one, to a file of this user
    it can see) would have the referee, outside any sandbox, write into the file it leads to."""
    try:
        st = os.fstat(fd)
    except OSError:
        return False
    # No name at all is as good as one: the holder removed it as its turn ended (`_still_there`)
    return stat.S_ISREG(st.st_mode) and st.st_nlink <= 1 and st.st_uid == os.getuid()


def _said(fd: int) -> str | None:
    """The digest a lock file holds (`BuildTurn.built`), if any."""
    try:
        said = os.pread(fd, MOST_SAID, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return said or None


def _still_there(path: Path, fd: int) -> bool:
    """Whether `path` still names the file `fd` has open: the referee whose turn ended
    removes its file, and a lock on a removed file guards nothing."""
    try:
        here, held = os.stat(path), os.fstat(fd)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino)


@asynccontextmanager
async def build_turn(folder: Path, name: str, say: Callable[[str], None],
                     until: float | None = None) -> AsyncIterator[BuildTurn]:
    """Hold the turn to build bot `name` in `folder` (module doc); while another referee
    holds it, say so in one line and wait, polling every `POLL` seconds (a thread blocked in
    flock could not be stopped by Ctrl-C), until `until` at most (a `time.monotonic()`: a
    run's time budget, whose end is the organiser's promise), then raise WaitEnded.  The
    file is removed as the turn ends, so that none is left beside a bot's folder (but by a
    referee killed in its turn: the next removes it)."""
    ends = math.inf if until is None else trio.current_time() + until - time.monotonic()
    waited, left = False, None
    while True:
        found = _lock(folder)
        if found is None:  # nowhere to lock: unguarded
            yield BuildTurn(None, waited, left)
            return
        path, fd, locked = found
        if not locked and not waited:
            say(f"waiting for another referee's build of {name} in {folder}")
        waited = waited or not locked
        try:
            with trio.move_on_at(ends):
                while not locked:
                    await trio.sleep(POLL)
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        locked = True
                    except BlockingIOError:
                        pass
        except BaseException:
            os.close(fd)
            raise
        if not locked:  # `until` came first
            os.close(fd)
            raise WaitEnded(name, folder)
        left = (_said(fd) or left) if waited else None
        if _still_there(path, fd):
            break
        os.close(fd)  # removed as its turn ended: take the file there now
    try:
        yield BuildTurn(fd, waited, left)
    finally:
        with suppress(OSError):
            os.unlink(path)  # while it is held: no referee holds another file of that name
        os.close(fd)  # the lock goes with it
