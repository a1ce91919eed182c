"""Finding an edition by name or reading a user's edition file (the only I/O on editions)."""

from __future__ import annotations

from pathlib import Path

from referee.game import BUILTIN_EDITIONS, Edition, EditionError
from referee.game.edition import parse_edition
from referee.toml_files import TomlFileError, read_text


def load_edition(name_or_path: str) -> Edition:
    """A built-in edition (`cmon`, `classic`) or a `.toml`/`.json` edition file."""
    if name_or_path in BUILTIN_EDITIONS:
        return BUILTIN_EDITIONS[name_or_path]
    path = Path(name_or_path)
    if not path.is_file():
        known = ", ".join(BUILTIN_EDITIONS)
        what = ("a folder, not an edition file" if path.is_dir() else
                "not a regular file" if path.exists() else "no such file")
        raise EditionError(f"no edition {name_or_path!r}: not one of {known}, and {what}")
    fmt = "json" if path.suffix.lower() == ".json" else "toml"
    try:
        text = read_text(path)
    except TomlFileError as exc:
        raise EditionError(f"edition file {path} {exc}") from None
    try:
        return parse_edition(text, fmt)
    except EditionError as exc:
        raise EditionError(f"edition file {path}: {exc}") from None
