"""What the sandbox may show an entrant: nothing the referee reads or writes for the run.

In the sandbox a bot sees its own folder (`dir`), else only the files its command names, and
its `read_only` paths (`bots/sandbox.py`).  A layout in which one of those holds the tournament
file, the results store (with its -wal and -shm files), the stderr logs or another entrant's
files would show them to the bot, and the store holds the finished games of the deal it is
playing, so its opponents' hands: such a layout is refused before any game, in one line that
says how to fix it.  Entrants given the same `dir` share it, by the organiser's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from referee.bots.sandbox import SandboxError, exposed, named_paths, shown_paths
from referee.bots.version import run_own

from .config import TournamentConfig

STORE_FILES = ("", "-wal", "-shm", "-journal")  # SQLite's files beside a store


def run_files(db_path: Path | None, stderr_dir: Path | None = None) -> list[tuple[str, Path]]:
    """What a run writes, each with what it is: the store's file and those SQLite keeps
    beside it, and the stderr logs' folder."""
    files = [] if db_path is None else [
        ("the results store", db_path.with_name(db_path.name + suffix)) for suffix in STORE_FILES]
    return files + ([] if stderr_dir is None else [("the stderr logs", stderr_dir)])


def own_files(config_path: Path, db_path: Path | None,
              stderr_dir: Path | None = None) -> frozenset[str]:
    """The run's own files (the tournament file, the store and SQLite's files beside it, the
    stderr logs' folder with all it holds), which no entrant's version or build digest counts
    (`run_own`): logs kept in a `dir = "."` entrant's folder do not make it new each run."""
    return run_own([config_path, *(path for _, path in run_files(db_path, stderr_dir))])


def check_isolation(config: TournamentConfig, config_path: Path,
                    written: Sequence[tuple[str, Path]]) -> None:
    """Raise SandboxError, naming the bot, what it would see and how to fix it, when the
    sandbox would show an entrant the tournament file, what the referee writes (`written`,
    each with what it is: `run_files`) or another entrant's files.  Nothing to check
    without the sandbox."""
    if config.sandbox == "none":
        return
    # Imported past the common case, no sandbox: they bring trio and the match runner,
    # which `tournament plan` and a command's one-line mistakes need not pay for.
    from referee.bots.start import split_command

    from .entrants import bot_dir, read_only

    shown: dict[str, list[Path]] = {}
    own: dict[str, list[Path]] = {}
    for bot in config.bots:
        cwd = bot_dir(config_path, bot.dir)
        argv = split_command(bot.command)
        home = cwd if bot.dir else None
        own[bot.name] = [cwd] if bot.dir else named_paths(argv, cwd)
        shown[bot.name] = shown_paths(argv, cwd, home, read_only(config_path, bot.read_only))
        if bot.build:  # it runs where the bot runs, with that folder shown, writable
            shown[bot.name].append(cwd)
    referee = [("the tournament file", config_path), *written]
    for bot in config.bots:
        mine = own[bot.name]
        others = [(f"the files of entrant {other.name}", path)
                  for other in config.bots if other.name != bot.name
                  for path in own[other.name] if path not in mine]
        found = _first_exposed(shown[bot.name], [*referee, *others])
        if found is not None:
            where, what, path = found
            raise SandboxError(
                f"bot {bot.name}: the sandbox would show it {what} ({path}) through {where}; "
                "give each bot a folder of its own (`dir`) that holds neither the tournament "
                "file, the results store (--db), the logs nor another entrant")


def _first_exposed(shown: Sequence[Path], hidden: Sequence[tuple[str, Path]]
                   ) -> tuple[Path, str, Path] | None:
    for what, path in hidden:
        seen = exposed(shown, [path])
        if seen is not None:
            return seen[0], what, path
    return None
