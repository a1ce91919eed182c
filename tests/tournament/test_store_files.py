"""A results store that is not a usable file: a named pipe, socket or device given by mistake,
a file that is no database, or a damaged one.  Every command that takes a store says so in
one `error:` line (exit 2, no traceback) that tells what to do, at once: no hang, and no
"run again to resume" where running again cannot help."""

from __future__ import annotations

import os
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from .. import in_process
from .test_user_errors import referee, refused, write_config


def commands(db: Path) -> list[list[str]]:
    """Every command that takes a store, given `db` (a shard's, which `merge` reads too)."""
    return [["tournament", "run", "t.toml", "--db", str(db), "-q", "--shard", "1/1"],
            ["replay", "--db", str(db), "t0000-d00-o00", "-q"], ["leaderboard", str(db)],
            ["report", str(db), "--out", "site"], ["tournament", "merge", str(db), "--out",
                                                   "merged.db"]]


@pytest.fixture
def unix_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        yield path


def test_a_named_pipe_socket_or_device_is_refused_at_once(tmp_path: Path,
                                                          unix_socket: Path) -> None:
    """`--db` naming a FIFO, a socket or /dev/null is refused at once by every command: no
    wait for ever (SQLite would open a FIFO and wait for a writer), no "disk I/O error", no
    "there is no store"."""
    write_config(tmp_path)
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a named pipe (FIFO)"), (unix_socket, "a socket"),
                       (Path("/dev/null"), "a character device")):
        for args in commands(path):
            # The FIFO in a process of its own, which a hang would not take the tests with.
            done = (referee(*args, cwd=tmp_path, timeout=60) if path == fifo
                    else in_process.referee(*args, cwd=tmp_path))
            refused(done, f"{path} is {kind}, not a results store; give a file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.db", "sock", "t.toml"]


def damage(db: Path, table: str) -> None:
    """Zero the first page of `table` and of its index, as a failing disk or a bad copy
    might: the file still opens, its games cannot be read."""
    with sqlite3.connect(db) as con:
        pages = [r[0] for r in con.execute(
            "SELECT rootpage FROM sqlite_master WHERE tbl_name = ?", (table,))]
        size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = bytearray(db.read_bytes())
    for page in pages:
        data[(page - 1) * size:page * size] = bytes(size)
    db.write_bytes(data)


def test_a_damaged_store_says_what_to_do(tmp_path: Path) -> None:
    """A damaged store is named as damaged, with the way out, not "the results store failed:
    ...; run again to resume", which would only fail again."""
    config = write_config(tmp_path)
    db = tmp_path / "results.db"
    out = referee("tournament", "run", str(config), "--db", str(db), "-q", "--shard", "1/1",
                  cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    damage(db, "games")
    for args in commands(db):
        refused(in_process.referee(*args, cwd=tmp_path),
                f"{db} is damaged (database disk image is malformed), which running again "
                "cannot mend: move it away (a new store plays its games again) or give another "
                "file")


def test_a_file_that_is_not_a_database_says_what_to_do(tmp_path: Path) -> None:
    write_config(tmp_path)
    db = tmp_path / "results.db"
    db.write_text("these are my notes, not a results store\n" * 100)
    before = db.read_bytes()
    for args in commands(db):
        refused(in_process.referee(*args, cwd=tmp_path),
                f"{db} is not a results store (file is not a database): move it away or give "
                "another file")
    assert db.read_bytes() == before
