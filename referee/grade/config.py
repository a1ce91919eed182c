"""Which tournament files can grade a class: a gauntlet (students against its baselines) that
plays every deal it names, so that every student plays the same games."""

from __future__ import annotations

from pathlib import Path

from referee.tournament.config import TournamentConfig


class GradingConfigError(ValueError):
    """The tournament file cannot grade; the message names the file and the field."""


def check_grading_config(config: TournamentConfig, config_path: Path) -> None:
    if config.format != "gauntlet":
        raise GradingConfigError(
            f"{config_path}: format: grading needs a gauntlet (with baselines)")
    if config.until is not None:
        raise GradingConfigError(
            f"{config_path}: until: a grade is given on every deal of the file, so that every "
            "student plays the same games; remove `until` (its `deals` are played)")
