"""One game record as the game viewer's data: the steps a reader steps through.

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
from referee.game.events import AuctionStarted, CardsDealt, HiddenBidsRevealed
from referee.match.record import EventLine, FaultLine, GameRecord, RetiredLine
from referee.match.transcript import Transcript

# Events folded into the step before them instead of making a step of their own.
_MERGED = frozenset({"auction_started", "payment"})
# Where an event names the seat that acts in it.
_ACTOR_KEYS = ("seat", "winner", "auctioneer", "payer")


def _actor(ev: dict[str, Any]) -> int | None:
    for key in _ACTOR_KEYS:
        value = ev.get(key)
        if isinstance(value, int):
            return value
    return None


def game_document(record: GameRecord) -> dict[str, Any]:
    """The JSON-ready document embedded in a game page (the viewer's view of the record)."""
    spec, result = record.spec, record.result
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
    for line in record.lines:
        if isinstance(line, EventLine):
            event = line.event
            if type(event) is CardsDealt:  # private (R8.1); hand sizes come with round_started
                continue
            ev = event.to_dict()
            text = transcript.line(event)
            if steps and (event.type in _MERGED or text is None):
                step = steps[-1]
            else:
                step = new_step(event.type, _actor(ev))
            step["e"].append(ev)
            if text:
                step["t"].append(text.strip().strip("=").strip())
            if isinstance(event, AuctionStarted) and event.auction_type == "hidden":
                sealed = True
            elif isinstance(event, HiddenBidsRevealed):
                sealed = False
                steps.extend(held)
                held.clear()
        elif isinstance(line, FaultLine | RetiredLine):
            seat = line.seat
            if isinstance(line, FaultLine):
                step = new_step("fault", seat,
                                f"{names[seat]}: {line.kind} fault: {line.reason}")
                step["f"] = line.fault.to_dict()
            else:
                step = new_step("retired", seat,
                                f"{names[seat]} is retired for the rest of the game "
                                f"({line.reason})")
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
            "money": list(result.money),
            "ranks": list(result.ranks),
            "retired": list(result.retired),
            "faults": [[f.to_dict() for f in seat] for seat in result.faults],
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
