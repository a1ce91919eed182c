"""What a design can resolve: the line a leaderboard prints when it separates nothing, and
the one it prints when its places are still ranges.

A leaderboard on which no pair is separated says why, and what would change it: either the
exact test cannot separate anything on so few deals (its smallest p-value, 2 / 2**C over C
deals, is above the familywise error shared by the pairs), or the differences are small beside
their standard errors.  For the second it names the games that a given difference would need
to be separated 4 times in 5: standard errors shrink as one over the square root of the games,
so the games played are scaled by (se x (z of the Holm step + z of 80% power) / difference)^2,
with the median standard error of the pairs.  A board that separates some pairs but leaves
places as ranges (`narrower`) names the same figure: an organiser who must publish places
otherwise reads `1-63` with no word of what would narrow it.
"""

from __future__ import annotations

import math
import statistics

from .pairs import EXACT_DEALS, Pair, exact_floor

DIFFERENCE = {"placement": 0.1, "win_share": 0.05, "money": 20.0, "rating": 0.1}
UNITS = {"placement": "placement points", "win_share": "win share", "money": "money",
         "rating": "placement points"}
POWER = 0.8
# The intervals are percentiles of a bootstrap over deals: with one deal every resample is
# that deal, and an interval of no width would read as certainty.
ONE_DEAL = ("Every 95% interval is resampled over the deals, and there is one: it shows no "
            "spread, not certainty.")


def minimum_exact_deals(entrants: int, alpha: float) -> int:
    """The fewest deals on which the exact test can separate a pair among `entrants`:
    2 / 2**C (`exact_floor`, two-sided) at most alpha / pairs."""
    pairs = max(1, entrants * (entrants - 1) // 2)
    deals = 1
    while 2 * exact_floor(deals) > alpha / pairs:
        deals += 1
    return deals


# Said of a board whose tables share no entrant (`pairs.table_groups`), after why nothing is
# separated: more deals separate pairs at one table, never pairs across.  Not "never meet": a
# run stopped before the tables that link its field (a budget's prefix) reads the same.
APART = (" Entrants at tables that share no entrant are not compared: no game links them, and "
         "more deals of those tables never will.")
# The same of an adaptive run's board (`grow` given): its later rounds mix the tables.
APART_YET = (" Entrants at tables that share no entrant are not compared: no game links them "
             "yet; more rounds will, as each table seats one who has played least.")


def note(pairs: list[Pair], entrants: int, games: int, deals_per_table: float, primary: str,
         alpha: float, placed: str = "entrants", grow: str | None = None) -> str | None:
    """None when some pair is separated; else the line that says why none is.  `games`: those
    played; `deals_per_table`: the deals each table played, on average, a deal begun and not
    finished counted in part (so that `games / deals_per_table` is a deal of every table);
    `placed`: what the `entrants` placed are called (a gauntlet's "candidates"); `grow`: how
    the design plays more, said instead of the deals of a table a fixed schedule needs (an
    adaptive run's rounds each deal a table once, and more rounds are what it plays)."""
    if not pairs or any(p.separated for p in pairs):
        return None
    line = _why_none(pairs, entrants, games, deals_per_table, primary, alpha, placed, grow)
    if not any(p.paired == "apart" for p in pairs):
        return line
    return line + (APART_YET if grow else APART)


def narrower(pairs: list[Pair], games: int, deals_per_table: float, primary: str,
             alpha: float, grow: str | None = None) -> str | None:
    """The line of a board that separates some pairs but not all (its places still ranges):
    how many games a difference of `DIFFERENCE` would need, as `note` says it of a board that
    separates none, and how to play them; None where every pair or none is separated (`note`
    speaks then), or where the games played are already that many (the differences left are
    smaller: no figure to give)."""
    if not any(p.separated for p in pairs) or all(p.separated for p in pairs):
        return None
    head = "some places are still ranges, where the games cannot order the entrants"
    if grow:
        return f"{head}; {grow}."
    needed = _games_needed(pairs, deals_per_table, primary, alpha, 0)
    if needed is None or needed * games / deals_per_table <= games:
        return None
    diff = DIFFERENCE.get(primary, 0.1)
    return (f"{head}: a difference of {diff:g} {UNITS.get(primary, primary)} would need about "
            f"{round(needed * games / deals_per_table):,} games ({needed:,} deals of every "
            "table) to be separated 4 times in 5; raise deals (or, in a sampled field, tables) "
            "in the file and run it again: the games stored are kept.")


def _games_needed(pairs: list[Pair], deals_per_table: float, primary: str, alpha: float,
                  need: int) -> int | None:
    """The deals of every table that `DIFFERENCE` would need to be separated 4 times in 5
    (never fewer than `need`, the exact test's least); None without a standard error."""
    from scipy.special import ndtri  # what scipy.stats.norm.isf computes, without
    # importing scipy.stats (half a second of a leaderboard's start)

    errors = [p.test.se for p in pairs if math.isfinite(p.test.se) and p.test.se > 0]
    if not errors or deals_per_table <= 0:
        return None
    z = float(-ndtri(alpha / len(pairs) / 2) - ndtri(1 - POWER))  # the normal's upper quantiles
    scale = (statistics.median(errors) * z / DIFFERENCE.get(primary, 0.1)) ** 2
    return max(math.ceil(deals_per_table * scale - 1e-9), need)


def _why_none(pairs: list[Pair], entrants: int, games: int, deals_per_table: float,
              primary: str, alpha: float, placed: str, grow: str | None) -> str:
    m = len(pairs)
    exact = [p.test.deals for p in pairs if p.test.exact]
    head = "no pair is separated"
    need = 0  # deals of a table without which no pair can be separated
    if exact and max(exact) <= EXACT_DEALS and 2 * exact_floor(max(exact)) > alpha / m:
        need = minimum_exact_deals(entrants, alpha)
        deals = f"{max(exact)} deal" + ("" if max(exact) == 1 else "s")
        head = (f"no pair can be separated: with {deals} the exact test's smallest "
                f"p-value is above {alpha:g}/{m}; " + (grow or f"{entrants} {placed} need at "
                                                      f"least {need} deals of a table"))
    errors = [p.test.se for p in pairs if math.isfinite(p.test.se) and p.test.se > 0]
    compared = [p for p in pairs if p.paired != "apart"]  # (the others: no test at all)
    if not errors and compared and all(p.test.diff == 0 and p.test.se == 0 for p in compared):
        return (f"{head}: every pair's results are level in every deal (copies of one bot, "
                "most likely), and no number of games would separate them.")
    # never fewer deals than the exact test needs to separate any
    needed = _games_needed(pairs, deals_per_table, primary, alpha, need)
    if needed is None:
        return head + "."
    diff = DIFFERENCE.get(primary, 0.1)
    # The games are those deals' (a deal of every table: games / deals_per_table), so that
    # the two figures agree, as a run of that many deals would play them.
    every = "" if grow else f" ({needed:,} deals of every table)"  # a fixed schedule's
    return (f"{head}; a difference of {diff:g} {UNITS.get(primary, primary)} would need about "
            f"{round(needed * games / deals_per_table):,} games{every} to be separated 4 "
            "times in 5.")
