"""Readable lines for a game's events, for `referee play -v` and `referee replay`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.game import Edition, Event
from referee.game.events import (
    AuctionStarted,
    AuctionWon,
    BidMade,
    CardPlayed,
    CardsDealt,
    GameEnded,
    HiddenBidsRevealed,
    MysteryDeclined,
    MysteryRevealed,
    PaintingsSold,
    Passed,
    Payment,
    PriceSet,
    RoundEnded,
    RoundStarted,
    SecondCardDeclined,
)

from .record import EventLine, FaultLine, RetiredLine, StepLine


class Transcript:
    """Turns events into one line of English each (some events give no line)."""

    def __init__(self, names: list[str], edition: Edition) -> None:
        self.names = names
        self.edition = edition

    def who(self, seat: int | None) -> str:
        """A seat's name; a seat the game has not (an edited record's) as "seat 9"."""
        if seat is None:
            return "the bank"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def card(self, card: int) -> str:
        return self.edition.card_label(card)

    def cards(self, cards: Iterable[int]) -> str:
        return " + ".join(self.card(c) for c in cards)

    def lines(self, events: Iterable[Event]) -> Iterator[str]:
        for ev in events:
            line = self.line(ev)
            if line:
                yield line

    def record(self, lines: Iterable[StepLine]) -> Iterator[str]:
        """A game record's events, and its faults and retirements where they happened: one
        line each, but a fault's whole reason (a crash's ends with the tail of the bot's
        stderr, on lines of its own, which is where a traceback says what went wrong)."""
        for line in lines:
            if isinstance(line, EventLine):
                text = self.line(line.event)
            elif isinstance(line, FaultLine):
                text = f"   ! {self.who(line.seat)}: {line.kind} fault: {line.reason}"
            elif isinstance(line, RetiredLine):
                text = f"   ! {self.who(line.seat)} is retired ({line.reason})"
            else:
                continue
            if text:
                yield text

    def line(self, ev: Event) -> str | None:
        who = self.who
        match ev:
            case RoundStarted():
                return f"== Round {ev.round}: {who(ev.first_seat)} starts =="
            case CardsDealt():
                return f"   {who(ev.seat)} is dealt {len(ev.cards)} cards"
            case CardPlayed():
                return f"{who(ev.seat)} plays {self.card(ev.card)} [{ev.count}]"
            case SecondCardDeclined():
                return f"   {who(ev.seat)} adds no second card"
            case AuctionStarted():
                lot = self.cards(ev.cards)
                if len(ev.cards) > 1:
                    lot += f" as one lot, {ev.auction_type}"
                return f"   {who(ev.auctioneer)} auctions {lot}"
            case BidMade():
                return f"   {who(ev.seat)} bids {ev.amount}"
            case Passed():
                return None if ev.forced else f"   {who(ev.seat)} passes"
            case PriceSet():
                return f"   {who(ev.seat)} sets the price at {ev.price}"
            case HiddenBidsRevealed():
                bids = ", ".join(f"{self.names[s]} {a}" for s, a in enumerate(ev.amounts))
                return f"   hidden bids: {bids}"
            case AuctionWon():
                if ev.price == 0:
                    return f"   {who(ev.winner)} takes {self.cards(ev.cards)} free"
                return f"   {who(ev.winner)} buys {self.cards(ev.cards)} for {ev.price}"
            case Payment():
                return f"   {who(ev.payer)} pays {who(ev.payee)} {ev.amount}"
            case MysteryRevealed():
                return (f"{who(ev.seat)} turns up mystery card {self.card(ev.card)} "
                        f"[{ev.count}]")
            case MysteryDeclined():
                return f"   {who(ev.seat)} leaves the mystery hand alone"
            case RoundEnded():
                artists = self.edition.artists
                ranked = ", ".join(
                    f"{artists[a]} {ev.counts[a]} card{'' if ev.counts[a] == 1 else 's'}, "
                    f"sells for {ev.values[a]}"
                    for a in ev.ranking
                )
                return f"== Round {ev.round} ends: {ranked or 'no cards played'}"
            case PaintingsSold():
                count = len(ev.cards)
                return (f"   {who(ev.seat)} sells {count} painting{'s' * (count != 1)} "
                        f"for {ev.amount}")
            case GameEnded():
                money = ", ".join(f"{n} {m}" for n, m in zip(self.names, ev.money, strict=True))
                return f"== Game over: {money}"
        return None
