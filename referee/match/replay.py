"""Re-check a recorded game against the rules engine.

The record's spec rebuilds the same deal; every applied action is applied again, and the
events the engine produces must equal the recorded ones, as must the final money and ranks.
The record's own `deal` line, which lets a reader without this code check the game, is
checked too: a deck that is not the one the seed (or the spec's deck) deals, or a mystery
hand that is not the one the deck deals or not where the cards turned came from, is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from referee.game import Event, GameState, IllegalAction
from referee.game.events import MysteryRevealed

from .game import final_ranks
from .player import Fault
from .record import (
    DealLine,
    EventLine,
    FaultLine,
    GameRecord,
    RecordError,
    RetiredLine,
    StepLine,
)
from .spec import GameSpec
from .steps import walk

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
    """Replay a record; mismatches are listed.  A spec the engine cannot deal from, or a deal
    line that is not the game's deal, is a RecordError (a record that cannot be read at all is
    one already, from `read_record`).  A record without a deal line (written before records
    kept one) is replayed from its spec alone."""
    spec = record.spec
    try:
        state = GameState(spec.config(), seed=spec.seed, deck=spec.deck)
    except ValueError as exc:
        raise RecordError(f"the record's spec is not valid: {exc}") from None
    if record.deal is not None:
        _check_deal(record, DealLine.of(state))
    out = ReplayResult(spec)
    produced = list(state.take_events())
    step = 0
    faults: list[list[Fault]] = [[] for _ in range(spec.players)]
    retired_seen: set[int] = set()

    def compare(recorded: list[Event]) -> None:
        if produced != recorded:
            where = next((i for i, (a, b) in enumerate(zip(produced, recorded, strict=False))
                          if a != b), min(len(produced), len(recorded)))
            out.mismatches.append(f"step {step}: the rules give {_shown(produced, where)}, "
                                  f"the record has {_shown(recorded, where)}")
        out.events.extend(recorded)
        produced.clear()

    def note(lines: list[StepLine]) -> bool:
        """Count the faults and retirements of `lines`; False at a seat the game has not."""
        for line in lines:
            if isinstance(line, FaultLine):
                if not 0 <= line.seat < spec.players:
                    out.mismatches.append(f"a fault of seat {line.seat}, in a game of "
                                          f"{spec.players} seats")
                    return False
                faults[line.seat].append(line.fault)
            elif isinstance(line, RetiredLine):
                retired_seen.add(line.seat)
        return True

    steps = walk(record.lines)
    recorded = steps.opening
    if note(steps.start):
        for st in steps.steps:
            if not note(st.lines):
                break
            compare(recorded)
            step += 1
            recorded = st.events
            if state.is_over:
                out.mismatches.append(f"step {step}: an action after the game ended")
                recorded = []
                break
            try:
                produced.extend(state.apply(st.applied.action))
            except IllegalAction as exc:
                out.mismatches.append(f"step {step}: recorded action {st.applied.action} is "
                                      f"illegal: {exc}")
                recorded = []
                break
        else:
            note(steps.end)
    compare(recorded)
    result = record.result
    if not state.is_over:
        out.mismatches.append("the record ends before the game does")
        return out
    if record.deal is not None and not out.mismatches:  # played as recorded: dealt the same
        _check_mystery_hand(record.deal, DealLine.of(state))
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


def _check_deal(record: GameRecord, rules: DealLine) -> None:
    """Refuse a record whose deck is not the one its spec deals (R2.3), whose mystery hand is
    there without the variant or missing with it, or whose mystery cards turned are not the
    hand's, from its first, in order (R7, D2)."""
    deal = record.deal
    assert deal is not None
    given = record.spec.deck is not None
    source = "the spec's deck" if given else f"its seed {record.spec.seed}"
    difference = _difference(deal.deck, rules.deck, "the spec's" if given else "the seed's")
    if difference:
        raise RecordError(f"the record's deck is not the one {source} deals (R2.3): "
                          f"{difference}")
    if (deal.mystery is None) != (rules.mystery is None):
        has = "has a mystery hand, but the game has none" if rules.mystery is None else \
            "has no mystery hand, which the mystery variant deals"
        raise RecordError(f"the record's deal {has} (R7)")
    hand = deal.mystery
    if hand is None:
        return
    turned = [line.event.card for line in record.lines
              if isinstance(line, EventLine) and type(line.event) is MysteryRevealed]
    for number, card in enumerate(turned):
        if number >= len(hand) or card != hand[number]:
            held = f"its card {number + 1} is {hand[number]}" if number < len(hand) else \
                f"it holds only {len(hand)} cards"
            raise RecordError(f"mystery card {number + 1} turned is {card}, not the mystery "
                              f"hand's next card: {held} (R7, D2)")


def _check_mystery_hand(deal: DealLine, rules: DealLine) -> None:
    """Refuse a record whose mystery hand is not the one its deck dealt (R7, D6)."""
    difference = _difference(deal.mystery or (), rules.mystery or (), "the deck's")
    if difference:
        raise RecordError(f"the record's mystery hand is not the one its deck deals (R7): "
                          f"{difference}")


def _difference(recorded: tuple[int, ...], expected: tuple[int, ...], whose: str) -> str:
    """Where the recorded cards first differ from those `whose` (the seed's, say) deal, in
    words; empty when they are the same."""
    if recorded == expected:
        return ""
    where = next((i for i, (a, b) in enumerate(zip(recorded, expected, strict=False))
                  if a != b), None)
    if where is None:
        return f"it has {len(recorded)} cards, {whose} {len(expected)}"
    return f"its card {where + 1} is {recorded[where]}, {whose} is {expected[where]}"


def _shown_faults(faults: Iterable[Iterable[Fault]]) -> list[list[dict[str, str]]]:
    return [[f.to_dict() for f in seat] for seat in faults]
