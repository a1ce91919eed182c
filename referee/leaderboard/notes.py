"""The notes under the leaderboard's tables, in words an entrant reads without the docs: what
the strength is and when it shows, the pairs' test, and the entrants not placed as the
others (never started, left out, with no games yet, a gauntlet's baselines)."""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Sequence

from referee.text import visible

from .methods import separated_note
from .pairs import ALPHA, Pair
from .rows import StandingRow

# What the pairs compare for each primary metric (`Games.metric`: a rating by placement points).
PAIR_METRIC = {"placement": "placement points", "win_share": "win share", "money": "money",
               "rating": "placement points"}


def md(text: str) -> str:
    """A name as Markdown shows it as it is: its control characters `visible`, then `_`, `*`
    and friends escaped."""
    return "".join("\\" + c if c in "\\`*_[]<>|#+-.!" else c for c in visible(text))


# The strength's note, in words an entrant reads without the docs: what the figure is, why
# the table shows it (the rule of `strength_shown`), and where its method is explained.
STRENGTH_NOTE = ("strength: what each bot's {metric} would be had every bot met the same "
                 "opponents: its mean adjusted for whom it met{cards}. It orders the table, "
                 "shown because {why}; being an adjustment, it can fall outside the range of "
                 "the mean (the block model: docs/statistics.md)")


def strength_note(primary: str) -> str:
    """The note under a table that shows the strength (`strength_shown`).  Money's strength
    also takes out the cards, as a table's total money varies from deal to deal, so money
    shows it at any two tables; placement points and win share, whose total at a table is
    fixed, only where the bots did not all meet alike."""
    money = primary == "money"
    return STRENGTH_NOTE.format(
        metric=PAIR_METRIC[primary],
        cards=" and for the money its tables' cards made" if money else "",
        why="the bots played at different tables" if money
        else "the bots did not all meet alike")


BASELINES_NOTE = ("baselines (at every candidate's table, the yardstick of this gauntlet, "
                  "shown for their figures and not placed: the places rank the candidates "
                  "alone, by the pairs of candidates): {names}")
# The digits the primary metric is shown with, and so its strength (a win share: 0.333 is
# shown as 33.3%).
DIGITS = {"placement": 3, "money": 1, "win_share": 3}
NOTE_WIDTH = 100  # a note's lines under a terminal table: the table itself fits 120 columns
MS_NOTE = ("ms: response times read from histograms of quarter-octave buckets, so bots share "
           "values; each is within about 9% of the true time")


def fixed(value: float, digits: int) -> str:
    """`value` to `digits` places, with no minus sign on a zero (a fit's -0.0000001)."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def _strength(r: StandingRow, primary: str) -> str:
    return fixed(r.strength, DIGITS[primary])


def strength_shown(rows: list[StandingRow], primary: str) -> bool:
    """Whether the table, and the report's standings, show the strength that orders them (one
    rule for both, said in `leaderboard --help`): where it says more than the plain mean, that
    is, where it is not the mean itself (one table) nor the mean spread about the field's
    average by one factor (a complete round robin by placement or win share: the same order,
    on a wider scale, docs/statistics.md), and differs from some mean as shown.  A rule of
    the design, not of luck: an entrant can tell from the schedule whether it shows (a
    rating orders by itself, and never shows it)."""
    if primary not in DIGITS or not rows:
        return False
    digits = DIGITS[primary]
    if all(_strength(r, primary) == f"{r.metric(primary).centre:.{digits}f}" for r in rows):
        return False
    means = [r.metric(primary).centre for r in rows]
    strengths = [r.strength for r in rows]
    low, high = means.index(min(means)), means.index(max(means))
    # The fits are exact to about 1e-12: a factor shared by every row to 1e-9 is the design's.
    tolerance = 1e-9 * max(1.0, *map(abs, means), *map(abs, strengths))
    if means[high] - means[low] <= tolerance:
        return True  # level means, strengths not: the adjustment alone tells them apart
    factor = (strengths[high] - strengths[low]) / (means[high] - means[low])
    return factor <= 0 or any(
        abs(s - strengths[low] - factor * (m - means[low])) > tolerance
        for m, s in zip(means, strengths, strict=True))


def wrapped(note: str, fmt: str) -> str:
    """A note under a terminal table, in lines that fit beside it (Markdown wraps its own)."""
    return note if fmt == "github" else textwrap.fill(note, NOTE_WIDTH)


def no_games_line(names: Sequence[str], fmt: str) -> str:
    """The entrants of the last run's file that sit at no table of the games stored (an
    adaptive run's entrants not seated yet, a run stopped early): not on the board, and not
    forgotten by it."""
    show = md if fmt == "github" else visible
    return (f"no games yet: {', '.join(show(n) for n in names)}: in the last run's file, at no "
            "table of the games stored so far, so not placed")


def left_out_lines(left_out: dict[str, str], fmt: str) -> str:
    """The entrants left out of the last run, with why, under the tables."""
    if fmt == "github":
        return "\n".join(f"- left out: **{md(n)}**: {md(why)}" for n, why in left_out.items())
    return "\n".join(f"left out: {visible(n)}: {visible(why)}" for n, why in left_out.items())


def method_note(primary: str, pairs: Sequence[Pair]) -> str:
    """Which test gave `separated`, and what error it controls."""
    return (f"a - b: the difference in {PAIR_METRIC.get(primary, primary)}, with its interval "
            f"of simultaneous {1 - ALPHA:.0%} coverage over the {len(pairs)} pairs (it excludes 0 "
            "only for a separated pair, and a separated pair's may still hold 0: the verdict "
            "steps down Holm's levels, the interval keeps the strictest; unbounded: too few "
            "deals to bound it); LOS: 1 minus "
            "the one-sided p-value of a being the stronger, a measure and not a verdict (two "
            "copies of one bot can show anything from 0% to 100%): only separated is one.\n"
            + separated_note(pairs))


def never_started_line(names: Sequence[str], baselines: Collection[str] = ()) -> str:
    """Why the entrants that started in none of their games hold the last places; a
    gauntlet's baseline among them holds none, and is said apart: the candidates met an
    empty seat where their yardstick should have been."""
    placed = [n for n in names if n not in baselines]
    yard = [n for n in names if n in baselines]
    parts = []
    if placed:
        one = len(placed) == 1
        parts.append(f"started in none of {'its' if one else 'their'} games: "
                     f"{', '.join(visible(n) for n in placed)}; placed below every bot that "
                     "started, by rule (docs/rules.md D9)"
                     + ("" if one else ", and among themselves by the tests"))
    if yard:
        one = len(yard) == 1
        parts.append(f"the baseline{'' if one else 's'} {', '.join(visible(n) for n in yard)} "
                     f"started in none of {'its' if one else 'their'} games: "
                     f"{'its seat was' if one else 'their seats were'} retired at the start "
                     "of every game, so the candidates were measured without "
                     f"{'it' if one else 'them'}")
    return "; ".join(parts)
