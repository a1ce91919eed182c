"""Results written out by hand, as the store keeps them."""

from __future__ import annotations

from typing import Any

import orjson

from referee.match.record import StoredResult, read_result


def stored(game_id: str, names: list[str], result: dict[str, Any]) -> StoredResult:
    """A game's result from its money, ranks, retired seats and faults (as JSON values)."""
    return read_result(orjson.dumps({"game_id": game_id, "names": names, **result}))


def all_stored(results: list[tuple[str, list[str], dict[str, Any]]]) -> list[StoredResult]:
    return [stored(*r) for r in results]
