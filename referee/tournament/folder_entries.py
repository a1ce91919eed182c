"""Entrants given by their folder alone: a `[[bots]]` entry with a `dir` and no `command` takes
the command, build and name from the folder, as `referee play DIR` does (its `bot.toml`, else
a file of the conventions, `referee.bots.manifest`), so that an entrant's bot.toml is not
written again in the tournament file.  A folder that holds no bot leaves its entrant out of a
run, with why, as a failed build does; it does not stop the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.bots.manifest import BotFolderError, read_bot_folder

# The command of an entry whose folder holds no bot or is not there: never run (a run leaves
# such an entrant out first, `entrants.build_bots`).
NO_COMMAND = "./bot"


def fill_from_folders(data: dict[str, Any], base: Path) -> dict[int, str]:
    """Fill in, in place, each entry of `data["bots"]` that has a `dir` (relative to `base`)
    and no `command`; the entries whose folder is there and holds no bot, with why."""
    bots = data.get("bots")
    if not isinstance(bots, list):
        return {}  # (validation names what is wrong with it)
    unusable: dict[int, str] = {}
    for index, entry in enumerate(bots):
        if not isinstance(entry, dict) or "command" in entry or not isinstance(
                entry.get("dir"), str):
            continue
        folder = base / entry["dir"]
        named = "name" in entry
        entry.setdefault("name", folder.resolve().name)
        entry["command"] = NO_COMMAND
        if not folder.is_dir():
            continue  # a run says so of any entry's dir
        try:
            found = read_bot_folder(folder)
        except BotFolderError as exc:
            unusable[index] = f"its directory {folder.resolve()}: {exc}"
            continue
        except OSError as exc:
            unusable[index] = (f"its directory {folder.resolve()} cannot be read: "
                               f"{exc.strerror or exc}")
            continue
        entry["command"] = found.command
        if found.build is not None:
            entry.setdefault("build", found.build)
        if found.name is not None and not named:
            entry["name"] = found.name
    return unusable
