"""The store's file on disk, and opening it: what else may be there instead of a file, the
lock a writing run holds on it, whether a -wal file beside it holds games, and SQLite's
errors while it is opened, as the store's."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import stat
from pathlib import Path
from types import TracebackType

from .errors import DamagedStore, StoreError, StoreFailed

# What SQLite says when a reader cannot make the files it needs beside a WAL-mode store.
CANNOT_WRITE_THERE = (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN)


def refuse_special(path: Path) -> None:
    """Refuse anything but a file (or a link to one), before SQLite opens it: SQLite would
    wait forever for a writer to open a named pipe."""
    kind = not_a_file(path)
    if kind is not None:
        raise StoreError(f"{path} is {kind}, not a results store; give a file")


def not_a_file(path: Path) -> str | None:
    """What `path` is, in words, if it exists and is not a regular file (through links)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # missing (or unreadable): opening it says what is wrong
    for test, kind in ((stat.S_ISREG, None), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return kind
    return "a special file"


def writer_lock(path: Path) -> int | None:
    """An exclusive `flock` on the store's file, held while a run writes it: two runs on one
    --db would each play every game (the store stays right, the work is done twice, and both
    report every game as theirs).  Readers take none.  None where the file cannot be opened
    for it; SQLite then says what is wrong."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreError(f"{path} is being written by another run; wait for it to end, or "
                         "give another --db") from None
    except OSError:  # a file system without flock: no guard, as before
        pass
    return fd


def unfolded_wal(path: Path) -> bool:
    """Whether a -wal file with something in it lies beside the store's real file."""
    try:
        return os.stat(os.path.realpath(path) + "-wal").st_size > 0
    except OSError:
        return False


def unshared_wal(path: Path, exc: sqlite3.Error) -> bool:
    """Whether reading failed only because the store lies where this process cannot write,
    so that SQLite cannot make the -shm file a reader of a WAL-mode store needs (a read-only
    share of published results).  With no -wal file beside it, or an empty one (beside the
    real file, not a link to it), no writer has it open and every game is in the file
    itself, so it can be read as it is on disk (`immutable`)."""
    return (exc.sqlite_errorcode & 0xFF) in CANNOT_WRITE_THERE and not unfolded_wal(path)


def write_protected(path: Path) -> bool:
    """Whether the store is a write-protected file (chmod 444) in a folder that may be
    writable, with no games in a -wal file: SQLite would leave -shm and -wal files beside it
    that it cannot fold in, so it is read as it is on disk, like one in a read-only folder."""
    return not os.access(os.path.realpath(path), os.W_OK) and os.path.exists(path) and \
        not unfolded_wal(path)


class Opening:
    """The connections made while a store is opened: on a failure, all are closed, the
    writer's lock is released, and SQLite's error is the store's (a damaged file, a -wal file
    that cannot be read here, or a failure such as a full disk)."""

    def __init__(self, path: Path, lock: int | None, reading: bool) -> None:
        self.path = path
        self.lock = lock
        self.reading = reading
        self.opened: list[sqlite3.Connection] = []

    def connect(self, target: str, uri: bool = True) -> sqlite3.Connection:
        """A connection in autocommit mode (the store begins its transactions itself); the
        first that cannot be made is a StoreError."""
        try:
            db = sqlite3.connect(target, uri=uri, isolation_level=None)
        except sqlite3.Error as exc:
            if self.opened:
                raise
            folder = Path(self.path).parent
            if not folder.is_dir():  # sqlite says only "unable to open database file"
                raise StoreError(f"cannot open {self.path}: the folder {folder} is not there"
                                 ) from None
            raise StoreError(f"cannot open {self.path}: {self._unwritable() or exc}") from None
        self.opened.append(db)
        return db

    def __enter__(self) -> Opening:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc is None:
            return
        for db in self.opened:
            db.close()
        if self.lock is not None:
            os.close(self.lock)
        if not isinstance(exc, sqlite3.DatabaseError):
            return  # a StoreError says what is wrong already
        damaged = DamagedStore.of(self.path, exc)
        if damaged is not None:
            raise damaged from None
        if self.reading and exc.sqlite_errorcode & 0xFF in CANNOT_WRITE_THERE and \
                unfolded_wal(self.path):
            raise StoreFailed(
                f"cannot open {self.path}: {exc}; its -wal file holds games not yet written "
                "into it (a run was stopped, or is running): open it once where it can be "
                "written, or copy it with its -wal file") from None
        raise StoreFailed(f"cannot open {self.path}: {self._unwritable() or exc}"
                          ) from None  # a full disk, say

    def _unwritable(self) -> str | None:
        """Why a run cannot write the store: its folder cannot be written (a read-only file
        system, or permissions), or None."""
        if self.reading:
            return None
        folder = Path(self.path).parent
        if os.access(folder, os.W_OK):
            return None
        return (f"its folder {folder} cannot be written, and a run writes the store and its "
                "-wal and -shm files beside it: give --db in a folder you can write (plan, "
                "leaderboard and report read it where it is)")
