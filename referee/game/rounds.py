"""A round's course (R2.2, R3.1, R5, R6): the deal, whose turn it is, the count of each artist's
cards played, and the round's end, which values the artists, sells the paintings and deals the
next round or ends the game.

`RoundRules` is a part of `GameState`, as `AuctionRules` is: kept in a module of its own as
scoring and dealing change for other reasons (an edition's deal sizes, tile values, how a round
ends) than the state record and the checking of each action, which stay in `state.py`.  It
reads and changes the game's state; plays and auctions call in through `_count`,
`_hands_empty`, `_start_turn` and `_end_round`.
"""

from __future__ import annotations

from .auctions import Auction
from .config import ROUNDS, TILE_VALUES, GameConfig
from .events import CardsDealt, Event, GameEnded, PaintingsSold, RoundEnded, RoundStarted
from .phases import OVER, PLAY, Phase


class RoundRules:
    """Dealing, turns, the artists' counts, and a round's and the game's end."""

    config: GameConfig
    n: int
    card_artist: tuple[int, ...]
    money: list[int]
    bank_out: int
    round: int
    tiles: list[list[int]]
    counts: list[int]
    hands: list[list[int]]
    mystery_hand: list[int]
    mystery_dealt: list[int]
    bought: list[list[int]]
    unsold: list[int]
    discard: list[int]
    deck: list[int]
    turn: int
    phase: Phase
    pending: int
    auction: Auction | None
    double: tuple[int, int] | None
    events: list[Event]
    final_ranks: tuple[int, ...]

    # ----------------------------------------------------------------- turns and counts

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

    def _count(self, card: int) -> int:
        """Count a card played for its artist this round; the new count (R5.1)."""
        artist = self.card_artist[card]
        self.counts[artist] += 1
        return self.counts[artist]

    def _hands_empty(self) -> bool:
        return not any(self.hands)

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
