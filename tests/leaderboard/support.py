"""Results written out by hand, as the store keeps them."""

from __future__ import annotations

from typing import Any

import orjson

from referee.match.result import StoredResult, read_result
from referee.tournament.config import TournamentConfig


def stored(game_id: str, names: list[str], result: dict[str, Any]) -> StoredResult:
    """A game's result from its money, ranks, retired seats and faults (as JSON values)."""
    return read_result(orjson.dumps({"game_id": game_id, "names": names, **result}))


def a_tournament(name: str = "t") -> TournamentConfig:
    """A tournament file to bind a store to, for stores filled by hand."""
    return TournamentConfig.model_validate({
        "name": name, "table_size": 3,
        "bots": [{"name": n, "command": "unused"} for n in ("a", "b", "c")]})


def all_stored(results: list[tuple[str, list[str], dict[str, Any]]]) -> list[StoredResult]:
    return [stored(*r) for r in results]
