"""The ways talking to a bot process fails, raised by `process.py` and `start.py` for the
match layer to turn into a bot's faults."""

from __future__ import annotations


class BotGone(Exception):
    """The bot process exited or closed its stdout."""


class ReplyTimeout(Exception):
    """No complete line before the deadline; `partial`: the bytes of a line without its
    newline that did come (0: nothing came)."""

    def __init__(self, message: str, partial: int = 0) -> None:
        super().__init__(message)
        self.partial = partial


class LineTooLong(Exception):
    """The bot sent a line longer than the limit; the rest of it is skipped."""


class StartError(Exception):
    """The bot's command could not be started at all."""
