"""A uniformly random legal player, for playouts, benchmarks and in-process opponents.

It draws only from the `random.Random` it is given, so a seed reproduces its games.
"""

from __future__ import annotations

import random

from .actions import Action, Bid, Buy, Decision, DecisionKind, Offer, Pass, Play, Price, Reveal


def random_action(decision: Decision, rng: random.Random, max_raise: int = 12) -> Action:
    """A random legal answer to `decision`; bids stay within `max_raise` of the minimum."""
    kind = decision.kind
    seat = decision.seat
    if kind is DecisionKind.PLAY:
        return Play(seat, decision.cards[int(rng.random() * len(decision.cards))])
    if kind is DecisionKind.BID:
        if rng.random() < 0.55:
            return Pass(seat)
        low = decision.min_amount
        return Bid(seat, rng.randint(low, min(decision.max_amount, low + max_raise)))
    if kind is DecisionKind.HIDDEN_BID:
        return Bid(seat, rng.randint(0, min(decision.max_amount, 3 * max_raise)))
    if kind is DecisionKind.PRICE:
        low = decision.min_amount
        return Price(seat, rng.randint(low, max(low, min(decision.max_amount, 3 * max_raise))))
    if kind is DecisionKind.BUY:
        return Buy(seat) if rng.random() < 0.4 else Pass(seat)
    if kind is DecisionKind.OFFER:
        if rng.random() < 0.5:
            return Pass(seat)
        return Offer(seat, decision.cards[int(rng.random() * len(decision.cards))])
    return Reveal(seat) if rng.random() < 0.5 else Pass(seat)
