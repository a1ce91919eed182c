"""Ratings: a Bradley-Terry fit over every pair of finishes, on the Elo scale.

Each game between k entrants gives k(k-1)/2 pairwise finishes (a tie counts half to each), and
the ratings are the maximum-likelihood strengths of the Bradley-Terry model over all of them at
once (`choix.ilsr_pairwise_dense`), so the same games in any order give the same ratings.  The
scale is Elo's: a rating 400 points higher finishes above the other 10 times out of 11, 100
points higher 64% of the time; the mean over the entrants is 0.  As BayesElo does, every pair
of entrants starts with one virtual drawn finish (PRIOR_DRAWS): it keeps the fit finite when an
entrant always finished first or last, and joins entrants that never met, and weighs nothing
next to a tournament's hundreds of finishes.  The interval comes from the bootstrap over deals
that gives the leaderboard's other intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO = 400 / math.log(10)  # Elo points per unit of the Bradley-Terry log-strength
PRIOR_DRAWS = 1.0


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


def fit(wins: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """Elo ratings (mean 0) from a wins matrix, with the prior of virtual draws."""
    e = len(wins)
    if e == 1:
        return np.zeros(1)
    import choix  # here: it imports scipy, which takes a second

    prior = PRIOR_DRAWS / 2 * (1 - np.eye(e))
    params = choix.ilsr_pairwise_dense(wins + prior, initial_params=start, max_iter=1000)
    params = params - params.mean()
    return np.asarray(params * ELO)


def ratings(finishes: Finishes, deal_weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ratings of all games, and a (samples x E) array of them over the bootstrap's
    reweighings of the deals (`finishes` summed `by_deal`; `deal_weights`: samples x deals)."""
    point = fit(finishes.matrix())
    start = point / ELO
    boot = np.stack([fit(finishes.matrix(w), start) for w in deal_weights]) \
        if len(deal_weights) else np.empty((0, finishes.entrants))
    return point, boot
