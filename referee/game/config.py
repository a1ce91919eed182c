"""The fixed facts of one game: players, edition, variants (R2, R4.7, R7, R8.2)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .edition import CMON, Edition

START_MONEY = 100  # R2.1, in units of 1 k€
# Every seed, 0 to 2**63-1: a game's (`referee play --seed`, a record's spec), a tournament
# file's master seed, and each seat's own (protocol `new_game`): one range, that every
# language's 64-bit integer holds.
MAX_SEED = 2**63 - 1
ROUNDS = 4
TILE_VALUES = (30, 20, 10)  # R5.3

# R2.2: cards dealt before rounds 1-4, by number of players.
DEAL_SCHEDULE: dict[int, tuple[int, int, int, int]] = {
    3: (10, 6, 6, 0),
    4: (9, 4, 4, 0),
    5: (8, 3, 3, 0),
}


class MysteryTrigger(enum.StrEnum):
    """Who may turn up a mystery card after an auction (R7)."""

    AUCTIONEER = "auctioneer"  # cmon rulebook: the player who ran the auction
    WINNER = "winner"  # classic rulebook: the auction's winner


VARIANTS = ("split-double", "mystery", "mystery-winner", "hidden-money")


@dataclass(frozen=True)
class GameConfig:
    players: int
    edition: Edition = CMON
    split_double: bool = False  # R4.7
    mystery: MysteryTrigger | None = None  # R7, three players only
    hidden_money: bool = False  # R8.2

    def __post_init__(self) -> None:
        if self.players not in DEAL_SCHEDULE:
            raise ValueError(f"Modern Art is for 3, 4 or 5 players, not {self.players} (R2.1)")
        if self.mystery is not None and self.players != 3:
            raise ValueError("the mystery variant is for three players only (R7)")

    @classmethod
    def from_variants(
        cls, players: int, edition: Edition = CMON, variants: tuple[str, ...] = ()
    ) -> GameConfig:
        """Build from variant names: split-double, mystery, mystery-winner, hidden-money."""
        unknown = [v for v in variants if v not in VARIANTS]
        if unknown:
            raise ValueError(f"unknown variant {unknown[0]!r}; known: {', '.join(VARIANTS)}")
        if "mystery" in variants and "mystery-winner" in variants:
            raise ValueError("variants mystery and mystery-winner exclude each other: one says "
                             "who may turn up the mystery card (R7)")
        mystery = None
        if "mystery-winner" in variants:
            mystery = MysteryTrigger.WINNER
        elif "mystery" in variants:
            mystery = MysteryTrigger.AUCTIONEER
        return cls(
            players=players,
            edition=edition,
            split_double="split-double" in variants,
            mystery=mystery,
            hidden_money="hidden-money" in variants,
        )

    @property
    def variants(self) -> tuple[str, ...]:
        out = []
        if self.split_double:
            out.append("split-double")
        if self.mystery is MysteryTrigger.AUCTIONEER:
            out.append("mystery")
        elif self.mystery is MysteryTrigger.WINNER:
            out.append("mystery-winner")
        if self.hidden_money:
            out.append("hidden-money")
        return tuple(out)

    def deal_counts(self) -> tuple[int, int, int, int]:
        """Cards per hand per round; the mystery variant deals as if for four (R7)."""
        return DEAL_SCHEDULE[4 if self.mystery else self.players]
