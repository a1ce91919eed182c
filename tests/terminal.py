"""What a hostile bot's text must never be on a terminal: raw control characters."""

from __future__ import annotations

import subprocess
from pathlib import Path

from . import in_process

# ESC, BEL, CR, a C1 control (CSI) and a right-to-left override: each one, printed raw, moves
# the cursor, changes the terminal, or reorders the text around it.
RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e")


def referee(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` (inside the test process: everything the referee prints goes through
    `sys.stdout` and `sys.stderr`), its output as text with every character as it came."""
    return in_process.referee(*args, cwd=cwd, timeout=timeout, exact=True)


def assert_shown_safely(text: str, *escaped: str) -> None:
    """No raw control character of `RAW` in `text`, and each of `escaped` shown in it."""
    found = [repr(c) for c in RAW if c in text]
    assert not found, f"raw {', '.join(found)} in:\n{text!r}"
    for shown in escaped:
        assert shown in text, f"{shown!r} not in:\n{text}"
