"""Errors a bot lived through: the starter kits catch an exception in the strategy, log it to
stderr and answer the decision's default, so a bug plays on with no fault and no crash, and
its entrant sees a bot that merely plays badly.  A bot's stderr log counts the lines that look
like errors as they come (`ErrorLines`, kept in memory: nothing is left on disk by a referee
that is killed), and `play` and `check` say how many, quoting the first."""

from __future__ import annotations

import re

# The first line of an error as runtimes print it, before a stack trace that can bury it:
# Rust's panic (its message on the next line; newer Rust writes the thread's id after its
# name), Go's panic, Java's and C#'s uncaught exception, Node's error, a sanitizer's report
# (AddressSanitizer's `==pid==ERROR:`, UndefinedBehaviorSanitizer's `file:line:col: runtime
# error:`); Python and C++ print theirs last.
HEADLINE = re.compile(r"^(?:thread '.*'(?: \(\d+\))? panicked at |panic: |fatal error: |"
                      r"Exception in thread |Unhandled exception\. |==\d+==ERROR: |"
                      r"\S+:\d+:\d+: runtime error: |(?:[A-Z]\w*)?(?:Error|Exception): )")
# A line of an error or its fallback: an error's first line (`HEADLINE`), Python's traceback,
# and the kits' "falling back to the default", "playing the default", "first legal",
# "cannot read an event" (the strategy failed on an event, which the kit then ignored),
# "answering the defaults" (it failed on a new_game: that game's requests get the defaults)
# and "panic in thread 'x':", "panic in a thread:", "panic in a goroutine:" (a thread or
# goroutine the strategy started failed, the kit logged it and the bot lives on).
_ERROR_LINE = re.compile(("(?m)" + HEADLINE.pattern + r"|Traceback \(most recent call last\)|"
                          r"\b(?:[Ff]all(?:ing|s)? ?back|playing the default|first legal|"
                          r"cannot read an event|answering the defaults)\b|"
                          r"\bpanic in (?:thread '.*'|a thread|a goroutine): ").encode())
# Rust's panic headline, its message on the next line: the two are quoted as one.
_RUST_HEADLINE = re.compile(r"^thread '.*'(?: \(\d+\))? panicked at .*:$")
LONGEST = 4096  # bytes of a line looked at: the rest of a longer one is not
QUOTED = 160  # characters of the first error line quoted
# Of a longer one, its end: where the kits name the place in the bot's code the error came
# from (`... at Bot.java:241 in Bot.decide; falling back to the default`), after an
# exception's message that can be long (Java's helpful NullPointerException).
QUOTED_END = 70


class ErrorLines:
    """The lines of a bot's stderr that look like errors: how many, and the first."""

    def __init__(self) -> None:
        self.count = 0
        self.first = ""
        self._partial = b""  # the start of a line not ended yet
        self._message_next = False  # the first line quoted is Rust's panic headline

    def feed(self, data: bytes) -> None:
        """Take in more of the bot's stderr, as it wrote it."""
        end = data.rfind(b"\n")
        if end < 0:
            self._partial = (self._partial + data)[:LONGEST]
            return
        self._lines(self._partial + data[:end + 1])
        self._partial = data[end + 1:][:LONGEST]

    def _lines(self, text: bytes) -> None:
        if self._message_next:  # the message under a Rust panic's headline, in a later piece
            self._message_next = False
            self._quote(f"{self.first} {_line(text, 0)}".strip())
        last = -1
        for match in _ERROR_LINE.finditer(text):
            start = text.rfind(b"\n", 0, match.start()) + 1
            if start == last:
                continue  # one line, however many of its parts look like errors
            last = start
            self.count += 1
            if self.count == 1:
                line = _line(text, start)
                if _RUST_HEADLINE.match(line):
                    # `thread 'main' panicked at src/x.rs:3:9:` says where, its next line
                    # what (a panic the Rust kit does not log in one line: in a bot of
                    # one's own, or outside the kit's guard): quoted as one.
                    end = text.find(b"\n", start) + 1
                    if end < len(text):
                        line += " " + _line(text, end)
                    else:
                        self._message_next = True
                        self.first = line
                        continue
                self._quote(line)

    def _quote(self, line: str) -> None:
        """The first error line, a long one cut in the middle."""
        self.first = line if len(line) <= QUOTED else (
            line[:QUOTED - QUOTED_END - 5] + " ... " + line[-QUOTED_END:])

    def add(self, other: ErrorLines) -> None:
        """Count `other`'s lines too (another process of the same bot)."""
        if other.count and not self.count:
            self.first = other.first
        self.count += other.count


def _line(text: bytes, start: int) -> str:
    """The line of `text`, which ends with a newline, that begins at `start`."""
    return text[start:text.find(b"\n", start)].decode("utf-8", "replace").strip()


def caught_note(errors: ErrorLines, where: str, name: str | None = None,
                answers: int | None = None) -> str | None:
    """A note that the bot (`name`, if given) wrote lines that look like errors it lived
    through, saying `where` its stderr can be read; None if it wrote none.  With the
    `answers` accepted, more error lines than half as many as the answers are said to make
    most answers possibly the default (a C# entrant whose every answer fell back was told only
    that some may have): possibly, as a bot may write more than one such line an error (a
    Python traceback's first and last, then its own fallback line)."""
    count = errors.count
    if not count:
        return None
    lines = ("1 line of its stderr looks like an error" if count == 1 else
             f"{count} lines of its stderr look like errors")
    often = answers is not None and answers > 0 and 2 * count > answers
    after = (f"more than half as many as its {answers:,} accepted answers: most of its "
             "answers may have been its kit's default, not its strategy's" if often else
             "an answer after an error may be its kit's default, not its strategy's")
    return (f"note: {name + ': ' if name else ''}{lines} it lived through, the "
            f"first: {errors.first!r}; {after} ({where})")
