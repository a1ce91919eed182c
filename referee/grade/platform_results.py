"""One graded submission as the results file of a course platform: Gradescope's
`results.json` (`score` in points, `tests`, `leaderboard`) or PrairieLearn's (`score` from 0 to
1, `tests`, `gradable`).

Both list the same tests: each check of `referee check`, the placement and win-share points
if the config gives any, each baseline's verdict with its figures, and the grade.  The score
is the submission's points (`[grading] points`), which `referee grade` gives the same
submission; its feedback is the output text.  A submission with no bot, whose build failed or
that is too large, is what each platform expects of one that cannot be graded: PrairieLearn's
`gradable: false` with the reason as its message; on Gradescope a score of 0 with the reason in
a visible test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from referee.check import CHECK_COUNT, CheckResult
from referee.text import visible
from referee.tournament.config import TournamentConfig

from .feedback import FIRST_BELOW
from .result import StudentResult, Versus

Platform = Literal["gradescope", "prairielearn"]
PLATFORMS: tuple[Platform, ...] = ("gradescope", "prairielearn")
# Not gradable on PrairieLearn (the student keeps the attempt); a score of 0 on Gradescope.
UNGRADABLE = ("no bot found", "too large", "build failed")
# PrairieLearn reads at most 1 MB of results; the feedback is cut well before that.
MOST_TEXT = 200_000
# What a submission that played no game has for its mean placement points and win share, in
# its tests and messages on either platform (a 0.0 looked like a real score of always last).
NO_GAMES = "no games"


@dataclass
class Test:
    """One line of a platform's test list."""

    name: str
    points: float
    max_points: float
    output: str
    passed: bool


def max_points(config: TournamentConfig) -> float:
    """The most points a submission can earn: every check, first in every game, every win,
    every baseline beaten."""
    p = config.grading.points
    return round(p.check * CHECK_COUNT + p.placement + p.win_share
                 + p.beats * len(config.baselines), 2)


def versus_text(name: str, v: Versus, confidence: float) -> str:
    """A verdict against one baseline, with the figures behind it."""
    words = {"beats": f"beats {name}", "level": f"level with {name} (not separated either way)",
             "below": f"below {name}"}[v.verdict]
    low = "-inf" if v.low is None else f"{v.low:+.3f}"
    high = "+inf" if v.high is None else f"{v.high:+.3f}"
    interval = (f"{2 * confidence - 1:.0%} interval [{low}, {high}]" if v.low is not None or
                v.high is not None else "too few deals to bound it")
    return (f"{words}: your mean placement points less {name}'s, {v.diff:+.3f} over "
            f"{v.deals} deals, {interval}, one-sided p "
            f"{v.p_above:.3g} (above) and {v.p_below:.3g} (below), at a confidence of "
            f"{confidence:g}")


def tests_of(outcome: StudentResult, config: TournamentConfig,
             check: list[CheckResult] | None) -> list[Test]:
    """The tests of a graded submission, in the order a student reads them."""
    points = config.grading.points
    out: list[Test] = []
    if outcome.status in UNGRADABLE:
        out.append(Test("submission: a bot is found and builds", 0.0, 0.0,
                        ungradable_reason(outcome), False))
    if check:
        out += [Test(f"check: {r.name}", points.check * r.passed * r.counted,
                     points.check * r.counted,
                     f"not run: {r.reason}" if r.not_run else r.reason, r.passed)
                for r in check]
        counted = sum(r.counted for r in check)
        if counted < CHECK_COUNT:  # it stops at a bot that cannot start or says no hello
            unrun = CHECK_COUNT - counted
            out.append(Test(f"check: the other {unrun} checks", 0.0, points.check * unrun,
                            "not run: the bot could not start, or said no valid hello",
                            False))
    else:
        out.append(Test("check: referee check", 0.0, points.check * CHECK_COUNT,
                        "not run: " + outcome.status, False))
    mean = None if outcome.placement is None else outcome.placement["mean"]
    if points.placement:
        out.append(Test("games: mean placement points", round((mean or 0.0) * points.placement,
                                                              2), points.placement,
                        f"{NO_GAMES}: no mean placement points" if mean is None else
                        f"{outcome.games} games; mean placement points {mean:.3f} "
                        "(1 = always first, 0 = always last)", mean is not None))
    if points.win_share:
        share = outcome.win_share
        out.append(Test("games: win share", round((share or 0.0) * points.win_share, 2),
                        points.win_share, f"{NO_GAMES}: no win share" if share is None else
                        f"{outcome.games} games; win share {share:.3f}", share is not None))
    for name in config.baselines:
        v = outcome.versus.get(name)
        text = ("not played" if v is None
                else versus_text(name, v, config.grading.confidence))
        beats = v is not None and v.verdict == "beats"
        out.append(Test(f"against {name}", points.beats * beats, points.beats, text, beats))
    out.append(Test(f"grade: {outcome.grade}", 0.0, 0.0, f"by the rule: {outcome.rule}",
                    outcome.rule not in ("broken", "otherwise")))
    return out


def ungradable_reason(outcome: StudentResult) -> str:
    """Why a submission could not be graded, in one line beginning with its status; the
    problem's own words where they begin so ("no bot found: add a bot.toml ..."), rather than
    the status, the problem's title and the same status again."""
    why = first_problem(outcome)
    _, said, rest = why.partition(": ")
    inner = rest.strip("`") if said else ""
    if inner.startswith(f"{outcome.status}: "):
        return inner
    # "the build failed (exit status 2)" is the status in other words: said once, not as
    # "build failed: the build failed: `the build failed (exit status 2)`"
    if inner.removeprefix("the ").startswith(outcome.status):
        return inner.removeprefix("the ")
    return f"{outcome.status}: {why}"


def first_problem(outcome: StudentResult) -> str:
    """Why a submission could not be graded, from its feedback's "fix first" line."""
    for line in outcome.feedback.splitlines():
        if line.startswith("- fix first: "):  # on its own, "problem 1 below" points nowhere
            return line.removeprefix("- fix first: ").removeprefix(FIRST_BELOW)
    return outcome.status


def cut(text: str) -> str:
    text = visible(text, indent="")
    if len(text) <= MOST_TEXT:
        return text
    return text[:MOST_TEXT] + "\n\n(cut: the whole feedback is longer than the platform shows)"


def gradescope(outcome: StudentResult, config: TournamentConfig,
               check: list[CheckResult] | None) -> dict[str, Any]:
    """Gradescope's results.json: the score in points, every test visible to the student (its
    output as plain text: it quotes the bot), the feedback as Markdown (which fences what the
    bot wrote), and the leaderboard (`leaderboard_of`).

    Its layout is Gradescope's Autograder Specifications, Output format
    (https://gradescope-autograders.readthedocs.io/en/latest/specs/): "score", a number,
    "optional, but required if not on each test case below", and it "overrides total of tests
    if specified": every submission is given one, the points `referee grade` gives it, 0 if
    it could not be graded."""
    tests = [{"name": t.name, "score": t.points, "max_score": t.max_points,
              "status": "passed" if t.passed else "failed", "output": cut(t.output),
              "output_format": "text",  # a bot's own words, never read as Markdown
              "visibility": "visible"} for t in tests_of(outcome, config, check)]
    return {
        "score": 0.0 if outcome.status in UNGRADABLE else outcome.points,
        "output": cut(outcome.feedback), "output_format": "md",
        "visibility": "visible", "stdout_visibility": "hidden",
        "tests": tests,
        "leaderboard": leaderboard_of(outcome, config),
    }


def leaderboard_of(outcome: StudentResult, config: TournamentConfig) -> list[dict[str, Any]]:
    """The submission's entries on Gradescope's leaderboard: its points, its mean placement
    points when it played games, and its grade (`grade_entry`).

    Gradescope's Leaderboards page (https://gradescope-autograders.readthedocs.io/en/latest/
    leaderboards/) gives each entry a "name", a "value" (its example has numbers, 0.926 and
    15.1, and a string, "*****", each the whole of its column) and an optional "order",
    "desc" by default ("higher scores rank higher").  It says nothing of a column whose values
    are numbers for some submissions and a string for others, as "no games" beside the others'
    placements was, nor how one would rank: a submission that played no game has no placement
    entry, rather than 0.0 (a real score of always last) or a string in a column of numbers.
    Points come first: every submission has them, a number, higher the better."""
    board: list[dict[str, Any]] = [{"name": "points", "value": outcome.points}]
    if outcome.placement is not None:
        board.append({"name": "placement", "value": round(outcome.placement["mean"], 4)})
    board.append(grade_entry(outcome.grade, config))
    return board


def grade_ranks(config: TournamentConfig) -> dict[str, int]:
    """Each grade the config gives, by its rank, 1 the best: its rules' grades in their
    order (the first rule a bot meets gives its grade, so the best is listed first), then
    `otherwise`, then `broken`; a grade given by two rules ranks where it comes first."""
    grading = config.grading
    ranks: dict[str, int] = {}
    for grade in [*(r.grade for r in grading.rules), grading.otherwise, grading.broken]:
        ranks.setdefault(grade, len(ranks) + 1)
    return ranks


def grade_entry(grade: str, config: TournamentConfig) -> dict[str, Any]:
    """The grade's column of the leaderboard: "1 A+", "2 A", ... "6 F", its rank
    (`grade_ranks`, padded to one width) before it, in ascending order.

    A string column sorts as text: the letters alone, in the default "desc" order, put F
    above D above C above A (the worst first), and in "asc" A above A+; and a config's
    grades may be any words ("pass", "merit").  Led by its rank, the grade sorts best first
    whatever its words, and still reads as itself."""
    ranks = grade_ranks(config)
    rank = ranks.get(grade, len(ranks) + 1)
    return {"name": "grade", "value": f"{rank:0{len(str(len(ranks)))}d} {grade}",
            "order": "asc"}


def prairielearn(outcome: StudentResult, config: TournamentConfig,
                 check: list[CheckResult] | None) -> dict[str, Any]:
    """PrairieLearn's results.json: the score from 0 to 1 (points over the most there are),
    the tests in points, the feedback as the output; not gradable, with the reason, for a
    submission with no bot or a failed build.  The reason stays one line: its output is
    shown to the student too (PrairieLearn's `<pl-external-grader-results>` renders the
    format errors, the message and the output of a results file whether or not it is
    gradable), and the feedback there holds the build's whole output, the compiler's errors
    in it."""
    if outcome.status in UNGRADABLE:
        reason = ungradable_reason(outcome)
        return {"gradable": False, "message": cut(reason), "format_errors": [cut(reason)],
                "output": cut(outcome.feedback)}
    most = max_points(config)
    score = min(1.0, outcome.points / most) if most else 0.0
    return {
        "gradable": True, "score": round(score, 4),
        "message": f"grade {outcome.grade} ({outcome.status}"
                   + (f", {NO_GAMES}" if outcome.placement is None else "")
                   + f"); {outcome.points:g} of {most:g} points",
        "output": cut(outcome.feedback),
        "tests": [{"name": t.name, "points": t.points, "max_points": t.max_points,
                   "message": "passed" if t.passed else "not passed",
                   "output": cut(t.output)} for t in tests_of(outcome, config, check)],
    }


def stopped(platform: Platform, config: TournamentConfig, after: float) -> dict[str, Any]:
    """The results file of a grading stopped by a signal before it finished (most likely the
    platform's timeout, shorter than the config's budget), for the student to take to the
    teacher, who can fix it (`not_graded`); `after`, the seconds it had run, tells the
    teacher which timeout it met."""
    return not_graded(platform, (
        f"Grading was stopped after {after:.0f} s, before it finished, by a signal: most "
        "likely the platform's "
        "timeout, which must exceed the grading config's submission_time "
        f"({config.limits.submission_time:g} s) by a minute. This is not your bot's "
        "fault: tell your teacher."))


def staff_problem(platform: Platform, problem: str, certain: bool = True) -> dict[str, Any]:
    """The results file of a submission not graded for a problem of the course staff's (a
    baseline that cannot play, prlimit not installed, a grading config that cannot be read,
    the referee's own failure), named in `problem`, for the student to take to the teacher
    (`not_graded`): the platform's generic failure said nothing, and a grade of the
    student's would blame the wrong one.  Not `certain` where the student's bot may have had
    a part in it (a baseline that failed in a game against it: a bot can starve a machine)."""
    fault = ("This is not your bot's fault" if certain else
             "Most likely this is not your bot's fault")
    return not_graded(platform, f"Your submission was not graded: the grader is not set up "
                                f"right ({problem}). {fault}: tell your teacher.")


def not_graded(platform: Platform, why: str) -> dict[str, Any]:
    """The results file of a submission left ungraded by no fault of its own, saying `why`.

    PrairieLearn's External Grading, Grading results
    (https://docs.prairielearn.com/externalGrading/#grading-results): "`gradable` ... set to
    `false` to indicate that the input was invalid ...: the submission will be marked as
    "invalid, not gradable", no points will be awarded or lost, and the student will not be
    penalized an attempt", `format_errors` (a string or a list of them) saying why: no score
    is given, and the student keeps the attempt.

    Gradescope's Autograder Specifications, Output format
    (https://gradescope-autograders.readthedocs.io/en/latest/specs/) names no field for a
    submission that could not be graded, and `score` is "optional, but required if not on
    each test case".  Writing no file leaves the student the platform's own message that the
    autograder failed, which says nothing of why; so the file gives a score of 0 (replaced
    by the teacher's regrade once the fault is fixed) with `why` as its visible output, in
    plain text (it may quote a path or a command)."""
    if platform == "gradescope":
        return {"score": 0.0, "output": cut(why), "output_format": "text",
                "visibility": "visible", "stdout_visibility": "hidden", "tests": []}
    return {"gradable": False, "message": cut(why), "format_errors": [cut(why)],
            "output": cut(why)}


def results(platform: Platform, outcome: StudentResult, config: TournamentConfig,
            check: list[CheckResult] | None) -> dict[str, Any]:
    return (gradescope if platform == "gradescope" else prairielearn)(outcome, config, check)
