"""A bot folder: a folder that holds one bot and says how to build and run it.

A `bot.toml` there gives the `command` that runs the bot (in the folder), optionally a `build`
command run once in the folder before it plays, and a `name`.  Without one the bot is found by
convention, in this order (`CONVENTIONS`): a `Makefile` (build `make`, run `./bot`), `bot.py`,
`main.py` (run with python3), `bot.js`, `main.js` (node), `bot.pl` (perl), `Bot.java` (build
`javac -d out Bot.java`, run `java -cp out Bot`).  `referee check` and `referee play` take such
a folder as a BOT, and `referee grade` each student's, so that one folder is checked, played and
graded as it is.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from referee.text import listed
from referee.toml_files import TomlFileError, read_toml
from referee.validation import first_error

MANIFEST = "bot.toml"

# (file that marks the bot, its build command or None, its command)
CONVENTIONS: list[tuple[str, str | None, str]] = [
    ("Makefile", "make", "./bot"),
    ("bot.py", None, "python3 bot.py"),
    ("main.py", None, "python3 main.py"),
    ("bot.js", None, "node bot.js"),
    ("main.js", None, "node main.js"),
    ("bot.pl", None, "perl bot.pl"),
    ("Bot.java", "javac -d out Bot.java", "java -cp out Bot"),
]


def command_line(value: str | None) -> str | None:
    """A command line (or None) that can be run: no NUL, and shell words to split."""
    if value is not None and "\0" in value:
        raise ValueError("contains a NUL character")
    if value is not None:
        try:
            if not shlex.split(value):
                raise ValueError("is empty")
        except ValueError as exc:
            raise ValueError(f"cannot be split into words: {exc}") from None
    return value


class Manifest(BaseModel):
    """A folder's `bot.toml`."""

    # defer_build: built when a bot.toml is first read, not at import (every command)
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    name: str | None = None  # `referee grade` names a bot after its folder (the student) instead
    build: str | None = None
    command: str = Field(min_length=1)

    @field_validator("build", "command")
    @classmethod
    def _a_command_line(cls, value: str | None) -> str | None:
        return command_line(value)


@dataclass(frozen=True)
class BotFolder:
    """How to build and run the bot of a folder; `name` is its `bot.toml`'s, if it says one."""

    command: str
    build: str | None = None
    name: str | None = None


class BotFolderError(ValueError):
    """No bot can be found in a folder: its `bot.toml` cannot be read or is wrong, or it has
    neither one nor a file of the conventions.  The message says which, in one line."""


def read_bot_folder(folder: Path) -> BotFolder:
    """The bot of `folder`, from its `bot.toml` or else by convention.  BotFolderError says
    why there is none; an OSError is the folder's own (it cannot be looked into)."""
    manifest = folder / MANIFEST
    if manifest.is_file():
        try:
            m = Manifest.model_validate(read_toml(manifest))
        except TomlFileError as exc:
            raise BotFolderError(f"{MANIFEST} {exc}") from None
        except ValidationError as exc:
            raise BotFolderError(f"{MANIFEST}: {first_error(exc, Manifest)}") from None
        return BotFolder(m.command, m.build, m.name)
    for filename, build, command in CONVENTIONS:
        if (folder / filename).is_file():
            return BotFolder(command, build)
    names = ", ".join(f for f, _, _ in CONVENTIONS)
    raise BotFolderError(f"no bot found: add a {MANIFEST} (command, build) or one of {names}"
                         + (_one_level_down(folder) or _lone_file(folder)))


def bots_one_level_down(folder: Path) -> list[tuple[str, str]]:
    """The folders of `folder` that hold a bot (a `bot.toml` or a file of the conventions),
    each with the first such file: a zip's top folder, or a class's folders."""
    try:
        inside = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(
            (".", "__")))
    except OSError:
        return []
    found = []
    for sub in inside:
        files = [f for f in (MANIFEST, *(name for name, _, _ in CONVENTIONS))
                 if (sub / f).is_file()]
        if files:
            found.append((sub.name, files[0]))
    return found


# A script of another name than the conventions', by its suffix: how it is run.
_RUN_BY_SUFFIX = {".py": "python3", ".js": "node", ".pl": "perl"}


def _lone_file(folder: Path) -> str:
    """A hint for a folder whose one script has another name (`my_bot.py`), or that holds
    an archive (uploaded as it is, not unpacked), else ""."""
    try:
        files = [f for f in folder.iterdir() if f.is_file() and not f.name.startswith(".")]
    except OSError:
        return ""
    scripts = [f for f in files if f.suffix in _RUN_BY_SUFFIX]
    if len(scripts) == 1:
        f = scripts[0]
        conventional = next(name for name, _, _ in CONVENTIONS
                            if Path(name).suffix == f.suffix)
        return (f"; it holds {f.name}: name it {conventional}, or give a {MANIFEST} with "
                f'command = "{_RUN_BY_SUFFIX[f.suffix]} {f.name}"')
    archives = [f.name for f in files if f.name.endswith((".zip", ".tar.gz", ".tgz", ".tar"))]
    if archives:
        return f"; it holds {listed(archives)}: unpack it, and give the files themselves"
    return ""


def _one_level_down(folder: Path) -> str:
    """A hint where a folder's bot is one level down (a zip's top folder), else ""."""
    found = bots_one_level_down(folder)
    if len(found) == 1:
        sub, file = found[0]
        return f"; the folder {sub}/ holds {file}: move its files up, out of {sub}/"
    if found:
        return (f"; its folders {listed([f'{sub}/' for sub, _ in found])} each hold a bot: "
                "name one of them, or put one bot's files at the top")
    return ""
