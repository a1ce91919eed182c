"""One game record as the replay viewer's data: the steps a reader steps through.

A step is one play, bid, pass, price, reveal, sale, payment group, fault or retirement, with
its line of English (from `Transcript`) and the public events that change what the viewer
shows.  The viewer (report.js) folds the events into the board, the money and the paintings.

Only what every player could see goes in: the private deals are left out, and each seat's
hidden bid is left out until the `hidden_bids_revealed` event shows them all (the record's
`answer` lines, and the amount of a rejected bid, are not copied).
"""

from __future__ import annotations

from typing import Any

from referee.game.config import START_MONEY
from referee.match.spec import GameSpec
from referee.match.transcript import Transcript

# Events folded into the step before them instead of making a step of their own.
_MERGED = frozenset({"auction_started", "payment"})
# Where an event names the seat that acts in it.
_ACTOR_KEYS = ("seat", "winner", "auctioneer", "payer")


class RecordShapeError(ValueError):
    """The stored record lacks its spec or result line."""


def _actor(ev: dict[str, Any]) -> int | None:
    for key in _ACTOR_KEYS:
        value = ev.get(key)
        if isinstance(value, int):
            return value
    return None


def game_document(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON-ready document embedded in a game page."""
    if not lines or lines[0].get("type") != "spec" or lines[-1].get("type") != "result":
        raise RecordShapeError("the record does not start with its spec and end with its result")
    spec = GameSpec.model_validate({k: v for k, v in lines[0].items() if k != "type"})
    result = {k: v for k, v in lines[-1].items() if k != "type"}
    edition = spec.edition_obj()
    names = list(spec.names)
    transcript = Transcript(names, edition)
    steps: list[dict[str, Any]] = []

    def new_step(kind: str, seat: int | None, text: str | None = None) -> dict[str, Any]:
        step: dict[str, Any] = {"k": kind, "s": seat, "t": [text] if text else [], "e": []}
        steps.append(step)
        return step

    sealed = False  # within a hidden auction, before its bids are revealed
    held: list[dict[str, Any]] = []  # fault steps held back until the reveal
    for line in lines[1:-1]:
        kind = line.get("type")
        if kind == "event":
            ev = line["event"]
            et = ev["type"]
            if et == "cards_dealt":  # private (R8.1); hand sizes come with round_started
                continue
            text = transcript.line(ev)
            if steps and (et in _MERGED or text is None):
                step = steps[-1]
            else:
                step = new_step(et, _actor(ev))
            step["e"].append(ev)
            if text:
                step["t"].append(text.strip().strip("=").strip())
            if et == "auction_started" and ev.get("auction_type") == "hidden":
                sealed = True
            elif et == "hidden_bids_revealed":
                sealed = False
                steps.extend(held)
                held.clear()
        elif kind in ("fault", "retired"):
            seat = line["seat"]
            if kind == "fault":
                reason = str(line.get("reason", ""))
                step = new_step("fault", seat, f"{names[seat]}: {line['kind']} fault: {reason}")
                step["f"] = {"kind": line["kind"], "reason": reason}
            else:
                step = new_step("retired", seat,
                                f"{names[seat]} is retired for the rest of the game "
                                f"({line.get('reason', '')})")
            if sealed:  # a rejected hidden bid's reason names its amount: after the reveal
                held.append(steps.pop())
        # `apply` and `answer` lines add nothing a reader sees that the events do not show;
        # `answer` lines would show hidden bids before they are revealed.
    steps.extend(held)
    return {
        "game_id": spec.game_id,
        "seed": spec.seed,
        "names": names,
        "edition": edition.name,
        "variants": list(spec.variants),
        "artists": list(edition.artists),
        "card_artist": list(edition.card_artist),
        "card_type": [t.label for t in edition.card_type],
        "start_money": START_MONEY,
        "steps": [{**s, "t": " · ".join(s["t"])} for s in steps],
        "result": {
            "money": result.get("money", []),
            "ranks": result.get("ranks", []),
            "retired": result.get("retired", []),
            "faults": result.get("faults", []),
        },
    }


def fault_steps(doc: dict[str, Any]) -> dict[int, list[int]]:
    """Per seat, the index of each of its fault steps, in the order of its faults (for links
    straight to each)."""
    steps: dict[int, list[int]] = {}
    for i, step in enumerate(doc["steps"]):
        if step["k"] == "fault":
            steps.setdefault(step["s"], []).append(i)
    return steps
