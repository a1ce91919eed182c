"""The store's tables, and the check that a file holds them before anything is changed."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Literal

from .errors import StoreError

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    seats TEXT NOT NULL,        -- JSON list of bot names by seat
    seed INTEGER NOT NULL,
    result TEXT NOT NULL,       -- JSON: money, ranks, retired, faults, response times by seat
    record BLOB NOT NULL,       -- zlib-compressed JSON lines of the game record
    seconds REAL NOT NULL,      -- how long the game took
    attempts INTEGER NOT NULL,  -- 1, or more after void games were played again
    finished REAL NOT NULL,     -- unix time
    versions TEXT NOT NULL      -- JSON list of the seats' bot versions (tournament/field.py)
);
CREATE TABLE IF NOT EXISTS voids (
    game_id TEXT NOT NULL, attempt INTEGER NOT NULL, reason TEXT NOT NULL, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS entrants (
    name TEXT PRIMARY KEY,
    version TEXT,               -- the version of its last build here; NULL: none yet
    status TEXT NOT NULL,       -- 'playing', 'left out' or 'withdrawn' (tournament/field.py)
    reason TEXT NOT NULL        -- why it is left out, or ''
);
CREATE TABLE IF NOT EXISTS superseded (  -- games whose bots changed since, kept for the record
    game_id TEXT NOT NULL, seats TEXT NOT NULL, seed INTEGER NOT NULL, result TEXT NOT NULL,
    record BLOB NOT NULL, seconds REAL NOT NULL, attempts INTEGER NOT NULL,
    finished REAL NOT NULL, versions TEXT NOT NULL,
    superseded REAL NOT NULL,   -- unix time
    why TEXT NOT NULL           -- which entrants had changed, or what else
);
CREATE TABLE IF NOT EXISTS draws (  -- a sample's tables in the order drawn (store/draws.py)
    position INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,   -- the table's part of its games' ids
    entrants TEXT NOT NULL,     -- JSON list of its entrants, sorted by name
    named INTEGER NOT NULL      -- 1: the tournament file of the last run names it
);
CREATE TABLE IF NOT EXISTS rounds (  -- an adaptive schedule's rounds (store/rounds.py)
    round INTEGER NOT NULL,     -- 0, 1, ...
    position INTEGER NOT NULL,  -- the table's place in its round
    entrants TEXT NOT NULL,     -- JSON list of its entrants, sorted by name
    PRIMARY KEY (round, position)
);
"""

GAMES_COLUMNS = ["game_id", "seats", "seed", "result", "record", "seconds", "attempts",
                 "finished", "versions"]
# The games table of stores made before bot versions (0.3): read, never written.
EARLIER_GAMES_COLUMNS = GAMES_COLUMNS[:-1]
EARLIER = ("was made by an earlier version of the referee, whose game ids differ; it can "
           "still be read (leaderboard, report, replay), but a run needs another --db")

# An entrant's status in the store's last run (tournament/field.py says what each means).
Status = Literal["playing", "left out", "withdrawn"]
PLAYING: Status = "playing"
LEFT_OUT: Status = "left out"
WITHDRAWN: Status = "withdrawn"


def refuse_foreign(db: sqlite3.Connection, path: Path, empty_ok: bool) -> bool:
    """Check, before changing anything, that the file is a store (or, with `empty_ok`, a
    database without tables, to be made one): never add tables to another program's.
    Whether it is a store of an earlier version, which is read but not written."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if empty_ok and not tables:
        return False
    if not {"meta", "games", "voids"} <= tables:
        missing = sorted({"meta", "games", "voids"} - tables)
        why = ("no games tables" if not tables else "it holds other tables"
               if len(missing) == 3 else
               f"no table{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
        raise StoreError(f"{path} is not a results store ({why})")
    columns = [r[1] for r in db.execute("PRAGMA table_info(games)")]
    earlier = columns == EARLIER_GAMES_COLUMNS
    if earlier and empty_ok:  # opened to be written
        raise StoreError(f"{path} {EARLIER}")
    if columns != GAMES_COLUMNS and not earlier:
        raise StoreError(f"{path} is not a results store (another games table)")
    return earlier
