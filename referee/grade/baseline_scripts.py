"""A baseline's script misspelt at its ending (`strong_bot.pyy`), found before grading.

The shared check of play, check and tournaments (`launch.missing_script`) knows a script by
its known endings only, so that such a command passed it: `referee autograder` wrote a bundle
that failed every student, and `referee grade` started and stopped at the first game.  Both
ask this module before anything is built or graded; it reads the script as the shared check
does, but with any ending (`script_named(any_ending=True)`), which is left out of the shared
check, since an entrant's word it does not know may be no file at all.
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.bots.launch import script_named
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.entrants import bot_dir


def missing_script_path(bot: BotEntry, cwd: Path) -> str | None:
    """Why a baseline's command names a script that is not there (None if it does not): the
    word `launch.script_named` reads as its script with any ending, if it is a relative path
    not in `cwd`; a word that names no file ("play", a class name) or a program on PATH is
    left alone.  Not before a build, which may make it."""
    if bot.build is not None:
        return None
    word = script_named(bot.command, any_ending=True)
    if word is None or os.path.isabs(word) or (cwd / word).exists():
        return None
    return f"{word} not found in {cwd}"


def misspelt_baselines(config: TournamentConfig, config_path: Path) -> dict[str, str]:
    """The baselines whose command names a script that is not there (`missing_script_path`),
    with why, worded as `unbuilt_problems` words a missing script, whose answer for the same
    baseline this one replaces."""
    return {b.name: f"its command cannot run: {missing}" for b in config.bots
            if b.name in config.baselines
            and (missing := missing_script_path(b, bot_dir(config_path, b.dir)))}
