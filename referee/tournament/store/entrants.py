"""The field of a tournament's last run, one row an entrant: its version (None: never built
here), whether it played, was left out (and why) or has withdrawn (in the store, no longer in
the file).  `plan` and a run compare it with the bots as they are now.

The store also counts its runs (meta `runs`) and keeps the run in which each entrant first
played (meta `joined`), so that a board can say which entrants joined a contest late.  A store
made before they were kept counts from its next run: the entrants it holds then joined in its
first run counted, and so none of them is taken for late."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
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


def read_joined(db: sqlite3.Connection) -> tuple[dict[str, int], int]:
    """The run in which each entrant first played, and the runs counted (meta `joined`, a
    JSON object, and `runs`); none in a store made before they were kept."""
    rows = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('joined', 'runs')"))
    try:
        joined = json.loads(rows.get("joined", "{}"))
        runs = int(rows.get("runs", 0))
    except ValueError:  # edited by hand: nothing said, rather than a wrong mark
        return {}, 0
    if not isinstance(joined, dict):
        return {}, 0
    return {str(n): int(r) for n, r in joined.items() if isinstance(r, int)}, runs


def count_run(db: sqlite3.Connection, playing: Sequence[str]) -> int:
    """Count a new run, and record it as the run in which each of `playing` joined unless it
    joined before, inside the caller's transaction; the run's number.  Kept in `meta`, whose
    rows an earlier store has already: no table added (a store on a nearly full disk grew a
    page a table)."""
    joined, runs = read_joined(db)
    run = runs + 1
    for name in playing:
        joined.setdefault(name, run)
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                   [("runs", str(run)), ("joined", json.dumps(joined, sort_keys=True))])
    return run


def read_builds(db: sqlite3.Connection) -> dict[str, str]:
    """The digest of each entrant's last successful build here (meta `builds`, a JSON object);
    none in a store made before they were kept, or one edited by hand (then all build)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'builds'").fetchone()
    try:
        builds = json.loads(row[0]) if row is not None else {}
    except ValueError:
        return {}
    if not isinstance(builds, dict):
        return {}
    return {str(n): d for n, d in builds.items() if isinstance(d, str)}


def write_builds(db: sqlite3.Connection, digests: Mapping[str, str | None]) -> None:
    """Keep each entrant's digest of `digests`, forgetting those given None (a build that
    failed, or ran in a folder that cannot be vouched for), inside the caller's transaction."""
    builds = read_builds(db)
    for name, digest in digests.items():
        if digest is None:
            builds.pop(name, None)
        else:
            builds[name] = digest
    db.execute("INSERT OR REPLACE INTO meta VALUES ('builds', ?)",
               (json.dumps(builds, sort_keys=True),))
