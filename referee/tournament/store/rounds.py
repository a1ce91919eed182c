"""The rounds of an adaptive schedule (`tournament/adaptive.py`), kept in the store as each
is chosen: a later run, or the same run resumed after a kill, plays the rounds the store
holds and chooses only the rounds after them, so that no round is chosen twice and a stored
game always keeps its table.  A store made before adaptive schedules has no `rounds` table:
it reads as none (a run's `SCHEMA` makes it)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import orjson

Table = tuple[str, ...]


def read_rounds(db: sqlite3.Connection) -> list[list[Table]]:
    """Every round chosen, in order, each its tables in the order chosen."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rounds'"
                  ).fetchone() is None:
        return []
    rounds: list[list[Table]] = []
    for number, entrants in db.execute(
            "SELECT round, entrants FROM rounds ORDER BY round, position"):
        while len(rounds) <= number:
            rounds.append([])
        rounds[number].append(tuple(orjson.loads(entrants)))
    return rounds


def write_round(db: sqlite3.Connection, number: int, tables: Sequence[Table]) -> None:
    """Keep round `number`'s tables, inside the caller's transaction; a round kept before
    is left as it was (the same run resumed chooses it the same way)."""
    db.executemany("INSERT OR IGNORE INTO rounds VALUES (?, ?, ?)",
                   [(number, i, orjson.dumps(list(t)).decode())
                    for i, t in enumerate(tables)])
