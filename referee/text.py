"""Text a bot wrote, made safe to show on a terminal or in a text file.

A bot controls its hello name, its stderr, its build's output and what it sends instead of a
reply, and all of them end up in reasons, tables and feedback.  Printed as they came, escape
sequences in them cleared the organiser's screen, set the window title, and a carriage return
overwrote a line with a fake "ALL BOTS PASSED".  So every piece of such text goes through
`visible` where it is printed or written to a text file (records keep the raw text; JSON and
HTML escape it themselves).  Below every layer, so that any layer may use it.
"""

from __future__ import annotations

import unicodedata

# Controls (C0, DEL, C1), format characters (bidi overrides and isolates, zero-width spaces,
# the soft hyphen...), lone surrogates (undecodable bytes of a file name) and the line and
# paragraph separators: none shows as itself, and each can move the cursor, reorder the text
# around it or hide text.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# The joiners are part of ordinary writing (Persian, Indic scripts, emoji sequences).
_JOINERS = frozenset("\u200c\u200d")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else (
        f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")


def visible(text: str, indent: str | None = None) -> str:
    """`text` with every character that does not show as itself written as an escape
    (`\\x1b`, `\\x07`, `\\r`, `\\u202e`); other text, "Zoë" or "王", as it is.

    Without `indent` the result is one line: a newline is `\\n` too, so that a bot cannot
    print a line that looks like the referee's.  With it (a multi-line block: a stderr tail, a
    build's output) newlines and tabs stay, and every line after the first starts with
    `indent`.  A carriage return never stays: it would let the bot overwrite the line.
    """
    if text.isprintable():  # the usual case, and fast: nothing to escape
        return text
    block = indent is not None
    out = []
    for char in text:
        if char == "\n" and block:
            out.append("\n" + indent if indent else "\n")
        elif (char == "\t" and block) or char in _JOINERS or \
                unicodedata.category(char) not in _HIDDEN:
            out.append(char)
        else:
            out.append(_escape(char))
    return "".join(out)


def listed(names: list[str], most: int = 3, total: bool = False) -> str:
    """`names` joined with commas: the first `most` of them, and how many more (with
    `total`, then how many in all, in brackets)."""
    shown = ", ".join(names[:most])
    if len(names) <= most:
        return shown
    return f"{shown} and {len(names) - most} more" + (f" ({len(names)})" if total else "")


def counted(n: int, noun: str) -> str:
    """"1 table", "2 tables"."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")
