"""`referee grade-one`: one submission in, one platform results file out.

What a course platform runs for each submission (Gradescope's `run_autograder`, PrairieLearn's
external grader, `autograder.py`): the build, the check and the games against the baselines,
by the same steps as `referee grade` (`grading.graded`), so that one submission gets the same
grade either way; then the results file in the platform's format (`platform_results.py`) and
the feedback beside the working files.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.check import CheckResult
from referee.files import write_whole
from referee.tournament.config import TournamentConfig

from .gauntlet import build_baselines, check_baselines
from .grading import graded, write_feedback
from .result import StudentResult
from .submissions import remove_copy, submission_at

# Most characters of a name the heading shows: a name is a platform's user's, of any length.
LONGEST_NAME = 200


def gradescope_names(metadata: Path) -> str | None:
    """The names of the users of a Gradescope submission, joined (a group submission lists
    each), from its `submission_metadata.json`; None where it holds none or cannot be read
    (grading elsewhere, or a layout Gradescope changed): the heading then names no one.
    Its layout, from https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/
    ("Submission Metadata"): a top-level "users", a list of {"email", "id", "name"}, "Multiple
    users will be listed in the case of group submissions"."""
    try:
        users = json.loads(metadata.read_text(encoding="utf-8"))["users"]
        names = [" ".join(u["name"].split()) for u in users
                 if isinstance(u, dict) and isinstance(u.get("name"), str)]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    joined = ", ".join(n for n in names if n)
    return joined[:LONGEST_NAME] or None


async def grade_one(folder: Path, config: TournamentConfig, config_path: Path, work: Path,
                    student: str | None, workers: int, say: Callable[[str], None],
                    heading: str | None = None
                    ) -> tuple[StudentResult, list[CheckResult] | None]:
    """Grade the submission in `folder` (named `student`, by default after the folder) with
    its working files, games and feedback under `work`; its outcome and its check's results
    (None when the check did not run), the teacher's folders taken out of them as out of the
    feedback (a platform shows them to the student).  Its feedback's heading names `student`,
    else `heading` (the platform's names of its users), else no one.  BaselineMissing, before
    anything is looked at or written, if a baseline is not there (as `referee grade` says)."""
    check_baselines(config, config_path)
    # Named after its folder in its games, but not in its feedback's heading: a platform's
    # folder is `submission` or `student` for everyone ("# Feedback: student").  A platform's
    # names (a group's several, of any characters) head the feedback only: in its games, its
    # folders and the run's log, the folder's name stays.
    sub = replace(submission_at(folder, config.limits.size_limits(), student),
                  heading=student or heading or "")
    (work / "feedback").mkdir(parents=True, exist_ok=True)
    if sub.problem is None:
        await build_baselines(config, config_path, say)
    say(f"{sub.student}: grading")
    try:
        grading, _spent = await graded(sub, config, config_path, work, workers, say,
                                       records_given=False)  # the platform shows the text only
    finally:  # interrupted too (its bots stopped by now): no copy left behind
        with suppress(OSError):  # best effort: an error here must not hide the interruption
            remove_copy(work / "work" / sub.student)
    write_feedback(work, grading.outcome)
    check = grading.found.check
    scrub = grading.scrub.text
    return grading.outcome, None if check is None else [
        replace(r, reason=scrub(r.reason), lines=[scrub(line) for line in r.lines])
        for r in check]


def write_results(path: Path, written: dict[str, Any]) -> None:
    """The platform's results file at `path` (its folder made if need be), whole or not at
    all: a platform that reads half a file grades nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, json.dumps(written, indent=1))
