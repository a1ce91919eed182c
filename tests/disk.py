"""A full disk, without root: run a child with `preexec_fn=files_limited_to(size)`; and file
permissions that hold for root too: prefix its command with `without_reading_all()`."""

from __future__ import annotations

import os
import resource
import shutil
import signal
from collections.abc import Callable

import pytest


def files_limited_to(size: int) -> Callable[[], None]:
    """In the child: files it writes may not grow past `size` bytes (RLIMIT_FSIZE), and the
    write fails with EFBIG rather than SIGXFSZ killing it, as writes to a full disk fail."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    return limit


def without_reading_all() -> list[str]:
    """A command prefix under which permissions hold for root too (a file it may not read, a
    folder it may not write): root without the capabilities that override them (setpriv)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("root reads every file, and setpriv is not here to drop that")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
