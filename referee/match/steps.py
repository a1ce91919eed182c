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


@dataclass(slots=True)
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
            step = Step(pending, line, [])
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


# The sources of a line that answered a request: a bot's reply, or the default for it.
ASKED = ("bot", "default")


class Requests:
    """A record's steps (`walked`) and, for each, the seats it asked (`asked`: at most one
    request a seat, a hidden auction's bids each a seat's `answer` line, any other step its
    `apply` line's seat), each with its request's number among the seat's requests in the
    game (1 for its first, as `referee replay --bot --request N` counts them); and the
    decision of any of them (`decision`).  The one numbering of requests that
    `fault_requests` and `timing.over_the_move_time` share.

    A decision is the engine's, so the record is replayed for it, but only as far as the
    step a decision is asked at: a reader wants few (a fault's, a slow answer's), and a game
    with none is not replayed at all (the replay was most of the cost of `play`'s notes)."""

    def __init__(self, record: GameRecord) -> None:
        self.walked = walk(record.lines)
        self.asked: list[dict[int, int]] = []
        count: dict[int, int] = {}  # requests sent to each seat so far
        for step in self.walked.steps:
            asked = {}
            for ln in step.lines:
                if isinstance(ln, AnswerLine) and ln.source in ASKED:
                    asked[ln.seat] = count[ln.seat] = count.get(ln.seat, 0) + 1
            seat = step.applied.seat
            if seat is not None and step.applied.source in ASKED:
                asked[seat] = count[seat] = count.get(seat, 0) + 1
            self.asked.append(asked)
        self._spec = record.spec
        self._state: GameState | None = None  # made at the first decision asked for
        self._replayed = 0  # the steps applied to it

    def decision(self, step: int, seat: int) -> DecisionKind:
        """The decision `seat` was asked at step `step` (an index of `walked.steps`); the
        steps asked of one `Requests` may not go back."""
        if self._state is None:
            spec = self._spec
            self._state = GameState(spec.config(), seed=spec.seed, deck=spec.deck)
        if step < self._replayed:
            raise ValueError(f"step {step} is behind the replay, at step {self._replayed}")
        steps = self.walked.steps
        for i in range(self._replayed, step):
            self._state.apply(steps[i].applied.action)
        self._replayed = step
        return self._state.decision(seat).kind


def fault_requests(record: GameRecord
                   ) -> list[tuple[FaultLine, int | None, DecisionKind | None]]:
    """Each fault of a record with the number of the request it answered (1 for its seat's
    first in the game, as `referee replay --bot --request N` counts them) and that request's
    decision, or None for one that answered none (a start, an exit between games, stderr
    past its limit at the end)."""
    numbered = Requests(record)
    walked = numbered.walked
    out: list[tuple[FaultLine, int | None, DecisionKind | None]] = [
        (ln, None, None) for ln in walked.start if isinstance(ln, FaultLine)]
    for i, (step, seats) in enumerate(zip(walked.steps, numbered.asked, strict=True)):
        for ln in step.lines:
            if isinstance(ln, FaultLine):
                number = seats.get(ln.seat) if ln.kind not in UNASKED else None
                out.append((ln, None, None) if number is None
                           else (ln, number, numbered.decision(i, ln.seat)))
    return out + [(ln, None, None) for ln in walked.end if isinstance(ln, FaultLine)]
