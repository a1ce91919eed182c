"""How a game's seats used their time, from its record: the answers that took longer than the
move time and the time bank they spent.  A game can end with no fault while a bot spent most
of its bank, and a tournament's longer games, or a busier machine, then time it out; `play`
says so (`slow_lines`)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.protocol.messages import FaultKind

from .record import AnswerLine, ApplyLine, FaultLine, GameRecord


@dataclass(frozen=True)
class SeatTime:
    """One seat's answers over the move time: how many, the slowest, the bank they spent."""

    seat: int
    over: int
    slowest: float
    bank_spent: float


def over_the_move_time(record: GameRecord) -> list[SeatTime]:
    """Each seat with an answer slower than the move time (a hidden auction's bids are each a
    seat's own `answer` line; an answer refused, recorded as the default, took its time from
    the bank all the same; a timeout, which is no answer, is not one), seat by seat."""
    move, bank = record.spec.move_time, record.spec.time_bank
    seen: dict[int, list[float]] = {}
    timed_out: set[int] = set()  # seats whose next default is a timeout's
    for line in record.lines:
        if isinstance(line, FaultLine) and line.kind is FaultKind.TIMEOUT:
            timed_out.add(line.seat)
        elif isinstance(line, (AnswerLine, ApplyLine)) and line.seat is not None and \
                line.source in ("bot", "default"):
            if line.source == "default" and line.seat in timed_out:
                timed_out.discard(line.seat)
            elif line.seconds > move:
                seen.setdefault(line.seat, []).append(line.seconds)
    return [SeatTime(seat, len(times), max(times), min(bank, sum(t - move for t in times)))
            for seat, times in sorted(seen.items())]


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
                f"{s.slowest:.2f} s), spending {s.bank_spent:.1f} s of its {spec.time_bank:g} s "
                "time bank; ")
        if s.seat in timed_out:
            said += "the timeouts above came when too little of it was left"
        else:
            said += "once it is spent, a late answer is a timeout"
        lines.append(said)
    return lines
