"""One `referee grade` at a time in a grading folder: two runs at once would each grade the
same students into the same games' stores, and a teacher who started a second by mistake saw
both end in SQLite errors ("disk I/O error", "not a results store") and a damaged store."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_NAME = ".grade.lock"  # in the grading folder, held while a run writes it


class GradingFolderBusy(Exception):
    """Another run is grading into the folder."""


@contextmanager
def grading_folder_lock(out: Path) -> Iterator[None]:
    """An exclusive `flock` on OUT/.grade.lock for the run; GradingFolderBusy if another run
    holds it.  A file system without flock goes unguarded, as before."""
    fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise GradingFolderBusy(f"another `referee grade` is writing {out}; wait for it to "
                                    "end, or give another --out") from None
        except OSError:
            pass
        yield
    finally:
        os.close(fd)
