"""The field of a tournament's last run, one row an entrant: its version (None: never built
here), whether it played, was left out (and why) or has withdrawn (in the store, no longer in
the file).  `plan` and a run compare it with the bots as they are now."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from .schema import WITHDRAWN, Status


@dataclass(frozen=True)
class Entrant:
    """One entrant as a run records it: its version (None: never built here), its status and
    why it is left out (or '')."""

    name: str
    version: str | None
    status: Status
    reason: str = ""


def read_entrants(db: sqlite3.Connection, status: Status) -> dict[str, str]:
    """The entrants with this status, each with its reason."""
    return {name: reason for name, reason in db.execute(
        "SELECT name, reason FROM entrants WHERE status = ? ORDER BY name", (status,))}


def read_versions(db: sqlite3.Connection) -> dict[str, str | None]:
    """Each entrant's version (None: never built here)."""
    return {name: version for name, version in db.execute("SELECT name, version FROM entrants")}


def write_field(db: sqlite3.Connection, entrants: Sequence[Entrant],
                withdrawn: Sequence[str]) -> None:
    """Write each of `entrants` and mark the `withdrawn`, inside the caller's transaction."""
    db.executemany("INSERT OR REPLACE INTO entrants VALUES (?, ?, ?, ?)",
                   [(e.name, e.version, e.status, e.reason) for e in entrants])
    db.executemany("UPDATE entrants SET status = ?, reason = '' WHERE name = ?",
                   [(WITHDRAWN, name) for name in withdrawn])
