"""Partial credit: points per check passed and per game metric, and rules that ask for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.grade.feedback import points_line
from referee.grade.notes import versus_notes
from referee.grade.result import (
    StudentResult,
    Versus,
    grade_for,
    missing,
    rule_text,
    total_points,
)
from referee.tournament.config import TournamentError, load_tournament
from referee.tournament.grading_table import GradeRule

from .test_grade import write_config

POINTS = 'points = {check = 1, placement = 20, beats = 5}'
PARTIAL_RULE = '\n[[grading.rules]]\ngrade = "E"\nmin_points = 5\nalso_broken = true\n'


def config_with(tmp_path: Path, points: str = POINTS, rules: str = PARTIAL_RULE) -> Path:
    path = tmp_path / "class.toml"
    write_config(path)
    text = path.read_text()
    assert 'broken = "F"\n' in text
    path.write_text(text.replace('broken = "F"\n', f'broken = "F"\n{points}\n') + rules)
    return path


def placed(status: str, checks_passed: int, mean: float, beaten: int = 0) -> StudentResult:
    versus = {f"random-{i}": Versus("beats" if i <= beaten else "level", 0.1, None, None,
                                    0.5, 0.5, 1) for i in (1, 2, 3)}
    return StudentResult("s", status, "", checks=17, checks_passed=checks_passed, games=24,
                   placement={"mean": mean, "low": mean, "high": mean}, versus=versus)


def test_points_rank_partial_work_above_nothing(tmp_path: Path) -> None:
    """A bot that passed 7 of 17 checks and played badly earns points, and by the rule that
    asks for 5 points of any status an E; an empty folder earns none and an F; a working bot
    earns a point per check, 20 times its mean placement and 5 per baseline it beats."""
    config = load_tournament(config_with(tmp_path))
    partial = placed("failed the check", 7, 0.1)
    empty = StudentResult("e", "no bot found", "")
    good = placed("ok", 17, 0.9, beaten=3)
    for o in (partial, empty, good):
        o.points = total_points(o, config.grading.points)
    assert (partial.points, empty.points, good.points) == (9, 0, 17 + 18 + 15)
    assert grade_for(partial, config) == ("E", "points >= 5 (any status)")
    assert grade_for(empty, config) == ("F", "broken")
    assert grade_for(good, config) == ("A", "beats random-1, random-2, random-3")


def test_the_points_of_a_bot_not_checked_say_why_in_a_students_words(tmp_path: Path) -> None:
    """A folder with no bot is told its points as 0 of the 21 checks, none having run, and no
    game played (not "no check counts", nor a mean placement of 0.000 it never had); one
    out of grading time in its check, that its check was cut short."""
    config = load_tournament(config_with(tmp_path))
    empty = StudentResult("e", "no bot found", "")
    assert points_line(empty, config) == (
        "- points: **0** (0 of 21 checks passed, none having run = 0; no game played for "
        "placement points = 0; 0 baselines beaten, 5 each = 0)")
    late = StudentResult("l", "out of grading time", "")
    assert points_line(late, config).startswith(
        "- points: **0** (0 of 21 checks counted, its check cut short by the grading time = 0;")


def test_feedback_counts_baselines_and_deals_in_words_not_placeholders(tmp_path: Path) -> None:
    """A student who beat one baseline over one deal is told "1 baseline beaten" and "over 1
    deal", three "3 baselines": not "baseline(s)" nor "deal(s)"."""
    config = load_tournament(config_with(tmp_path))
    one = placed("ok", 17, 0.9, beaten=1)
    one.points = total_points(one, config.grading.points)
    assert "; 1 baseline beaten, " in points_line(one, config), points_line(one, config)
    assert "; 3 baselines beaten, " in points_line(placed("ok", 17, 0.9, beaten=3), config)
    said = "\n".join(versus_notes(one, config.grading.confidence))
    assert "random-1: difference +0.100 over 1 deal (" in said, said
    assert "(s)" not in said + points_line(one, config)


def test_without_points_a_check_passed_is_one_point(tmp_path: Path) -> None:
    """With no `points`, a check passed is worth a point and nothing else counts; a rule
    without `also_broken` never grades a bot that does not work, whatever its points."""
    config = load_tournament(config_with(tmp_path, points="", rules=PARTIAL_RULE.replace(
        "also_broken = true\n", "")))
    partial = placed("failed the check", 7, 0.5, beaten=3)
    partial.points = total_points(partial, config.grading.points)
    assert partial.points == 7
    assert grade_for(partial, config) == ("F", "broken")
    assert rule_text(config.grading.rules[-1]) == "points >= 5"


@pytest.mark.parametrize(("points", "rules", "error"), [
    ("points = {check = -1}", "", "grading.points.check"),
    ("points = {checks = 1}", "", "grading.points.checks"),
    ("", '\n[[grading.rules]]\ngrade = "E"\nmin_points = -2\n', "grading.rules #2 min_points"),
])
def test_points_that_cannot_be_are_config_errors(tmp_path: Path, points: str, rules: str,
                                                 error: str) -> None:
    with pytest.raises(TournamentError, match=error.replace(".", r"\.")):
        load_tournament(config_with(tmp_path, points, rules))


def test_what_a_grade_lacks_names_baselines_with_one_verdict_together() -> None:
    """The feedback's next step: baselines a rule asks to beat that are level now are named in
    one phrase, those not played in another."""
    rule = GradeRule(grade="B", beats=["random-1", "random-2", "random-4"])
    assert missing(rule, placed("ok", 17, 0.5)) == [
        "beat random-1 and random-2 (each now level)", "beat random-4 (not played)"]
