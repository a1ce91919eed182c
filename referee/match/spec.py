"""A game spec: everything needed to play, and replay, one game."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from referee.bots.limits import DEFAULT_MAX_FAULTS, DEFAULT_MOVE_TIME, DEFAULT_TIME_BANK
from referee.game import BUILTIN_EDITIONS, MAX_SEED, Edition, GameConfig
from referee.game.edition import edition_from_data


class GameSpec(BaseModel):
    """Seed, edition, variants, seating and limits of one game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game_id: str
    seed: int = Field(ge=0, le=MAX_SEED)  # Python's Random ignores a seed's sign: -7 deals as 7
    names: list[str] = Field(min_length=3, max_length=5)
    edition: dict[str, Any]  # the edition's data, so user editions replay too
    variants: list[str] = []
    move_time: float = DEFAULT_MOVE_TIME
    time_bank: float = DEFAULT_TIME_BANK
    max_faults: int = DEFAULT_MAX_FAULTS
    deck: list[int] | None = None  # an explicit deck order (top first) instead of the seed's
    # The index of this seat order among those of its table and deal (a tournament's game id
    # ends in it): with the seed, what each seat's own seed is derived from (`seat_seed`).
    # 0 for a single game, and for records written before it was kept.
    order: int = Field(default=0, ge=0)

    @classmethod
    def make(
        cls,
        game_id: str,
        seed: int,
        names: list[str],
        edition: Edition | None = None,
        variants: tuple[str, ...] | list[str] = (),
        order: int = 0,
        **limits: Any,
    ) -> GameSpec:
        data = (edition or BUILTIN_EDITIONS["cmon"]).to_data()
        return cls(game_id=game_id, seed=seed, names=names, edition=data,
                   variants=list(variants), order=order, **limits)

    @property
    def players(self) -> int:
        return len(self.names)

    def seat_seed(self, seat: int) -> int:
        """The seed `seat` is sent in `new_game` for its own randomness (`seat_seed`)."""
        return seat_seed(self.seed, self.order, seat)

    def edition_obj(self) -> Edition:
        builtin = BUILTIN_EDITIONS.get(self.edition.get("name", ""))
        if builtin is not None and builtin.to_data() == self.edition:
            return builtin
        return edition_from_data(self.edition)

    def config(self) -> GameConfig:
        return GameConfig.from_variants(self.players, self.edition_obj(), tuple(self.variants))


def seat_seed(deck_seed: int, order: int, seat: int) -> int:
    """The seed a bot is given for its own randomness (`new_game`'s `seed`), 0 to 2**63-1: a
    one-way hash of the deck's seed, the seat order's index and the seat, so that it tells
    nothing of the deck, and depends on no entrant's name.  In a gauntlet the deck of a deal
    and the seating of seat order k are the same for every candidate, so each baseline gets
    the same seed in the same game of every candidate's gauntlet (common random numbers)."""
    text = json.dumps(["seat", deck_seed, order, seat], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
