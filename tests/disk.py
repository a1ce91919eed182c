"""A full disk, without root: run a child with `preexec_fn=files_limited_to(size)`."""

from __future__ import annotations

import resource
import signal
from collections.abc import Callable


def files_limited_to(size: int) -> Callable[[], None]:
    """In the child: files it writes may not grow past `size` bytes (RLIMIT_FSIZE), and the
    write fails with EFBIG rather than SIGXFSZ killing it, as writes to a full disk fail."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    return limit
