"""What a crash's reason quotes of the bot's stderr (`referee.bots.crash.excerpt`): the error,
where a stack trace would push it out of the last lines, and otherwise the last lines."""

from __future__ import annotations

from referee.bots.crash import excerpt

NODE = ["/tmp/bot.js:12", "    throw new Error('boom');", "    ^", "", "Error: boom",
        *(f"    at f{i} (/tmp/bot.js:{i}:1)" for i in range(10)), "", "Node.js v18.19.0"]


def test_an_uncaught_node_error_is_quoted_from_its_first_line() -> None:
    """Node's plain `Error: boom` and the frames right after it, "...", and the last two."""
    assert excerpt(NODE).splitlines() == [
        "Error: boom", *(f"    at f{i} (/tmp/bot.js:{i}:1)" for i in range(4)),
        "... (6 lines)", "", "Node.js v18.19.0"]


def test_an_error_logged_long_before_the_end_is_not_taken_for_the_crash() -> None:
    """A handled error the bot logged, then 45 lines of its own, then the end: the quote is
    the last 8 lines, where the bot ended, not the old error."""
    lines = ["ValueError: handled", *(f"debug {i}" for i in range(45)), "Killed"]
    assert excerpt(lines).splitlines() == [*(f"debug {i}" for i in range(38, 45)), "Killed"]


def test_a_short_stderr_is_quoted_whole() -> None:
    """A Python traceback ends with its error: the last lines are quoted as they are."""
    lines = ["Traceback (most recent call last):", '  File "bot.py", line 3', "KeyError: 'x'"]
    assert excerpt(lines) == "\n".join(lines)
