"""Adaptive rounds (`schedule = "adaptive"`): each round's tables chosen from the games stored
before it, where they reduce most the uncertainty of the places.

A round is a pure function of the field, the tables drawn before, the results of their games
and the round's number (`choose_round`): no clock, no global randomness (ties go by a hash of
the seed, the round and the entrant), so a run resumed after a kill, or another machine,
chooses the same round from the same games.  The store keeps every round once chosen
(`store/rounds.py`), so a stored round is never chosen again.

How a round is chosen, table by table:

1. **New entrants first.**  An entrant drawn at fewer than WARM_UP tables anchors the next
   table, fewest first, beside the entrants drawn at fewest tables (as the sample of
   `sampling.py` seats them).  The first rounds of a field are so a uniform sample; a late
   entrant catches up at once.  (A changed entrant's games are superseded and played again
   before any new round, so it is also first.)
2. **Then the places in doubt.**  A Bradley-Terry fit of every pair of finishes (a tie half
   each way) with a weak prior (PRIOR_SD) gives each entrant a strength and the covariance of
   the strengths (the inverse of the Fisher information).  A pair (i, j) is separated, as the
   leaderboard's familywise tests would separate it, once |d| / s > z: d the difference of
   their strengths, s its standard error, z the two-sided Bonferroni quantile at ALPHA over
   all pairs.  A table's worth to a pair is how much one more table moves that pair towards
   being separated: the slope of P(|d| / s > z) in the pair's information, phi(|d|/s - z) *
   |d|/s, times entrant i's share of the pair's variance, times the posterior probability
   that the two differ at all (`differ`); pairs already far apart gain little from it, and
   so do pairs that their games keep level however many they play (identical bots): at an
   ordinary ratio the probability falls about as s does, so that such pairs stop drawing
   table after table (a pair that chance takes near z still draws them, and more games then
   usually take it back).  A place weighs 1/place (the leaderboard is read from the top, and
   prizes are there; 1/place^2 let the top's level pairs draw most tables and starved the
   places below), each entrant at the best place its range allows (1 + those separated
   above it), so a pair weighs by the better of those two.  The best place, not the place
   it holds now: an entrant unlucky so far still reaches up, and is not starved of the games
   that would show it (starving it is how adaptive designs bias their estimates).  Each
   entrant's gain is the sum over its pairs, over the tables it has played plus one (the
   share of its information a table adds).
3. The entrant of largest gain anchors the next table (its gain then halves, for the next
   table it might anchor), beside the entrants worth most to it: its pairs' gain with each,
   plus each one's own gain, for any table of theirs helps them (in a large field the top's
   places are in doubt against hundreds of the tail, each of whom needs games of its own,
   not only games beside the top); one seat goes to the entrant drawn at fewest tables so
   far: never only neighbours, so that the model stays connected and every entrant keeps
   playing (one who played more than its share early waits until the others catch up).

Adaptive pairing can bias a fit (an entrant unlucky early meets others, or plays less): the
fill of step 1, the seat of step 3 and the leaderboard's block model (which compares entrants
within each table's deal) keep it small; `benchmarks/contest.py` measures it (identical
entrants stay level).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

Table = tuple[str, ...]  # entrants sorted by name
Floats = npt.NDArray[np.float64]

WARM_UP = 2  # tables an entrant is drawn at, fewest first, before its results choose
PRIOR_SD = 2.0  # logits: the prior spread of strengths (keeps every fit finite)
ALPHA = 0.05  # the familywise error at which the leaderboard separates two entrants
NEWTON_STEPS = 50  # at most; a fit converges in about ten
QUANTUM = 1e-9  # gains are compared to this share of the largest: no rounding decides


@dataclass(frozen=True)
class Finish:
    """One stored game as the round choice reads it: the entrants by seat and their ranks
    (1 first; tied seats share a rank)."""

    seats: tuple[str, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class Fit:
    """Bradley-Terry strengths (logits, mean 0 over the field) and their covariance."""

    strength: Floats
    cov: Floats


def choose_round(field: Sequence[str], k: int, size: int, seed: int, number: int,
                 drawn: Sequence[Table], games: Iterable[Finish]) -> list[Table]:
    """Round `number`'s `size` tables of `k` of `field` (the entrants that can play), given
    the tables `drawn` in the rounds before and the results of their `games` (module
    docstring).  Fewer than `k` entrants: no table."""
    names = sorted(field)
    n = len(names)
    if n < k or size <= 0:
        return []
    index = {name: i for i, name in enumerate(names)}
    counts = np.zeros(n)
    for table in drawn:
        for name in table:
            if name in index:
                counts[index[name]] += 1
    fit = fit_strengths(n, wins_of(index, games))
    pair_gain = _pair_gains(fit)
    gain = pair_gain.sum(axis=1) / (counts + 1)
    ties = np.array([_hash01(seed, number, name) for name in names])
    used = np.zeros(n)
    anchored = np.zeros(n)
    tables: list[Table] = []
    for _ in range(size):
        seated = counts + used
        cold = seated < WARM_UP
        if cold.any():
            anchor = _least(seated, ties, cold)
            others = _fill(seated, ties, {anchor}, k - 1)
        else:
            anchor = _most(gain / 2 ** anchored, ties, np.ones(n, bool))
            anchored[anchor] += 1
            others = _partners(anchor, pair_gain, fit.strength, used, ties, k - 2,
                               gain / 2 ** anchored)
            others += _fill(seated, ties, {anchor, *others}, 1)
        members = [anchor, *others]
        used[members] += 1
        tables.append(tuple(sorted(names[i] for i in members)))
    return tables


def fit_strengths(n: int, wins: Floats) -> Fit:
    """The maximum a posteriori Bradley-Terry strengths from `wins[i, j]` (how often i
    finished above j), with a N(0, PRIOR_SD^2) prior on each, by Newton's method; the
    covariance is the inverse of the posterior's Fisher information."""
    met = wins + wins.T
    theta = np.zeros(n)
    precision = 1 / PRIOR_SD ** 2
    info = np.eye(n) * precision
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # P(i above j)
        grad = (wins - met * p).sum(axis=1) - theta * precision
        weight = met * p * (1 - p)
        info = -weight
        info[np.diag_indices(n)] = weight.sum(axis=1) + precision
        step = np.linalg.solve(info, grad)
        largest = float(np.abs(step).max()) if n else 0.0
        if largest > 1:  # far from the optimum: a damped step
            step /= largest
        theta += step
        if largest < 1e-9:
            break
    cov = np.asarray(np.linalg.inv(info), dtype=np.float64)
    return Fit(theta - theta.mean(), cov)


def wins_of(index: dict[str, int], games: Iterable[Finish]) -> Floats:
    """wins[i, j]: the finishes of i above j over `games`, a tie half each way; only pairs
    of the field count."""
    n = len(index)
    wins = np.zeros((n, n))
    for game in games:
        seats = [(index.get(name), rank) for name, rank in zip(game.seats, game.ranks,
                                                                strict=True)]
        for a, (i, ra) in enumerate(seats):
            for j, rb in seats[a + 1:]:
                if i is None or j is None:
                    continue
                if ra < rb:
                    wins[i, j] += 1
                elif rb < ra:
                    wins[j, i] += 1
                else:
                    wins[i, j] += 0.5
                    wins[j, i] += 0.5
    return wins


def separation_z(n: int) -> float:
    """The |d| / s beyond which the leaderboard's familywise tests separate a pair: the
    two-sided Bonferroni quantile at ALPHA over the n(n-1)/2 pairs."""
    pairs = max(1, n * (n - 1) // 2)
    return NormalDist().inv_cdf(1 - ALPHA / (2 * pairs))


def _pair_gains(fit: Fit) -> Floats:
    """gains[i, j]: what one more table of i moves the pair (i, j) towards being separated,
    weighed by the better of the best places the two could hold (module docstring)."""
    theta, cov = fit.strength, fit.cov
    n = len(theta)
    var = np.diag(cov)
    pair_var = np.maximum(var[:, None] + var[None, :] - 2 * cov, 1e-12)
    z = separation_z(n)
    ratio = np.abs(theta[:, None] - theta[None, :]) / np.sqrt(pair_var)
    slope = np.exp(-(ratio - z) ** 2 / 2) * ratio  # phi(ratio - z) * ratio, but a constant
    slope *= differ(ratio, pair_var)
    above = theta[None, :] - theta[:, None] > z * np.sqrt(pair_var)  # j separated above i
    best = 1 + above.sum(axis=1)
    gains = slope / np.minimum(best[:, None], best[None, :]) * (var[:, None] / pair_var)
    np.fill_diagonal(gains, 0.0)
    return np.asarray(gains)


def differ(ratio: Floats, pair_var: Floats) -> Floats:
    """The posterior probability that a pair's strengths differ at all, given |d| / s =
    `ratio` at variance `pair_var`: equal or not a priori even, a difference N(0, 2 *
    PRIOR_SD^2) if not.  The Bayes factor's Occam term, sqrt(v / (v + tau^2)), shrinks as a
    level pair's information grows, so that pairs nothing tells apart stop drawing tables;
    near the threshold (ratio about z) the evidence term wins and the pair still counts."""
    tau2 = 2 * PRIOR_SD ** 2
    log_factor = (0.5 * np.log(pair_var / (pair_var + tau2))
                  + ratio ** 2 / 2 * tau2 / (pair_var + tau2))
    return np.asarray(np.exp(-np.logaddexp(0.0, -log_factor)))


def _partners(anchor: int, pair_gain: Floats, strength: Floats, used: Floats,
              ties: Floats, count: int, own: Floats) -> list[int]:
    """The `count` entrants worth most beside the anchor: the gain of their pairs with it
    (either way) plus their `own` gain, each worth less the more tables it already has this
    round; while nothing is known, the nearest in strength."""
    worth = (pair_gain[anchor] + pair_gain[:, anchor] + own) / (1 + used)
    if not worth.max() > 0:
        worth = 1 / (1 + np.abs(strength - strength[anchor])) / (1 + used)
    return _pick(lambda free: _most(worth, ties, free), len(worth), {anchor}, count)


def _fill(seated: Floats, ties: Floats, taken: set[int], count: int) -> list[int]:
    """The `count` entrants drawn at fewest tables (counting this round's), not `taken`."""
    return _pick(lambda free: _least(seated, ties, free), len(seated), taken, count)


def _pick(best: Callable[[npt.NDArray[np.bool_]], int], n: int, taken: set[int],
          count: int) -> list[int]:
    """`count` of n entrants, not `taken`, each the `best` of those still free."""
    free = np.ones(n, bool)
    free[list(taken)] = False
    picked: list[int] = []
    for _ in range(count):
        picked.append(best(free))
        free[picked[-1]] = False
    return picked


def _most(values: Floats, ties: Floats, allowed: npt.NDArray[np.bool_]) -> int:
    """The allowed index of the largest value (compared to QUANTUM of the largest, so that
    no rounding of the fit decides), ties by the hash."""
    top = float(np.abs(values[allowed]).max()) if allowed.any() else 0.0
    level = np.round(values / top / QUANTUM) if top > 0 else np.zeros(len(values))
    level = np.where(allowed, level, -np.inf)
    best = np.flatnonzero(level == level.max())
    return int(best[np.argmin(ties[best])])


def _least(values: Floats, ties: Floats, allowed: npt.NDArray[np.bool_]) -> int:
    """The allowed index of the smallest (whole) value, ties by the hash."""
    level = np.where(allowed, values, np.inf)
    best = np.flatnonzero(level == level.min())
    return int(best[np.argmin(ties[best])])


def _hash01(*parts: object) -> float:
    """A number in [0, 1) from a hash of `parts`: the same on every machine."""
    text = json.dumps(list(parts), separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:7], "big") / 2 ** 56

