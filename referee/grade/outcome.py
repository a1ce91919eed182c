"""What one submission earned: its status, its results against each baseline, and the grade
the config's rules give it.

A rule's "beats X" holds only when the paired one-sided test over deals separates the student's
mean placement points above X's (`referee.leaderboard.pairs`), at 1 - `[grading] confidence`:
the luck of the cards, which decided grades when raw means were compared, then gives a copy of
a baseline "beats" at most that often.  A rule that needs several baselines needs every test
to pass, each at that level (an intersection-union test, which needs no correction).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.check import CheckResult
from referee.leaderboard.stats import Games, versus
from referee.match.player import FATAL_FAULTS
from referee.match.record import FaultKind
from referee.tournament.config import GradeRule, TournamentConfig

STATUSES = ("ok", "build failed", "failed the check", "crashed", "timed out")
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
class Outcome:
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
    feedback: str = ""


def status_from_check(results: list[CheckResult]) -> str:
    """The status a submission's conformance check gives it (one of STATUSES)."""
    failed = [r for r in results if not r.passed]
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
    return "; ".join(parts) or "works"


def grade_for(outcome: Outcome, config: TournamentConfig) -> tuple[str, str]:
    """The grade and the rule that gave it: the first rule whose baselines the bot beats, and
    is level with or beats, at the placement it asks; else `otherwise` (`broken`)."""
    grading = config.grading
    if outcome.status != "ok" or outcome.placement is None:
        return grading.broken, "broken"
    mine = outcome.placement["mean"]
    verdict = {b: v.verdict for b, v in outcome.versus.items()}
    for rule in grading.rules:
        if all(verdict.get(b) == "beats" for b in rule.beats) and \
                all(verdict.get(b) in ("beats", "level") for b in rule.level_with) and \
                (rule.min_placement is None or mine >= rule.min_placement):
            return rule.grade, rule_text(rule)
    return grading.otherwise, "otherwise"
