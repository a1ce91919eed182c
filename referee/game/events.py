"""Events: every change of state, as the players see it.

An event is public unless its `private_to` names a seat (only a seat's own deal is private,
R8.1).  The protocol forwards them to bots as `{"type": ..., fields...}` objects; the bank is
the payer or payee `None`.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(slots=True, unsafe_hash=True)
class Event:
    type: ClassVar[str] = "event"

    @property
    def private_to(self) -> int | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        """`{"type": ..., field: value, ...}` with tuples as lists, ready for JSON.

        Each event class below gets its own, written by `_make_to_dict`."""
        raise NotImplementedError


def _make_to_dict(cls: type) -> Callable[[Any], dict[str, Any]]:
    """A function written for one event class: events are made on every step of every game,
    and a generated dict literal is several times faster than a loop over the fields."""
    hints = typing.get_type_hints(cls)
    items = [f"'type': {cls.type!r}"]  # type: ignore[attr-defined]
    for f in dataclasses.fields(cls):
        tuple_field = typing.get_origin(hints[f.name]) is tuple
        items.append(f"{f.name!r}: list(e.{f.name})" if tuple_field else f"{f.name!r}: e.{f.name}")
    namespace: dict[str, Any] = {}
    exec(f"def to_dict(e):\n    return {{{', '.join(items)}}}\n", namespace)
    return namespace["to_dict"]  # type: ignore[no-any-return]


@dataclass(slots=True, unsafe_hash=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int  # 1..4
    first_seat: int  # who plays first (R2.4, R5.5)
    hand_sizes: tuple[int, ...]
    mystery_size: int  # cards in the mystery hand, 0 without the variant


@dataclass(slots=True, unsafe_hash=True)
class CardsDealt(Event):
    type: ClassVar[str] = "cards_dealt"
    seat: int
    cards: tuple[int, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(slots=True, unsafe_hash=True)
class CardPlayed(Event):
    """A card left a hand face up: to auction, as a double, or as a double's second card."""

    type: ClassVar[str] = "card_played"
    seat: int
    card: int
    count: int  # how many cards of its artist are now played this round (R5.1)


@dataclass(slots=True, unsafe_hash=True)
class SecondCardDeclined(Event):
    """A seat did not add a second card to a double (also when it had none, R4.5)."""

    type: ClassVar[str] = "second_card_declined"
    seat: int


@dataclass(slots=True, unsafe_hash=True)
class AuctionStarted(Event):
    type: ClassVar[str] = "auction_started"
    auctioneer: int
    cards: tuple[int, ...]
    auction_type: str


@dataclass(slots=True, unsafe_hash=True)
class BidMade(Event):
    type: ClassVar[str] = "bid"
    seat: int
    amount: int


@dataclass(slots=True, unsafe_hash=True)
class Passed(Event):
    """A pass; `forced` when the seat could not afford any bid or the price and was not asked."""

    type: ClassVar[str] = "pass"
    seat: int
    forced: bool


@dataclass(slots=True, unsafe_hash=True)
class PriceSet(Event):
    type: ClassVar[str] = "price_set"
    seat: int
    price: int


@dataclass(slots=True, unsafe_hash=True)
class HiddenBidsRevealed(Event):
    type: ClassVar[str] = "hidden_bids_revealed"
    amounts: tuple[int, ...]  # by seat


@dataclass(slots=True, unsafe_hash=True)
class AuctionWon(Event):
    """The cards go to `winner` for `price` (0 and the auctioneer when nobody bid)."""

    type: ClassVar[str] = "auction_won"
    winner: int
    cards: tuple[int, ...]
    price: int
    auctioneer: int


@dataclass(slots=True, unsafe_hash=True)
class Payment(Event):
    type: ClassVar[str] = "payment"
    payer: int | None  # None: the bank
    payee: int | None  # None: the bank
    amount: int


@dataclass(slots=True, unsafe_hash=True)
class MysteryRevealed(Event):
    type: ClassVar[str] = "mystery_revealed"
    seat: int
    card: int
    count: int


@dataclass(slots=True, unsafe_hash=True)
class MysteryDeclined(Event):
    """The seat asked chose not to turn up a mystery card (R7, public like every pass)."""

    type: ClassVar[str] = "mystery_declined"
    seat: int


@dataclass(slots=True, unsafe_hash=True)
class RoundEnded(Event):
    """Scoring (R5.2-R5.4): counts, the ranked artists, tiles given and painting values."""

    type: ClassVar[str] = "round_ended"
    round: int
    ender: int  # the seat that played or turned up the round-ending card
    counts: tuple[int, ...]  # by artist
    ranking: tuple[int, ...]  # artist indexes, first to third
    tiles: tuple[int, ...]  # tiles given this round, by artist
    values: tuple[int, ...]  # sale value of one painting, by artist
    unsold: tuple[int, ...]  # cards played this round that nobody owns


@dataclass(slots=True, unsafe_hash=True)
class PaintingsSold(Event):
    type: ClassVar[str] = "paintings_sold"
    seat: int
    cards: tuple[int, ...]
    amount: int


@dataclass(slots=True, unsafe_hash=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    money: tuple[int, ...]
    ranks: tuple[int, ...]  # 1 = best; tied seats share a rank (R6.1)
    winners: tuple[int, ...]


def _give_to_dicts(base: type[Event]) -> None:
    """Every event class, however derived, gets the function written for its own fields."""
    for cls in base.__subclasses__():
        cls.to_dict = _make_to_dict(cls)  # type: ignore[method-assign, assignment]
        _give_to_dicts(cls)


_give_to_dicts(Event)
