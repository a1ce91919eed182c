"""A submission's result finished from what its grading found (points, grade, feedback), and
graded again from that and its stored games, no bot built or played, when only the grading
config's `[grading]` rules changed since (`regraded`, for `run.grade_all`), or its feedback
written again in this referee's words when nothing changed (`reworded`)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from referee.tournament.config import TournamentConfig

from .feedback import Findings, StoredFindings, feedback
from .gauntlet import games_in
from .reproduce import Scrub
from .result import StudentResult, compare, grade_for, total_points
from .submissions import Submission


def bot_name(student: str, baselines: list[str]) -> str:
    name = re.sub(r"[^A-Za-z0-9_.+-]", "_", student)[:60] or "student"
    return name + "-student" if name in baselines else name


def scrub_for(sub: Submission, out: Path) -> Scrub:
    """What takes the teacher's folders out of `sub`'s feedback, grading into `out`."""
    return Scrub([out / "work" / sub.student, sub.path],
                 {"<grading folder>": out, "<submissions folder>": sub.path.parent})


def finish(outcome: StudentResult, config: TournamentConfig, found: Findings, sub: Submission,
           scrub: Scrub) -> StudentResult:
    """Points, then the grade (a rule may ask for points), then the feedback, with the
    teacher's folders taken out of it."""
    outcome.points = total_points(outcome, config.grading.points)
    outcome.grade, outcome.rule = grade_for(outcome, config)
    outcome.feedback = scrub.text(feedback(outcome, sub, config, found))
    return outcome


def regraded(previous: StudentResult, stored: StoredFindings | None, sub: Submission,
             config: TournamentConfig, out: Path) -> StudentResult | None:
    """`sub` graded again by `config`'s grading rules from what its last grading found
    (`stored`) and the games stored in OUT/games, where only `[grading]` changed: its
    verdicts against each baseline (the confidence may have changed), points, grade and
    feedback, no bot built or played.  None when that cannot be done (no findings kept, or
    its games' store gone): then it is graded in full."""
    if stored is None:
        return None
    outcome = replace(previous, versus=dict(previous.versus))
    if stored.played:
        db = out / "games" / f"{sub.student}.db"
        name = bot_name(sub.student, config.baselines)
        played = games_in(db, name, config) if db.is_file() else None
        row = None if played is None else next((r for r in played.rows if r.name == name), None)
        if played is None or row is None or row.games != outcome.games:  # not the same games
            return None
        outcome.versus = compare(played.games, name, config.baselines,
                                 config.grading.confidence)
    return finish(outcome, config, Findings.of(stored), sub, scrub_for(sub, out))


def regraded_line(previous: StudentResult, again: StudentResult) -> str:
    """What a run says of a student graded again by a new `[grading]`: the grade, and the
    points too when they changed (a new weight changes the points of a grade that stays:
    "graded B (was B)" alone hid 54.56 points become 69.56)."""
    points = again.points != previous.points
    now = f"{again.grade}, {again.points:g} points" if points else again.grade
    was = f"{previous.grade}, {previous.points:g} points" if points else previous.grade
    return (f"{again.student}: unchanged, graded {now} by the new [grading] (was {was}), "
            "from its games and check as stored: nothing run again")


def reworded(previous: StudentResult, stored: StoredFindings | None, sub: Submission,
             config: TournamentConfig, out: Path) -> StudentResult:
    """`previous`, kept under the same rules, with its feedback written again from what its
    grading found (`stored`), so that a referee upgraded since tells an unchanged student
    what it tells the others (one that said no valid hello was told it crashed), where that
    gives the same points and grade; else, or with no findings kept, `previous` as it was."""
    if stored is None:
        return previous
    again = finish(replace(previous, versus=dict(previous.versus)), config,
                   Findings.of(stored), sub, scrub_for(sub, out))
    if (again.points, again.grade, again.rule) != (previous.points, previous.grade,
                                                   previous.rule):
        return previous
    return replace(previous, feedback=again.feedback)
