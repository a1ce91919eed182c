"""Re-check a recorded game against the rules engine.

The record's spec rebuilds the same deal; every applied action is applied again, and the
events the engine produces must equal the recorded ones, as must the final money and ranks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from referee.game import (
    Bid,
    Buy,
    GameState,
    HiddenBids,
    IllegalAction,
    Offer,
    Pass,
    Play,
    Price,
    Reveal,
)
from referee.game.actions import Action
from referee.validation import first_error

from .runner import final_ranks
from .spec import GameSpec


class RecordError(ValueError):
    """The record cannot be read at all (not a game record, or cut short)."""


@dataclass
class ReplayResult:
    spec: GameSpec
    events: list[dict[str, Any]] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def action_from_dict(data: dict[str, Any], seat: int) -> Action:
    name = data["action"]
    if name == "hidden_bids":
        return HiddenBids(tuple(data["amounts"]))
    if name == "play":
        return Play(seat, data["card"])
    if name == "offer":
        return Offer(seat, data["card"])
    if name == "bid":
        return Bid(seat, data["amount"])
    if name == "price":
        return Price(seat, data["amount"])
    if name == "buy":
        return Buy(seat)
    if name == "reveal":
        return Reveal(seat)
    if name == "pass":
        return Pass(seat)
    raise RecordError(f"unknown action {name!r}")


def replay(lines: list[Any]) -> ReplayResult:
    """Replay a record's lines; mismatches are listed, and a damaged record is a RecordError."""
    try:
        return _replay(lines)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise RecordError(f"the record is damaged: {type(exc).__name__}: {exc}") from None


def _replay(lines: list[Any]) -> ReplayResult:
    bad = next((i for i, line in enumerate(lines) if not isinstance(line, dict)), None)
    if bad is not None:
        raise RecordError(f"line {bad + 1} of the record is not a JSON object")
    if not lines or lines[0].get("type") != "spec":
        raise RecordError("not a game record: the first line is not a spec")
    try:
        spec = GameSpec.model_validate({k: v for k, v in lines[0].items() if k != "type"})
        state = GameState(spec.config(), seed=spec.seed, deck=spec.deck)
    except ValidationError as exc:
        raise RecordError(f"the record's spec is not valid: {first_error(exc)}") from None
    except ValueError as exc:
        raise RecordError(f"the record's spec is not valid: {exc}") from None
    out = ReplayResult(spec)
    produced = [ev.to_dict() for ev in state.take_events()]
    recorded: list[dict[str, Any]] = []
    result: dict[str, Any] | None = None
    step = 0
    faults: list[list[dict[str, Any]]] = [[] for _ in range(spec.players)]
    retired_seen: set[int] = set()

    def compare() -> None:
        if produced != recorded:
            where = next((i for i, (a, b) in enumerate(zip(produced, recorded, strict=False))
                          if a != b), min(len(produced), len(recorded)))
            got = produced[where] if where < len(produced) else None
            want = recorded[where] if where < len(recorded) else None
            out.mismatches.append(f"step {step}: the rules give {got}, the record has {want}")
        out.events.extend(recorded)
        produced.clear()
        recorded.clear()

    for line in lines[1:]:
        kind = line.get("type")
        if kind == "event":
            recorded.append(line["event"])
        elif kind == "apply":
            compare()
            step += 1
            if state.is_over:
                out.mismatches.append(f"step {step}: an action after the game ended")
                break
            seat = state.pending_seats()[0]
            try:
                action = action_from_dict(line["action"], seat)
                produced.extend(ev.to_dict() for ev in state.apply(action))
            except (IllegalAction, KeyError, TypeError) as exc:
                out.mismatches.append(f"step {step}: recorded action {line['action']} is "
                                      f"illegal: {exc}")
                break
        elif kind == "fault":
            faults[line["seat"]].append({k: v for k, v in line.items()
                                         if k not in ("type", "seat", "rejected")})
        elif kind == "retired":
            retired_seen.add(line["seat"])
        elif kind == "result":
            result = line
    compare()
    if not state.is_over:
        out.mismatches.append("the record ends before the game does")
    elif result is None:
        out.mismatches.append("the record has no result line")
    else:
        retired_list = result.get("retired", [])
        if not isinstance(retired_list, list):
            raise RecordError("the result's 'retired' is not a list")
        retired = [s in retired_list for s in range(spec.players)]
        # The result's own claims, against the record's lines: who retired decides the ranks.
        if sorted(retired_list) != sorted(retired_seen):
            out.mismatches.append(f"retired seats: the record's lines give "
                                  f"{sorted(retired_seen)}, its result {retired_list}")
        if "faults" in result and result["faults"] != faults:
            out.mismatches.append(f"faults: the record's lines give {faults}, its result "
                                  f"{result['faults']}")
        if result.get("money") != state.money:
            out.mismatches.append(f"final money: rules {state.money}, record {result.get('money')}")
        ranks = final_ranks(state.money, retired)
        if result.get("ranks") != ranks:
            out.mismatches.append(f"ranks: rules {ranks}, record {result.get('ranks')}")
    return out
