"""Errors a bot lived through: the starter kits catch an exception in the strategy, log it to
stderr and answer the decision's default, so a bug plays on with no fault and no crash, and
its entrant sees a bot that merely plays badly.  `play` and `check` say when a bot's stderr
holds such lines, quoting the first."""

from __future__ import annotations

import re
from pathlib import Path

from .crash import HEADLINE

# A line of an error or its fallback as runtimes and the starter kits log them: an error's
# first line (`crash.HEADLINE`), Python's traceback, and the kits' "falling back to the
# default", "playing the default", "first legal".
ERROR_LINE = re.compile(HEADLINE.pattern + r"|Traceback \(most recent call last\)|"
                        r"\b(?:[Ff]all(?:ing|s)? ?back|playing the default|first legal)\b")
READ_AT_MOST = 1 << 20  # bytes of a log looked at: the start holds the first error
QUOTED = 160  # characters of the first error line quoted


def error_lines(log: Path) -> tuple[int, str] | None:
    """(how many lines of the stderr log look like errors, the first of them), or None where
    none does or the log cannot be read."""
    try:
        with log.open("rb") as f:
            text = f.read(READ_AT_MOST).decode("utf-8", "replace")
    except OSError:
        return None
    found = [line for line in text.splitlines() if ERROR_LINE.search(line)]
    if not found:
        return None
    first = found[0].strip()
    return len(found), first if len(first) <= QUOTED else first[:QUOTED - 3] + "..."


def caught_note(log: Path, where: str, name: str | None = None) -> str | None:
    """A note that the stderr log holds errors the bot lived through, naming the bot `name`
    (if given) and saying `where` its stderr can be read, or None."""
    found = error_lines(log)
    if found is None:
        return None
    count, first = found
    lines = "1 line of its stderr looks" if count == 1 else f"{count} lines of its stderr look"
    return (f"note: {name + ': ' if name else ''}{lines} like errors it lived through, the "
            f"first: {first!r}; an answer after an error may be its kit's default, not its "
            f"strategy's ({where})")
