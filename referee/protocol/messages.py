"""Protocol v1 messages as typed models (no I/O: see `codec` for bytes).

Referee to bot: `hello`, `new_game`, `event`, `request`, `warning`, `game_end`, `goodbye`.
Bot to referee: `hello` (its name) and `action` replies.  Every model forbids extra fields and
caps its sizes; `protocol/schema/*.json` is generated from these models.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.game.config import MAX_SEED

PROTOCOL_VERSION = 1

Seat = Annotated[int, Field(ge=0, le=4)]
CardId = Annotated[int, Field(ge=0, le=999)]
Money = Annotated[int, Field(ge=0, le=1_000_000)]
Name = Annotated[str, Field(min_length=1, max_length=64)]

DecisionName = Literal["play", "offer", "bid", "hidden_bid", "price", "buy", "mystery"]
ActionName = Literal["play", "offer", "bid", "price", "buy", "pass", "reveal"]


class FaultKind(enum.StrEnum):
    """What a bot did wrong: the `fault` of a warning, and of a game record and result (written
    as these strings).  Section 8 of the protocol's README says what each one is."""

    START = "start"  # no valid hello in time, or the process could not be started
    TIMEOUT = "timeout"
    MALFORMED = "malformed"
    WRONG_ID = "wrong_id"
    ILLEGAL = "illegal"
    CRASH = "crash"  # the process died, or went over a limit and was stopped
    STDERR = "stderr"  # more stderr than a game allows
    EXIT = "exit"  # the process ended between games, and a fresh one played the next


class Message(BaseModel):
    # defer_build: a model's validator is built when first used, not at import: the referee
    # validates only what bots send (BotHello, ActionReply), and building all twenty cost
    # every command's start-up about 15 ms
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


# ---------------------------------------------------------------- bot to referee


class BotHello(Message):
    """The bot's answer to `hello`: its name and the protocol version it speaks."""

    type: Literal["hello"]
    name: Name
    protocol: Annotated[int, Field(ge=PROTOCOL_VERSION, le=PROTOCOL_VERSION)]  # 1, not true


class ActionReply(Message):
    """A bot's answer to a `request`; `id` repeats the request's id.

    `card` goes with `play` and `offer`; `amount` with `bid` (a hidden bid of 0 is no bid) and
    `price`; `buy`, `pass` and `reveal` take neither.
    """

    id: Annotated[int, Field(ge=0, le=2**53)]
    action: ActionName
    # Any integer within +-2**31: one that is not a card of `legal` is illegal, not malformed.
    card: Annotated[int, Field(ge=-(2**31), le=2**31)] | None = None
    amount: Annotated[int, Field(ge=-(2**31), le=2**31)] | None = None
    type: Literal["action"] = "action"


# ---------------------------------------------------------------- referee to bot


class CardInfo(Message):
    id: CardId
    artist: Annotated[int, Field(ge=0, le=9)]
    type: Literal["open", "once-around", "hidden", "fixed-price", "double"]


class EditionInfo(Message):
    name: Name
    artists: list[Name]
    cards: list[CardInfo]


class TimeControl(Message):
    move: float  # seconds per decision
    bank: float  # seconds per game that absorb overruns


class Hello(Message):
    type: Literal["hello"]
    protocol: Literal[1]
    referee: str


class NewGame(Message):
    type: Literal["new_game"]
    game_id: str
    seat: Seat
    players: Annotated[int, Field(ge=3, le=5)]
    names: list[Name]
    edition: EditionInfo
    variants: list[Literal["split-double", "mystery", "mystery-winner", "hidden-money"]]
    time: TimeControl
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)]  # the seat's own, for its randomness


class AuctionView(Message):
    cards: list[CardId]
    type: Literal["open", "once-around", "hidden", "fixed-price", "double"]
    auctioneer: Seat
    high_bid: Money
    high_bidder: Seat | None
    price: Money | None


class DoubleView(Message):
    seat: Seat
    card: CardId


class View(Message):
    """One seat's view (RULES.md R8): all public facts and its own hand."""

    seat: Seat
    round: Annotated[int, Field(ge=1, le=4)]
    money: list[Money | None]  # None for others' money under hidden-money
    hand: list[CardId]
    hand_sizes: list[int]
    mystery_size: int
    deck_size: int
    tiles: list[list[int]]  # [round][artist]: 30, 20, 10 or 0
    played: list[int]  # cards played this round, by artist
    bought: list[list[CardId]]  # paintings bought this round, by seat
    unsold: list[CardId]  # played this round and owned by nobody
    auction: AuctionView | None
    double: DoubleView | None
    turn: Seat


class Legal(Message):
    """What is allowed: `cards` for play/offer, `min`..`max` for amounts, `price` for buy."""

    cards: list[CardId] | None = None
    min: Money | None = None
    max: Money | None = None
    price: Money | None = None
    can_pass: bool


class TimeLeft(Message):
    move: float
    bank: float


class Request(Message):
    type: Literal["request"]
    id: int
    decision: DecisionName
    view: View
    legal: Legal
    time: TimeLeft


class EventMessage(Message):
    """A game event (see the spec's event table); `private` only for one's own deal."""

    type: Literal["event"]
    event: dict[str, Any]


class Warning(Message):
    """A reply was rejected: why, and what the referee applied instead."""

    type: Literal["warning"]
    id: int
    fault: Literal[FaultKind.TIMEOUT, FaultKind.MALFORMED, FaultKind.WRONG_ID, FaultKind.ILLEGAL]
    reason: str
    applied: dict[str, Any]


class GameEnd(Message):
    type: Literal["game_end"]
    game_id: str
    money: list[Money]
    ranks: list[int]
    retired: list[Seat]


class Goodbye(Message):
    type: Literal["goodbye"]


REFEREE_MESSAGES: tuple[type[Message], ...] = (
    Hello, NewGame, EventMessage, Request, Warning, GameEnd, Goodbye,
)
BOT_MESSAGES: tuple[type[Message], ...] = (BotHello, ActionReply)
