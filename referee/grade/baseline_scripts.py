"""A baseline's script misspelt at its ending (`strong_bot.pyy`), found before grading.

The shared check of play, check and tournaments (`launch.missing_script`) knows a script by
its known endings only, so that such a command passed it: `referee autograder` wrote a bundle
that failed every student, and `referee grade` started and stopped at the first game.  Both
ask this module, by one rule, before anything is built or graded; the shared check is left as
it is, since an entrant's word it does not know may be no file at all.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from referee.bots.start import split_command
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.entrants import bot_dir

# A word that names a file by its ending ("bot.py", "strong_bot.pyy"): a letter after the dot.
_FILE_ENDING = re.compile(r"[^/]+\.[A-Za-z]\w*")


def missing_script_path(bot: BotEntry, cwd: Path) -> str | None:
    """Why a baseline's command names a script that is not there (None if it does not): its
    first word after the program that is not an option (nor a module after `-m`) and names a
    path, by a `/` or a file ending of any kind, and is not in `cwd`.  `launch.missing_script`
    knows scripts by their known endings only, so that "strong_bot.pyy" passed and the bundle
    failed every student; a word that names no file ("play", a class name) or a program on
    PATH is left alone.  Not before a build, which may make it."""
    if bot.build is not None:
        return None
    for word in split_command(bot.command)[1:]:
        if word == "-m":  # a module follows, not a file
            return None
        if word.startswith("-"):
            continue
        if (any(c.isspace() or c in ":=" for c in word) or os.path.isabs(word)
                or not ("/" in word or _FILE_ENDING.fullmatch(word))):
            return None
        return None if (cwd / word).exists() else f"{word} not found in {cwd}"
    return None


def misspelt_baselines(config: TournamentConfig, config_path: Path) -> dict[str, str]:
    """The baselines whose command names a script that is not there (`missing_script_path`),
    with why, worded as `unbuilt_problems` words a missing script, whose answer for the same
    baseline this one replaces."""
    return {b.name: f"its command cannot run: {missing}" for b in config.bots
            if b.name in config.baselines
            and (missing := missing_script_path(b, bot_dir(config_path, b.dir)))}
