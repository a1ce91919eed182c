"""Readable lines for a game's events, for `referee play -v` and `referee replay`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from referee.game import Edition


class Transcript:
    """Turns event dicts into one line of English each (some events give no line)."""

    def __init__(self, names: list[str], edition: Edition) -> None:
        self.names = names
        self.edition = edition

    def who(self, seat: int | None) -> str:
        return "the bank" if seat is None else self.names[seat]

    def card(self, card: int) -> str:
        return self.edition.card_label(card)

    def cards(self, cards: Iterable[int]) -> str:
        return " + ".join(self.card(c) for c in cards)

    def lines(self, events: Iterable[dict[str, Any]]) -> Iterator[str]:
        for ev in events:
            line = self.line(ev)
            if line:
                yield line

    def record(self, lines: Iterable[dict[str, Any]]) -> Iterator[str]:
        """A game record's events, and its faults and retirements where they happened."""
        for line in lines:
            kind = line["type"]
            if kind == "event":
                text = self.line(line["event"])
            elif kind == "fault":
                reason = line["reason"].splitlines()[0] if line["reason"] else ""
                text = f"   ! {self.who(line['seat'])}: {line['kind']} fault: {reason}"
            elif kind == "retired":
                text = f"   ! {self.who(line['seat'])} is retired ({line['reason']})"
            else:
                continue
            if text:
                yield text

    def line(self, ev: dict[str, Any]) -> str | None:
        t = ev["type"]
        artists = self.edition.artists
        if t == "round_started":
            return f"== Round {ev['round']}: {self.who(ev['first_seat'])} starts =="
        if t == "cards_dealt":
            return f"   {self.who(ev['seat'])} is dealt {len(ev['cards'])} cards"
        if t == "card_played":
            return f"{self.who(ev['seat'])} plays {self.card(ev['card'])} [{ev['count']}]"
        if t == "second_card_declined":
            return f"   {self.who(ev['seat'])} adds no second card"
        if t == "auction_started":
            lot = self.cards(ev["cards"])
            if len(ev["cards"]) > 1:
                lot += f" as one lot, {ev['auction_type']}"
            return f"   {self.who(ev['auctioneer'])} auctions {lot}"
        if t == "bid":
            return f"   {self.who(ev['seat'])} bids {ev['amount']}"
        if t == "pass":
            return None if ev["forced"] else f"   {self.who(ev['seat'])} passes"
        if t == "price_set":
            return f"   {self.who(ev['seat'])} sets the price at {ev['price']}"
        if t == "hidden_bids_revealed":
            bids = ", ".join(f"{self.names[s]} {a}" for s, a in enumerate(ev["amounts"]))
            return f"   hidden bids: {bids}"
        if t == "auction_won":
            if ev["price"] == 0:
                return f"   {self.who(ev['winner'])} takes {self.cards(ev['cards'])} free"
            return (f"   {self.who(ev['winner'])} buys {self.cards(ev['cards'])} "
                    f"for {ev['price']}")
        if t == "payment":
            return f"   {self.who(ev['payer'])} pays {self.who(ev['payee'])} {ev['amount']}"
        if t == "mystery_revealed":
            return (f"{self.who(ev['seat'])} turns up mystery card {self.card(ev['card'])} "
                    f"[{ev['count']}]")
        if t == "mystery_declined":
            return f"   {self.who(ev['seat'])} leaves the mystery hand alone"
        if t == "round_ended":
            ranked = ", ".join(
                f"{artists[a]} {ev['counts'][a]} cards, sells for {ev['values'][a]}"
                for a in ev["ranking"]
            )
            return f"== Round {ev['round']} ends: {ranked or 'no cards played'}"
        if t == "paintings_sold":
            count = len(ev["cards"])
            return (f"   {self.who(ev['seat'])} sells {count} painting{'s' * (count != 1)} "
                    f"for {ev['amount']}")
        if t == "game_ended":
            money = ", ".join(f"{n} {m}" for n, m in zip(self.names, ev["money"], strict=True))
            return f"== Game over: {money}"
        return None
