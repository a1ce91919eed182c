"""Markdown that a student's own text cannot break: a bot's stderr, replies and build output
go in fenced blocks whose fence is longer than any run of backticks in them, and one-line
pieces in code spans delimited the same way.  Either is made visible first (referee.text)."""

from __future__ import annotations

import re

from referee.text import visible

_TICKS = re.compile(r"`+")
# Letters of any script (a student's name: "José", "王") and ASCII digits and punctuation
# that mean nothing to Markdown between letters; anything else goes in a code span.
_PLAIN = re.compile(r"(?:[^\W\d_]|[0-9 _.,:;'+=/@-])*")


def longest_run(text: str) -> int:
    return max((len(m.group()) for m in _TICKS.finditer(text)), default=0)


def fenced(text: str, info: str = "") -> str:
    """`text` as a fenced code block: its lines kept (a traceback stays a traceback), its
    fence at least three backticks and longer than any run of them inside, so that no line
    of it can close the block."""
    body = visible(text.rstrip("\n"), indent="")
    fence = "`" * max(3, longest_run(body) + 1)
    return f"{fence}{info}\n{body}\n{fence}"


def code(text: str) -> str:
    """`text` as one code span (a newline shown as `\\n`), whatever backticks it holds."""
    body = visible(text)
    ticks = "`" * (longest_run(body) + 1)
    if body.startswith("`") or body.endswith("`") or body.startswith(" "):
        body = f" {body} "  # CommonMark strips one space each side
    return f"{ticks}{body}{ticks}"


def plain_or_code(text: str) -> str:
    """Text that shows as itself in Markdown as it is, anything else as a code span: a
    student's folder name, in a heading."""
    return text if _PLAIN.fullmatch(text) and text.strip() == text and text else code(text)
