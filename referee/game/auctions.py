"""The auctions (R4) and doubles (R4.5, R4.6): the half of the rules that sells a lot.

`AuctionRules` is a part of `GameState`, kept in a module of its own as the rules of selling
change for other reasons than those of turns and rounds; it reads and changes the game's state
and hands the game back to it through the hooks at its end once a lot is sold.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import IllegalAction
from .config import GameConfig
from .edition import AuctionType
from .events import (
    AuctionStarted,
    AuctionWon,
    BidMade,
    CardPlayed,
    Event,
    HiddenBidsRevealed,
    Passed,
    Payment,
    PriceSet,
    SecondCardDeclined,
)
from .phases import BID, BUY, DOUBLE, HIDDEN, OFFER, PRICE, ROUND_ENDING_COUNT, Phase


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


class AuctionRules:
    """Selling a lot: the auction's five kinds, the double's offer, the winner's payment."""

    config: GameConfig
    n: int
    card_artist: tuple[int, ...]
    card_type: tuple[AuctionType, ...]
    money: list[int]
    bank_in: int
    hands: list[list[int]]
    bought: list[list[int]]
    unsold: list[int]
    phase: Phase
    pending: int
    auction: Auction | None
    double: tuple[int, int] | None
    offer_pos: int
    events: list[Event]

    # ----------------------------------------------------------------- doubles (R4.5, R4.6)

    def _addable(self, seat: int) -> list[int]:
        """Cards `seat` may add to the double on offer: same artist, not a double (R4.5)."""
        assert self.double is not None
        artist = self.card_artist[self.double[1]]
        ca, ct = self.card_artist, self.card_type
        return [c for c in self.hands[seat] if ca[c] == artist and ct[c] is not DOUBLE]

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
            raise IllegalAction(f"card {card!r} is not in seat {seat}'s hand", "R4.5")
        if self.card_artist[card] != self.card_artist[first]:
            raise IllegalAction(
                f"card {card!r} is of artist {self.card_artist[card]}, "
                f"the double is of artist {self.card_artist[first]}",
                "R4.5",
            )
        if self.card_type[card] is DOUBLE:
            raise IllegalAction(f"card {card!r} is a double; a second double is not allowed",
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
        # A bid of 0 under a high bid of 3 (a bot's misread minimum) is below the high
        # bid before it is below 1: said so.
        if type(amount) is int and auction.high > 0 and amount <= auction.high:
            raise IllegalAction(f"bid {amount} must exceed the high bid {auction.high}", "R4")
        _check_amount(amount)
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

    # ----------------------------------------------------------------- the game's hooks

    def _count(self, card: int) -> int:
        """Count a card played for its artist this round; the new count (R5.1)."""
        raise NotImplementedError

    def _hands_empty(self) -> bool:
        raise NotImplementedError

    def _end_round(self, ender: int, final: bool = False) -> None:
        raise NotImplementedError

    def _after_auction(self, auctioneer: int, winner: int) -> None:
        raise NotImplementedError


def _check_amount(amount: object, allow_zero: bool = False) -> None:
    """R4: amounts are whole numbers of 1 k€, at least 1 (0 where 'no bid' is allowed)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise IllegalAction(f"amount {amount!r} is not a whole number", "R4")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise IllegalAction(f"amount {amount} must be at least {0 if allow_zero else 1}", "R4")
