"""Excerpts of each bot's stderr logs, as `referee tournament run --stderr-dir DIR` (one log per
worker, NAME.wN.stderr.log) or `referee play --stderr-dir DIR` (NAME.stderr.log) keep them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from referee.bots.caught import ErrorLines

LINES_PER_BOT = 40
LINE_CHARS = 300
TAIL_BYTES = 64 * 1024


READ_AT_MOST = 64 * 1024 * 1024  # bytes of a log read for the lines that look like errors


@dataclass(frozen=True)
class Excerpt:
    file: str
    lines: list[str]
    size: int  # bytes in the whole log
    errors: int = 0  # lines that look like errors the bot lived through (bots/caught.py)
    first_error: str = ""


def error_lines(path: Path) -> ErrorLines:
    """The lines of a log that look like errors, counted over its first `READ_AT_MOST` bytes:
    a bot whose kit catches an exception and plays a default makes no fault, and a Java
    entrant's report read "No faults" above a stderr tail full of NullPointerExceptions."""
    found = ErrorLines()
    try:
        with path.open("rb") as f:
            for _ in range(READ_AT_MOST // (1 << 20)):
                chunk = f.read(1 << 20)
                if not chunk:
                    break
                found.feed(chunk)
    except OSError:
        pass
    found.feed(b"\n")  # a last line without its newline
    return found


def log_files(folder: Path, name: str, others: frozenset[str] = frozenset()) -> list[Path]:
    """The bot's logs in `folder`.  NAME.wN.stderr.log is bot NAME's worker N log, so for a
    bot named like another's worker log (`x.w1` beside `x`) that file is the other's."""
    pattern = re.compile(rf"^{re.escape(name)}(\.w\d+)?\.stderr\.log$")
    owner = re.match(r"^(.*)\.w\d+$", name)
    theirs = f"{name}.stderr.log" if owner and owner.group(1) in others else None
    try:
        found = [p for p in folder.iterdir()
                 if pattern.match(p.name) and p.name != theirs and p.is_file()]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name)


def tail(path: Path, count: int) -> list[str]:
    """The last `count` lines of a file, read from its end only."""
    try:
        with path.open("rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - TAIL_BYTES))
            data = f.read()
    except OSError:
        return []
    lines = data.decode("utf-8", "replace").splitlines()
    if size > TAIL_BYTES and lines:
        lines = lines[1:]  # the first one is probably cut
    return [line if len(line) <= LINE_CHARS else line[:LINE_CHARS] + " …"
            for line in lines[-count:]]


def excerpts(folder: Path, name: str, budget: int = LINES_PER_BOT,
             others: frozenset[str] = frozenset()) -> list[Excerpt]:
    """The last lines of the bot's logs: about `budget` lines in all, shared among its logs
    (`others`: the tournament's other bots, see log_files)."""
    files = [p for p in log_files(folder, name, others) if p.stat().st_size > 0]
    if not files:
        return []
    each = max(5, budget // len(files))
    out = []
    for p in files[:8]:
        found = error_lines(p)
        out.append(Excerpt(p.name, tail(p, each), p.stat().st_size, found.count, found.first))
    return out
