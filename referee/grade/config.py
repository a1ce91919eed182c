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


def grading_warnings(config: TournamentConfig) -> list[str]:
    """What makes a grading config grade every working bot alike, though it can run: no rules
    (every working bot gets `otherwise`), or too few deals for the paired test to find any
    difference at the config's confidence (its smallest p-value is 1/2^deals)."""
    grading = config.grading
    out = []
    if not grading.rules:
        out.append(f"[grading] has no rules: every working bot gets the grade otherwise = "
                   f"{grading.otherwise!r}")
    need = math.ceil(math.log2(1 / (1 - grading.confidence)) - 1e-9)
    if grading.rules and config.deals < need:
        out.append(f"deals = {config.deals}: the paired test needs at least {need} deals to "
                   f"find any difference at confidence {grading.confidence:g}: no bot can be "
                   "found to beat a baseline, and every bot is level with each")
    return out
