"""How a game's seats used their time, from its record: the answers that took longer than the
move time and the time bank they spent.  A game can end with no fault while a bot spent most
of its bank, and a tournament's longer games, or a busier machine, then time it out; `play`
says so (`slow_lines`)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.game import DecisionKind
from referee.protocol.messages import FaultKind

from .record import AnswerLine, ApplyLine, FaultLine, GameRecord
from .steps import ASKED, Requests

# A decision in words, for a line that names one.
DECISION_WORDS = {
    DecisionKind.PLAY: "playing a card", DecisionKind.OFFER: "a second card for a double",
    DecisionKind.BID: "a bid", DecisionKind.HIDDEN_BID: "a hidden bid",
    DecisionKind.PRICE: "naming a fixed price", DecisionKind.BUY: "buying at a fixed price",
    DecisionKind.MYSTERY: "turning the mystery card",
}


@dataclass(frozen=True)
class SeatTime:
    """One seat's answers over the move time: how many, the slowest (its seconds, its request
    as `referee replay --bot --request N` counts the seat's requests, and its decision), the
    bank they spent."""

    seat: int
    over: int
    slowest: float
    slowest_request: int
    slowest_decision: DecisionKind
    bank_spent: float


def over_the_move_time(record: GameRecord) -> list[SeatTime]:
    """Each seat with an answer slower than the move time (a hidden auction's bids are each a
    seat's own `answer` line; an answer refused, recorded as the default, took its time from
    the bank all the same; a timeout, which is no answer, is not one), seat by seat."""
    move, bank = record.spec.move_time, record.spec.time_bank
    numbered = Requests(record)
    walked = numbered.walked
    seen: dict[int, list[tuple[float, int, DecisionKind]]] = {}
    timed_out: set[int] = set()  # seats whose next default is a timeout's
    # The lines before the first step answer no request, but a timeout among them would make
    # its seat's next default a timeout's; those after the last step come too late to matter.
    timed_out.update(ln.seat for ln in walked.start
                     if isinstance(ln, FaultLine) and ln.kind is FaultKind.TIMEOUT)
    for i, (step, seats) in enumerate(zip(walked.steps, numbered.asked, strict=True)):
        for line in (*step.lines, step.applied) if step.lines else (step.applied,):
            if isinstance(line, FaultLine):
                if line.kind is FaultKind.TIMEOUT:
                    timed_out.add(line.seat)
            elif isinstance(line, (AnswerLine, ApplyLine)) and line.seat in seats and \
                    line.source in ASKED:
                seat = line.seat
                if line.source == "default" and seat in timed_out:
                    timed_out.discard(seat)
                elif line.seconds > move:
                    seen.setdefault(seat, []).append(
                        (line.seconds, seats[seat], numbered.decision(i, seat)))
    out = []
    for seat, times in sorted(seen.items()):
        slowest = max(times, key=lambda t: t[0])
        out.append(SeatTime(seat, len(times), *slowest,
                            min(bank, sum(t - move for t, _, _ in times))))
    return out


def slow_lines(record: GameRecord) -> list[str]:
    """A line for each seat that answered slower than the move time, naming it; for one with
    timeouts, that they came when its slow answers had left too little of the bank."""
    spec = record.spec
    timed_out = {s.seat for s in record.result.seats()
                 if any(f.kind is FaultKind.TIMEOUT for f in s.faults)}
    lines = []
    for s in over_the_move_time(record):
        said = (f"note: {spec.names[s.seat]}: {s.over} answer{'s' if s.over > 1 else ''} took "
                f"longer than the move time of {spec.move_time:g} s (the slowest "
                f"{s.slowest:.2f} s, at request {s.slowest_request}: "
                f"{DECISION_WORDS[s.slowest_decision]}), spending {s.bank_spent:.1f} s of its "
                f"{spec.time_bank:g} s time bank; ")
        if s.seat in timed_out:
            said += "the timeouts above came when too little of it was left"
        else:
            said += "once it is spent, a late answer is a timeout"
        lines.append(said)
    return lines
