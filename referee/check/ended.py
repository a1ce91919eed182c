"""A failed answer's reason as `referee check` gives it: where the bot ended at a request, what
it had been sent since its last line (`match.ended`), read from the transcript the check keeps
anyway."""

from __future__ import annotations

from pathlib import Path

from referee.match.ended import ended_at_request, with_sent
from referee.match.exchanges import sent_before

from .situations import Asked


def reason(a: Asked, transcript: Path) -> str:
    """The reason of `a`'s fault; for a bot that ended by itself at this request, what it was
    sent after its last line and before the request, if anything, said before the stderr it
    wrote (quoted last)."""
    fault = a.fault
    assert fault is not None
    if not ended_at_request(fault):
        return fault.reason
    # None when it never had the request: the transcript has not it
    return with_sent(fault.reason, sent_before(transcript, a.request_id, f"check-{a.scenario}"))
