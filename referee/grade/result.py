"""What one submission earned: its status, its results against each baseline, and the grade
the config's rules give it.

A rule's "beats X" holds only when the paired one-sided test over deals separates the student's
mean placement points above X's (`referee.leaderboard.pairs`), at 1 - `[grading] confidence`:
the luck of the cards, which decided grades when raw means were compared, then gives a copy of
a baseline "beats" at most that often.  A rule that needs several baselines needs every test
to pass, each at that level (an intersection-union test, which needs no correction).

Points (`[grading] points`) are partial credit beside the grade: so much per check passed, per
baseline beaten, and times the mean placement points and the win share of its games.  Every
student meets the same deals in the same seat orders, so the means compare students on the
same cards; a rule's `min_points` can ask for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.check import CHECK_COUNT, MOVE_TIME_CHECK, CheckResult
from referee.leaderboard.stats import Games, versus
from referee.match.player import FATAL_FAULTS
from referee.protocol.messages import FaultKind
from referee.text import counted
from referee.tournament.config import TournamentConfig
from referee.tournament.grading_table import GradeRule, Points

# "timed out": too slow in the check (its answers past the move time and bank, or no hello
# within the start-up time); OUT_OF_TIME: its grading ran past `[limits] submission_time`, a
# budget of the grading's, not a limit of the game's.
OUT_OF_TIME = "out of grading time"
STATUSES = ("ok", "no bot found", "too large", "build failed", "failed the check", "crashed",
            "timed out", OUT_OF_TIME)
VERDICTS = ("beats", "level", "below")


@dataclass
class Versus:
    """The student against one baseline: the difference of mean placement points (the
    student's less the baseline's) over the deals they shared, its two-sided interval at
    2 * confidence - 1 (so that each end is a one-sided bound at the confidence), the
    one-sided p-values of the paired test and the verdict they give."""

    verdict: str  # one of VERDICTS
    diff: float
    low: float | None  # None: unbounded (fewer than 2 deals)
    high: float | None
    p_above: float
    p_below: float
    deals: int


@dataclass
class StudentResult:
    student: str
    status: str
    digest: str
    grade: str = ""
    rule: str = ""  # which rule gave the grade ("beats random-1, random-2"), or otherwise/broken
    games: int = 0
    win_share: float | None = None
    placement: dict[str, float] | None = None
    money: dict[str, float] | None = None
    baselines: dict[str, float] = field(default_factory=dict)  # each one's mean placement
    versus: dict[str, Versus] = field(default_factory=dict)
    faults: dict[str, int] = field(default_factory=dict)
    checks: int = 0  # checks of `referee check` run (none when it did not get that far)
    checks_passed: int = 0
    points: float = 0.0
    feedback: str = ""


def status_of_problem(problem: str) -> str:
    """The status of a submission that could not be used: "no bot found" when the folder holds
    nothing recognisable as a bot (empty, or no bot.toml and no file of the conventions),
    else "build failed" (a broken bot.toml, a folder that cannot be read).  One over the
    size limits is "too large" (`Submission.over_limit`)."""
    return "no bot found" if problem.startswith("no bot found") else "build failed"


def status_from_check(results: list[CheckResult]) -> str:
    """The status a submission's conformance check gives it (one of STATUSES).  Answers over
    the move time alone do not fail it: the time bank pays for them in its games, where the
    feedback counts them (`in_games.add_overruns`); the check's verdict still shows."""
    failed = [r for r in results if not r.passed and r.name != MOVE_TIME_CHECK]
    kinds = set().union(*(r.kinds for r in failed))
    if not failed:
        return "ok"
    if any(FaultKind.START in r.kinds and r.reason.startswith("no hello within")
           for r in failed):
        return "timed out"  # too slow to start, not broken
    if kinds & FATAL_FAULTS:
        return "crashed"
    if FaultKind.TIMEOUT in kinds:
        return "timed out"
    return "failed the check"


def compare(games: Games, name: str, baselines: list[str], confidence: float
            ) -> dict[str, Versus]:
    """`name` against each baseline by the paired one-sided tests over deals: "beats" when
    separated above it at 1 - confidence, "below" when separated below, else "level"."""
    alpha = 1 - confidence + 1e-9  # an exact p of 1/32 meets a confidence of 31/32
    out = {}
    for b in baselines:
        if b not in games.names:
            continue
        # The interval of coverage 2 * confidence - 1 excludes zero where the one-sided
        # test at `confidence` separates.
        _pairing, t = versus(games, name, b, "placement", alpha=2 * (1 - confidence))
        verdict = "beats" if t.p_above <= alpha else "below" if t.p_below <= alpha else "level"
        out[b] = Versus(verdict, t.diff, t.low, t.high, t.p_above, t.p_below, t.deals)
    return out


def rule_text(rule: GradeRule) -> str:
    """A rule in words, as grades.csv and the feedback name it."""
    parts = []
    if rule.beats:
        parts.append("beats " + ", ".join(rule.beats))
    if rule.level_with:
        parts.append("level with " + ", ".join(rule.level_with))
    if rule.min_placement is not None:
        parts.append(f"placement >= {rule.min_placement:g}")
    if rule.min_points is not None:
        parts.append(f"points >= {rule.min_points:g}")
    text = "; ".join(parts) or "works"
    return text + " (any status)" if rule.also_broken else text


def works(outcome: StudentResult) -> bool:
    return outcome.status == "ok" and outcome.placement is not None


def meets(rule: GradeRule, outcome: StudentResult) -> bool:
    """Whether `outcome` meets each condition of `rule` (one without games meets none that
    asks about them)."""
    verdict = {b: v.verdict for b, v in outcome.versus.items()}
    mine = None if outcome.placement is None else outcome.placement["mean"]
    return (all(verdict.get(b) == "beats" for b in rule.beats)
            and all(verdict.get(b) in ("beats", "level") for b in rule.level_with)
            and (rule.min_placement is None or (mine is not None and mine >= rule.min_placement))
            and (rule.min_points is None or outcome.points >= rule.min_points - 1e-9))


def missing(rule: GradeRule, outcome: StudentResult) -> list[str]:
    """What `outcome` lacks to meet `rule`, in words."""
    verdict = {b: v.verdict for b, v in outcome.versus.items()}
    out = _grouped("beat", [b for b in rule.beats if verdict.get(b) != "beats"], verdict)
    out += _grouped("be level with", [b for b in rule.level_with
                                      if verdict.get(b) not in ("beats", "level")], verdict)
    mine = None if outcome.placement is None else outcome.placement["mean"]
    if rule.min_placement is not None and (mine is None or mine < rule.min_placement):
        out.append(f"mean placement points of {rule.min_placement:g} (now "
                   f"{'none' if mine is None else f'{mine:.3f}'})")
    if rule.min_points is not None and outcome.points < rule.min_points - 1e-9:
        out.append(f"{rule.min_points:g} points (now {outcome.points:g})")
    return out


def _grouped(verb: str, baselines: list[str], verdict: dict[str, str]) -> list[str]:
    """`verb` each of `baselines`, those with one verdict now together: "beat random-1 and
    random-2 (each now level)"."""
    by_now: dict[str, list[str]] = {}
    for b in baselines:
        by_now.setdefault(verdict.get(b, "not played"), []).append(b)
    out = []
    for now, names in by_now.items():
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        state = "not played" if now == "not played" else f"now {now}"
        out.append(f"{verb} {listed} ({'' if len(names) == 1 else 'each '}{state})")
    return out


def grade_for(outcome: StudentResult, config: TournamentConfig) -> tuple[str, str]:
    """The grade and the rule that gave it: the first rule the bot meets (a bot that does not
    work: the first that says `also_broken`); else `otherwise` (`broken`)."""
    grading = config.grading
    for rule in grading.rules:
        if (works(outcome) or rule.also_broken) and meets(rule, outcome):
            return rule.grade, rule_text(rule)
    return (grading.otherwise, "otherwise") if works(outcome) else (grading.broken, "broken")


def points_earned(outcome: StudentResult, points: Points) -> list[tuple[str, float]]:
    """Each part of the points `outcome` earned, in words, with its points (the parts the
    config gives none for left out)."""
    parts = []
    if points.check:
        parts.append((f"{outcome.checks_passed} of {outcome.checks} checks passed, "
                      f"{points.check:g} each" if outcome.checks else unchecked(outcome),
                      outcome.checks_passed * points.check))
    if points.placement:
        mean = 0.0 if outcome.placement is None else outcome.placement["mean"]
        parts.append((f"mean placement points {mean:.3f} times {points.placement:g}"
                      if outcome.games else "no game played for placement points",
                      mean * points.placement))
    if points.win_share:
        share = outcome.win_share or 0.0
        parts.append((f"win share {share:.3f} times {points.win_share:g}"
                      if outcome.games else "no game played for a win share",
                      share * points.win_share))
    if points.beats:
        beaten = sum(v.verdict == "beats" for v in outcome.versus.values())
        parts.append((f"{counted(beaten, 'baseline')} beaten, {points.beats:g} each",
                      beaten * points.beats))
    return parts


def unchecked(outcome: StudentResult) -> str:
    """The check's points of a submission whose check did not run to its end, in words a
    student reads as such: "no check counts" left one with no bot wondering why."""
    if outcome.status == OUT_OF_TIME:
        return f"0 of {CHECK_COUNT} checks counted, its check cut short by the grading time"
    return f"0 of {CHECK_COUNT} checks passed, none having run"


def total_points(outcome: StudentResult, points: Points) -> float:
    return round(sum(p for _, p in points_earned(outcome, points)), 2)


# The faults of a bot's games by kind, as `outcome.faults` keys them, in words (one, more);
# its seat's retirements follow from them and a long stderr is cut, not a fault of its play.
FAULT_WORDS = {"crashes": ("crash", "crashes"), "timeouts": ("timeout", "timeouts"),
               "illegal_or_malformed": ("illegal or malformed answer",
                                        "illegal or malformed answers"),
               "exits_between_games": ("exit between games", "exits between games")}
NOT_FAULTS = ("stderr_over_limit", "retirements")


def fault_count(outcome: StudentResult) -> int:
    """The faults of its games, as grades.csv's `faults` and its feedback count them."""
    return sum(n for kind, n in outcome.faults.items() if kind not in NOT_FAULTS)


def games_faults(outcome: StudentResult) -> str:
    """The faults of a working bot's games ("10 faults in its 60 games (10 crashes)"), or "":
    `ok` says it built, passed the check and played, which a bot that crashed in a sixth of
    its games also did, and the teacher's line and the student's status said no more."""
    told = fault_count(outcome)
    if outcome.status != "ok" or not told or not outcome.games:
        return ""
    kinds = ", ".join(f"{n} {FAULT_WORDS.get(kind, (kind, kind))[n != 1]}"
                      for kind, n in sorted(outcome.faults.items(), key=lambda kn: -kn[1])
                      if n and kind not in NOT_FAULTS)
    return f"{told} fault{'s' * (told != 1)} in its {outcome.games} games ({kinds})"

def done_line(outcome: StudentResult) -> str:
    """What grading says as a submission is done: its status, grade and points, and a working
    bot's faults in its games (`games_faults`)."""
    faults = games_faults(outcome)
    return (f"{outcome.status}, grade {outcome.grade}, {outcome.points:g} points"
            + (f"; {faults}" if faults else ""))
