"""Random playouts that check the engine's invariants after every step."""

from __future__ import annotations

import random
from typing import Any

from referee.game import (
    AuctionType,
    Bid,
    Buy,
    DecisionKind,
    GameConfig,
    GameState,
    HiddenBids,
    IllegalAction,
    Offer,
    Pass,
    Phase,
    Play,
    Price,
    Reveal,
    seat_view,
)
from referee.game.actions import Action
from referee.game.random_policy import random_action

MAX_STEPS = 5_000


def snapshot(state: GameState) -> tuple[Any, ...]:
    a = state.auction
    auction = None if a is None else (a.cards, a.high, a.high_bidder, a.asking, a.passes,
                                      a.order, a.pos, a.price)
    return (
        tuple(state.money), tuple(map(tuple, state.hands)), tuple(map(tuple, state.bought)),
        tuple(state.unsold), len(state.deck), tuple(state.mystery_hand), state.phase,
        state.pending, state.turn, state.round, tuple(state.counts), auction, state.double,
        state.offer_pos, state.bank_in, state.bank_out, len(state.discard),
    )


def illegal_action(state: GameState, rng: random.Random) -> Action:
    """An action the rules forbid at this point, of a random kind."""
    n = state.n
    n_cards = state.config.edition.n_cards
    junk_amounts: list[Any] = [-1, 2.5, 10**100, True, "7", None]
    if state.phase is Phase.HIDDEN:
        amounts: list[Any] = [0] * n
        seat = rng.randrange(n)
        choice = rng.randrange(3)
        if choice == 0:
            amounts[seat] = state.money[seat] + rng.randint(1, 50)
        elif choice == 1:
            amounts[seat] = rng.choice(junk_amounts)
        else:
            return HiddenBids(tuple(amounts[:-1]))
        return HiddenBids(tuple(amounts))
    d = state.decision(state.pending)
    seat = d.seat
    if rng.random() < 0.15:
        other = (seat + rng.randrange(1, n)) % n
        return Pass(other) if d.kind is not DecisionKind.PLAY else Play(other, 0)
    kind = d.kind
    if kind is DecisionKind.PLAY:
        outside = _card_outside(state.hands[seat], n_cards, rng)
        return rng.choice([Play(seat, outside), Pass(seat), Bid(seat, 1),
                           Play(seat, float(d.cards[0])), Play(seat, -1)])  # type: ignore[arg-type]
    if kind is DecisionKind.BID:
        too_low = rng.randint(-3, d.min_amount - 1)
        return rng.choice([Bid(seat, too_low), Bid(seat, d.max_amount + rng.randint(1, 9)),
                           Bid(seat, rng.choice(junk_amounts)), Buy(seat)])
    if kind is DecisionKind.PRICE:
        bad = [Price(seat, d.max_amount + rng.randint(1, 9)), Price(seat, -2), Pass(seat),
               Price(seat, rng.choice(junk_amounts))]
        if d.min_amount == 1:
            bad.append(Price(seat, 0))
        return rng.choice(bad)
    if kind is DecisionKind.BUY:
        return rng.choice([Bid(seat, d.price), Reveal(seat), Price(seat, 1)])
    if kind is DecisionKind.OFFER:
        assert state.double is not None
        artist = state.card_artist[state.double[1]]
        wrong = [c for c in state.hands[seat]
                 if state.card_artist[c] != artist or state.card_type[c] is AuctionType.DOUBLE]
        outside = _card_outside(state.hands[seat], n_cards, rng)
        picks: list[Action] = [Offer(seat, outside), Buy(seat)]
        if wrong:
            picks.append(Offer(seat, rng.choice(wrong)))
        return rng.choice(picks)
    return rng.choice([Buy(seat), Bid(seat, 1), Play(seat, 0)])


def _card_outside(hand: list[int], n_cards: int, rng: random.Random) -> int:
    while True:
        card = int(rng.random() * n_cards)
        if card not in hand:
            return card


def check_view(state: GameState, seat: int) -> None:
    """R8.1: a view holds no card that is in another seat's hand, the deck or mystery hand."""
    view = seat_view(state, seat)
    shown = set(view["hand"])
    shown.update(view["unsold"], *view["bought"])
    if view["auction"]:
        shown.update(view["auction"]["cards"])
    if view["double"]:
        shown.add(view["double"]["card"])
    # Each secret place looked up in `shown` (a few cards), not gathered into a set of its own
    # at every step: the same verdict at a third of the cost.
    others = [state.hands[other] for other in range(state.n) if other != seat]
    if not (shown.isdisjoint(state.deck) and shown.isdisjoint(state.mystery_hand)
            and all(map(shown.isdisjoint, others))):
        secret = set(state.mystery_hand).union(state.deck, *others)
        raise AssertionError(f"seat {seat} is shown hidden cards {shown & secret}")
    assert view["hand"] == state.hands[seat]
    if state.config.hidden_money:
        assert [m is None for m in view["money"]] == [s != seat for s in range(state.n)]


def play_checked_game(config: GameConfig, seed: int, check_every: int = 1) -> GameState:
    rng = random.Random(seed)
    state = GameState(config, seed=seed)
    start_total = 100 * config.players
    n_cards = config.edition.n_cards
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        if steps % check_every == 0:
            before = snapshot(state)
            bad = illegal_action(state, rng)
            try:
                state.apply(bad)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"illegal {bad} accepted in {state.phase.name}")
            assert snapshot(state) == before, f"rejected {bad} changed the state"
            pending = state.pending_seats()
            check_view(state, pending[int(rng.random() * len(pending))])
        if state.phase is Phase.HIDDEN:
            bids = [random_action(d, rng) for d in state.decisions()]
            action: Action = HiddenBids(tuple(b.amount for b in bids))  # type: ignore[union-attr]
        else:
            action = random_action(state.decision(state.pending), rng)
        state.apply(action)  # a legal action is always accepted
        assert sum(state.money) + state.bank_in - state.bank_out == start_total
        assert min(state.money) >= 0
        cards = state.all_cards()
        if len(cards) != n_cards or len(set(cards)) != n_cards:
            state.card_locations()  # raises naming the card found in two places
            raise AssertionError(f"{len(set(cards))} distinct of {n_cards} cards are placed")
    return state
