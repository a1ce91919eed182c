"""The game state and its one entry point, `apply` (R2-R7).

The state always knows whose decision is pending (`pending_seats`) and what is legal
(`decision`).  `apply` checks an action completely before changing anything, so an illegal
action raises `IllegalAction` and leaves the state as it was.  Every change is reported as
events, returned by `apply` (and by `take_events` for those of the first deal).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass

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
from .config import ROUNDS, START_MONEY, TILE_VALUES, GameConfig, MysteryTrigger
from .edition import AuctionType
from .events import (
    AuctionStarted,
    AuctionWon,
    BidMade,
    CardPlayed,
    CardsDealt,
    Event,
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

DOUBLE = AuctionType.DOUBLE
ROUND_ENDING_COUNT = 5  # R5.1


class Phase(enum.IntEnum):
    PLAY = 0
    OFFER = 1
    BID = 2
    HIDDEN = 3
    PRICE = 4
    BUY = 5
    MYSTERY = 6
    OVER = 7


# The phases by plain names: in Python 3.11 the Enum metaclass sends every class attribute
# lookup through a Python-level hook, three times the cost of a global, and the rules below
# look at the phase many times a step.
PLAY, OFFER, BID, HIDDEN, PRICE, BUY, MYSTERY, OVER = Phase

@dataclass(slots=True)
class Auction:
    """The lot on the table and the progress of its auction."""

    cards: tuple[int, ...]
    kind: AuctionType
    auctioneer: int
    partner: int | None  # the double's player when another seat added the second card
    high: int = 0
    high_bidder: int | None = None
    asking: int = 0  # open auction: the seat asked next
    passes: int = 0  # open auction: passes since the last bid
    order: tuple[int, ...] = ()  # once-around and fixed-price: who is asked, in order
    pos: int = 0
    price: int = 0


class GameState:
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

    def _addable(self, seat: int) -> list[int]:
        """Cards `seat` may add to the double on offer: same artist, not a double (R4.5)."""
        assert self.double is not None
        artist = self.card_artist[self.double[1]]
        ca, ct = self.card_artist, self.card_type
        return [c for c in self.hands[seat] if ca[c] == artist and ct[c] is not DOUBLE]

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

    def _start_turn(self) -> None:
        """R3.1: the next seat from `turn` with a card in hand plays."""
        n = self.n
        for i in range(n):
            seat = (self.turn + i) % n
            if self.hands[seat]:
                self.turn = seat
                self.phase = PLAY
                self.pending = seat
                self.auction = None
                return
        self._end_round(self.turn, final=True)  # only when a round starts with no cards at all

    def _play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        if type(card) is not int or card not in hand:
            raise IllegalAction(f"card {_card(card)} is not in seat {seat}'s hand", "R3.1")
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

    def _count(self, card: int) -> int:
        artist = self.card_artist[card]
        self.counts[artist] += 1
        return self.counts[artist]

    def _hands_empty(self) -> bool:
        return not any(self.hands)

    # ----------------------------------------------------------------- doubles (R4.5, R4.6)

    def _advance_offer(self) -> None:
        assert self.double is not None
        owner, card = self.double
        n = self.n
        while self.offer_pos < n:
            seat = (owner + self.offer_pos) % n
            if self._addable(seat):
                self.phase = OFFER
                self.pending = seat
                return
            self.events.append(SecondCardDeclined(seat))
            self.offer_pos += 1
        # Nobody added a card: the double's player takes it free.
        self.double = None
        self.auction = Auction((card,), DOUBLE, owner, None)
        self._settle(owner, 0)

    def _decline(self, seat: int) -> None:
        self.events.append(SecondCardDeclined(seat))
        self.offer_pos += 1
        self._advance_offer()

    def _offer(self, seat: int, card: int) -> None:
        assert self.double is not None
        owner, first = self.double
        if type(card) is not int or card not in self.hands[seat]:
            raise IllegalAction(f"card {_card(card)} is not in seat {seat}'s hand", "R4.5")
        if self.card_artist[card] != self.card_artist[first]:
            raise IllegalAction(
                f"card {_card(card)} is of artist {self.card_artist[card]}, "
                f"the double is of artist {self.card_artist[first]}",
                "R4.5",
            )
        if self.card_type[card] is DOUBLE:
            raise IllegalAction(f"card {_card(card)} is a double; a second double is not allowed",
                                "R4.5")
        self.hands[seat].remove(card)
        self.double = None
        count = self._count(card)
        self.events.append(CardPlayed(seat, card, count))
        if count >= ROUND_ENDING_COUNT:  # R5.1: both cards go unsold
            self.unsold += [first, card]
            self._end_round(seat)
        elif self._hands_empty():  # R5.6
            self.unsold += [first, card]
            self._end_round(seat, final=True)
        else:
            partner = owner if owner != seat else None
            self._start_auction((first, card), self.card_type[card], seat, partner)

    # ----------------------------------------------------------------- auctions (R4)

    def _start_auction(
        self, cards: tuple[int, ...], kind: AuctionType, auctioneer: int, partner: int | None
    ) -> None:
        n = self.n
        auction = self.auction = Auction(cards, kind, auctioneer, partner)
        self.events.append(AuctionStarted(auctioneer, cards, kind.label))
        if kind is AuctionType.OPEN:
            auction.asking = (auctioneer + 1) % n
            self._advance_open()
        elif kind is AuctionType.ONCE_AROUND:
            auction.order = tuple((auctioneer + i) % n for i in range(1, n + 1))
            self._advance_once()
        elif kind is AuctionType.HIDDEN:
            self.phase = HIDDEN
        else:
            self.phase = PRICE
            self.pending = auctioneer

    def _advance_open(self) -> None:
        """R4.1: ask clockwise, skipping the high bidder, until all others passed."""
        auction = self.auction
        assert auction is not None
        n = self.n
        money = self.money
        while True:
            bidder = auction.high_bidder
            if auction.passes >= (n if bidder is None else n - 1):
                self._close_bidding()
                return
            seat = auction.asking
            if seat == bidder:
                auction.asking = (seat + 1) % n
                continue
            if money[seat] <= auction.high:  # cannot bid more: passes without being asked
                self.events.append(Passed(seat, True))
                auction.passes += 1
                auction.asking = (seat + 1) % n
                continue
            self.phase = BID
            self.pending = seat
            return

    def _advance_once(self) -> None:
        """R4.2: each seat once, clockwise from the auctioneer's left, the auctioneer last."""
        auction = self.auction
        assert auction is not None
        order = auction.order
        while auction.pos < len(order):
            seat = order[auction.pos]
            if self.money[seat] <= auction.high:
                self.events.append(Passed(seat, True))
                auction.pos += 1
                continue
            self.phase = BID
            self.pending = seat
            return
        self._close_bidding()

    def _bid(self, seat: int, amount: int) -> None:
        auction = self.auction
        assert auction is not None
        _check_amount(amount)
        if amount <= auction.high:
            raise IllegalAction(f"bid {amount} must exceed the high bid {auction.high}", "R4")
        if amount > self.money[seat]:
            raise IllegalAction(
                f"bid {amount} is more than seat {seat}'s money {self.money[seat]}", "R4"
            )
        auction.high = amount
        auction.high_bidder = seat
        self.events.append(BidMade(seat, amount))
        if auction.kind is AuctionType.OPEN:
            auction.passes = 0
            auction.asking = (seat + 1) % self.n
            self._advance_open()
        else:
            auction.pos += 1
            self._advance_once()

    def _bid_pass(self, seat: int) -> None:
        auction = self.auction
        assert auction is not None
        self.events.append(Passed(seat, False))
        if auction.kind is AuctionType.OPEN:
            auction.passes += 1
            auction.asking = (seat + 1) % self.n
            self._advance_open()
        else:
            auction.pos += 1
            self._advance_once()

    def _close_bidding(self) -> None:
        auction = self.auction
        assert auction is not None
        if auction.high_bidder is None:
            self._settle(auction.auctioneer, 0)
        else:
            self._settle(auction.high_bidder, auction.high)

    def check_hidden_bid(self, seat: int, amount: object) -> None:
        """Raise `IllegalAction` unless `amount` is a legal hidden bid for `seat` (R4.3)."""
        if self.phase is not HIDDEN:
            raise IllegalAction("no hidden auction is running", "R4.3")
        _check_amount(amount, allow_zero=True)
        if amount > self.money[seat]:  # type: ignore[operator]
            raise IllegalAction(
                f"hidden bid {amount} of seat {seat} is more than its money {self.money[seat]}",
                "R4.3",
            )

    def _hidden(self, amounts: tuple[int, ...]) -> None:
        """R4.3: all bids at once; ties go to the first seat clockwise from the auctioneer."""
        auction = self.auction
        assert auction is not None
        n = self.n
        if len(amounts) != n:
            raise IllegalAction(f"hidden bids must be given for {n} seats, got {len(amounts)}",
                                "R4.3")
        for seat, amount in enumerate(amounts):
            _check_amount(amount, allow_zero=True)
            if amount > self.money[seat]:
                raise IllegalAction(
                    f"hidden bid {amount} of seat {seat} is more than its money "
                    f"{self.money[seat]}",
                    "R4.3",
                )
        self.events.append(HiddenBidsRevealed(tuple(amounts)))
        best = max(amounts)
        if best == 0:
            self._settle(auction.auctioneer, 0)
            return
        for i in range(n):
            seat = (auction.auctioneer + i) % n
            if amounts[seat] == best:
                self._settle(seat, best)
                return

    def _price(self, seat: int, amount: int) -> None:
        auction = self.auction
        assert auction is not None
        money = self.money[seat]
        _check_amount(amount, allow_zero=True)
        if amount == 0 and money > 0:
            raise IllegalAction("a fixed price must be at least 1", "R4.4")
        if amount > money:
            raise IllegalAction(f"price {amount} is more than the auctioneer's money {money}",
                                "R4.4")
        auction.price = amount
        self.events.append(PriceSet(seat, amount))
        n = self.n
        auction.order = tuple((seat + i) % n for i in range(1, n))
        auction.pos = 0
        self._advance_buy()

    def _advance_buy(self) -> None:
        auction = self.auction
        assert auction is not None
        while auction.pos < len(auction.order):
            seat = auction.order[auction.pos]
            if self.money[seat] < auction.price:
                self.events.append(Passed(seat, True))
                auction.pos += 1
                continue
            self.phase = BUY
            self.pending = seat
            return
        self._settle(auction.auctioneer, auction.price)  # R4.4: nobody bought

    def _settle(self, winner: int, price: int) -> None:
        """The winner takes the lot and pays; R4.7 splits a two-player double's proceeds."""
        auction = self.auction
        assert auction is not None
        auctioneer = auction.auctioneer
        self.bought[winner].extend(auction.cards)
        self.events.append(AuctionWon(winner, auction.cards, price, auctioneer))
        if price:
            shares: tuple[tuple[int, int], ...] = ((auctioneer, price),)
            if self.config.split_double and auction.partner is not None:
                shares = ((auctioneer, price - price // 2), (auction.partner, price // 2))
            for seller, amount in shares:
                if amount:
                    self._pay(winner, None if seller == winner else seller, amount)
        self._after_auction(auctioneer, winner)

    def _pay(self, payer: int, payee: int | None, amount: int) -> None:
        self.money[payer] -= amount
        if payee is None:
            self.bank_in += amount
        else:
            self.money[payee] += amount
        self.events.append(Payment(payer, payee, amount))

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

    # ----------------------------------------------------------------- rounds (R5, R6)

    def _begin_round(self, dealt: bool) -> None:
        if dealt:
            deals = self._deal(self.config.deal_counts()[self.round - 1])
        else:
            deals = [CardsDealt(s, tuple(h)) for s, h in enumerate(self.hands) if h]
        self.turn %= self.n
        first = self.turn
        for i in range(self.n):
            if self.hands[(self.turn + i) % self.n]:
                first = (self.turn + i) % self.n
                break
        self.events.append(
            RoundStarted(
                self.round, first, tuple(len(h) for h in self.hands), len(self.mystery_hand)
            )
        )
        self.events.extend(deals)
        self._start_turn()

    def _deal(self, count: int) -> list[CardsDealt]:
        """R2.2: deal `count` cards to each hand, one at a time, seat 0 first, mystery last."""
        new: list[list[int]] = [[] for _ in range(self.n)]
        mystery = self.config.mystery is not None
        deck = self.deck
        for _ in range(count):
            for seat in range(self.n):
                if deck:
                    new[seat].append(deck.pop())
            if mystery and deck:
                card = deck.pop()
                self.mystery_hand.append(card)
                self.mystery_dealt.append(card)
        deals = []
        for seat, cards in enumerate(new):
            if cards:
                self.hands[seat] = sorted(self.hands[seat] + cards)
                deals.append(CardsDealt(seat, tuple(cards)))
        return deals

    def _end_round(self, ender: int, final: bool = False) -> None:
        """R5.2-R5.5: rank the artists, place tiles, sell the paintings, deal the next round."""
        counts = self.counts
        ranking = sorted((a for a in range(len(counts)) if counts[a]), key=lambda a: -counts[a])
        ranking = ranking[:3]  # sorted() is stable, so ties keep board order: left wins
        row = self.tiles[self.round - 1]
        for place, artist in enumerate(ranking):
            row[artist] = TILE_VALUES[place]
        values = [
            sum(self.tiles[r][a] for r in range(self.round)) if a in ranking else 0
            for a in range(len(counts))
        ]
        self.events.append(
            RoundEnded(self.round, ender, tuple(counts), tuple(ranking), tuple(row),
                       tuple(values), tuple(self.unsold))
        )
        for seat, cards in enumerate(self.bought):
            if cards:
                amount = sum(values[self.card_artist[c]] for c in cards)
                self.money[seat] += amount
                self.bank_out += amount
                self.events.append(PaintingsSold(seat, tuple(cards), amount))
                self.discard.extend(cards)
                self.bought[seat] = []
        self.discard.extend(self.unsold)
        self.unsold = []
        self.counts = [0] * len(counts)
        self.auction = None
        self.double = None
        if final or self.round == ROUNDS or self._hands_empty():  # R6.1, R5.6
            self._end_game()
            return
        self.round += 1
        self.turn = (ender + 1) % self.n  # R5.5
        self._begin_round(dealt=True)

    def _end_game(self) -> None:
        money = self.money
        best = max(money)
        ranks = tuple(1 + sum(1 for m in money if m > mine) for mine in money)
        self.final_ranks = ranks
        self.phase = OVER
        self.events.append(
            GameEnded(tuple(money), ranks, tuple(s for s in range(self.n) if money[s] == best))
        )

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


def _card(card: object) -> str:
    return repr(card)


def _check_amount(amount: object, allow_zero: bool = False) -> None:
    """R4: amounts are whole numbers of 1 k€, at least 1 (0 where 'no bid' is allowed)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise IllegalAction(f"amount {amount!r} is not a whole number", "R4")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise IllegalAction(f"amount {amount} must be at least {0 if allow_zero else 1}", "R4")
