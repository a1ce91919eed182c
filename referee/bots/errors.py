"""The ways talking to a bot process fails, raised by `process.py` and `start.py` for the
match layer to turn into a bot's faults; and the referee's own want of resources at a start
(`ResourcesExhausted`), which the match layer turns into a void game instead."""

from __future__ import annotations

import errno

# What a start fails with when the referee itself is short of descriptors (EMFILE, ENFILE),
# memory (ENOMEM) or processes (EAGAIN): its own want, not the bot's fault.
RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN})


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


class ResourcesExhausted(Exception):
    """A bot could not be started for want of the referee's own resources (descriptors,
    memory, processes): not the bot's fault, so never a `start` fault of its."""


def want_of_resources(exc: BaseException) -> BaseException | None:
    """The exception in `exc` (or in its group) that is the referee running out of its own
    resources: a start refused for want of them, memory, or descriptors; None if none is."""
    if isinstance(exc, BaseExceptionGroup):
        return next(filter(None, map(want_of_resources, exc.exceptions)), None)
    if isinstance(exc, ResourcesExhausted | MemoryError) or (
            isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOMEM)):
        return exc
    return None
