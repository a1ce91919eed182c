"""One seat's view of the game (R8): everything public plus its own hand, nothing else.

This is the only function that turns a state into what a player is shown, so a bot can
never be sent another seat's hand or, with `hidden-money`, another seat's money.
"""

from __future__ import annotations

from typing import Any

from .state import GameState, Phase


def seat_view(state: GameState, seat: int) -> dict[str, Any]:
    """A JSON-ready view for `seat`; other seats' money is `None` under hidden-money.

    For speed the view shares the state's own lists (it is encoded at once): read it, do not
    keep or change it.
    """
    money: list[int | None] | list[int] = state.money
    if state.config.hidden_money:
        money = [m if s == seat else None for s, m in enumerate(state.money)]
    auction = state.auction
    auction_view: dict[str, Any] | None = None
    if auction is not None and state.phase in _AUCTION_PHASES:
        auction_view = {
            "cards": list(auction.cards),
            "type": auction.kind.label,
            "auctioneer": auction.auctioneer,
            "high_bid": auction.high,
            "high_bidder": auction.high_bidder,
            "price": auction.price if state.phase is Phase.BUY else None,
        }
    double = state.double
    return {
        "seat": seat,
        "round": state.round,
        "money": money,
        "hand": state.hands[seat],
        "hand_sizes": list(map(len, state.hands)),
        "mystery_size": len(state.mystery_hand),
        "deck_size": len(state.deck),
        "tiles": state.tiles,
        "played": state.counts,
        "bought": state.bought,
        "unsold": state.unsold,
        "auction": auction_view,
        "double": None if double is None else {"seat": double[0], "card": double[1]},
        "turn": state.turn,
    }


_AUCTION_PHASES = (Phase.BID, Phase.HIDDEN, Phase.PRICE, Phase.BUY)
