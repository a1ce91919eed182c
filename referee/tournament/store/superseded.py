"""The games superseded since they were played: an entrant's bot changed (its games are played
again with the new version), or a new schedule seats the game otherwise.  They move from
`games` to `superseded` with when and why, kept for the record and out of the leaderboard."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping, Sequence

import orjson


def stale_game_ids(db: sqlite3.Connection, current: Mapping[str, str]) -> list[str]:
    """The stored games in which an entrant of `current` played another version than its
    current one."""
    if not current:
        return []
    stale = []
    for game_id, seats, versions in db.execute("SELECT game_id, seats, versions FROM games"):
        played = dict(zip(orjson.loads(seats), orjson.loads(versions), strict=True))
        if any(n in played and played[n] != v for n, v in current.items()):
            stale.append(game_id)
    return stale


def move_superseded(db: sqlite3.Connection, game_ids: Sequence[str], why: str) -> None:
    """Move the games `game_ids` to the superseded, saying `why`, inside the caller's
    transaction."""
    now = time.time()
    for game_id in game_ids:
        db.execute("INSERT INTO superseded SELECT *, ?, ? FROM games WHERE game_id = ?",
                   (now, why, game_id))
        db.execute("DELETE FROM games WHERE game_id = ?", (game_id,))


def read_superseded(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """(game id, why) of every superseded game, oldest first."""
    return [(r[0], r[1]) for r in db.execute(
        "SELECT game_id, why FROM superseded ORDER BY superseded, game_id")]


def superseded_record(db: sqlite3.Connection, game_id: str) -> bytes | None:
    """The compressed record of the game's latest superseded version, None if it has none."""
    row = db.execute("SELECT record FROM superseded WHERE game_id = ? "
                     "ORDER BY superseded DESC", (game_id,)).fetchone()
    return None if row is None else bytes(row[0])
