"""A bot's version: a digest of what runs, so that a result is known to belong to the code
that earned it.

The version covers the bot's command and build command and its files: every file of its
folder when it has one of its own (after its build, so the program built counts), else the
files its command names (a script beside the tournament file).  Folders that hold no code of
the bot's (NOT_HASHED) are skipped.  The folder is walked by `folder_walk.py`, as for the
build's digest (`VersionReading` is what the version makes of it), in the order the versions
stored before that walker were taken in, so that an unchanged entrant keeps its version.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from collections.abc import Collection
from pathlib import Path

from .folder_walk import LINK, Entry, read_folder, text_bytes

# Folders that hold no code of the bot, or only caches a build or a tool rewrites whatever
# changed (Go's build cache, which the Go kit keeps in its folder: a rebuild of an unchanged
# bot rewrote it, and its games were played again as a changed entrant's).  Not the Go kit's
# module path (.gopath): no build writes it, and it exists only to hold the modules a bot
# needs, downloaded once, which its build (GOPROXY=off) cannot fetch in a copy.
NOT_HASHED = frozenset({".git", "__pycache__", ".venv", ".gocache", ".mypy_cache",
                        ".pytest_cache", ".ruff_cache"})


def inside_not_hashed(real: str, root: str) -> str | None:
    """The folder of NOT_HASHED that holds `real` (a link's real target) inside the folder
    whose real path is `root`, or None."""
    inside = os.path.relpath(real, root).split(os.sep)
    if inside[0] == "..":
        return None
    return next((part for part in inside if part in NOT_HASHED), None)


def folder_digest(folder: Path, skip: Collection[str] = ()) -> str:
    """A hash of every file's path, bytes and executable bits, and of where each link leads,
    so that a change of any of them is seen: a script made executable, a link pointed
    elsewhere.  `skip`: the real paths of files left out, the run's own (`run_own`); a
    folder of them (the stderr logs') is left out with all it holds."""
    reading = VersionReading(os.path.realpath(folder))
    read_folder(str(folder), [reading], skip)
    return reading.hexdigest()


class VersionReading:
    """The version's reading of a folder walk (`folder_walk.Reading`): caches left out
    (`NOT_HASHED`); a file by its path, executable bits and bytes, one that cannot be read by
    why (the bot will fail to start and say so); a link by where it leads, and what it leads
    to hashed where it is, unless in a cache (then here, a file's bytes); folders, other
    kinds of file and folders that cannot be listed not at all.  It vouches for any folder."""

    not_hashed = NOT_HASHED

    def __init__(self, root: str) -> None:
        self.root = root  # the folder's real path
        self.h = hashlib.sha256()

    def hexdigest(self) -> str:
        return self.h.hexdigest()

    def entry(self, entry: Entry) -> bool:
        if entry.kind == LINK:
            self.h.update(text_bytes(f"{entry.rel}\0link {os.readlink(entry.path)}\0"))
            if inside_not_hashed(os.path.realpath(entry.path), self.root) and os.path.isfile(
                    entry.path):
                _file(self.h, Path(entry.path), entry.rel)
        return True

    def file_head(self, entry: Entry, st: os.stat_result) -> bool:
        self.h.update(text_bytes(f"{entry.rel}\0mode {st.st_mode & 0o111:o}\0"))
        return True

    def update(self, data: bytes) -> None:
        self.h.update(data)

    def file_end(self, entry: Entry, error: OSError | None, head: bool) -> bool:
        if error is not None:
            self.h.update(text_bytes(f"{entry.rel}\0unreadable: {error.strerror}"))
        self.h.update(b"\0")
        return True


def _file(h: hashlib._Hash, path: Path, name: str) -> None:
    try:
        with path.open("rb") as f:
            h.update(text_bytes(f"{name}\0mode {os.fstat(f.fileno()).st_mode & 0o111:o}\0"))
            while chunk := f.read(1 << 20):
                h.update(chunk)
    except OSError as exc:  # the bot will fail to start and say so
        h.update(text_bytes(f"{name}\0unreadable: {exc.strerror}"))
    h.update(b"\0")


def run_own(paths: Collection[Path]) -> frozenset[str]:
    """The real paths of the files a run reads and writes for itself (its store and the files
    SQLite keeps beside it, the tournament file, the stderr logs' folder): a bot's folder
    that holds them (`dir = "."` beside them, without the sandbox) is not a new version each
    run for them."""
    return frozenset(os.path.realpath(p) for p in paths)


def bot_version(command: str, build: str | None, cwd: Path, own_folder: bool,
                skip: Collection[str] = (), taken: str | None = None) -> str:
    """The version of a bot run by `command` in `cwd` (16 hex digits).  `own_folder`: `cwd`
    is the bot's alone, and all of it counts but `skip` (`run_own`); else only the files its
    command names.  `taken`: `cwd`'s `folder_digest` with that `skip`, if taken already (by
    the walk of its build's digest: `build_state.build_digest`'s `versions`)."""
    h = hashlib.sha256(json.dumps(["bot", command, build]).encode())
    if own_folder:
        h.update((taken or folder_digest(cwd, skip)).encode())
    else:
        for word in shlex.split(command):
            path = cwd / word
            if path.is_file():
                _file(h, path, word)
            elif path.is_dir() and word not in (".", ".."):
                h.update(text_bytes(f"{word}\0{folder_digest(path)}\0"))
    return h.hexdigest()[:16]
