"""A file written whole: the new text goes to a part file that a rename then puts in place, so
that whoever reads the file (another process, or the next run after a full disk or a kill)
finds the old text or the new, never half of one.  Below every layer, so that any may use it
(a grading run's state, a test's gate files that worker processes read)."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, text: str) -> None:
    """Replace `path` with `text` or leave it as it was.  The part file is named for this
    process, so that processes writing one file at once never write into each other's part;
    a failed write names `path` (the error of writing the part names no file)."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        part.write_text(text)
        os.replace(part, path)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    finally:
        part.unlink(missing_ok=True)
