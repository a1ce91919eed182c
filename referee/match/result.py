"""A game's result: how each seat ended it, as a record's last line and a store's row hold it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from referee.validation import first_error

from .player import Fault

__all__ = ["GameResult", "RecordError", "SeatResult", "StoredResult", "read_result"]

# How a record is read: every key known, no type coerced (a JSON array may be a tuple).
STRICT = ConfigDict(extra="forbid", strict=True)


class RecordError(ValueError):
    """The record or a stored result cannot be read at all (not a game record, a malformed
    line, or cut short), or is refused (a deal that is not the one its seed deals)."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat ended a game."""

    seat: int
    name: str
    money: int
    rank: int  # 1 = best; retired seats rank below all others
    retired: bool
    faults: tuple[Fault, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResult:
    """How a game ended, by seat: the record's last line, and (as a StoredResult) the store's
    row of the game."""

    __pydantic_config__ = STRICT

    game_id: str
    names: tuple[str, ...]
    money: tuple[int, ...]
    ranks: tuple[int, ...]
    retired: tuple[int, ...]  # the retired seats
    faults: tuple[tuple[Fault, ...], ...]  # by seat

    def __post_init__(self) -> None:
        seats = len(self.names)
        for name in ("money", "ranks", "faults"):
            if len(getattr(self, name)) != seats:
                raise ValueError(f"{name}: {len(getattr(self, name))} entries for {seats} seats")

    def seat(self, seat: int) -> SeatResult:
        return SeatResult(seat, self.names[seat], self.money[seat], self.ranks[seat],
                          seat in self.retired, self.faults[seat])

    def seats(self) -> list[SeatResult]:
        return [self.seat(s) for s in range(len(self.names))]


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredResult(GameResult):
    """A game's result as the results store keeps it: with each seat's response times, a
    histogram of quarter-octave buckets of microseconds (bucket b holds times near 2**(b/4)
    us, its key the bucket's number as a string)."""

    response_us: tuple[dict[str, int], ...] = ()

    @classmethod
    def of(cls, result: GameResult, response_us: Iterable[dict[str, int]]) -> StoredResult:
        return cls(**result_fields(result), response_us=tuple(response_us))


def result_fields(result: GameResult) -> dict[str, Any]:
    """A result's own fields (those of GameResult), by name."""
    return {f.name: getattr(result, f.name) for f in dataclasses.fields(GameResult)}


@cache
def _stored_result() -> TypeAdapter[StoredResult]:
    return TypeAdapter(StoredResult)


def read_result(data: str | bytes) -> StoredResult:
    """A result as the store keeps it (JSON); RecordError says what is wrong with it."""
    try:
        return _stored_result().validate_json(data)
    except ValidationError as exc:
        raise RecordError(first_error(exc)) from None
