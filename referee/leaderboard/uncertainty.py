"""What a schedule that plays where the places are still open asks of the stored games every
round: each entrant's strength, its standard error and its range of places, as arrays.

The places are the standings' own (the same tests, the same Holm correction, the same order),
but nothing else of the standings is computed: no bootstrap, no rating intervals, no object
per pair: about 5 s of CPU at 1,000 entrants and 12,000 games (`benchmarks/report.py --field
1000 --uncertainty`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import allpairs, blocks
from .pairs import ALPHA, paired_design
from .rating import standard_errors
from .stats import Games, finishes, ratings, strengths, verdicts
from .unstarted import below_the_rest_arrays, never_started


@dataclass(frozen=True)
class Uncertainty:
    """The field best first, as the standings order it by the primary metric."""

    names: list[str]
    strength: np.ndarray  # the standings' `strength` (Elo when the primary metric is rating)
    se: np.ndarray  # its standard error (inf: the entrant played one deal only)
    best: np.ndarray  # the best place each entrant could hold (1 is first)
    worst: np.ndarray  # its worst
    games: np.ndarray  # games played

    def places(self) -> dict[str, tuple[int, int]]:
        """Each entrant's range of places, as the standings' `place`."""
        return {n: (int(b), int(w)) for n, b, w in zip(self.names, self.best, self.worst,
                                                       strict=True)}

    def open(self) -> list[str]:
        """The entrants whose place is not settled (best < worst), best first."""
        return [n for n, b, w in zip(self.names, self.best, self.worst, strict=True) if b < w]


def uncertainty(games: Games, primary: str = "placement", alpha: float = ALPHA) -> Uncertainty:
    """The strengths, their standard errors and the places of `games` by `primary`, with the
    familywise error `alpha` of the standings."""
    e = len(games.names)
    if not e:
        empty = np.zeros(0)
        return Uncertainty([], empty, empty, empty.astype(np.int64), empty.astype(np.int64),
                           empty.astype(np.int64))
    design = blocks.Design.of(games.deal, games.present, games.metric(primary))
    model = blocks.fit(design)
    if primary == "rating":
        score = np.array(ratings(games))
        se = standard_errors(finishes(games), score)
    else:
        score = strengths(games, primary, model.theta)
        se = np.where(model.entrant_clusters < 2, np.inf, model.cov.diagonal().clip(0) ** 0.5)
    # placed below the rest by rule (docs/rules.md D9)
    never = never_started(games.names, games.present, games.faults)
    ranked = sorted(range(e), key=lambda i: (games.names[i] in never, -float(score[i]),
                                             games.names[i]))
    names = [games.names[i] for i in ranked]
    if paired_design(design) or e < 2:  # one table, a gauntlet, tables sharing no entrant:
        # the standings' paired tests (`pairs.paired_design`)
        _, ranges = verdicts(games, names, primary, alpha)
        best = np.array([ranges[n][0] for n in names])
        worst = np.array([ranges[n][1] for n in names])
    else:
        tests = allpairs.model_tests(games.deal, games.present, design,
                                     alpha / (e * (e - 1) / 2), model)
        a, b = np.triu_indices(e, 1)
        separated = np.zeros((e, e), dtype=bool)
        separated[a, b] = allpairs.holm(tests.p[a, b]) <= alpha
        separated |= separated.T
        low, high = allpairs.places(tests.diff, separated)
        best, worst = low[ranked], high[ranked]
    best, worst = below_the_rest_arrays(names, best, worst, never)
    played = games.present.sum(axis=0).astype(np.int64)
    return Uncertainty(names, score[ranked], np.asarray(se)[ranked], best, worst,
                       played[ranked])
