"""A failed answer's reason as `referee check` gives it: where the bot ended at a request, what
it had been sent since its last line, for it may have crashed on an event rather than on the
request whose check the crash fails.

Told after the fact, from the transcript the check keeps anyway: the match runner does nothing
more for it (a crash's moment is not known to the referee, which writes events and the request
one after the other, and finds the bot gone only when it reads).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from referee.bots.process import CLOSED_OUTPUT, STOPPED_READING
from referee.match.exchanges import Before, sent_before
from referee.protocol.messages import FaultKind

from .situations import Asked

STDERR_ENDS = "; its stderr ends:"  # where a crash's reason quotes the bot's stderr
NAMED = 8  # event types named before "..."


def reason(a: Asked, transcript: Path) -> str:
    """The reason of `a`'s fault; for a bot that ended by itself at this request, what it was
    sent after its last line and before the request, if anything, said before the stderr it
    wrote (quoted last)."""
    fault = a.fault
    assert fault is not None
    if fault.kind is not FaultKind.CRASH or not fault.reason.startswith(
            (CLOSED_OUTPUT, STOPPED_READING)):
        return fault.reason
    before = sent_before(transcript, a.request_id, f"check-{a.scenario}")
    if before is None or not before.kinds:  # it never had the request, or had only it
        return fault.reason
    head, ends, tail = fault.reason.partition(STDERR_ENDS)
    return f"{head}; {sent_since(before)}{ends}{tail}"


def sent_since(before: Before) -> str:
    """What the bot was sent before the request it ended at, and that it may have ended on
    one of them: "since its last answer it was sent 4 events: pass 2 times, auction_won,
    payment; then this request, and it ended: it may have crashed on one of them or on the
    request"."""
    others = Counter(k for k in before.kinds if k != "event")
    parts = [f"a {kind}" if n == 1 else f"{n} {kind}s" for kind, n in others.items()]
    events = before.events
    if events:  # each type once, in the order of its first
        types = [t if n == 1 else f"{t} {n} times" for t, n in Counter(events).items()]
        named = ", ".join(types[:NAMED]) + (", ..." if len(types) > NAMED else "")
        parts.append(f"{len(events)} event{'s' if len(events) > 1 else ''}: {named}")
    what = " and ".join(parts)
    them = "it" if len(before.kinds) == 1 else "one of them"
    last = "its hello" if before.since_hello else "its last answer"
    return (f"since {last} it was sent {what}; then this request, and it ended: it may have "
            f"crashed on {them} or on the request")
