"""What goes wrong with a results store, in three kinds: a file that cannot be this
tournament's store, a store that failed while in use, and a damaged file."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class StoreError(Exception):
    """The store cannot be used for this tournament (another file, or not a store at all)."""


class StoreFailed(StoreError):
    """The store's file failed while in use (a full disk, a locked file); every game
    committed before it is kept.  A damaged file is a DamagedStore."""


class DamagedStore(StoreError):
    """The file is not an SQLite database, or a damaged one: unlike a StoreFailed, running
    again cannot help, so the message says what to do instead."""

    @classmethod
    def of(cls, path: Path, exc: sqlite3.Error) -> DamagedStore | None:
        """The error for SQLite's `exc` on `path` if it says the file is damaged, else None."""
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF  # not there for errors of Python's
        if code == sqlite3.SQLITE_NOTADB:
            return cls(f"{path} is not a results store ({exc}): move it away or give another "
                       "file")
        if code == sqlite3.SQLITE_CORRUPT:
            return cls(f"{path} is damaged ({exc}), which running again cannot mend: move it "
                       "away (a new store plays its games again) or give another file")
        return None


class DamagedRecord(StoreFailed):
    """One game's stored record cannot be read (the file was damaged or edited)."""
