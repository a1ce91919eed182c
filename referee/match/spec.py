"""A game spec: everything needed to play, and replay, one game."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from referee.bots.limits import DEFAULT_MAX_FAULTS, DEFAULT_MOVE_TIME, DEFAULT_TIME_BANK
from referee.game import BUILTIN_EDITIONS, Edition, GameConfig
from referee.game.edition import edition_from_data


class GameSpec(BaseModel):
    """Seed, edition, variants, seating and limits of one game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game_id: str
    seed: int = Field(ge=0)  # Python's Random ignores a seed's sign: -7 would deal as 7
    names: list[str] = Field(min_length=3, max_length=5)
    edition: dict[str, Any]  # the edition's data, so user editions replay too
    variants: list[str] = []
    move_time: float = DEFAULT_MOVE_TIME
    time_bank: float = DEFAULT_TIME_BANK
    max_faults: int = DEFAULT_MAX_FAULTS
    deck: list[int] | None = None  # an explicit deck order (top first) instead of the seed's

    @classmethod
    def make(
        cls,
        game_id: str,
        seed: int,
        names: list[str],
        edition: Edition | None = None,
        variants: tuple[str, ...] | list[str] = (),
        **limits: Any,
    ) -> GameSpec:
        data = (edition or BUILTIN_EDITIONS["cmon"]).to_data()
        return cls(game_id=game_id, seed=seed, names=names, edition=data,
                   variants=list(variants), **limits)

    @property
    def players(self) -> int:
        return len(self.names)

    def edition_obj(self) -> Edition:
        builtin = BUILTIN_EDITIONS.get(self.edition.get("name", ""))
        if builtin is not None and builtin.to_data() == self.edition:
            return builtin
        return edition_from_data(self.edition)

    def config(self) -> GameConfig:
        return GameConfig.from_variants(self.players, self.edition_obj(), tuple(self.variants))
