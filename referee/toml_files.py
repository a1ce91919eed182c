"""Every TOML file a user gives (a tournament or grading file, a `bot.toml`, an edition file),
read the one way: only a regular file, its size bounded, UTF-8, too deep a nesting an error,
and every problem one line (`TomlFileError`), as for every other bad input.

`tomllib` recurses once per level of nesting: about 500 nested `[` raised RecursionError,
a traceback, and in one student's `bot.toml` it stopped `referee grade` for the whole class.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

MAX_BYTES = 8 * 1024 * 1024  # far above any tournament file (10,000 entrants take ~1 MiB)

SQLITE = b"SQLite format 3\0"  # how an SQLite database, such as a results store, begins


class TomlFileError(ValueError):
    """A file that cannot be read as TOML: why, in one line, without the file's name (the
    caller names it as its users know it: the path, or `bot.toml`)."""


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of the regular file `path` (through links), at most `limit` bytes.  A
    named pipe or a device is refused without waiting on it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise TomlFileError(f"cannot be read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as file:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise TomlFileError("is not a regular file")
            data = file.read(limit + 1)
        except OSError as exc:
            raise TomlFileError(f"cannot be read: {exc.strerror or exc}") from None
    if data.startswith(SQLITE):
        raise TomlFileError("is an SQLite database (a results store?), not a TOML file")
    if len(data) > limit:
        raise TomlFileError(f"is larger than {limit // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TomlFileError(f"is not UTF-8 text (byte {exc.start})") from None


def parse_toml(text: str) -> dict[str, Any]:
    """The TOML document `text`; TomlFileError says what is wrong in one line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlFileError(f"is not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once per level; Python's stack is the bound
        raise TomlFileError("is not valid TOML: nested too deeply") from None


def read_toml(path: Path, limit: int = MAX_BYTES) -> dict[str, Any]:
    """The TOML file at `path`, read safely (`read_text`, `parse_toml`).  One that is not
    TOML and is not named so (`tournament run bot.py`) is said to be most likely the wrong
    file, which TOML's own complaint ("Expected '='") does not tell a newcomer."""
    text = read_text(path, limit)
    try:
        return parse_toml(text)
    except TomlFileError as exc:
        if path.suffix.lower() == ".toml":
            raise
        named = f"a {path.suffix} file" if path.suffix else "a file whose name has no .toml"
        raise TomlFileError(f"{exc}; a TOML file is wanted here, and this is {named}: the "
                            "wrong file?") from None
