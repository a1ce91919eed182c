"""The game state and its one entry point, `apply` (R2-R7).

The state always knows whose decision is pending (`pending_seats`) and what is legal
(`decision`).  `apply` checks an action completely before changing anything, so an illegal
action raises `IllegalAction` and leaves the state as it was.  Every change is reported as
events, returned by `apply` (and by `take_events` for those of the first deal).

Here: the state record, the queries, the checking of each action, plays and the mystery card;
a part of the same class lives beside it for each other reason the rules change: selling a lot
(`auctions.AuctionRules`), and dealing, counting and scoring a round (`rounds.RoundRules`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import (
    Action,
    Bid,
    Buy,
    Decision,
    DecisionKind,
    HiddenBids,
    IllegalAction,
    Offer,
    Pass,
    Play,
    Price,
    Reveal,
)
from .auctions import Auction, AuctionRules
from .config import ROUNDS, START_MONEY, GameConfig, MysteryTrigger
from .events import (
    CardPlayed,
    Event,
    MysteryDeclined,
    MysteryRevealed,
    Passed,
)
from .phases import (
    BID,
    BUY,
    DOUBLE,
    HIDDEN,
    MYSTERY,
    OFFER,
    OVER,
    PLAY,
    PRICE,
    ROUND_ENDING_COUNT,
    Phase,
)
from .rounds import RoundRules

__all__ = ["Auction", "GameState", "Phase"]


class GameState(RoundRules, AuctionRules):
    """One game of Modern Art, from the first deal to the final standings."""

    def __init__(
        self,
        config: GameConfig,
        *,
        rng: random.Random | None = None,
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        hands: Sequence[Sequence[int]] | None = None,
        mystery_hand: Sequence[int] | None = None,
    ) -> None:
        """Shuffle (R2.3) from `rng` or `seed`, or take the deck order (top first) as given.

        `hands` replaces the round-1 deal (any sizes); then `deck` is the draw pile for later
        rounds, and cards in neither stay out of the game.
        """
        self.config = config
        ed = config.edition
        self.n = n = config.players
        self.card_artist = ed.card_artist
        self.card_type = ed.card_type
        self.money = [START_MONEY] * n
        self.bank_in = 0
        self.bank_out = 0
        self.round = 1
        self.tiles = [[0] * ed.n_artists for _ in range(ROUNDS)]
        self.counts = [0] * ed.n_artists
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.mystery_hand: list[int] = []
        self.mystery_dealt: list[int] = []  # every card dealt to it, turned or not (R7, D6)
        self.bought: list[list[int]] = [[] for _ in range(n)]
        self.unsold: list[int] = []  # played this round, owned by nobody
        self.discard: list[int] = []  # played in earlier rounds
        self.turn = 0  # R2.4
        self.phase = PLAY
        self.pending = 0
        self.auction: Auction | None = None
        self.double: tuple[int, int] | None = None  # (seat, card) of a double on offer
        self.offer_pos = 0
        self.events: list[Event] = []
        self.final_ranks: tuple[int, ...] = ()

        all_cards = list(range(ed.n_cards))
        given = [c for h in hands for c in h] if hands is not None else []
        given += list(mystery_hand or ())
        if deck is not None:
            pile = list(deck)
        else:
            rest = [c for c in all_cards if c not in set(given)]
            (rng or random.Random(seed or 0)).shuffle(rest)
            pile = rest
        self._check_cards(given + pile)
        used = set(given) | set(pile)
        self.box = [c for c in all_cards if c not in used]  # never dealt
        self.deck_order = tuple(pile)  # the draw pile as the game began, top first (R2.3)
        self.deck = pile[::-1]  # pop() takes the top card
        if hands is not None:
            if len(hands) != n:
                raise ValueError(f"hands must be given for {n} seats, got {len(hands)}")
            self.hands = [sorted(h) for h in hands]
            self.mystery_hand = list(mystery_hand or ())
            self.mystery_dealt = list(self.mystery_hand)
            self._begin_round(dealt=False)
        else:
            self._begin_round(dealt=True)

    def _check_cards(self, cards: list[int]) -> None:
        n_cards = self.config.edition.n_cards
        seen: set[int] = set()
        for c in cards:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < n_cards:
                raise ValueError(f"card {c!r} is not a card of this edition (0..{n_cards - 1})")
            if c in seen:
                raise ValueError(f"card {c} is given twice")
            seen.add(c)

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    def pending_seats(self) -> tuple[int, ...]:
        """Seats whose decision is awaited: one, or all of them for a hidden bid (R4.3)."""
        if self.phase is OVER:
            return ()
        if self.phase is HIDDEN:
            return tuple(range(self.n))
        return (self.pending,)

    def decision(self, seat: int) -> Decision:
        """What `seat` is asked now and what is legal for it."""
        phase = self.phase
        if phase is OVER or (phase is not HIDDEN and seat != self.pending):
            raise IllegalAction(f"seat {seat} has no decision pending", "R3")
        money = self.money[seat]
        if phase is PLAY:
            return Decision(DecisionKind.PLAY, seat, cards=tuple(self.hands[seat]))
        if phase is OFFER:
            return Decision(
                DecisionKind.OFFER, seat, cards=tuple(self._addable(seat)), can_pass=True
            )
        if phase is MYSTERY:
            return Decision(DecisionKind.MYSTERY, seat, can_pass=True)
        auction = self.auction
        assert auction is not None
        if phase is BID:
            return Decision(
                DecisionKind.BID, seat, min_amount=auction.high + 1, max_amount=money,
                can_pass=True,
            )
        if phase is HIDDEN:
            return Decision(DecisionKind.HIDDEN_BID, seat, min_amount=0, max_amount=money)
        if phase is PRICE:
            return Decision(
                DecisionKind.PRICE, seat, min_amount=1 if money > 0 else 0, max_amount=money
            )
        return Decision(DecisionKind.BUY, seat, price=auction.price, can_pass=True)

    def decisions(self) -> list[Decision]:
        return [self.decision(s) for s in self.pending_seats()]

    def default_action(self) -> Action:
        """The default for the whole pending step: what the referee plays for failed bots."""
        if self.phase is HIDDEN:
            return HiddenBids((0,) * self.n)
        return self.decision(self.pending).default_action()

    def take_events(self) -> list[Event]:
        events, self.events = self.events, []
        return events

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return its events; raise `IllegalAction` otherwise."""
        held = self.events
        self.events = []
        try:
            return self._apply(action)
        except IllegalAction:
            self.events = held  # rejected: nothing happened, nothing is lost
            raise

    def _apply(self, action: Action) -> list[Event]:
        phase = self.phase
        if phase is OVER:
            raise IllegalAction("the game is over", "R6.1")
        if isinstance(action, HiddenBids):
            if phase is not HIDDEN:
                raise IllegalAction("no hidden auction is running", "R4.3")
            self._hidden(action.amounts)
            return self.events
        seat = action.seat
        if phase is HIDDEN:
            if isinstance(action, Bid):
                raise IllegalAction("hidden bids are given all at once (HiddenBids)", "R4.3")
            raise IllegalAction(f"a hidden auction needs bids, not {_name(action)}", "R4.3")
        if seat != self.pending:
            raise IllegalAction(
                f"seat {seat} is not to act; seat {self.pending} is", _RULE_OF_PHASE[phase]
            )
        kind = type(action)
        if phase is PLAY:
            if kind is not Play:
                raise IllegalAction(f"the auctioneer must play a card, not {_name(action)}", "R3.1")
            self._play(seat, action.card)  # type: ignore[union-attr]
        elif phase is BID:
            if kind is Pass:
                self._bid_pass(seat)
            elif kind is Bid:
                self._bid(seat, action.amount)  # type: ignore[union-attr]
            else:
                raise IllegalAction(f"a bid or a pass is asked, not {_name(action)}", "R4.1")
        elif phase is OFFER:
            if kind is Pass:
                self._decline(seat)
            elif kind is Offer:
                self._offer(seat, action.card)  # type: ignore[union-attr]
            else:
                raise IllegalAction(f"add a card or pass, not {_name(action)}", "R4.5")
        elif phase is PRICE:
            if kind is not Price:
                raise IllegalAction(
                    f"the auctioneer must name a price, not {_name(action)}", "R4.4"
                )
            self._price(seat, action.amount)  # type: ignore[union-attr]
        elif phase is BUY:
            if kind is Buy:
                assert self.auction is not None
                self._settle(seat, self.auction.price)
            elif kind is Pass:
                self.events.append(Passed(seat, False))
                self.auction.pos += 1  # type: ignore[union-attr]
                self._advance_buy()
            else:
                raise IllegalAction(f"buy or pass, not {_name(action)}", "R4.4")
        elif phase is MYSTERY:
            if kind is Reveal:
                self._reveal(seat)
            elif kind is Pass:
                self.events.append(MysteryDeclined(seat))
                self._start_turn()
            else:
                raise IllegalAction(f"reveal or pass, not {_name(action)}", "R7")
        return self.events

    # ----------------------------------------------------------------- turns and plays

    def _play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        if type(card) is not int or card not in hand:
            raise IllegalAction(f"card {card!r} is not in seat {seat}'s hand", "R3.1")
        hand.remove(card)
        count = self._count(card)
        self.events.append(CardPlayed(seat, card, count))
        if count >= ROUND_ENDING_COUNT:  # R5.1
            self.unsold.append(card)
            self._end_round(seat)
        elif self._hands_empty():  # R5.6
            self.unsold.append(card)
            self._end_round(seat, final=True)
        elif self.card_type[card] is DOUBLE:  # R4.5
            self.double = (seat, card)
            self.offer_pos = 0
            self._advance_offer()
        else:
            self._start_auction((card,), self.card_type[card], seat, None)

    # ----------------------------------------------------------------- mystery (R7)

    def _after_auction(self, auctioneer: int, winner: int) -> None:
        self.turn = (auctioneer + 1) % self.n  # R3.2, R4.6
        trigger = self.config.mystery
        if trigger is not None and self.mystery_hand:
            self.phase = MYSTERY
            self.pending = auctioneer if trigger is MysteryTrigger.AUCTIONEER else winner
            self.auction = None
        else:
            self._start_turn()

    def _reveal(self, seat: int) -> None:
        card = self.mystery_hand.pop(0)
        count = self._count(card)
        self.unsold.append(card)
        self.events.append(MysteryRevealed(seat, card, count))
        if count >= ROUND_ENDING_COUNT:
            self._end_round(seat)
        else:
            self._start_turn()

    # ----------------------------------------------------------------- bookkeeping for checks

    def all_cards(self) -> list[int]:
        """Every card in every place, once each if the bookkeeping is right."""
        cards = self.deck + self.box + self.discard + self.unsold + self.mystery_hand
        for seat in range(self.n):
            cards += self.hands[seat]
            cards += self.bought[seat]
        if self.double is not None:
            cards.append(self.double[1])
        if self.auction is not None and self.phase is not MYSTERY:
            cards += self.auction.cards
        return cards

    def card_locations(self) -> dict[int, str]:
        """Where every card is; each card of the edition is in exactly one place."""
        where: dict[int, str] = {}

        def put(cards: Sequence[int], place: str) -> None:
            for c in cards:
                if c in where:
                    raise AssertionError(f"card {c} is both in {where[c]} and {place}")
                where[c] = place

        put(self.deck, "deck")
        put(self.box, "box")
        put(self.discard, "discard")
        put(self.unsold, "unsold")
        put(self.mystery_hand, "mystery hand")
        for seat in range(self.n):
            put(self.hands[seat], f"hand {seat}")
            put(self.bought[seat], f"bought {seat}")
        if self.double is not None:
            put((self.double[1],), "double on offer")
        if self.auction is not None and self.phase is not MYSTERY:
            put(self.auction.cards, "auction")
        return where


_RULE_OF_PHASE = {
    PLAY: "R3.2",
    OFFER: "R4.5",
    BID: "R4.1",
    HIDDEN: "R4.3",
    PRICE: "R4.4",
    BUY: "R4.4",
    MYSTERY: "R7",
    OVER: "R6.1",
}


def _name(action: Action) -> str:
    """An action as a bot names it in its reply: 'pass', 'bid', ..."""
    name = type(action).__name__
    return repr("hidden_bids" if name == "HiddenBids" else name.lower())

