"""The results store: one SQLite file per tournament, idempotent per game id.

Each finished game is one transaction holding its summary and its whole record (compressed), so
a referee killed at any moment loses at most the games it was playing, and running again plays
exactly the games that are not stored yet.  Games are added, never changed; the one removal is
`supersede`, which moves the games of an entrant whose bot changed into the `superseded` table
(kept for the record, out of the leaderboard), so that they are played again.  The store
remembers the tournament file and its fingerprint and refuses to mix in games from a file
whose schedule has changed.  Every SQL statement of the referee is in this package: `Store`
opens the file and speaks for it; most tables' statements are in modules of their own (a
game's row in `games.py`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from urllib.parse import quote

from referee.match.record import GameRecord
from referee.match.result import StoredResult

from .bound_file import BoundFile
from .draws import Table, named_keys, played_tables, read_draws, write_draws
from .entrants import (
    Entrant,
    count_run,
    read_builds,
    read_entrants,
    read_joined,
    read_versions,
    write_builds,
    write_field,
)
from .errors import StoreError
from .files import Opening, refuse_special, unshared_wal, write_protected, writer_lock
from .games import (
    count_games,
    counted_digest,
    counted_results,
    counted_start_faults,
    game_times,
    read_seatings,
    read_seeds,
    read_voids,
    stored_ids,
    stored_record,
    unpacked_record,
    write_game,
    write_void,
)
from .rounds import read_rounds, write_round
from .schema import PLAYING, SCHEMA, WITHDRAWN, Status, refuse_foreign
from .superseded import move_superseded, read_superseded, stale_game_ids, superseded_record


class Store(BoundFile):
    """A results store, open for writing (one run at a time) or for reading: its games,
    voids, draws, rounds and field, on the connection and tournament file of `BoundFile`."""

    def __init__(self, path: Path, db: sqlite3.Connection, earlier: bool,
                 lock: int | None) -> None:
        """A store open on `db`: made by `for_writing` or `for_reading`.  `earlier`: made
        by an earlier version of the referee (read, never written)."""
        super().__init__(path, db)
        self.earlier = earlier
        self._writer_lock = lock

    @classmethod
    def for_writing(cls, path: Path) -> Store:
        """Open the store at `path` for a run that writes it, or make it (a file that is
        not there, or an empty database); the run holds a lock on it until it closes it.
        Anything but a file (or a link to one) is refused first."""
        refuse_special(path)
        lock = writer_lock(path)
        with Opening(path, lock, reading=False) as opening:
            db = opening.connect(os.fspath(path), uri=False)
            earlier = refuse_foreign(db, path, empty_ok=True)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # durable against a killed process
            db.executescript(SCHEMA)
        return cls(path, db, earlier, lock)

    @classmethod
    def for_reading(cls, path: Path) -> Store:
        """Open the store at `path` for a command that only reads it; a file that is not a
        results store is refused, unchanged (it is looked at read-only), never made one.
        A store is then read through a connection that may write (never creating the
        file): the last connection to a WAL-mode store to close is the one that folds the
        -wal file into it and removes the -wal and -shm files, and a reader is often the last
        (a report made while a run ends).  Where it cannot be written (write-protected, or
        in a folder this process cannot write), it is read as it is on disk, unless a -wal
        file beside it holds games."""
        refuse_special(path)
        uri = f"file:{quote(os.fsencode(path))}"
        with Opening(path, None, reading=True) as opening:
            if write_protected(path):
                db = opening.connect(f"{uri}?mode=ro&immutable=1")
                return cls(path, db, refuse_foreign(db, path, empty_ok=False), None)
            db = opening.connect(f"{uri}?mode=ro")
            try:
                earlier = refuse_foreign(db, path, empty_ok=False)
            except sqlite3.OperationalError as exc:
                if not unshared_wal(path, exc):
                    raise
                db.close()
                db = opening.connect(f"{uri}?mode=ro&immutable=1")
                earlier = refuse_foreign(db, path, empty_ok=False)
            else:
                db.close()
                db = opening.connect(f"{uri}?mode=rw")
            return cls(path, db, earlier, None)

    def close(self) -> None:
        self.db.close()
        self._release()

    def _release(self) -> None:
        lock, self._writer_lock = self._writer_lock, None
        if lock is not None:
            os.close(lock)

    def close_and_remove_if_empty(self) -> bool:
        """Close; delete the file (and its -wal and -shm) if it holds no game and no void and
        no other connection has it open (an exclusive lock, held until the files are gone, is
        refused while one has).  For a store made by a run that was then refused.  True if
        it was deleted; a file that cannot be deleted is left as it is."""
        db = self.db
        try:
            db.execute("PRAGMA busy_timeout=0")  # in use elsewhere: keep it, without waiting
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
            db.execute("BEGIN EXCLUSIVE")
            if self.count() or self.voids():
                return False
            path = Path(os.path.realpath(self.path))  # a link's target, not the user's link
            for suffix in ("", "-wal", "-shm"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
            return True
        except (sqlite3.Error, StoreError, OSError):
            return False
        finally:
            db.close()
            self._release()

    def draws(self) -> list[Table]:
        """The tables a sample drew, in order (`draws.py`); none in a store of a schedule
        that does not sample, or made before samples grew."""
        with self.failing():
            return read_draws(self.db)

    def record_draws(self, drawn: Sequence[tuple[str, Table]],
                     named: Sequence[str] | None) -> None:
        """Keep the tables drawn now ((key, entrants) each, after those drawn before), and
        name the tables of the file's sample by their keys (None: the file does not
        sample), in one transaction."""
        if not drawn and named is None and self.named_tables() is None:
            return  # nothing drawn, nothing named: no write (a store of a round robin)
        with self.transaction():
            write_draws(self.db, drawn, None if named is None else set(named))

    def rounds(self) -> list[list[Table]]:
        """The rounds an adaptive schedule chose, in order (`rounds.py`); none otherwise."""
        with self.failing():
            return read_rounds(self.db)

    def record_round(self, number: int, tables: Sequence[Table]) -> None:
        """Keep round `number`'s tables, in one transaction."""
        with self.transaction():
            write_round(self.db, number, tables)

    def named_tables(self) -> set[str] | None:
        """The keys of the tables of the last run's sample, whose games the leaderboard
        counts; None when it played no sample (every game of the field counts)."""
        with self.failing():
            return named_keys(self.db)

    def played_tables(self) -> list[Table]:
        """The stored games' tables, each once, in the order their first game finished."""
        with self.failing():
            return played_tables(self.db)

    def done(self) -> set[str]:
        with self.failing():
            return stored_ids(self.db)

    def count(self) -> int:
        with self.failing():
            return count_games(self.db)

    def game_times(self) -> list[tuple[tuple[str, ...], float]]:
        """Each stored game's seats and seconds, in the order the games finished (`plan`'s
        pace, `pace.py`)."""
        with self.failing():
            return game_times(self.db)

    def save(self, game_id: str, seats: list[str], seed: int, result: StoredResult,
             record_jsonl: bytes, seconds: float, attempts: int,
             versions: Sequence[str | None]) -> bool:
        """Store one finished game, with the version of each seat's bot, in one transaction;
        False if it was already stored."""
        with self.failing():
            return write_game(self.db, game_id, seats, seed, result, record_jsonl, seconds,
                              attempts, versions)

    def save_void(self, game_id: str, attempt: int, reason: str) -> None:
        with self.failing():
            write_void(self.db, game_id, attempt, reason)

    def add_from(self, other: Store) -> None:
        """Copy every game and void of `other` into this store, in one transaction (for
        `tournament merge`); read through `other`'s own connection, so a failure names the
        file that failed, and a store that can only be read as it is on disk is read."""
        batch = 256  # games, read and written a batch at a time: a record can be large
        inserts = {"games": "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   "voids": "INSERT INTO voids VALUES (?, ?, ?, ?)",
                   "entrants": "INSERT OR IGNORE INTO entrants VALUES (?, ?, ?, ?)",
                   "superseded": "INSERT INTO superseded VALUES "
                                 "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   "draws": "INSERT OR IGNORE INTO draws VALUES (?, ?, ?, ?)",
                   "rounds": "INSERT OR IGNORE INTO rounds VALUES (?, ?, ?)"}
        with other.failing():
            tables = {r[0] for r in other.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        with self.failing(), self.db:
            self.db.execute("BEGIN")
            for table, insert in inserts.items():
                if table not in tables:  # a store made before it had this table
                    continue
                with other.failing():
                    rows = other.db.execute(f"SELECT * FROM {table}")
                while True:
                    with other.failing():
                        chunk = rows.fetchmany(batch)
                    if not chunk:
                        break
                    self.db.executemany(insert, chunk)

    def voids(self) -> list[tuple[str, int, str]]:
        with self.failing():
            return read_voids(self.db)

    def results(self) -> Iterator[StoredResult]:
        """The result of every stored game that counts (none of its bots withdrawn, and of a
        table the last run's sample names, if it sampled), in game id order; a row that is
        not what a run writes (a file edited or damaged by hand) is a StoreFailed naming it,
        not an error deep in a leaderboard."""
        withdrawn = set(self.entrants(WITHDRAWN))
        named = self.named_tables()
        with self.failing():
            yield from counted_results(self.db, self.path, withdrawn, named)

    def results_digest(self, game_ids: Collection[str]) -> tuple[int, str]:
        """How many of `game_ids` are stored games that count (those of `results`), and a
        digest of their results as stored: what a kept judgement of them is checked against
        (`until.look`) without reading every result, which takes seconds in a large store."""
        withdrawn = set(self.entrants(WITHDRAWN))
        named = self.named_tables()
        with self.failing():
            return counted_digest(self.db, self.path, game_ids, withdrawn, named)

    def start_faults(self) -> Iterator[tuple[tuple[str, ...], tuple[str | None, ...]]]:
        """For every stored game that counts (those of `results`, in game id order), its bots
        by seat and why each seat's start failed (its first start fault's reason; None: it
        started).  A result is read only when it holds the word "start" (a fault's kind, a
        name): most games hold no start fault, and reading every result takes seconds in a
        large store."""
        withdrawn = set(self.entrants(WITHDRAWN))
        named = self.named_tables()
        with self.failing():
            yield from counted_start_faults(self.db, self.path, withdrawn, named)

    def entrants(self, status: Status) -> dict[str, str]:
        """The entrants of the last run with this status (PLAYING, LEFT_OUT, WITHDRAWN),
        each with its reason; none in a store of an earlier version."""
        if self.earlier:
            return {}
        with self.failing():
            return read_entrants(self.db, status)

    def versions(self) -> dict[str, str | None]:
        """Each entrant's version as the store's last run recorded it (None: never built
        here); none in a store of an earlier version."""
        if self.earlier:
            return {}
        with self.failing():
            return read_versions(self.db)

    def record_field(self, entrants: Sequence[Entrant], withdrawn: Sequence[str],
                     changed: Mapping[str, str], new_run: bool = False) -> int:
        """Record a run's field in one transaction: supersede the games of the `changed`
        entrants (each with its current version, `stale_games`), write each of `entrants`,
        and mark the `withdrawn` (in the store, no longer in the file); with `new_run` (a
        run's first record of its field), count the run and the entrants playing that join
        with it (`joined`); how many games were superseded."""
        with self.transaction():
            stale = stale_game_ids(self.db, changed)
            move_superseded(self.db, stale, "changed: " + ", ".join(sorted(changed)))
            write_field(self.db, entrants, withdrawn)
            if new_run:
                count_run(self.db, [e.name for e in entrants if e.status == PLAYING])
        return len(stale)

    def joined(self) -> tuple[dict[str, int], int]:
        """The run in which each entrant first played, and the store's runs (none counted in
        a store made before they were)."""
        if self.earlier:
            return {}, 0
        with self.failing():
            return read_joined(self.db)

    def builds(self) -> dict[str, str]:
        """The digest of each entrant's folder just after its last successful build here
        (`referee.bots.build_state`); none in a store of an earlier version."""
        if self.earlier:
            return {}
        with self.failing():
            return read_builds(self.db)

    def record_builds(self, digests: Mapping[str, str | None]) -> None:
        """Keep the digests of the builds just run (None: forget the entrant's, its build
        failed or cannot be vouched for)."""
        with self.transaction():
            write_builds(self.db, digests)

    def stale_games(self, current: Mapping[str, str]) -> list[str]:
        """The stored games in which an entrant of `current` played another version than
        its current one: those a run supersedes (`plan` counts them as to play)."""
        with self.failing():
            return stale_game_ids(self.db, current)

    def seatings(self) -> dict[str, tuple[str, ...]]:
        """The bots by seat of every stored game."""
        with self.failing():
            return read_seatings(self.db)

    def take_over_reseated(self, fingerprint: str, game_ids: Sequence[str], why: str) -> None:
        """Bind the store to `fingerprint`, superseding the games `game_ids` (saying `why`),
        which the new schedule seats otherwise, in one transaction (`store_checks.py`)."""
        with self.transaction():
            move_superseded(self.db, game_ids, why)
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('fingerprint', ?)",
                            (fingerprint,))

    def seeds(self) -> dict[str, int]:
        """The deck seed of every stored game: games with one seed were dealt alike."""
        with self.failing():
            return read_seeds(self.db)

    def superseded(self) -> list[tuple[str, str]]:
        """(game id, which entrants had changed) of every superseded game, oldest first."""
        if self.earlier:
            return []
        with self.failing():
            return read_superseded(self.db)

    def record(self, game_id: str, superseded: bool = False) -> GameRecord | None:
        """The game's record (with `superseded`, that of its latest superseded version),
        None if no such game; a record that cannot be read is a DamagedRecord."""
        if superseded and self.earlier:
            return None
        with self.failing():
            if superseded:
                compressed = superseded_record(self.db, game_id)
            else:
                compressed = stored_record(self.db, game_id)
        return None if compressed is None else unpacked_record(self.path, game_id, compressed)


def open_store(path: Path, read_only: bool = False) -> Store:
    """`Store.for_reading(path)` with `read_only`, else `Store.for_writing(path)`."""
    return Store.for_reading(path) if read_only else Store.for_writing(path)


def read_stored_record(path: Path, game_id: str,
                       superseded: bool = False) -> tuple[GameRecord | None, bool]:
    """The record of one game in the store at `path`, read-only (with `superseded`, or when
    the game is only there as one, its last superseded record: played by a bot that has
    changed since), and whether it is a superseded one; None if there is no such game
    (`referee replay --db`)."""
    store = Store.for_reading(path)
    try:
        record = None if superseded else store.record(game_id)
        if record is not None:
            return record, False
        return store.record(game_id, superseded=True), True
    finally:
        store.close()
