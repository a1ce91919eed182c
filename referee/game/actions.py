"""What a seat can be asked (a `Decision`) and what it can answer (an action).

A decision carries everything a player needs to answer legally: the playable or addable cards,
the lowest and highest allowed amount, the fixed price on offer.  Actions are small frozen
values; `HiddenBids` is one joint action because a hidden auction is one simultaneous step.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class DecisionKind(enum.StrEnum):
    PLAY = "play"  # R3.1: the auctioneer plays a card from hand
    OFFER = "offer"  # R4.5: add a second card to a double, or decline
    BID = "bid"  # R4.1, R4.2: bid an amount or pass
    HIDDEN_BID = "hidden_bid"  # R4.3: every seat at once, 0 means no bid
    PRICE = "price"  # R4.4: the auctioneer names a fixed price
    BUY = "buy"  # R4.4: buy at the fixed price or pass
    MYSTERY = "mystery"  # R7: turn up the mystery hand's next card, or not


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message names the rule and the numbers."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


@dataclass(slots=True, unsafe_hash=True)
class Decision:
    """One seat's pending decision and what is legal for it."""

    kind: DecisionKind
    seat: int
    cards: tuple[int, ...] = ()  # PLAY: the hand; OFFER: cards that may be added
    min_amount: int = 0  # BID: high bid + 1; HIDDEN_BID: 0; PRICE: 1 (0 when broke)
    max_amount: int = 0  # the seat's money
    price: int = 0  # BUY: the fixed price
    can_pass: bool = False

    def default_action(self) -> Action:
        """What the referee applies when a player fails to answer (its default)."""
        kind = self.kind
        if kind is DecisionKind.PLAY:
            return Play(self.seat, self.cards[0])
        if kind is DecisionKind.HIDDEN_BID:
            return Bid(self.seat, 0)
        if kind is DecisionKind.PRICE:
            return Price(self.seat, self.min_amount)
        return Pass(self.seat)


@dataclass(slots=True, unsafe_hash=True)
class Play:
    seat: int
    card: int


@dataclass(slots=True, unsafe_hash=True)
class Offer:
    """Add `card` as the second card of the double being offered."""

    seat: int
    card: int


@dataclass(slots=True, unsafe_hash=True)
class Bid:
    """A bid in an open or once-around auction, or one seat's hidden bid (0 = no bid)."""

    seat: int
    amount: int


@dataclass(slots=True, unsafe_hash=True)
class Price:
    seat: int
    amount: int


@dataclass(slots=True, unsafe_hash=True)
class Buy:
    seat: int


@dataclass(slots=True, unsafe_hash=True)
class Reveal:
    """Turn up the next card of the mystery hand (R7)."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)
class Pass:
    """Pass a bid, decline a fixed price, decline a double, or leave the mystery hand."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)
class HiddenBids:
    """Every seat's hidden bid at once, indexed by seat (R4.3)."""

    amounts: tuple[int, ...]


Action = Play | Offer | Bid | Price | Buy | Reveal | Pass | HiddenBids
