"""A bot's version: a digest of what runs, so that a result is known to belong to the code
that earned it.

The version covers the bot's command and build command and its files: every file of its
folder when it has one of its own (after its build, so the program built counts), else the
files its command names (a script beside the tournament file).  Folders that hold no code of
the bot's (NOT_HASHED) are skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from collections.abc import Collection
from pathlib import Path

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
    h = hashlib.sha256()
    root = os.path.realpath(folder)
    names = skipped_names(skip)
    left_out: list[tuple[str, ...]] = []  # the skipped folders, each as its path's parts
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part in NOT_HASHED for part in rel.parts):
            continue
        if left_out and any(rel.parts[:len(parts)] == parts for parts in left_out):
            continue
        if path.name in names and os.path.realpath(path) in skip:
            if path.is_dir() and not path.is_symlink():
                left_out.append(rel.parts)
            continue
        if path.is_symlink():
            h.update(f"{rel}\0link {os.readlink(path)}\0".encode())
            if not inside_not_hashed(os.path.realpath(path), root):
                continue  # what it leads to is hashed where it is
        if not path.is_file():
            continue
        _file(h, path, str(rel))
    return h.hexdigest()


def _file(h: hashlib._Hash, path: Path, name: str) -> None:
    try:
        with path.open("rb") as f:
            h.update(f"{name}\0mode {os.fstat(f.fileno()).st_mode & 0o111:o}\0".encode())
            while chunk := f.read(1 << 20):
                h.update(chunk)
    except OSError as exc:  # the bot will fail to start and say so
        h.update(f"{name}\0unreadable: {exc.strerror}".encode())
    h.update(b"\0")


def skipped_names(skip: Collection[str]) -> frozenset[str]:
    """The file names of the real paths `skip`: only a file of one of those names is looked
    up by its real path (a lookup for every file more than doubled a folder's digest).  A
    link of another name to one of them is hashed as a link, where it leads."""
    return frozenset(os.path.basename(p) for p in skip)


def run_own(paths: Collection[Path]) -> frozenset[str]:
    """The real paths of the files a run reads and writes for itself (its store and the files
    SQLite keeps beside it, the tournament file, the stderr logs' folder): a bot's folder
    that holds them (`dir = "."` beside them, without the sandbox) is not a new version each
    run for them."""
    return frozenset(os.path.realpath(p) for p in paths)


def bot_version(command: str, build: str | None, cwd: Path, own_folder: bool,
                skip: Collection[str] = ()) -> str:
    """The version of a bot run by `command` in `cwd` (16 hex digits).  `own_folder`: `cwd`
    is the bot's alone, and all of it counts but `skip` (`run_own`); else only the files its
    command names."""
    h = hashlib.sha256(json.dumps(["bot", command, build]).encode())
    if own_folder:
        h.update(folder_digest(cwd, skip).encode())
    else:
        for word in shlex.split(command):
            path = cwd / word
            if path.is_file():
                _file(h, path, word)
            elif path.is_dir() and word not in (".", ".."):
                h.update(f"{word}\0{folder_digest(path)}\0".encode())
    return h.hexdigest()[:16]
