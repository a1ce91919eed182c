"""Entrants given by their folder alone: a `[[bots]]` entry with a `dir` and no `command` takes
the command, build and name from the folder, as `referee play DIR` does (its `bot.toml`, else
a file of the conventions, `referee.bots.manifest`), so that an entrant's bot.toml is not
written again in the tournament file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.bots.manifest import BotFolderError, read_bot_folder


def fill_from_folders(data: dict[str, Any], base: Path) -> list[str]:
    """Fill in, in place, each entry of `data["bots"]` that has a `dir` (relative to `base`)
    and no `command`; the problems, one line each, of the folders that hold no bot."""
    bots = data.get("bots")
    if not isinstance(bots, list):
        return []  # (validation names what is wrong with it)
    problems = []
    for index, entry in enumerate(bots):
        if not isinstance(entry, dict) or "command" in entry or not isinstance(
                entry.get("dir"), str):
            continue
        folder = base / entry["dir"]
        where = f"bots.{index}" + (f" ({entry['name']})" if isinstance(entry.get("name"), str)
                                   else "")
        try:
            found = read_bot_folder(folder)
        except BotFolderError as exc:
            problems.append(f"{where}: no command, and its dir {entry['dir']!r}: {exc}")
            continue
        except OSError as exc:
            problems.append(f"{where}: no command, and its dir {entry['dir']!r} cannot be "
                            f"read: {exc.strerror or exc}")
            continue
        entry["command"] = found.command
        if found.build is not None:
            entry.setdefault("build", found.build)
        entry.setdefault("name", found.name or folder.resolve().name)
    return problems
