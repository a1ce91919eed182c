"""The results store: one SQLite file per tournament, append-only, idempotent per game id.

Each finished game is one transaction holding its summary and its whole record (compressed), so
a referee killed at any moment loses at most the games it was playing, and running again plays
exactly the games that are not stored yet.  The store remembers the tournament's fingerprint and
refuses to mix in games from a file whose schedule has changed.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import stat
import time
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import orjson

from referee.match.record import GameRecord, RecordError, StoredResult, read_record, read_result

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    seats TEXT NOT NULL,        -- JSON list of bot names by seat
    seed INTEGER NOT NULL,
    result TEXT NOT NULL,       -- JSON: money, ranks, retired, faults, response times by seat
    record BLOB NOT NULL,       -- zlib-compressed JSON lines of the game record
    seconds REAL NOT NULL,      -- how long the game took
    attempts INTEGER NOT NULL,  -- 1, or more after void games were replayed
    finished REAL NOT NULL,     -- unix time
    versions TEXT NOT NULL      -- JSON list of the seats' bot versions (field.py)
);
CREATE TABLE IF NOT EXISTS voids (
    game_id TEXT NOT NULL, attempt INTEGER NOT NULL, reason TEXT NOT NULL, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS entrants (
    name TEXT PRIMARY KEY,
    version TEXT,               -- the version of its last build here; NULL: none yet
    status TEXT NOT NULL,       -- 'playing', 'left out' or 'withdrawn' (see field.py)
    reason TEXT NOT NULL        -- why it is left out, or ''
);
CREATE TABLE IF NOT EXISTS superseded (  -- games whose bots changed since, kept for the record
    game_id TEXT NOT NULL, seats TEXT NOT NULL, seed INTEGER NOT NULL, result TEXT NOT NULL,
    record BLOB NOT NULL, seconds REAL NOT NULL, attempts INTEGER NOT NULL,
    finished REAL NOT NULL, versions TEXT NOT NULL,
    superseded REAL NOT NULL,   -- unix time
    why TEXT NOT NULL           -- which entrants had changed
);
"""


class StoreError(Exception):
    """The store cannot be used for this tournament (another file, or not a store at all)."""


class StoreFailed(StoreError):
    """The store's file failed while in use (a full disk, a locked file); every game
    committed before it is kept.  A damaged file is a DamagedStore."""


class DamagedStore(StoreError):
    """The file is not an SQLite database, or a damaged one: unlike a StoreFailed, running
    again cannot help, so the message says what to do instead."""

    @classmethod
    def of(cls, path: Path, exc: sqlite3.Error) -> DamagedStore | None:
        """The error for SQLite's `exc` on `path` if it says the file is damaged, else None."""
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF  # not there for errors of Python's
        if code == sqlite3.SQLITE_NOTADB:
            return cls(f"{path} is not a results store ({exc}): move it away or give another "
                       "file")
        if code == sqlite3.SQLITE_CORRUPT:
            return cls(f"{path} is damaged ({exc}), which running again cannot mend: move it "
                       "away (a new store plays its games again) or give another file")
        return None


class DamagedRecord(StoreFailed):
    """One game's stored record cannot be read (the file was damaged or edited)."""


# What SQLite says when a reader cannot make the files it needs beside a WAL-mode store.
CANNOT_WRITE_THERE = (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN)
GAMES_COLUMNS = ["game_id", "seats", "seed", "result", "record", "seconds", "attempts",
                 "finished", "versions"]
# The games table of stores made before bot versions (0.3): read, never written.
EARLIER_GAMES_COLUMNS = GAMES_COLUMNS[:-1]
EARLIER = ("was made by an earlier version of the referee, whose game ids differ; it can "
           "still be read (leaderboard, report, replay), but a run needs another --db")


def _writer_lock(path: Path) -> int | None:
    """An exclusive `flock` on the store's file, held while a run writes it: two runs on one
    --db would each play every game (the store stays right, the work is done twice, and both
    report every game as theirs).  Readers take none.  None where the file cannot be opened
    for it; SQLite then says what is wrong."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreError(f"{path} is being written by another run; wait for it to end, or "
                         "give another --db") from None
    except OSError:  # a file system without flock: no guard, as before
        pass
    return fd


class Store:
    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self._writer_lock: int | None = None if read_only else _writer_lock(path)
        uri = f"file:{quote(os.fsencode(path))}"
        # A write-protected store (chmod 444) in a folder that can be written: SQLite would
        # leave -shm and -wal files it cannot fold in; with no games in a -wal, it is read as
        # it is on disk, like one in a read-only folder (see _unshared_wal).
        as_on_disk = read_only and not os.access(os.path.realpath(path), os.W_OK) and \
            os.path.exists(path) and not self._unfolded_wal()
        try:
            self.db = (sqlite3.connect(f"{uri}?mode=ro{'&immutable=1' if as_on_disk else ''}",
                                       uri=True, isolation_level=None)
                       if read_only else  # explicit transactions
                       sqlite3.connect(path, isolation_level=None))
        except sqlite3.Error as exc:
            self._release()
            raise StoreError(f"cannot open {path}: {exc}") from None
        try:
            if as_on_disk:
                self._refuse_foreign(empty_ok=False)
            elif read_only:
                self._open_for_reading(uri)
            else:
                self._refuse_foreign(empty_ok=True)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")  # durable against a killed process
                self.db.executescript(SCHEMA)
        except StoreError:
            self.db.close()
            self._release()
            raise
        except sqlite3.DatabaseError as exc:
            self.db.close()
            self._release()
            code = exc.sqlite_errorcode & 0xFF
            damaged = DamagedStore.of(path, exc)
            if damaged is not None:
                raise damaged from None
            if read_only and code in CANNOT_WRITE_THERE and self._unfolded_wal():
                raise StoreFailed(
                    f"cannot open {path}: {exc}; its -wal file holds games not yet written "
                    "into it (a run was stopped, or is running): open it once where it can "
                    "be written, or copy it with its -wal file") from None
            raise StoreFailed(f"cannot open {path}: {exc}") from None  # a full disk, say

    def _refuse_foreign(self, empty_ok: bool) -> None:
        """Check, before changing anything, that the file is a store (or, with `empty_ok`, a
        database without tables, to be made one): never add tables to another program's.
        A store of an earlier version is read (`earlier`), but not written."""
        self.earlier = False
        tables = {r[0] for r in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if empty_ok and not tables:
            return
        if not {"meta", "games", "voids"} <= tables:
            missing = sorted({"meta", "games", "voids"} - tables)
            why = ("no games tables" if not tables else "it holds other tables"
                   if len(missing) == 3 else
                   f"no table{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
            raise StoreError(f"{self.path} is not a results store ({why})")
        columns = [r[1] for r in self.db.execute("PRAGMA table_info(games)")]
        self.earlier = columns == EARLIER_GAMES_COLUMNS
        if self.earlier and empty_ok:  # opened to be written
            raise StoreError(f"{self.path} {EARLIER}")
        if columns != GAMES_COLUMNS and not self.earlier:
            raise StoreError(f"{self.path} is not a results store (another games table)")

    def _open_for_reading(self, uri: str) -> None:
        """Check, through the read-only connection, that the file is a store; then read it
        through one that can tidy up (see open_store), or, where it cannot be written, as it
        is on disk (see _unshared_wal)."""
        try:
            self._refuse_foreign(empty_ok=False)
        except sqlite3.OperationalError as exc:
            if not self._unshared_wal(exc):
                raise
            self.db.close()
            self.db = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True,
                                      isolation_level=None)
            self._refuse_foreign(empty_ok=False)
        else:
            self.db.close()
            self.db = sqlite3.connect(f"{uri}?mode=rw", uri=True, isolation_level=None)

    def _unshared_wal(self, exc: sqlite3.Error) -> bool:
        """Whether reading failed only because the store lies where this process cannot
        write, so that SQLite cannot make the -shm file a reader of a WAL-mode store needs (a
        read-only share of published results).  With no -wal file beside it, or an empty
        one (beside the real file, not a link to it), no writer has it open and every game is
        in the file itself, so it can be read as it is on disk (`immutable`)."""
        return (exc.sqlite_errorcode & 0xFF) in CANNOT_WRITE_THERE and not self._unfolded_wal()

    def _unfolded_wal(self) -> bool:
        """Whether a -wal file with something in it lies beside the store's real file."""
        try:
            return os.stat(os.path.realpath(self.path) + "-wal").st_size > 0
        except OSError:
            return False

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

    @contextmanager
    def failing(self) -> Iterator[None]:
        """SQLite's errors while the store is in use, as one StoreFailed naming the file: a
        full disk ends a run with one line, not a traceback.  A damaged file (found only
        when the damaged page is read) is a DamagedStore: "run again to resume" cannot help."""
        try:
            yield
        except sqlite3.Error as exc:
            raise DamagedStore.of(self.path, exc) or StoreFailed(f"{self.path}: {exc}") from None

    def meta(self, key: str) -> str | None:
        with self.failing():
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def bind(self, name: str, fingerprint: str, config_json: str) -> None:
        """Claim a new store for this tournament, or check that it already belongs to it."""
        stored = self.meta("fingerprint")
        if stored is None:
            with self.failing(), self.db:
                self.db.execute("BEGIN")
                for key, value in (("name", name), ("fingerprint", fingerprint),
                                   ("config", config_json), ("created", str(time.time()))):
                    self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        elif stored != fingerprint:
            raise StoreError(
                f"{self.path} holds games of tournament {self.meta('name')!r} with another "
                "schedule; the tournament file (or the referee's schedule, after an upgrade) "
                "changed in a way that changes the games. Use another --db, or restore the file"
            )

    def rename(self, name: str, primary_metric: str) -> None:
        """Take the tournament file's name and primary metric, which change no game, from a
        run that resumes this store (both only say how its results are shown); its other
        settings stay those the store was made with."""
        config_text = self.meta("config")
        if config_text is None:
            return
        config = json.loads(config_text)
        if (self.meta("name"), config.get("name"), config.get("primary_metric")) == (
                name, name, primary_metric):
            return
        config.update(name=name, primary_metric=primary_metric)
        with self.failing(), self.db:
            self.db.execute("BEGIN")
            for key, value in (("name", name), ("config", json.dumps(config))):
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def bind_shard(self, shard: str | None) -> None:
        """Record which shard ("I/N") this store holds; refuse another shard's games."""
        stored = self.meta("shard")
        value = shard or "all"
        if stored is None:
            with self.failing():
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('shard', ?)", (value,))
        elif stored != value:
            raise StoreError(f"{self.path} holds shard {stored}, not {value}; use another --db")

    def done(self) -> set[str]:
        with self.failing():
            return {row[0] for row in self.db.execute("SELECT game_id FROM games")}

    def count(self) -> int:
        with self.failing():
            return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def save(self, game_id: str, seats: list[str], seed: int, result: StoredResult,
             record_jsonl: bytes, seconds: float, attempts: int,
             versions: Sequence[str | None]) -> bool:
        """Store one finished game, with the version of each seat's bot, in one transaction;
        False if it was already stored."""
        blob = zlib.compress(record_jsonl, 6)
        with self.failing():
            cur = self.db.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, orjson.dumps(seats).decode(), seed,
                 orjson.dumps(result).decode(),  # a dataclass: its fields, in their order
                 blob, seconds, attempts, time.time(), orjson.dumps(list(versions)).decode()),
            )
        return cur.rowcount == 1

    def save_void(self, game_id: str, attempt: int, reason: str) -> None:
        with self.failing():
            self.db.execute("INSERT INTO voids VALUES (?, ?, ?, ?)",
                            (game_id, attempt, reason, time.time()))

    def add_from(self, other: Store) -> None:
        """Copy every game and void of `other` into this store, in one transaction (for
        `tournament merge`); read through `other`'s own connection, so a failure names the
        file that failed, and a store that can only be read as it is on disk is read."""
        batch = 256  # games, read and written a batch at a time: a record can be large
        inserts = {"games": "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   "voids": "INSERT INTO voids VALUES (?, ?, ?, ?)",
                   "entrants": "INSERT OR IGNORE INTO entrants VALUES (?, ?, ?, ?)",
                   "superseded": "INSERT INTO superseded VALUES "
                                 "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"}
        with self.failing(), self.db:
            self.db.execute("BEGIN")
            for table, insert in inserts.items():
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
            return [(r[0], r[1], r[2]) for r in
                    self.db.execute("SELECT game_id, attempt, reason FROM voids ORDER BY at")]

    def results(self) -> Iterator[StoredResult]:
        """The result of every stored game that counts (none of its bots withdrawn), in game
        id order; a row that is not what a run writes (a file edited or damaged by hand) is a
        StoreFailed naming it, not an error deep in a leaderboard."""
        withdrawn = set(self.entrants("withdrawn"))
        with self.failing():
            for game_id, seats, result in self.db.execute(
                "SELECT game_id, seats, result FROM games ORDER BY game_id"
            ):
                checked = self._checked(game_id, seats, result)
                if not withdrawn.intersection(checked.names):
                    yield checked

    def entrants(self, status: str) -> dict[str, str]:
        """The entrants of the last run with this status ('playing', 'left out',
        'withdrawn'), each with its reason; none in a store of an earlier version."""
        if self.earlier:
            return {}
        with self.failing():
            return {name: reason for name, reason in self.db.execute(
                "SELECT name, reason FROM entrants WHERE status = ? ORDER BY name",
                (status,))}

    def seeds(self) -> dict[str, int]:
        """The deck seed of every stored game: games with one seed were dealt alike."""
        with self.failing():
            return {gid: int(seed) for gid, seed in
                    self.db.execute("SELECT game_id, seed FROM games")}

    def _checked(self, game_id: str, seats_json: str, result_json: str) -> StoredResult:
        try:
            seats = orjson.loads(seats_json)
            result = read_result(result_json)
            if (result.game_id, list(result.names)) != (game_id, seats):
                raise ValueError("its game id or names are not those of its row")
        except ValueError as exc:  # a RecordError, or orjson's error
            raise StoreFailed(f"{self.path}: the stored result of game {game_id} is damaged: "
                              f"{exc}") from None
        return result

    def superseded(self) -> list[tuple[str, str]]:
        """(game id, which entrants had changed) of every superseded game, oldest first."""
        if self.earlier:
            return []
        with self.failing():
            return [(r[0], r[1]) for r in self.db.execute(
                "SELECT game_id, why FROM superseded ORDER BY superseded, game_id")]

    def record(self, game_id: str, superseded: bool = False) -> GameRecord | None:
        """The game's record (with `superseded`, that of its latest superseded version),
        None if no such game; a record that cannot be read is a DamagedRecord."""
        query = ("SELECT record FROM superseded WHERE game_id = ? ORDER BY superseded DESC"
                 if superseded else "SELECT record FROM games WHERE game_id = ?")
        if superseded and self.earlier:
            return None
        with self.failing():
            row = self.db.execute(query, (game_id,)).fetchone()
        if row is None:
            return None
        try:
            return read_record(zlib.decompress(row[0]))
        except (zlib.error, RecordError) as exc:
            raise DamagedRecord(f"{self.path}: the stored record of game {game_id} cannot be "
                                f"read: {exc}") from None


def open_store(path: Path, read_only: bool = False) -> Store:
    """Open (or create) a store; `read_only` for commands that only read, which then refuse a
    file that is not a results store instead of turning it into one, unchanged (it is looked
    at read-only).  A store is then read through a connection that may write (never creating
    the file): the last connection to a WAL-mode store to close is the one that folds the
    -wal file into it and removes the -wal and -shm files, and a reader is often the last (a
    report made while a run ends).  Anything but a file (or a link to one) is refused first:
    SQLite would wait forever for a writer to open a named pipe."""
    kind = not_a_file(path)
    if kind is not None:
        raise StoreError(f"{path} is {kind}, not a results store; give a file")
    return Store(path, read_only)


def read_stored_record(path: Path, game_id: str,
                       superseded: bool = False) -> tuple[GameRecord | None, bool]:
    """The record of one game in the store at `path`, read-only (with `superseded`, or when
    the game is only there as one, its last superseded record: played by a bot that has
    changed since), and whether it is a superseded one; None if there is no such game
    (`referee replay --db`)."""
    store = open_store(path, read_only=True)
    try:
        record = None if superseded else store.record(game_id)
        if record is not None:
            return record, False
        return store.record(game_id, superseded=True), True
    finally:
        store.close()


def not_a_file(path: Path) -> str | None:
    """What `path` is, in words, if it exists and is not a regular file (through links)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # missing (or unreadable): opening it says what is wrong
    for test, kind in ((stat.S_ISREG, None), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return kind
    return "a special file"
