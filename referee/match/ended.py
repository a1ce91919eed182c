"""A bot that ended at a request, told with what it was sent since its last line: it may have
crashed on one of those events rather than on the request whose answer the crash is recorded
for.  One wording for `referee check` (which reads what was sent from its transcript) and
`referee play` (which rebuilds it from the game record, `before_request`).

Told after the fact: the match runner does nothing more for it (a crash's moment is not known
to the referee, which writes events and the request one after the other, and finds the bot
gone only when it reads).
"""

from __future__ import annotations

from collections import Counter

import orjson

from referee.bots.crash import STDERR_ENDS
from referee.bots.process import CLOSED_OUTPUT, STOPPED_READING
from referee.protocol.messages import FaultKind

from .exchanges import Before
from .player import Fault
from .record import GameRecord
from .seat_part import RerunError, part_from_record

NAMED = 8  # event types named before "..."


def ended_at_request(fault: Fault, *, read_too: bool = True) -> bool:
    """Whether `fault` is a bot's process found ended at a request: its output closed, or (when
    `read_too`) its input no longer read."""
    ends = (CLOSED_OUTPUT, STOPPED_READING) if read_too else (CLOSED_OUTPUT,)
    return fault.kind is FaultKind.CRASH and fault.reason.startswith(ends)


def with_sent(reason: str, before: Before | None) -> str:
    """A crash's `reason` with what the bot was sent before the request (`sent_since`) said
    before the stderr it quotes (quoted last); as it is when it was sent only the request."""
    if before is None or not before.kinds:
        return reason
    head, ends, tail = reason.partition(STDERR_ENDS)
    return f"{head}; {sent_since(before)}{ends}{tail}"


def sent_since(before: Before) -> str:
    """That the bot may have ended on one of the messages it was sent before the request it
    ended at, named: "it crashed on this request or on one of the 4 events sent since its
    last answer (pass 2 times, auction_won, payment)"."""
    others = Counter(k for k in before.kinds if k != "event")
    parts = [kind if n == 1 else f"{n} {kind}s" for kind, n in others.items()]
    events = before.events
    named = ""
    if events:  # each type once, in the order of its first
        types = [t if n == 1 else f"{t} {n} times" for t, n in Counter(events).items()]
        named = " (" + ", ".join(types[:NAMED]) + (", ..." if len(types) > NAMED else "") + ")"
        parts.append("event" if len(events) == 1 else f"{len(events)} events")
    what = " and ".join(parts)
    them = "the" if len(before.kinds) == 1 else "one of the"
    last = "its hello" if before.since_hello else "its last answer"
    return f"it crashed on this request or on {them} {what} sent since {last}{named}"


def before_request(record: GameRecord, seat: int, number: int) -> Before | None:
    """What `seat` was sent between its last line and its request `number` (1 for its first
    in the game), rebuilt from the record as the match runner sent it (`part_from_record`);
    None when that is not known: the request before it timed out (a late answer may have come
    among the lines), or the record cannot be rebuilt."""
    try:
        sent = part_from_record(record, seat).requests
    except RerunError:
        return None
    if not 1 <= number <= len(sent):
        return None
    if number > 1 and sent[number - 2].recorded.fault is FaultKind.TIMEOUT:
        return None
    kinds: list[str] = []
    events: list[str] = []
    for line in sent[number - 1].before.splitlines():
        message = orjson.loads(line)
        kinds.append(str(message.get("type")))
        if kinds[-1] == "event":
            events.append(str(message["event"].get("type")))
    return Before(kinds, events, since_hello=number == 1)


def told(record: GameRecord, seat: int, number: int | None, fault: Fault) -> str:
    """`fault`'s reason as `referee play` shows it: for a bot whose output closed at its
    request `number`, with what it was sent before it.  Only a closed output: a bot that
    stopped reading may not have been sent the whole of it, which a record cannot tell."""
    if number is None or not ended_at_request(fault, read_too=False):
        return fault.reason
    return with_sent(fault.reason, before_request(record, seat, number))
