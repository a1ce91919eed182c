"""Ratings: a Bradley-Terry fit over every pair of finishes, on the Elo scale.

Each game between k entrants gives k(k-1)/2 pairwise finishes (a tie counts half to each), and
the ratings are the maximum-likelihood strengths of the Bradley-Terry model over all of them at
once (Newton's method on the log-likelihood, `fit`), so the same games in any order give the
same ratings.  The
scale is Elo's: a rating 400 points higher finishes above the other 10 times out of 11, 100
points higher 64% of the time; the mean over the entrants is 0.  As BayesElo does, every pair
of entrants starts with one virtual drawn finish (PRIOR_DRAWS): it keeps the fit finite when an
entrant always finished first or last, and joins entrants that never met, and weighs nothing
next to a tournament's hundreds of finishes.  The interval comes from the bootstrap over deals
that gives the leaderboard's other intervals: each resample refitted, up to REFIT_ENTRANTS
entrants.  In a larger field a refit costs E^3 and a thousand of them minutes, so each
resample's ratings are taken one Newton step from the full fit instead (the bootstrap of the
linearised estimate, whose spread is that of the cluster-robust sandwich over deals):
H^-1 sum_c (w_c - 1) s_c, with s_c the score of deal c and H the information at the full fit.
`benchmarks/report.py --ratings` compares the two intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO = 400 / math.log(10)  # Elo points per unit of the Bradley-Terry log-strength
PRIOR_DRAWS = 1.0
MAX_STEPS = 100  # Newton steps of a fit (it takes a handful)
TOLERANCE = 1e-10  # the largest step, in units of the log-strength, at which a fit stops
TINY = np.finfo(np.float64).tiny  # the least chance a log is taken of
CHART_TOLERANCE = 1e-6  # the same for a chart's points (a ten-thousandth of an Elo point)
REFIT_ENTRANTS = 100  # up to this many entrants, every bootstrap resample is refitted
TOGETHER_ENTRANTS = 32  # up to this many, the resamples' fits step together (`refit`)
# Numbers in one E x E stack of a block of resamples (16 MB); a block's step holds some eight
# such stacks at once: about 130 MB, or 70 MB for 1,000 resamples at 32 entrants.
REFIT_BLOCK = 2_000_000


@dataclass(frozen=True)
class Finishes:
    """Pairwise finishes as rows (game, winner, loser, count): a tie is a half finish each
    way.  Summed per deal (`by_deal`) a bootstrap can reweigh deals cheaply."""

    entrants: int
    game: np.ndarray
    winner: np.ndarray
    loser: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, entrants: int, seats: list[list[int]], ranks: list[list[int]]) -> Finishes:
        g = len(seats)
        k = max((len(s) for s in seats), default=0)
        who = np.full((g, k), -1, dtype=np.int64)
        rank = np.zeros((g, k), dtype=np.int64)
        for i, (s, r) in enumerate(zip(seats, ranks, strict=True)):
            who[i, :len(s)] = s
            rank[i, :len(r)] = r
        parts: list[tuple[np.ndarray, ...]] = []
        for i in range(k):
            for j in range(i + 1, k):
                rows = np.flatnonzero(who[:, j] >= 0)
                a, b = who[rows, i], who[rows, j]
                ra, rb = rank[rows, i], rank[rows, j]
                half = np.where(ra == rb, 0.5, 1.0)
                first_wins = ra <= rb  # a tie: half to a here, half to b below
                parts.append((rows, np.where(first_wins, a, b), np.where(first_wins, b, a),
                              half))
                tied = ra == rb
                parts.append((rows[tied], b[tied], a[tied], np.full(int(tied.sum()), 0.5)))
        if not parts:
            empty = np.zeros(0, dtype=np.int64)
            return cls(entrants, empty, empty, empty, np.zeros(0))
        game, winner, loser, count = (np.concatenate(x) for x in zip(*parts, strict=True))
        return cls(entrants, game, winner, loser, count.astype(np.float64))

    def by_deal(self, deal: np.ndarray) -> Finishes:
        """The same finishes summed per (deal, winner, loser); `game` then holds the deal."""
        e = self.entrants
        key = (deal[self.game] * e + self.winner) * e + self.loser
        unique, inverse = np.unique(key, return_inverse=True)
        count = np.bincount(inverse, weights=self.count)
        return Finishes(e, unique // (e * e), unique // e % e, unique % e, count)

    def matrix(self, weights: np.ndarray | None = None) -> np.ndarray:
        """wins[a, b]: how often a finished above b, each row's `game` (or deal) weighed by
        `weights`."""
        e = self.entrants
        w = self.count if weights is None else self.count * weights[self.game]
        return np.bincount(self.winner * e + self.loser, weights=w,
                           minlength=e * e).reshape(e, e)


def fit(wins: np.ndarray, start: np.ndarray | None = None,
        tolerance: float = TOLERANCE) -> np.ndarray:
    """Elo ratings (mean 0) from a wins matrix, with the prior of virtual draws: the maximum
    of the log-likelihood, by Newton's method from `start` (Elo points) or 0, a step halved
    while it lowers the likelihood, until a step is below `tolerance` (log-strength)."""
    e = len(wins)
    if e == 1:
        return np.zeros(1)
    weights = wins + PRIOR_DRAWS / 2 * (1 - np.eye(e))
    x = np.zeros(e) if start is None else (start - np.mean(start)) / ELO
    now = _Point(weights, x)
    for steps in range(MAX_STEPS):
        step = _solve(now.info, now.score)
        if np.abs(step).max() < tolerance:  # there already: `start` is kept as it is
            if steps == 0 and start is not None:
                return np.array(start, dtype=np.float64)
            break
        while True:
            trial = _Point(weights, now.x + step)
            if trial.log_likelihood >= now.log_likelihood - 1e-12 * abs(
                    now.log_likelihood) or np.abs(step).max() < tolerance:
                break
            step = step / 2
        now = trial
    return np.asarray(now.x * ELO)


class _Point:
    """The log-likelihood at log-strengths x (re-centred on 0), its score and its
    information (minus the Hessian)."""

    def __init__(self, weights: np.ndarray, x: np.ndarray) -> None:
        from scipy.special import expit

        self.x = x - x.mean()
        d = self.x[:, None] - self.x[None, :]
        p = expit(d)  # the chance that the row finishes above the column
        # log p = -log(1 + e^-d), from p: half the time of np.logaddexp at 100 entrants; p
        # is floored only where a wild trial step would make it 0 (the step is then halved).
        self.log_likelihood = float((weights * np.log(np.maximum(p, TINY))).sum())
        total = weights + weights.T
        self.score = weights.sum(axis=1) - (total * p).sum(axis=1)
        curvature = total * p * (1 - p)
        self.info = np.diag(curvature.sum(axis=1)) - curvature


class _Points:
    """`_Point` for many log-strengths at once: x is (n x E), weights (n x E x E)."""

    def __init__(self, weights: np.ndarray, x: np.ndarray) -> None:
        from scipy.special import expit

        self.x = x - x.mean(axis=1, keepdims=True)
        p = expit(self.x[:, :, None] - self.x[:, None, :])
        self.log_likelihood = (weights * np.log(np.maximum(p, TINY))).sum(axis=(1, 2))
        total = weights + weights.transpose(0, 2, 1)
        self.score = weights.sum(axis=2) - (total * p).sum(axis=2)
        curvature = total * p * (1 - p)
        self.info = -curvature
        diagonal = np.arange(x.shape[1])
        self.info[:, diagonal, diagonal] += curvature.sum(axis=2)

    def rows(self, keep: np.ndarray) -> _Points:
        """The same points, those of `keep` alone."""
        out = object.__new__(_Points)
        out.x, out.log_likelihood = self.x[keep], self.log_likelihood[keep]
        out.score, out.info = self.score[keep], self.info[keep]
        return out

    def replace(self, where: np.ndarray, other: _Points) -> None:
        """The points at `where` become `other`'s."""
        self.x[where], self.log_likelihood[where] = other.x, other.log_likelihood
        self.score[where], self.info[where] = other.score, other.info


def _solve_many(info: np.ndarray, score: np.ndarray) -> np.ndarray:
    """`_solve` for a stack of them: info (n x E x E), score (n x E)."""
    e = info.shape[1]
    return np.linalg.solve(info + 1.0 / e, score[:, :, None])[:, :, 0]


def _solve(info: np.ndarray, score: np.ndarray) -> np.ndarray:
    """info^-1 score among ratings of mean 0 (the information is blind to a shift of all of
    them: 11'/E fixes that); `score` may be E x k."""
    import scipy.linalg

    e = len(info)
    return np.asarray(scipy.linalg.cho_solve(scipy.linalg.cho_factor(info + 1.0 / e), score))


def ratings(finishes: Finishes, deal_weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ratings of all games, and a (samples x E) array of them over the bootstrap's
    reweighings of the deals (`finishes` summed `by_deal`; `deal_weights`: samples x deals):
    refitted up to REFIT_ENTRANTS entrants, one Newton step from the full fit beyond."""
    point = fit(finishes.matrix())
    e = finishes.entrants
    if not len(deal_weights):
        return point, np.empty((0, e))
    if e <= REFIT_ENTRANTS:
        return point, refit(finishes, point, deal_weights)
    return point, point + linearised(finishes, point, deal_weights) * ELO


def refit(finishes: Finishes, elo: np.ndarray, deal_weights: np.ndarray) -> np.ndarray:
    """(samples x E) ratings of each reweighing of the deals, each refitted from `elo`: what
    `fit(finishes.matrix(w), elo)` gives for each row w, the resamples' Newton steps taken
    together, a block of them at a time, up to TOGETHER_ENTRANTS (one at a time, Python's
    overhead cost a leaderboard 0.2 s of CPU at five entrants; together, 0.01 s)."""
    e = finishes.entrants
    # Beyond TOGETHER_ENTRANTS numpy's work on each E x E matrix outweighs the overhead; a
    # lone entrant's fit is 0 whatever its start, which `_fit_block` would keep instead.
    if e > TOGETHER_ENTRANTS or e == 1:
        return np.stack([fit(finishes.matrix(w), elo) for w in deal_weights])
    block = max(1, REFIT_BLOCK // max(1, e * e))
    pair = finishes.winner * e + finishes.loser
    out = []
    for first in range(0, len(deal_weights), block):
        w = deal_weights[first:first + block]
        wins = np.zeros((len(w), e * e))
        for row, weights in enumerate(w):
            wins[row] = np.bincount(pair, weights=finishes.count * weights[finishes.game],
                                    minlength=e * e)
        out.append(_fit_block(wins.reshape(len(w), e, e), elo))
    return np.concatenate(out)


def _fit_block(wins: np.ndarray, start: np.ndarray) -> np.ndarray:
    """`fit(wins[i], start)` for every i, by the same steps: Newton's, each halved while it
    lowers its own likelihood, each resample stopping at its own first step below TOLERANCE
    (one that stops at once keeps `start` as it is)."""
    n, e = wins.shape[0], wins.shape[1]
    weights = wins + PRIOR_DRAWS / 2 * (1 - np.eye(e))
    x = np.tile((start - np.mean(start)) / ELO, (n, 1))
    result = np.empty((n, e))
    going = np.arange(n)
    now = _Points(weights, x)
    for steps in range(MAX_STEPS):
        step = _solve_many(now.info, now.score)
        there = np.abs(step).max(axis=1) < TOLERANCE
        result[going[there]] = start if steps == 0 else now.x[there] * ELO
        keep = ~there
        going, weights, step = going[keep], weights[keep], step[keep]
        now = now.rows(keep)
        if not len(going):
            return result
        trial = _Points(weights, now.x + step)
        while True:
            worse = (trial.log_likelihood < now.log_likelihood - 1e-12 * np.abs(
                now.log_likelihood)) & (np.abs(step).max(axis=1) >= TOLERANCE)
            if not worse.any():
                break
            step[worse] /= 2
            trial.replace(worse, _Points(weights[worse], now.x[worse] + step[worse]))
        now = trial
    result[going] = now.x * ELO
    return result


def linearised(finishes: Finishes, elo: np.ndarray, deal_weights: np.ndarray) -> np.ndarray:
    """(samples x E) log-strength shifts of each resample from the full fit `elo`, one
    Newton step: H^-1 sum_c (w_c - 1) s_c."""
    info, per_deal = _deal_scores(finishes, elo, deal_weights.shape[1])
    return _solve(info, ((deal_weights - 1) @ per_deal).T).T


def standard_errors(finishes: Finishes, elo: np.ndarray) -> np.ndarray:
    """Each rating's standard error in Elo points: the cluster-robust sandwich over deals,
    H^-1 (sum_c s_c s_c') H^-1, the spread of `linearised` without drawing resamples."""
    info, per_deal = _deal_scores(finishes, elo)
    half = _solve(info, per_deal.T)  # E x deals
    return np.asarray(np.sqrt((half ** 2).sum(axis=1)) * ELO)


def _deal_scores(finishes: Finishes, elo: np.ndarray, deals: int = 0
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The information at `elo` and the score of each deal's finishes (at least `deals` x
    E)."""
    from scipy.special import expit

    e = finishes.entrants
    at = _Point(finishes.matrix() + PRIOR_DRAWS / 2 * (1 - np.eye(e)), elo / ELO)
    gain = finishes.count * (1 - expit(at.x[finishes.winner] - at.x[finishes.loser]))
    deals = max(deals, int(finishes.game.max()) + 1 if len(finishes.game) else 0)
    per_deal = np.bincount(finishes.game * e + finishes.winner, weights=gain,
                           minlength=deals * e) - np.bincount(
        finishes.game * e + finishes.loser, weights=gain, minlength=deals * e)
    return at.info, per_deal.reshape(deals, e)
