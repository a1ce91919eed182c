"""The `games` and `voids` tables: a finished game's row written (its record compressed) and
read back, and the results that count read with each row checked.  Apart from `store.py`,
which opens the file and hands out the field, draws and rounds: what a game's row holds and
how a damaged one is told changes with the game record, not with the store's life."""

from __future__ import annotations

import hashlib
import sqlite3
import time
import zlib
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path

import orjson

from referee.match.record import GameRecord, RecordError, read_record
from referee.match.result import StoredResult, read_result
from referee.protocol.messages import FaultKind

from .errors import DamagedRecord, StoreFailed


def write_game(db: sqlite3.Connection, game_id: str, seats: list[str], seed: int,
               result: StoredResult, record_jsonl: bytes, seconds: float, attempts: int,
               versions: Sequence[str | None]) -> bool:
    """Insert one finished game's row; False if it was already stored."""
    blob = zlib.compress(record_jsonl, 6)
    cur = db.execute(
        "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, orjson.dumps(seats).decode(), seed,
         orjson.dumps(result).decode(),  # a dataclass: its fields, in their order
         blob, seconds, attempts, time.time(), orjson.dumps(list(versions)).decode()),
    )
    return cur.rowcount == 1


def write_void(db: sqlite3.Connection, game_id: str, attempt: int, reason: str) -> None:
    db.execute("INSERT INTO voids VALUES (?, ?, ?, ?)", (game_id, attempt, reason, time.time()))


def read_voids(db: sqlite3.Connection) -> list[tuple[str, int, str]]:
    return [(r[0], r[1], r[2]) for r in
            db.execute("SELECT game_id, attempt, reason FROM voids ORDER BY at")]


def stored_ids(db: sqlite3.Connection) -> set[str]:
    return {row[0] for row in db.execute("SELECT game_id FROM games")}


def count_games(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def game_times(db: sqlite3.Connection) -> list[tuple[tuple[str, ...], float]]:
    """Each stored game's seats and seconds, in the order the games finished."""
    return [(tuple(orjson.loads(seats)), float(seconds)) for seats, seconds in
            db.execute("SELECT seats, seconds FROM games ORDER BY finished, game_id")]


def read_seatings(db: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    return {game_id: tuple(orjson.loads(seats)) for game_id, seats in
            db.execute("SELECT game_id, seats FROM games")}


def read_seeds(db: sqlite3.Connection) -> dict[str, int]:
    return {gid: int(seed) for gid, seed in db.execute("SELECT game_id, seed FROM games")}


def stored_record(db: sqlite3.Connection, game_id: str) -> bytes | None:
    """The game's compressed record, None if no such game."""
    row = db.execute("SELECT record FROM games WHERE game_id = ?", (game_id,)).fetchone()
    return None if row is None else bytes(row[0])


def unpacked_record(path: Path, game_id: str, compressed: bytes) -> GameRecord:
    """A compressed record read; one that cannot be is a DamagedRecord naming the file."""
    try:
        return read_record(zlib.decompress(compressed))
    except (zlib.error, RecordError) as exc:
        raise DamagedRecord(f"{path}: the stored record of game {game_id} cannot be "
                            f"read: {exc}") from None


def counted_results(db: sqlite3.Connection, path: Path, withdrawn: set[str],
                    named: Collection[str] | None) -> Iterator[StoredResult]:
    """The result of every stored game none of whose bots is `withdrawn`, of a table `named`
    (None: any), in game id order, each row checked (`_checked`)."""
    for game_id, seats, result in db.execute(
        "SELECT game_id, seats, result FROM games ORDER BY game_id"
    ):
        if named is not None and game_id.split("-", 1)[0] not in named:
            continue
        checked = _checked(path, game_id, seats, result)
        if not withdrawn.intersection(checked.names):
            yield checked


def counted_digest(db: sqlite3.Connection, path: Path, ids: Collection[str],
                   withdrawn: set[str],
                   named: Collection[str] | None) -> tuple[int, str]:
    """How many of `ids` are games `counted_results` reads, and a digest of their results as
    stored, without reading a result."""
    digest = hashlib.sha256()
    count = 0
    for game_id, seats, result in db.execute(
        "SELECT game_id, seats, result FROM games ORDER BY game_id"
    ):
        if game_id not in ids or (
                named is not None and game_id.split("-", 1)[0] not in named):
            continue
        if withdrawn.intersection(_names(path, game_id, seats)):
            continue
        count += 1
        digest.update(f"{game_id}\0{result}\0".encode())
    return count, digest.hexdigest()


def counted_start_faults(db: sqlite3.Connection, path: Path, withdrawn: set[str],
                         named: Collection[str] | None
                         ) -> Iterator[tuple[tuple[str, ...], tuple[str | None, ...]]]:
    """For every game `counted_results` reads, its bots by seat and each seat's first start
    fault's reason (None: it started).  SQLite hands back a result only when it holds the
    word "start" (a fault's kind, a name): most games hold no start fault, and reading every
    result takes seconds in a large store."""
    for game_id, seats, result in db.execute(
        "SELECT game_id, seats, CASE WHEN instr(result, '\"start\"') > 0 THEN result END "
        "FROM games ORDER BY game_id"
    ):
        if named is not None and game_id.split("-", 1)[0] not in named:
            continue
        if result is None:
            names = _names(path, game_id, seats)
            if not withdrawn.intersection(names):
                yield names, (None,) * len(names)
            continue
        checked = _checked(path, game_id, seats, result)
        if not withdrawn.intersection(checked.names):
            yield checked.names, tuple(
                next((f.reason for f in faults if f.kind is FaultKind.START), None)
                for faults in checked.faults)


def _names(path: Path, game_id: str, seats_json: str) -> tuple[str, ...]:
    try:
        seats = orjson.loads(seats_json)
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise ValueError("its seats are not a list of names")
    except ValueError as exc:  # orjson's error too
        raise StoreFailed(f"{path}: the stored seats of game {game_id} are damaged: "
                          f"{exc}") from None
    return tuple(seats)


def _checked(path: Path, game_id: str, seats_json: str, result_json: str) -> StoredResult:
    """A row's result read, and checked to be its row's: a row that is not what a run writes
    (a file edited or damaged by hand) is a StoreFailed naming it."""
    try:
        seats = orjson.loads(seats_json)
        result = read_result(result_json)
        if (result.game_id, list(result.names)) != (game_id, seats):
            raise ValueError("its game id or names are not those of its row")
    except ValueError as exc:  # a RecordError, or orjson's error
        raise StoreFailed(f"{path}: the stored result of game {game_id} is damaged: "
                          f"{exc}") from None
    return result
