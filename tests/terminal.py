"""What a hostile bot's text must never be on a terminal: raw control characters."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# ESC, BEL, CR, a C1 control (CSI) and a right-to-left override: each one, printed raw, moves
# the cursor, changes the terminal, or reorders the text around it.
RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e")


def referee(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`python -m referee ARGS`, its output as text with every character as it came
    (`text=True` would turn a carriage return into a newline, hiding it)."""
    done = subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd,
                          capture_output=True, timeout=timeout)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "backslashreplace"),
                                       done.stderr.decode("utf-8", "backslashreplace"))


def assert_shown_safely(text: str, *escaped: str) -> None:
    """No raw control character of `RAW` in `text`, and each of `escaped` shown in it."""
    found = [repr(c) for c in RAW if c in text]
    assert not found, f"raw {', '.join(found)} in:\n{text!r}"
    for shown in escaped:
        assert shown in text, f"{shown!r} not in:\n{text}"
