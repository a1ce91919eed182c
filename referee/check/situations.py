"""What `referee check` puts a bot through: the scenarios (their decks, players, variants and
editions) and the checks each decision asked counts towards; and what is kept of one decision
(`Asked`) and of one check (`CheckResult`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from referee.game import (
    BUILTIN_EDITIONS,
    CLASSIC,
    CMON,
    AuctionType,
    DecisionKind,
    Edition,
)
from referee.game.edition import AUCTION_LABELS, edition_from_data
from referee.match.player import Fault
from referee.protocol.messages import FaultKind


@dataclass
class Asked:
    """One decision the bot was asked, in which situation, and what came of it."""

    scenario: str
    kind: DecisionKind
    auction_type: str | None
    auctioneer: bool
    fault: Fault | None
    seconds: float
    request_id: int
    own_double: bool = False
    round: int = 0
    # A play with a double and a second card of its artist in hand: the bot could have
    # played the double and been asked for the second card (see `OPTIONAL`).
    double_chance: bool = False
    seat: int = 0  # the bot's seat in its scenario


@dataclass
class CheckResult:
    name: str
    passed: bool
    reason: str
    lines: list[str] = field(default_factory=list)
    kinds: set[FaultKind] = field(default_factory=set)  # fault kinds behind a failure
    warning: bool = False  # passed, but close to failing (shown as WARN)
    # not passed because the bot was never asked it: an earlier fault stopped the check or
    # retired the bot (shown as SKIP, so that the failures that did it stand out)
    not_run: bool = False
    # one of the CHECK_COUNT checks that earn points (not "answers in time", which says why
    # the check stopped early)
    counted: bool = True

    @property
    def mark(self) -> str:
        if self.not_run:
            return "SKIP"
        return "FAIL" if not self.passed else "WARN" if self.warning else "PASS"


def has_double_chance(edition: Edition, hand: Sequence[int]) -> bool:
    """Whether `hand` holds a double and a card that could be added to it: of its artist,
    not a double (R4.5)."""
    doubles = {edition.card_artist[c] for c in hand
               if edition.card_type[c] is AuctionType.DOUBLE}
    return any(edition.card_artist[c] in doubles for c in hand
               if edition.card_type[c] is not AuctionType.DOUBLE)


def deck_with_seat_holding(kind: AuctionType, players: int, seed: int,
                           seat: int = 0) -> list[int]:
    """A cmon deck whose round-1 deal (one card to each seat in turn, seat 0 first) gives
    `seat` only cards of one auction type."""
    rng = random.Random(seed)
    wanted = [c for c in range(CMON.n_cards) if CMON.card_type[c] is kind]
    rest = [c for c in range(CMON.n_cards) if CMON.card_type[c] is not kind]
    rng.shuffle(wanted)
    rng.shuffle(rest)
    per_seat = {3: 10, 4: 9, 5: 8}[players]
    mine = wanted[:per_seat]
    pool = wanted[per_seat:] + rest
    rng.shuffle(pool)
    deck: list[int] = []
    for i in range(per_seat * players):
        deck.append(mine[i // players] if i % players == seat else pool.pop())
    return deck + pool


# A user's edition, read as an edition file is: a sixth artist and other card counts (83
# cards), so that a bot that assumes five artists or cmon's 70 cards is found out.
SIX_ARTISTS = edition_from_data({"name": "test-six", "artists": [
    {"name": name, **dict(zip(AUCTION_LABELS, counts, strict=True))} for name, counts in (
        ("Ana Six", (3, 3, 3, 2, 2)), ("Bo Six", (3, 2, 3, 3, 2)), ("Cy Six", (3, 3, 3, 3, 3)),
        ("Di Six", (3, 3, 2, 3, 3)), ("Ed Six", (2, 3, 3, 3, 3)), ("Flo Six", (3, 3, 3, 2, 3)))]})


def in_edition(edition: Edition) -> str:
    """Where a scenario is played, as a failure's reason begins."""
    if BUILTIN_EDITIONS.get(edition.name) == edition:
        return f"in the {edition.name} edition"
    return (f"in an edition with {edition.n_artists} artists and {edition.n_cards} cards "
            f"({edition.name})")


@dataclass(frozen=True)
class Scenario:
    name: str
    players: int
    variants: tuple[str, ...] = ()
    deck_type: AuctionType | None = None  # its deal gives the bot only cards of this type
    seed: int = 1
    edition: Edition = CMON
    seat: int = 0  # the bot's; the random opponents take the others

    def __post_init__(self) -> None:
        if not 0 <= self.seat < self.players:
            raise ValueError(f"scenario {self.name}: no seat {self.seat} in {self.players}")


# The bot sits elsewhere than seat 0 in most scenarios: in a tournament it sits in any seat,
# and a bot that takes seat 0's money, hand size or tiles for its own (`money[0]` for
# `money[view.seat]`) would pass every check at seat 0 alone.  In the auctioneer scenarios its
# deal holds only cards of the scenario's auction type, so the first card it plays, after the
# seats before it, runs that auction (with these seeds, in round 1).
AUCTIONEER_SEATS = {AuctionType.OPEN: 1, AuctionType.ONCE_AROUND: 3, AuctionType.HIDDEN: 2,
                    AuctionType.FIXED_PRICE: 1, AuctionType.DOUBLE: 3}
SCENARIOS = [
    *(Scenario(f"auctioneer-{t.label}", 4, deck_type=t, seed=10 + t, seat=AUCTIONEER_SEATS[t])
      for t in AuctionType),
    Scenario("four-players", 4, seed=3, seat=2),
    Scenario("three-players-mystery", 3, ("mystery", "split-double"), seed=4, seat=2),
    Scenario("five-players-hidden-money", 5, ("hidden-money",), seed=5, seat=3),
    Scenario("three-players-mystery-winner", 3, ("mystery-winner",), seed=6),
    Scenario("classic-edition", 4, ("split-double",), seed=7, edition=CLASSIC, seat=1),
    Scenario("six-artists", 5, seed=8, edition=SIX_ARTISTS, seat=4),
]
# The checks of the scenarios not in cmon: each passes when every answer in it was accepted.
EDITION_CHECKS = {
    "classic-edition": "plays the classic edition",
    "six-artists": "plays an edition with 6 artists and other card counts",
}

Predicate = Callable[[Asked], bool]
MAX_TIMEOUTS = 3  # a bot that keeps timing out would make the check take hours

# Situations a bot's own strategy can avoid: not reaching them is no failure when the bot
# chose so (its answers accepted where it could have reached them), whatever it did elsewhere.
OWN_DOUBLE = "offers or declines a second card for its own double"
OPTIONAL = {OWN_DOUBLE}
# The scenario made for a check: a failed answer there is the one shown (a bot may fail "bids
# as auctioneer in a once-around auction" first in a later round of the open scenario, yet
# the scenario that deals it once-around cards is where its author looks).
HOME = {
    "bids as auctioneer in an open auction": "auctioneer-open",
    "bids as auctioneer in a once-around auction": "auctioneer-once-around",
    "bids as auctioneer in a hidden auction": "auctioneer-hidden",
    "names a fixed price": "auctioneer-fixed-price",
    OWN_DOUBLE: "auctioneer-double",
}
# An answer that takes more than this share of the move time is a warning: a slower machine
# or a busier tournament may push it over.
SLOW_SHARE = 0.8
# Late answers that are a warning, not a failure: a loaded machine stalls a quick bot now and
# then, for a time of its own, not the bot's (a bot answering in 100 ms at a move time of
# 300 ms had 2 of 837 answers late under load, the slowest in 659 ms).  Forgiven: one late
# answer in STALLS_PER accepted ones (at least one), each late by less than the move time or
# STALL seconds, whichever is longer; a bot late more often than that, or later, fails.
STALLS_PER = 200
STALL = 1.0
MOVE_TIME_CHECK = "answers within the move time"
UNASKED_CHECK = "writes replies to requests only"


def _kind(kind: DecisionKind, auction: str | None = None,
          auctioneer: bool | None = None) -> Predicate:
    def match(a: Asked) -> bool:
        return (a.kind is kind and (auction is None or a.auction_type == auction)
                and (auctioneer is None or a.auctioneer == auctioneer))
    return match


CHECKS: list[tuple[str, Predicate]] = [
    ("plays a card as auctioneer", _kind(DecisionKind.PLAY)),
    ("bids as auctioneer in an open auction", _kind(DecisionKind.BID, "open", True)),
    ("bids as auctioneer in a once-around auction", _kind(DecisionKind.BID, "once-around", True)),
    ("bids as auctioneer in a hidden auction", _kind(DecisionKind.HIDDEN_BID, "hidden", True)),
    ("names a fixed price", _kind(DecisionKind.PRICE)),
    (OWN_DOUBLE, lambda a: a.kind is DecisionKind.OFFER and a.own_double),
    ("bids in another's open auction", _kind(DecisionKind.BID, "open", False)),
    ("bids in another's once-around auction", _kind(DecisionKind.BID, "once-around", False)),
    ("bids in another's hidden auction", _kind(DecisionKind.HIDDEN_BID, "hidden", False)),
    ("buys or passes at another's fixed price", _kind(DecisionKind.BUY)),
    ("adds or declines a second card to another's double",
     lambda a: a.kind is DecisionKind.OFFER and not a.own_double),
    ("decides on the mystery card (mystery variant)", _kind(DecisionKind.MYSTERY)),
    ("plays with 3 players", lambda a: a.scenario.startswith("three")),
    ("plays with 5 players and hidden money", lambda a: a.scenario.startswith("five")),
]
# Every check a full run reports: hello, several games, the decisions, the other editions,
# the warning, the move time and the lines that answer nothing; a bot that cannot start gets
# only the first, yet failed them all.
CHECK_COUNT = 5 + len(CHECKS) + len(EDITION_CHECKS)
