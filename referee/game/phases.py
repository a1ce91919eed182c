"""The phases of a game, by plain names the rules compare many times a step."""

from __future__ import annotations

import enum

from .edition import AuctionType

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
# lookup through a Python-level hook, three times the cost of a global, and the rules
# look at the phase many times a step.

PLAY, OFFER, BID, HIDDEN, PRICE, BUY, MYSTERY, OVER = Phase
