"""Where the baselines are, said once as grading starts (`referee grade`) and where the
autograder's bundle is made (`referee autograder`).

A grading config's paths are relative to its folder: a copy of tournaments/classroom.toml put
in /tmp graded without complaint against a /tmp/sample_bots someone else had made, since
`../sample_bots` was there too.  Nothing was wrong to check; the teacher needed to see which
folder the baselines came from.  Not said by `grade-one`, whose log is the platform's.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from referee.bots.start import split_command
from referee.tournament.config import TournamentConfig
from referee.tournament.entrants import bot_dir

ON_PATH = " (on PATH)"


def baseline_places(config: TournamentConfig, config_path: Path) -> dict[str, Path | str]:
    """Each baseline's code as grading finds it: its `dir`, else the file or folder its
    command names (the first word after the program that is there from its folder, as the
    script an interpreter runs, else its program by a path), resolved; else its program, a
    name looked for on PATH."""
    places: dict[str, Path | str] = {}
    for bot in config.bots:
        if bot.name not in config.baselines:
            continue
        cwd = bot_dir(config_path, bot.dir)
        if bot.dir:
            places[bot.name] = cwd
            continue
        program, *words = split_command(bot.command)
        there = next((cwd / w for w in words if not w.startswith("-") and (cwd / w).exists()),
                     cwd / program if "/" in program else None)  # ./bot, before its build too
        places[bot.name] = (there.resolve() if there is not None else
                            program + ON_PATH if shutil.which(program) else program)
    return places


def baselines_line(config: TournamentConfig, config_path: Path) -> str:
    """The baselines and where each is, on one line: their files' folder said once when they
    share one ("baselines (in /tmp/sample_bots/python): baseline = baseline_bot.py, random-1
    = random_bot.py"), so that a wrong folder shows at a glance; a folder ends in `/`."""
    places = baseline_places(config, config_path)
    paths = [p for p in places.values() if isinstance(p, Path)]
    common = Path(os.path.commonpath([p.parent for p in paths])) if paths else None
    if common is not None and common == Path(common.anchor):  # nothing shared but the root
        common = None

    def shown(place: Path | str) -> str:
        if isinstance(place, str):
            return place
        text = str(place if common is None else place.relative_to(common))
        return text + "/" if place.is_dir() else text

    where = "" if common is None else f" (in {common})"
    return f"baselines{where}: " + ", ".join(f"{name} = {shown(place)}"
                                             for name, place in places.items())
