"""The rules of Modern Art, pure: no I/O, no clock, no randomness but a seeded RNG."""

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
from .config import MAX_SEED, GameConfig, MysteryTrigger
from .edition import BUILTIN_EDITIONS, CLASSIC, CMON, AuctionType, Edition, EditionError
from .events import Event
from .state import GameState, Phase
from .view import seat_view

__all__ = [
    "BUILTIN_EDITIONS",
    "CLASSIC",
    "CMON",
    "MAX_SEED",
    "Action",
    "AuctionType",
    "Bid",
    "Buy",
    "Decision",
    "DecisionKind",
    "Edition",
    "EditionError",
    "Event",
    "GameConfig",
    "GameState",
    "HiddenBids",
    "IllegalAction",
    "MysteryTrigger",
    "Offer",
    "Pass",
    "Phase",
    "Play",
    "Price",
    "Reveal",
    "seat_view",
]
