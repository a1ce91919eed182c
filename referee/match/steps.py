"""A game record's lines as the steps of its game: the one walk over a record that `replay.py`
(which re-plays each step through the engine) and `seat_part.py` (which rebuilds what a seat
was sent at each step) share, so that both read a record the same way; and the numbering of
each seat's requests along it, which `referee play`'s faults and slow answers both cite."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.game import DecisionKind, Event, GameState
from referee.protocol.messages import FaultKind

from .record import AnswerLine, ApplyLine, EventLine, FaultLine, GameRecord, StepLine


@dataclass
class Step:
    """One `apply` line, the lines before it since the previous step (faults, hidden bids'
    answers, retirements) and the events recorded after it."""

    lines: list[StepLine]
    applied: ApplyLine
    events: list[Event] = field(default_factory=list)


@dataclass
class Walk:
    """A record's lines: the game start's (before its first event), the events dealt before
    the first step, each step, and the game end's lines (after the last step's events)."""

    start: list[StepLine] = field(default_factory=list)
    opening: list[Event] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    end: list[StepLine] = field(default_factory=list)

    def every_line(self) -> list[StepLine]:
        """The lines that are neither events nor `apply`, in the record's order."""
        return self.start + [ln for s in self.steps for ln in s.lines] + self.end


def walk(lines: Sequence[StepLine]) -> Walk:
    """The steps of a record's lines (`GameRecord.lines`), in order."""
    out = Walk()
    events = out.opening
    pending: list[StepLine] = []
    evented = False
    for line in lines:
        if isinstance(line, EventLine):
            evented = True
            events.append(line.event)
        elif isinstance(line, ApplyLine):
            step = Step(pending, line)
            out.steps.append(step)
            events, pending = step.events, []
        elif not evented and not out.steps:
            out.start.append(line)
        else:
            pending.append(line)
    out.end = pending
    return out


# Faults that answer no request, wherever the record has them: a start, an exit between
# games, stderr past its limit.
UNASKED = frozenset({FaultKind.START, FaultKind.EXIT, FaultKind.STDERR})


@dataclass(frozen=True, slots=True)
class Request:
    """A request a seat answered in a step (its bot's reply, or the default given for it):
    its number among the seat's requests in the game (1 for its first, as `referee replay
    --bot --request N` counts them) and the decision it asked for."""

    number: int
    decision: DecisionKind


# The sources of a line that answered a request: a bot's reply, or the default for it.
ASKED = ("bot", "default")


def requests(record: GameRecord) -> tuple[Walk, list[dict[int, Request]]]:
    """A record's steps and, for each, the seats it asked (at most one request a seat: a
    hidden auction's bids are each a seat's `answer` line, any other step its `apply` line's
    seat), each with its request; replayed through the engine for the decisions.  The one
    numbering of requests that `fault_requests` and `timing.over_the_move_time` share."""
    walked = walk(record.lines)
    spec = record.spec
    state = GameState(spec.config(), seed=spec.seed, deck=spec.deck)  # for each decision
    count: dict[int, int] = {}  # requests sent to each seat so far
    out: list[dict[int, Request]] = []
    for step in walked.steps:
        answered = [ln.seat for ln in step.lines
                    if isinstance(ln, AnswerLine) and ln.source in ASKED]
        if step.applied.seat is not None and step.applied.source in ASKED:
            answered.append(step.applied.seat)
        asked = {}
        for seat in answered:
            count[seat] = count.get(seat, 0) + 1
            asked[seat] = Request(count[seat], state.decision(seat).kind)
        out.append(asked)
        state.apply(step.applied.action)
    return walked, out


def fault_requests(record: GameRecord
                   ) -> list[tuple[FaultLine, int | None, DecisionKind | None]]:
    """Each fault of a record with the number of the request it answered (1 for its seat's
    first in the game, as `referee replay --bot --request N` counts them) and that request's
    decision, or None for one that answered none (a start, an exit between games, stderr
    past its limit at the end)."""
    walked, asked = requests(record)
    out: list[tuple[FaultLine, int | None, DecisionKind | None]] = [
        (ln, None, None) for ln in walked.start if isinstance(ln, FaultLine)]
    for step, seats in zip(walked.steps, asked, strict=True):
        for ln in step.lines:
            if isinstance(ln, FaultLine):
                request = seats.get(ln.seat) if ln.kind not in UNASKED else None
                out.append((ln, None, None) if request is None
                           else (ln, request.number, request.decision))
    return out + [(ln, None, None) for ln in walked.end if isinstance(ln, FaultLine)]
