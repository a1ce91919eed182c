"""The tables a sample drew (`tournament/sampling.py`), kept in the store in the order drawn,
and which of them the tournament file of the last run names: a later run draws on from
them, so that stored games are never drawn again, and the leaderboard counts the games of the
tables the file names.  A store made before samples grew has no `draws` table: it reads as
none (a run's `SCHEMA` makes it)."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence

import orjson

Table = tuple[str, ...]


def has_draws(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'draws'"
                      ).fetchone() is not None


def read_draws(db: sqlite3.Connection) -> list[Table]:
    """Every table drawn, in order."""
    if not has_draws(db):
        return []
    return [tuple(orjson.loads(row[0])) for row in
            db.execute("SELECT entrants FROM draws ORDER BY position")]


def named_keys(db: sqlite3.Connection) -> set[str] | None:
    """The keys of the tables the last run's file names; None unless that file sampled."""
    if not has_draws(db):
        return None
    keys = {row[0] for row in db.execute("SELECT key FROM draws WHERE named = 1")}
    return keys or None


def write_draws(db: sqlite3.Connection, drawn: Sequence[tuple[str, Table]],
                named: Collection[str] | None) -> None:
    """Append `drawn` ((key, table) each) after the tables drawn before, and name the tables
    whose keys are in `named` (None: the file does not sample; none is named).  Inside the
    caller's transaction."""
    start = db.execute("SELECT COALESCE(MAX(position) + 1, 0) FROM draws").fetchone()[0]
    db.executemany("INSERT INTO draws VALUES (?, ?, ?, 0)",
                   [(start + i, key, orjson.dumps(list(table)).decode())
                    for i, (key, table) in enumerate(drawn)])
    db.execute("UPDATE draws SET named = 0 WHERE named = 1")
    if named:
        db.executemany("UPDATE draws SET named = 1 WHERE key = ?", [(k,) for k in named])


def played_tables(db: sqlite3.Connection) -> list[Table]:
    """The tables of the stored games, each once, in the order their first game finished:
    the sample of a store drawn before samples grew, which a run takes over."""
    first: dict[str, Table] = {}
    for game_id, seats in db.execute("SELECT game_id, seats FROM games ORDER BY finished"):
        key = game_id.split("-", 1)[0]
        if key not in first:
            first[key] = tuple(sorted(orjson.loads(seats)))
    return list(first.values())
