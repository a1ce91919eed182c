"""Re-check a recorded game against the rules engine.

The record's spec rebuilds the same deal; every applied action is applied again, and the
events the engine produces must equal the recorded ones, as must the final money and ranks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from referee.game import Event, GameState, IllegalAction

from .game import final_ranks
from .player import Fault
from .record import ApplyLine, EventLine, FaultLine, GameRecord, RecordError, RetiredLine
from .spec import GameSpec

__all__ = ["RecordError", "ReplayResult", "replay"]


@dataclass
class ReplayResult:
    spec: GameSpec
    events: list[Event] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _shown(events: list[Event], where: int) -> object:
    """The event at `where`, as the record writes it, or None past the end."""
    return events[where].to_dict() if where < len(events) else None


def replay(record: GameRecord) -> ReplayResult:
    """Replay a record; mismatches are listed.  A spec the engine cannot deal from is a
    RecordError (a record that cannot be read at all is one already, from `read_record`)."""
    spec = record.spec
    try:
        state = GameState(spec.config(), seed=spec.seed, deck=spec.deck)
    except ValueError as exc:
        raise RecordError(f"the record's spec is not valid: {exc}") from None
    out = ReplayResult(spec)
    produced = list(state.take_events())
    recorded: list[Event] = []
    step = 0
    faults: list[list[Fault]] = [[] for _ in range(spec.players)]
    retired_seen: set[int] = set()

    def compare() -> None:
        if produced != recorded:
            where = next((i for i, (a, b) in enumerate(zip(produced, recorded, strict=False))
                          if a != b), min(len(produced), len(recorded)))
            out.mismatches.append(f"step {step}: the rules give {_shown(produced, where)}, "
                                  f"the record has {_shown(recorded, where)}")
        out.events.extend(recorded)
        produced.clear()
        recorded.clear()

    for line in record.lines:
        if isinstance(line, EventLine):
            recorded.append(line.event)
        elif isinstance(line, ApplyLine):
            compare()
            step += 1
            if state.is_over:
                out.mismatches.append(f"step {step}: an action after the game ended")
                break
            try:
                produced.extend(state.apply(line.action))
            except IllegalAction as exc:
                out.mismatches.append(f"step {step}: recorded action {line.action} is illegal: "
                                      f"{exc}")
                break
        elif isinstance(line, FaultLine):
            if not 0 <= line.seat < spec.players:
                out.mismatches.append(f"a fault of seat {line.seat}, in a game of "
                                      f"{spec.players} seats")
                break
            faults[line.seat].append(line.fault)
        elif isinstance(line, RetiredLine):
            retired_seen.add(line.seat)
    compare()
    result = record.result
    if not state.is_over:
        out.mismatches.append("the record ends before the game does")
        return out
    retired = [s in result.retired for s in range(spec.players)]
    # The result's own claims, against the record's lines: who retired decides the ranks.
    if sorted(result.retired) != sorted(retired_seen):
        out.mismatches.append(f"retired seats: the record's lines give {sorted(retired_seen)}, "
                              f"its result {list(result.retired)}")
    if [list(f) for f in result.faults] != faults:
        out.mismatches.append(f"faults: the record's lines give {_shown_faults(faults)}, its "
                              f"result {_shown_faults(result.faults)}")
    if list(result.money) != state.money:
        out.mismatches.append(f"final money: rules {state.money}, record {list(result.money)}")
    ranks = final_ranks(state.money, retired)
    if list(result.ranks) != ranks:
        out.mismatches.append(f"ranks: rules {ranks}, record {list(result.ranks)}")
    return out


def _shown_faults(faults: Iterable[Iterable[Fault]]) -> list[list[dict[str, str]]]:
    return [[f.to_dict() for f in seat] for seat in faults]
