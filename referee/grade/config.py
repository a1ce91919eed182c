"""Which tournament files can grade a class: a gauntlet (students against its baselines) that
plays every deal it names, so that every student plays the same games."""

from __future__ import annotations

import math
from pathlib import Path

from referee.toml_files import TomlFileError, read_toml
from referee.tournament.config import TournamentConfig


class GradingConfigError(ValueError):
    """The tournament file cannot grade; the message names the file and the field."""


NOT_A_GAUNTLET = "format: grading needs a gauntlet (format = \"gauntlet\", with baselines)"


def not_a_gauntlet(config_path: Path) -> str | None:
    """The error of a grading config that does not say `format = "gauntlet"`, read from its
    TOML alone: a round robin's own checks (enough bots for a table) would otherwise come
    first and name the wrong mistake.  None if it says so, or cannot be read."""
    try:
        data = read_toml(config_path)
    except TomlFileError:
        return None
    return None if data.get("format") == "gauntlet" else f"{config_path}: {NOT_A_GAUNTLET}"


def check_grading_config(config: TournamentConfig, config_path: Path) -> None:
    if config.format != "gauntlet":
        raise GradingConfigError(f"{config_path}: {NOT_A_GAUNTLET}")
    if config.until is not None:
        raise GradingConfigError(
            f"{config_path}: until: a grade is given on every deal of the file, so that every "
            "student plays the same games; remove `until` (its `deals` are played)")


def grading_warnings(config: TournamentConfig,
                     longest: tuple[str, float] | None = None) -> list[str]:
    """What makes a grading config grade every working bot alike, though it can run: no rules
    (every working bot gets `otherwise`), or too few deals for the paired test to find any
    difference at the config's confidence (its smallest p-value is 1/2^deals).  `longest`,
    on a course platform, is its name and the largest `submission_time` its jobs allow."""
    grading = config.grading
    out = []
    if "grading" not in config.model_fields_set:
        # A teacher who left the table out is told what every
        # student will get, and where the rules go.
        out.append(f"no [grading] table: every bot gets the grade {grading.otherwise!r} "
                   "(otherwise and broken, by default); add [grading] with its "
                   "[[grading.rules]] (docs/grading.md, The grading config and its rules)")
    elif not grading.rules:
        out.append(f"[grading] has no rules: every working bot gets the grade otherwise = "
                   f"{grading.otherwise!r}")
    need = math.ceil(math.log2(1 / (1 - grading.confidence)) - 1e-9)
    if grading.rules and config.deals < need:
        out.append(f"deals = {config.deals}: the paired test needs at least {need} deals to "
                   f"find any difference at confidence {grading.confidence:g}: no bot can be "
                   "found to beat a baseline, and every bot is level with each")
    short = _budget_short(config, longest)
    if short is not None:
        out.append(short)
    return out


# A budget that allows less than this share of the move time a decision is warned of.
BUDGET_SHARE = 0.1


def _budget_short(config: TournamentConfig,
                  longest: tuple[str, float] | None = None) -> str | None:
    """The warning when `submission_time` allows a bot far less than its move time a
    decision: a teacher's legal bot answering in 0.35 s of its 0.5 s ran out and scored as
    one that does not work, and nothing had said the two limits disagree."""
    from .gauntlet import decisions_asked, gauntlet_size

    limits = config.limits
    games = gauntlet_size(config, "student", "student")
    decisions = decisions_asked(config, games)
    each = limits.submission_time / max(1, decisions)
    if each >= BUDGET_SHARE * limits.move_time:
        return None
    enough = math.ceil(decisions * limits.move_time / 4 / 60) * 60
    shown = f"{each * 1000:.0f} ms" if each >= 0.001 else "under 1 ms"
    return (f"submission_time = {limits.submission_time:g} s allows a bot about "
            f"{shown} a decision (about {decisions:,}: the check's and {games} "
            f"games'), far under move_time = {limits.move_time:g} s: a bot that takes a "
            "tenth of its move time runs out, and is graded as one that does not work; "
            f"about {enough:,} s gives one that takes a quarter of its move time room for "
            "its answers (its build, and the baselines' time, come on top)"
            + ("" if longest is None else _on_platform(config, games, enough, *longest)))


def _on_platform(config: TournamentConfig, games: int, enough: int, platform: str,
                 longest: float) -> str:
    """The warning's end on a course platform: what its longest job allows, how many deals
    fit a tenth of the move time a decision there (fewer find only larger differences), and
    that the shipped platform files make this trade on purpose, so that a teacher who uses
    them as they are reads the warning as expected, not as a mistake of theirs."""
    from .gauntlet import decisions_asked

    per_deal = games / max(1, config.deals)
    fit = max((d for d in range(1, config.deals + 1)
               if longest / max(1, decisions_asked(config, round(d * per_deal)))
               >= BUDGET_SHARE * config.limits.move_time), default=0)
    deals = (f"{fit} deals or fewer fit a tenth of the move time in {longest:g} s, and find "
             "only larger differences" if fit else "no number of deals fits a tenth of the "
             f"move time in {longest:g} s")
    return ("" if enough <= longest else
            f"; that is more than {platform} allows ({longest:g} s at most): for slow bots, "
            f"play fewer deals ({deals}) or give a shorter move time") + (
        "; the shipped platform files (tournaments/gradescope.toml, prairielearn.toml) get "
        "this warning by design: they keep their deals for the grades' power (docs/grading.md, "
        "The platforms' classroom files)")
