"""A game record's lines as the steps of its game: the one walk over a record that `replay.py`
(which re-plays each step through the engine) and `seat_part.py` (which rebuilds what a seat
was sent at each step) share, so that both read a record the same way."""

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


def fault_requests(record: GameRecord
                   ) -> list[tuple[FaultLine, int | None, DecisionKind | None]]:
    """Each fault of a record with the number of the request it answered (1 for its seat's
    first in the game, as `referee replay --bot --request N` counts them) and that request's
    decision, or None for one that answered none (a start, an exit between games, stderr
    past its limit at the end)."""
    walked = walk(record.lines)
    spec = record.spec
    state = GameState(spec.config(), seed=spec.seed, deck=spec.deck)  # for each decision
    asked: dict[int, int] = {}  # requests sent to each seat so far
    out: list[tuple[FaultLine, int | None, DecisionKind | None]] = [
        (ln, None, None) for ln in walked.start if isinstance(ln, FaultLine)]
    for step in walked.steps:
        answered = {ln.seat for ln in step.lines if isinstance(ln, AnswerLine)
                    and ln.source in ("bot", "default")}
        if step.applied.seat is not None and step.applied.source in ("bot", "default"):
            answered.add(step.applied.seat)
        for seat in answered:
            asked[seat] = asked.get(seat, 0) + 1
        kinds = {seat: state.decision(seat).kind for seat in answered}
        out += [(ln, asked[ln.seat], kinds[ln.seat])
                if ln.seat in answered and ln.kind not in UNASKED else (ln, None, None)
                for ln in step.lines if isinstance(ln, FaultLine)]
        state.apply(step.applied.action)
    return out + [(ln, None, None) for ln in walked.end if isinstance(ln, FaultLine)]

