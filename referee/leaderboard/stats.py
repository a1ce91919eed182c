"""Leaderboard statistics over stored games.

Luck is large in a four-player game, so every mean comes with a 95% interval from a bootstrap
that resamples whole deals: the games of one deal share a deck, so they are not independent,
while deals are.  Ratings are a Bradley-Terry fit over all games at once (`rating.py`).  Who is
ahead of whom, and so each entrant's range of places, comes from the paired tests of
`pairs.py`, which compare entrants on the deals they played alike.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from referee.match.result import GameResult, StoredResult
from referee.protocol.messages import FaultKind

from . import blocks, resolution
from . import pairs as paired
from .rating import CHART_TOLERANCE, Finishes, fit
from .rating import ratings as fit_ratings
from .rows import (
    FaultCounts,
    HeadToHead,
    Interval,
    Meetings,
    Place,
    Rating,
    ResponseTimes,
    SeatRow,
    StandingRow,
)
from .unstarted import below_the_rest, never_started

BOOTSTRAP_SAMPLES = 1000
FAULT_GROUPS: dict[str, tuple[FaultKind, ...]] = {
    "timeouts": (FaultKind.TIMEOUT,),
    "illegal_or_malformed": (FaultKind.ILLEGAL, FaultKind.MALFORMED, FaultKind.WRONG_ID),
    "crashes": (FaultKind.CRASH, FaultKind.START),
    "stderr_over_limit": (FaultKind.STDERR,),
    "exits_between_games": (FaultKind.EXIT,),
}
METRICS = ("placement", "win_share", "money", "rating")


def placement_points(ranks: list[int]) -> list[float]:
    """First 1, last 0, linear between; tied seats share the average of their places."""
    k = len(ranks)
    out = []
    for r in ranks:
        place = r + (ranks.count(r) - 1) / 2  # 1-based average place of the tie
        out.append((k - place) / (k - 1))
    return out


class StoredGames(Protocol):
    """Where games are read from: the result of every game that counts, and each game's
    deck seed.  A results store (`tournament.store.Store`) is one; this layer is handed it
    by whoever opened it, and never imports the store."""

    def results(self) -> Iterable[StoredResult]: ...

    def seeds(self) -> Mapping[str, int]: ...


@dataclass
class Games:
    """Stored games as arrays: G games by E entrants (absent entrants weigh nothing)."""

    names: list[str]
    game_ids: list[str]
    seats: list[list[int]]  # entrant index by seat, per game
    ranks: list[list[int]]
    deal: np.ndarray  # G ints: the deal (games dealt the same deck) of each game, from 0
    present: np.ndarray  # G x E, 1.0 where the entrant played
    points: np.ndarray  # G x E placement points
    wins: np.ndarray  # G x E win share
    money: np.ndarray  # G x E final money
    faults: list[dict[FaultKind, int]]  # per entrant, by fault kind
    retired: list[int]
    response: list[dict[int, int]]  # per entrant, histogram buckets of microseconds

    @property
    def deals(self) -> int:
        return int(self.deal.max()) + 1 if len(self.deal) else 0

    @classmethod
    def from_store(cls, store: StoredGames) -> Games:
        """Every game of `store` that counts."""
        return cls.load(store.results(), store.seeds())

    @classmethod
    def load(cls, results: Iterable[GameResult], seeds: Mapping[str, int]) -> Games:
        """From a store's `results()` and `seeds()`: games with one seed are one deal.  The
        response times come with a StoredResult."""
        names: list[str] = []
        index: dict[str, int] = {}
        deal_index: dict[int, int] = {}
        game_ids, seats, ranks, rows, deal = [], [], [], [], []
        faults: list[dict[FaultKind, int]] = []
        retired: list[int] = []
        response: list[dict[int, int]] = []
        for result in results:
            game_id = result.game_id
            seat_idx = []
            for name in result.names:
                if name not in index:
                    index[name] = len(names)
                    names.append(name)
                    faults.append({})
                    retired.append(0)
                    response.append({})
                seat_idx.append(index[name])
            r = list(result.ranks)
            winners = sum(1 for x in r if x == 1)
            pts = placement_points(r)
            hists: Sequence[Mapping[str, int]] = (
                result.response_us if isinstance(result, StoredResult) else ()) or [
                {} for _ in seat_idx]
            for seat, e in enumerate(seat_idx):
                for f in result.faults[seat]:
                    faults[e][f.kind] = faults[e].get(f.kind, 0) + 1
                if seat in result.retired:
                    retired[e] += 1
                for bucket, n in hists[seat].items():
                    response[e][int(bucket)] = response[e].get(int(bucket), 0) + n
            rows.append((seat_idx, pts, [1 / winners if x == 1 else 0.0 for x in r],
                         list(result.money)))
            game_ids.append(game_id)
            seats.append(seat_idx)
            ranks.append(r)
            deal.append(deal_index.setdefault(seeds[game_id], len(deal_index)))
        g, e = len(rows), len(names)
        present, points = np.zeros((g, e)), np.zeros((g, e))
        wins, money = np.zeros((g, e)), np.zeros((g, e))
        for i, (seat_idx, pts, win, mon) in enumerate(rows):
            present[i, seat_idx] = 1.0
            points[i, seat_idx] = pts
            wins[i, seat_idx] = win
            money[i, seat_idx] = mon
        return cls(names, game_ids, seats, ranks, np.array(deal, dtype=np.int64), present,
                   points, wins, money, faults, retired, response)

    def metric(self, name: str) -> np.ndarray:
        """G x E values of a metric; for "rating", placement points (what pairs compare)."""
        return {"win_share": self.wins, "money": self.money}.get(name, self.points)


def deal_weights(deals: int, samples: int = BOOTSTRAP_SAMPLES, seed: int = 0) -> np.ndarray:
    """(samples x deals): how often each deal is drawn in each bootstrap resample."""
    rng = np.random.default_rng(seed)
    return np.stack([np.bincount(rng.integers(0, deals, deals), minlength=deals)
                     for _ in range(samples)]).astype(np.float64) if deals else \
        np.zeros((samples, 0))


def bootstrap(games: Games, weights: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Per metric, a (samples x E) array of means over the deals resampled with replacement."""
    if weights is None:
        weights = deal_weights(games.deals)
    from scipy import sparse

    g = len(games.deal)
    in_deal = sparse.csr_matrix((np.ones(g), (games.deal, np.arange(g))), shape=(games.deals, g))
    drawn = weights @ np.asarray(in_deal @ games.present)
    out = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        for metric, values in (("placement", games.points), ("win_share", games.wins),
                               ("money", games.money)):
            out[metric] = weights @ np.asarray(in_deal @ values) / drawn
    return out


def finishes(games: Games) -> Finishes:
    """Every game's pairwise finishes, summed per deal."""
    return Finishes.of(len(games.names), games.seats, games.ranks).by_deal(games.deal)


def ratings(games: Games) -> list[float]:
    """Each entrant's Elo-scale rating over all games (`rating.py`)."""
    return [float(x) for x in fit(finishes(games).matrix())]


def rating_history(games: Games, points: int = 50) -> list[tuple[int, list[float | None]]]:
    """The ratings of the first n games, in game id order, for about `points` evenly spaced n:
    (n, per entrant its rating, or None before its first game).  Each is a fit of those games
    alone, so the last equals `ratings`."""
    g = len(games.game_ids)
    if not g:
        return []
    order = np.argsort(np.array(games.game_ids, dtype=object), kind="stable")
    position = np.empty(g, dtype=np.int64)
    position[order] = np.arange(g)
    every = Finishes.of(len(games.names), games.seats, games.ranks)
    first_game = np.full(len(games.names), g)
    for e in range(len(games.names)):
        first_game[e] = position[games.present[:, e] > 0].min()
    history: list[tuple[int, list[float | None]]] = []
    elo = None
    for n in sorted({max(1, round(g * k / points)) for k in range(1, points + 1)} | {g}):
        # From the fit before, to a chart's precision; the last as `ratings` fits it.
        wins = every.matrix((position < n).astype(np.float64))
        elo = fit(wins, elo, CHART_TOLERANCE) if n < g else fit(wins)
        history.append((n, [float(x) if first < n else None
                            for x, first in zip(elo, first_game.tolist(), strict=True)]))
    return history


def _quantile(hist: dict[int, int], q: float) -> float | None:
    """From quarter-octave buckets of microseconds, in milliseconds (to about 10%)."""
    total = sum(hist.values())
    if not total:
        return None
    seen = 0
    for bucket in sorted(hist):
        seen += hist[bucket]
        if seen >= q * total:
            return round(2 ** ((bucket + 0.5) / 4) / 1000, 3)
    return None


@dataclass(frozen=True)
class Standings:
    """The leaderboard: rows best first, and every pair of entrants compared."""

    rows: list[StandingRow]
    pairs: list[paired.Pair]
    note: str | None = None  # why no pair is separated, when none is (`resolution.py`)
    # placed below the rest by rule (`unstarted.py`), then a gauntlet's baselines that
    # started in none of their games (no place: named, as the candidates lacked them)
    never_started: tuple[str, ...] = ()
    # how many games would narrow places still ranges, when some pairs are separated
    # (`resolution.narrower`): for the organiser at the terminal, not published
    narrow: str | None = None


def standings(games: Games, primary: str = "placement", samples: int = BOOTSTRAP_SAMPLES,
              alpha: float = paired.ALPHA, baselines: Collection[str] = (),
              grow: str | None = None) -> Standings:
    """One row per entrant, best first by `primary` (ties by name), and the pairs in
    standings order (`pairs.compare`), familywise error `alpha`.  A gauntlet's `baselines`
    keep their rows and figures but hold no place: the places, the pairs and `separated`
    are the candidates' alone, by Holm over the candidates' pairs, as a run's `until` judges
    them (`tournament.until.judged`): a baseline is the yardstick, not a contender.  `grow`:
    how the design plays more, for the note of a board that separates nothing
    (`resolution.note`), or not all (`resolution.narrower`)."""
    if primary not in METRICS:
        raise ValueError(f"unknown metric {primary!r}; known: {', '.join(METRICS)}")
    if not games.game_ids:
        return Standings([], [])
    present = games.present.sum(axis=0)
    # Of one deal every resample is that deal: one stands for them all (a class graded on
    # one deal spent a quarter of a second a student on 1,000 identical refits).
    weights = deal_weights(games.deals, samples if games.deals > 1 else 1)
    boot = bootstrap(games, weights)
    elo, elo_boot = fit_ratings(finishes(games), weights)

    def mean(metric: str, e: int) -> float:
        return float(games.metric(metric)[:, e].sum() / present[e])

    def interval(metric: str, e: int) -> Interval:
        lo, hi = np.nanpercentile(boot[metric][:, e], [2.5, 97.5])
        return Interval(mean(metric, e), float(lo), float(hi))

    strength = strengths(games, primary)

    def score(e: int) -> float:
        return float(elo[e]) if primary == "rating" else float(strength[e])

    # placed below the rest by rule (docs/rules.md D9)
    never = never_started(games.names, games.present, games.faults)
    ranked = sorted(range(len(games.names)),
                    key=lambda e: (games.names[e] in never, -score(e), games.names[e]))
    order = [n for n in (games.names[e] for e in ranked) if n not in baselines]
    pairs, ranges = verdicts(games, order, primary, alpha) if order else ([], {})
    leader_above = {p.b for p in pairs if p.a == order[0] and p.separated and p.test.diff > 0}
    placed = {name: rank for rank, name in enumerate(order, 1)}
    rows = []
    for e in ranked:
        name = games.names[e]
        rank = placed.get(name)
        lo, hi = np.percentile(elo_boot[:, e], [2.5, 97.5])
        f = games.faults[e]
        rows.append(StandingRow(
            name=name, games=int(present[e]), placement=interval("placement", e),
            win_share=interval("win_share", e), money=interval("money", e),
            rating=Rating(float(elo[e]), float(lo), float(hi)),
            faults=FaultCounts(**{group: sum(f.get(k, 0) for k in kinds)
                                  for group, kinds in FAULT_GROUPS.items()},
                               retirements=games.retired[e]),
            response_ms=ResponseTimes(_quantile(games.response[e], 0.5),
                                      _quantile(games.response[e], 0.99)),
            strength=float(elo[e]) if primary == "rating" else float(strength[e]),
            rank=rank, place=Place(*ranges[name]) if rank is not None else None,
            separated=rank is not None and (rank == 1 or name in leader_above
                                            or (name in never and rank > 1)),
            baseline=rank is None))
    tables = {tuple(sorted(s)) for s in games.seats}  # a gauntlet deals each deal to all
    dealt = Counter((tuple(sorted(s)), d)
                    for s, d in zip(games.seats, games.deal.tolist(), strict=True))
    # A whole deal of a table is its seat orders, the most any table's deal holds: a run
    # stopped inside a deal has played part of one.
    whole = max(dealt.values(), default=1) * max(1, len(tables))
    note = resolution.note(pairs, len(order), len(games.game_ids),
                           len(games.game_ids) / whole, primary, alpha,
                           "candidates" if len(order) < len(games.names) else "entrants",
                           grow)
    narrow = resolution.narrower(pairs, len(games.game_ids), len(games.game_ids) / whole,
                                 primary, alpha, grow)
    if games.deals == 1:
        note = (f"{note} " if note else "") + resolution.ONE_DEAL
    unstarted = [n for n in order if n in never]  # by their places, then any baseline's
    unstarted += [n for n in games.names if n in never and n in baselines]
    return Standings(rows, pairs, note, tuple(unstarted), narrow)


def strengths(games: Games, primary: str = "placement", theta: np.ndarray | None = None
              ) -> np.ndarray:
    """Each entrant's `primary` adjusted for the opponents it met: the block model's strength
    (`blocks.py`) plus the mean over every seat of every game.  In a complete design with
    equal games it orders the entrants by placement or win share as their plain means, its
    differences the means' times k(n - 1) / ((k - 1) n) (docs/statistics.md); in a sampled
    field it is what the mean would be had every entrant met every other alike."""
    values = games.metric(primary)
    if theta is None:  # (`theta`: the block model's, when the caller has fitted it)
        theta = blocks.strengths(blocks.Design.of(games.deal, games.present, values))
    mean = float((values * games.present).sum() / games.present.sum())
    return np.asarray(np.round(theta + mean, 12))  # no rounding noise in a tie


def order(games: Games, primary: str = "placement") -> list[str]:
    """The entrants best first by `primary` (ties by name), without any interval."""
    score = ratings(games) if primary == "rating" else strengths(games, primary).tolist()
    never = never_started(games.names, games.present, games.faults)  # last (docs/rules.md D9)
    return [n for _, _, n in sorted(zip((n in never for n in games.names), (-x for x in score),
                                        games.names, strict=True))]


def verdicts(games: Games, names: list[str], primary: str = "placement",
             alpha: float = paired.ALPHA
             ) -> tuple[list[paired.Pair], dict[str, tuple[int, int]]]:
    """The pairs of `names` (in that order) on `primary`, and each one's range of places,
    those that never started below the rest by rule (docs/rules.md D9)."""
    index = [games.names.index(n) for n in names]
    pairs = paired.compare(names, games.deal, games.metric(primary)[:, index],
                           games.present[:, index], alpha)
    places = paired.places(names, pairs)
    never = never_started(games.names, games.present, games.faults).intersection(names)
    return pairs, below_the_rest(places, never) if never else places


def versus(games: Games, a: str, b: str, primary: str = "placement",
           alpha: float = paired.ALPHA) -> tuple[paired.Pairing, paired.Test]:
    """The paired test of a against b alone (`pairs.versus`), its interval's coverage
    1 - alpha."""
    values = games.metric(primary)
    i, j = games.names.index(a), games.names.index(b)
    return paired.versus(games.deal, (values[:, i], games.present[:, i]),
                         (values[:, j], games.present[:, j]), alpha)


def head_to_head(games: Games, met_only: bool = False) -> HeadToHead:
    """For each ordered pair: games at the same table where a finished above b, below, level;
    `met_only`: only the pairs that met (a field of hundreds meets few of its pairs)."""
    e = len(games.names)
    above = np.zeros(e * e, dtype=np.int64)  # [a * e + b]: games a finished above b
    level = np.zeros(e * e, dtype=np.int64)
    width = max((len(s) for s in games.seats), default=0)
    who = np.full((len(games.seats), width), -1, dtype=np.int64)
    rank = np.zeros((len(games.seats), width), dtype=np.int64)
    for g, (seats, ranks) in enumerate(zip(games.seats, games.ranks, strict=True)):
        who[g, :len(seats)] = seats
        rank[g, :len(ranks)] = ranks
    for i in range(width):
        for j in range(width):
            both = (who[:, i] >= 0) & (who[:, j] >= 0) & (i != j)
            key = who[both, i] * e + who[both, j]
            above += np.bincount(key[rank[both, i] < rank[both, j]], minlength=e * e)
            level += np.bincount(key[rank[both, i] == rank[both, j]], minlength=e * e)
    above_m, level_m = above.reshape(e, e), level.reshape(e, e)
    met = (above_m + above_m.T + level_m) > 0
    return {a: {b: Meetings(int(above_m[i, j]), int(above_m[j, i]), int(level_m[i, j]))
                for j, b in enumerate(games.names) if j != i and (met[i, j] or not met_only)}
            for i, a in enumerate(games.names)}


def by_seat(games: Games) -> list[SeatRow]:
    """Results by seat position over all entrants: the game's own seat bias."""
    table: dict[int, list[tuple[float, float, float]]] = {}
    for g, seats in enumerate(games.seats):
        for seat, e in enumerate(seats):
            table.setdefault(seat, []).append(
                (games.points[g, e], games.wins[g, e], games.money[g, e]))
    rows = []
    for seat in sorted(table):
        vals = np.array(table[seat])
        n = len(vals)
        half = 1.96 * vals[:, 0].std(ddof=1) / math.sqrt(n) if n > 1 else math.nan
        rows.append(SeatRow(seat, n, float(vals[:, 0].mean()),
                            float(vals[:, 0].mean() - half), float(vals[:, 0].mean() + half),
                            float(vals[:, 1].mean()), float(vals[:, 2].mean())))
    return rows
