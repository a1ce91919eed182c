"""The verdicts: which entrants are separated, with intervals and places.

Every seat order of a deal is dealt the same deck (duplicate format), so the luck of the cards
cancels in a difference between two entrants measured on the same deals.  The games of one deal
are not independent of each other, so the unit of every test here is the deal.

In a complete design (every deal holds every entrant: one table, or a gauntlet) a pair is
compared deal by deal: `d_c` is a's mean minus b's over the games of deal c (at the same
table, or for two candidates of a gauntlet, each at its own), and the test of "a and b are
equally strong" is the sign-flip randomization test over deals, exact up to EXACT_DEALS deals
(every pattern enumerated), else the Student t of the deal-level t statistic.  The interval is
the same test inverted (`_exact_interval`), or the same t interval, so it excludes 0 exactly
where the test rejects.  So are two designs that are complete pair by pair: a gauntlet's
candidates whatever deals each has played (one stopped in mid-deal), and tables that never
meet (each pair at one table on its deals; no pair across).  Everywhere else a pair is
compared by the block model of `blocks.py` (Student t on its CR2 standard error and
Bell-McCaffrey degrees of freedom), which uses every game, including those of pairs that never
met.

`separated` controls the familywise error over all pairs of a leaderboard with Holm's step-down
correction of the two-sided p-values (valid under any dependence between the pairs); each
pair's interval is at level ALPHA / pairs (simultaneous, Bonferroni), so a pair that is not
separated never has an interval that excludes 0.  `benchmarks/verdict.py` measures the rate at
which equal entrants are separated.  `compare`'s `method` "paired" gives the tests used before
the block model in every design, the Welch t on deal means for two entrants that share no deal
included, and "model" the block model in every design but a complete one, as before each pair
was judged on its own deals where tables never meet (both for `benchmarks/verdict.py`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np

from . import allpairs, blocks

ALPHA = 0.05  # familywise error of `separated`, and 1 - the interval's coverage
EXACT_DEALS = 16  # up to this many deals the sign-flip test enumerates every pattern
Pairing = Literal["table", "deal", "none", "model", "apart"]
Method = Literal["auto", "paired", "model"]  # `compare`'s; the last two for benchmarks


def exact_floor(deals: int) -> float:
    """The smallest one-sided p-value the exact sign-flip test can give over `deals` deals,
    the observed signs being one pattern of 2**deals: below it nothing is ever rejected."""
    return 0.5 ** deals


@dataclass(frozen=True)
class Test:
    """One comparison: the difference a - b of a metric with its interval and p-values."""

    __test__ = False  # a statistical test, not one for pytest to collect

    deals: int
    games: int
    diff: float
    low: float | None
    high: float | None
    p: float  # two-sided, for a != b
    p_above: float  # one-sided, for a > b
    p_below: float  # one-sided, for a < b
    los: float  # likelihood of superiority: 1 - the one-sided mid-p of a > b
    exact: bool
    se: float = math.inf  # the standard error of diff (inf: not estimable)


@dataclass(frozen=True)
class Pair:
    """A leaderboard pair: `a` is the entrant listed first in the standings."""

    a: str
    b: str
    paired: Pairing
    test: Test
    p_holm: float
    separated: bool

    def as_dict(self) -> dict[str, object]:
        t = self.test
        return {"a": self.a, "b": self.b, "games": t.games, "deals": t.deals,
                "paired": self.paired, "diff": t.diff, "low": t.low, "high": t.high,
                "los": t.los, "p": self.p_holm, "separated": self.separated}


@cache
def _patterns(deals: int) -> np.ndarray:
    """All 2**deals sign patterns as a (2**deals x deals) array of +-1."""
    return np.array(list(itertools.product((1.0, -1.0), repeat=deals)))


def paired_test(d: np.ndarray, w: np.ndarray, alpha: float = ALPHA) -> Test:
    """The test of deal differences `d` (a - b, a mean per deal) weighted by games `w`, with
    an interval of coverage 1 - alpha."""
    c = len(d)
    total = float(w.sum())
    diff = float((w * d).sum() / total) if c else 0.0
    t_stat, df, se = _t_statistic(w * d, w, diff)
    low, high = _interval(diff, se, df, alpha)
    if c <= EXACT_DEALS:
        low, high = _exact_interval(d, w, alpha)
        sums = _patterns(c) @ (w * d) if c else np.zeros(1)
        observed = float((w * d).sum())
        tol = 1e-9 * max(1.0, float(np.abs(w * d).sum()))
        above = float(np.mean(sums >= observed - tol))
        below = float(np.mean(sums <= observed + tol))
        equal = float(np.mean(np.abs(sums - observed) <= tol))
        p = float(np.mean(np.abs(sums) >= abs(observed) - tol))
        return Test(c, int(total), diff, low, high, p, above, below, 1 - above + equal / 2, True,
                    se)
    p_above, p_below = _t_tails(t_stat, df, diff)
    return Test(c, int(total), diff, low, high, min(1.0, 2 * min(p_above, p_below)), p_above,
                p_below, 1 - p_above if math.isfinite(t_stat) else float(diff > 0), False, se)


def _exact_interval(d: np.ndarray, w: np.ndarray, alpha: float
                    ) -> tuple[float | None, float | None]:
    """The sign-flip test inverted: the shifts delta that neither one-sided test of
    d - delta rejects at alpha / 2.  The one-sided p-value of a shift counts the flipped
    subsets F whose weighted mean of d is on the far side of delta, so the bounds are the
    k-th smallest and k-th largest of the 2**C - 1 subset means, k = floor(alpha/2 * 2**C)
    (unbounded, None, when k is 0).  The interval therefore excludes 0 exactly when the
    one-sided exact test at alpha / 2 rejects."""
    c = len(d)
    k = math.floor(alpha / 2 * 2 ** c + 1e-9)
    if c == 0 or k < 1:
        return None, None
    subsets = (_patterns(c)[1:] < 0).astype(np.float64)  # every non-empty subset
    means = (subsets @ (w * d)) / (subsets @ w)
    low = float(np.partition(means, k - 1)[k - 1])
    high = float(np.partition(means, len(means) - k)[len(means) - k])
    return low, high


def unpaired_test(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray],
                  alpha: float = ALPHA) -> Test:
    """Welch's t on deal means for two entrants that share no deal: each side is (sums per
    deal, games per deal)."""
    (sa, na), (sb, nb) = a, b
    ma, mb = float(sa.sum() / na.sum()), float(sb.sum() / nb.sum())
    diff = ma - mb
    _, dfa, sea = _t_statistic(sa, na, ma)
    _, dfb, seb = _t_statistic(sb, nb, mb)
    games = int(na.sum() + nb.sum())
    deals = len(sa) + len(sb)
    if not (math.isfinite(sea) and math.isfinite(seb)):
        return Test(deals, games, diff, None, None, 1.0, 1.0, 1.0, 0.5, False)
    se = math.sqrt(sea ** 2 + seb ** 2)
    parts = [x ** 4 / k for x, k in ((sea, dfa), (seb, dfb)) if x > 0]
    df = se ** 4 / sum(parts) if parts else float(dfa + dfb)
    t_stat = diff / se if se > 0 else math.copysign(math.inf, diff) if diff else 0.0
    low, high = _interval(diff, se, df, alpha)
    p_above, p_below = _t_tails(t_stat, df, diff)
    return Test(deals, games, diff, low, high, min(1.0, 2 * min(p_above, p_below)), p_above,
                p_below, 1 - p_above, False, se)


def _t_statistic(sums: np.ndarray, games: np.ndarray, mean: float) -> tuple[float, float, float]:
    """(t, degrees of freedom, standard error) of a ratio mean from per-deal sums and games:
    the cluster-robust variance with the small-sample factor C / (C - 1)."""
    c = len(sums)
    if c < 2:
        return 0.0, 0.0, math.inf
    resid = sums - mean * games
    se = math.sqrt(c / (c - 1) * float((resid ** 2).sum())) / float(games.sum())
    if se == 0:
        return (math.copysign(math.inf, mean) if mean else 0.0), c - 1, 0.0
    return mean / se, c - 1, se


def _interval(diff: float, se: float, df: float, alpha: float) -> tuple[float | None, float | None]:
    if not math.isfinite(se) or df <= 0:
        return None, None
    from scipy.special import stdtrit  # here: scipy takes a second to import

    half = float(stdtrit(df, 1 - alpha / 2)) * se
    return diff - half, diff + half


def _t_tails(t_stat: float, df: float, diff: float) -> tuple[float, float]:
    """One-sided p-values (a > b, a < b) of a t statistic."""
    if df <= 0:
        return 1.0, 1.0
    if not math.isfinite(t_stat):
        return (0.0, 1.0) if diff > 0 else (1.0, 0.0)
    from scipy.special import stdtr

    return float(stdtr(df, -t_stat)), float(stdtr(df, t_stat))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the given order."""
    return [float(x) for x in allpairs.holm(np.array(p_values, dtype=np.float64))]


def paired_design(design: blocks.Design) -> bool:
    """Where the paired tests over deals hold for every pair compared: a complete design, in
    which every deal holds every entrant (one table, or a gauntlet), so each pair is compared
    on every deal and the block model's estimate is the paired mean difference; or a
    gauntlet's candidates whatever deals each has played (`alone`); or tables that never meet
    (`table_groups`).  There they are exact up to EXACT_DEALS deals.  Everywhere else the
    block model's t tests do."""
    return design.complete() or alone(design) or table_groups(design) is not None


def alone(design: blocks.Design) -> bool:
    """Every table holds one of the entrants compared: a gauntlet's candidates, its baselines
    left out, so two candidates meet the same opponents in every deal both played, and are
    compared on those deals (a run stopped in mid-deal leaves some candidates a deal short,
    which the block model, finding no two entrants at a table, could compare nobody on)."""
    return bool(len(design.block_size)) and bool((design.block_size == 1).all())


def table_groups(design: blocks.Design) -> np.ndarray | None:
    """Each entrant's group where the design's tables never meet: every table seats one of
    a few groups whole, deal after deal (a sampled final that seats each entrant at one
    table), else None.  Inside a group a pair is compared on its table's deals, as on one
    table; across groups no game links them and nothing is compared.  The block model would
    judge such a pair on its table's deals alone, with Student t on about one degree of
    freedom per two deals, which a discrete result breaks: two deals whose differences tie
    exactly give a standard error of 0 (identical bots separated in a third of simulated
    8-entrant finals of 2 deals)."""
    if design.complete() or not len(design.block_size):
        return None
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components

    tables = sparse.csr_matrix((np.ones(len(design.row_block)),
                                (design.row_entrant, design.row_block)),
                               shape=(design.entrants, len(design.block_size)))
    _, group = connected_components(tables @ tables.T, directed=False)
    size = np.bincount(group, minlength=design.entrants)
    whole = design.block_size[design.row_block] == size[group[design.row_entrant]]
    return np.asarray(group) if bool(whole.all()) and size.max() > 1 else None


def compare(names: list[str], deal: np.ndarray, values: np.ndarray, present: np.ndarray,
            alpha: float = ALPHA, method: Method = "auto") -> list[Pair]:
    """Every pair of `names` (in that order: a before b) on a G x E metric `values`, with games
    in deals `deal` (G ints) and `present` (G x E, 1.0 where the entrant played).  Each
    pair's interval has simultaneous coverage 1 - alpha over all the pairs (Bonferroni), so a
    pair whose interval excludes 0 is one that Holm separates.  `method` (for
    `benchmarks/verdict.py`): "paired", the paired tests in every design, as before the
    block model; "model", the block model wherever the design is not complete."""
    m = len(names) * (len(names) - 1) // 2
    each = alpha / max(m, 1)
    design = blocks.Design.of(deal, present, values)
    found: list[tuple[str, str, Pairing, Test]] = []
    groups = table_groups(design) if method == "auto" else None
    if method == "paired" or design.complete() or groups is not None or (
            method == "auto" and alone(design)):
        n_deals = int(deal.max()) + 1 if len(deal) else 0
        index = {n: i for i, n in enumerate(names)}
        for a, b in itertools.combinations(names, 2):
            i, j = index[a], index[b]
            if groups is not None and groups[i] != groups[j]:  # no game links them
                found.append((a, b, "apart", _apart(deal, present[:, i], present[:, j])))
                continue
            pairing, test = _compare_one(deal, n_deals, values[:, i], values[:, j],
                                         present[:, i], present[:, j], each)
            found.append((a, b, pairing, test))
    else:
        found = _model_tests(names, deal, present, design, each)
    adjusted = holm([t.p for *_, t in found])
    return [Pair(a, b, pairing, test, p, p <= alpha)
            for (a, b, pairing, test), p in zip(found, adjusted, strict=True)]


def _model_tests(names: list[str], deal: np.ndarray, present: np.ndarray,
                 design: blocks.Design, alpha: float) -> list[tuple[str, str, Pairing, Test]]:
    """Every pair by the block model (`allpairs.model_tests`): Student t of the contrast on
    its CR2 standard error and Bell-McCaffrey degrees of freedom, interval of coverage
    1 - alpha."""
    arrays = allpairs.model_tests(deal, present, design, alpha)
    a, b = np.triu_indices(len(names), 1)
    columns = [x[a, b].tolist() for x in (
        arrays.diff, arrays.se, arrays.bounded, arrays.low, arrays.high, arrays.p,
        arrays.p_above, arrays.p_below, arrays.games, arrays.deals)]
    found: list[tuple[str, str, Pairing, Test]] = []
    for i, j, diff, se, bounded, low, high, p, above, below, games, deals in zip(
            a.tolist(), b.tolist(), *columns, strict=True):
        test = Test(deals, games, diff, low, high, p, above, below, 1 - above, False, se) \
            if bounded else Test(deals, games, diff, None, None, 1.0, 1.0, 1.0, 0.5, False)
        found.append((names[i], names[j], "model", test))
    return found


def _apart(deal: np.ndarray, pa: np.ndarray, pb: np.ndarray) -> Test:
    """Two entrants that no game links: not compared (unbounded, p 1), with the deals and
    games in which either played."""
    either = (pa > 0) | (pb > 0)
    return Test(len(np.unique(deal[either])), int(either.sum()), 0.0, None, None, 1.0, 1.0,
                1.0, 0.5, False)


def versus(deal: np.ndarray, a: tuple[np.ndarray, np.ndarray],
           b: tuple[np.ndarray, np.ndarray], alpha: float = ALPHA) -> tuple[Pairing, Test]:
    """One comparison a - b, each side (values, present) as G-long columns: for grading,
    where each candidate meets each baseline once and no familywise correction applies."""
    n_deals = int(deal.max()) + 1 if len(deal) else 0
    return _compare_one(deal, n_deals, a[0], b[0], a[1], b[1], alpha)


def _compare_one(deal: np.ndarray, n_deals: int, xa: np.ndarray, xb: np.ndarray,
                 pa: np.ndarray, pb: np.ndarray, alpha: float = ALPHA
                 ) -> tuple[Pairing, Test]:
    def per_deal(x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (np.bincount(deal, weights=x * mask, minlength=n_deals),
                np.bincount(deal, weights=mask, minlength=n_deals))

    both = pa * pb
    if both.any():  # at the same tables: the difference in each game they shared
        sums, games = per_deal(xa - xb, both)
        kept = games > 0
        return "table", paired_test(sums[kept] / games[kept], games[kept], alpha)
    sa, na = per_deal(xa, pa)
    sb, nb = per_deal(xb, pb)
    shared = (na > 0) & (nb > 0)
    if shared.any():  # the same deals at other tables (a gauntlet's candidates)
        d = sa[shared] / na[shared] - sb[shared] / nb[shared]
        return "deal", paired_test(d, np.minimum(na[shared], nb[shared]), alpha)
    return "none", unpaired_test((sa[na > 0], na[na > 0]), (sb[nb > 0], nb[nb > 0]), alpha)


def places(names: list[str], pairs: list[Pair]) -> dict[str, tuple[int, int]]:
    """Each entrant's range of places: 1 + the entrants separated above it, to the number of
    entrants less those separated below it."""
    above = dict.fromkeys(names, 0)
    below = dict.fromkeys(names, 0)
    for pair in pairs:
        if pair.separated:
            better, worse = (pair.a, pair.b) if pair.test.diff > 0 else (pair.b, pair.a)
            above[worse] += 1
            below[better] += 1
    return {n: (1 + above[n], len(names) - below[n]) for n in names}
