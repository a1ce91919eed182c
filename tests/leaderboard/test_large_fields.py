"""Fields of hundreds of entrants: the methods the leaderboard switches to there (a lower
bound on the degrees of freedom, one Newton step per bootstrap resample of the ratings) and
the places a schedule asks for every round, checked on small fields with those methods
switched on, against what the small-field methods give."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from referee.leaderboard import Games, blocks, rating, satterthwaite, standings
from referee.leaderboard.stats import ratings
from referee.leaderboard.uncertainty import uncertainty

from .support import all_stored


def field(entrants: int, rounds: int, gap: float, seed: int) -> Games:
    """Each round the entrants shuffled into tables of four, each table's deal played in its
    4 rotations; entrant e0 the strongest, the others `gap` apart from e0 to the last, with
    noise of 1 on each finish and a luck of the deal shared by its rotations."""
    rng = np.random.default_rng(seed)
    strength = np.linspace(gap, 0, entrants)
    results: list[tuple[str, list[str], dict[str, Any]]] = []
    seeds: dict[str, int] = {}
    for r in range(rounds):
        order = rng.permutation(entrants)
        for t in range(entrants // 4):
            table = order[4 * t:4 * t + 4]
            luck = rng.normal(0, 0.5, 4)
            for k in range(4):
                seats = np.roll(table, k)
                score = strength[seats] + np.roll(luck, k) + rng.normal(0, 1, 4)
                ranks = [1 + int((score > s).sum()) for s in score]
                game_id = f"r{r:02d}-t{t:02d}-o{k}"
                results.append((game_id, [f"e{e:02d}" for e in seats], {
                    "money": [100 * (5 - x) for x in ranks], "ranks": ranks, "retired": [],
                    "faults": [[], [], [], []]}))
                seeds[game_id] = 1000 * r + t
    return Games.load(all_stored(results), seeds)


def large(monkeypatch: pytest.MonkeyPatch) -> None:
    """The large-field methods for any field."""
    monkeypatch.setattr(satterthwaite, "EXACT_ENTRANTS", 0)
    monkeypatch.setattr(rating, "REFIT_ENTRANTS", 0)


def test_the_bound_on_the_degrees_of_freedom_is_below_the_exact_figure_and_near_it() -> None:
    """In a sampled field of 16 entrants, every pair's lower bound is at most its exact
    Bell-McCaffrey degrees of freedom, and not less than 85% of them."""
    games = field(16, 6, 0.0, 1)
    model = blocks.fit(blocks.Design.of(games.deal, games.present, games.points))
    bound = satterthwaite.lower_bound(model)
    a, b = np.triu_indices(16, 1)
    exact = satterthwaite.degrees_of_freedom(model, list(zip(a.tolist(), b.tolist(),
                                                             strict=True)))
    assert (exact > 2).all()
    assert (bound[a, b] <= exact * (1 + 1e-9)).all()
    assert (bound[a, b] >= 0.85 * exact).all()


def test_a_large_field_separates_only_pairs_the_exact_figures_separate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same 16-entrant field with the bound in place of the exact degrees of freedom:
    every pair's p-value is at least as large, so every pair it separates is separated with
    the exact figures, and every place range holds the exact one."""
    games = field(16, 8, 3.0, 2)
    exact = standings(games)
    large(monkeypatch)
    bound = standings(games)
    assert [r.name for r in bound.rows] == [r.name for r in exact.rows]
    assert any(p.separated for p in bound.pairs)
    for p, q in zip(bound.pairs, exact.pairs, strict=True):
        assert (p.a, p.b) == (q.a, q.b) and p.test.diff == pytest.approx(q.test.diff)
        assert p.test.p >= q.test.p - 1e-12
        assert q.separated or not p.separated
    for r, s in zip(bound.rows, exact.rows, strict=True):
        assert r.place.best <= s.place.best and r.place.worst >= s.place.worst


def test_the_one_step_bootstrap_gives_the_refitted_rating_intervals(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each resample's ratings taken one Newton step from the full fit, instead of refitted
    (48 games an entrant): the same ratings, and intervals whose ends are within 15% of the
    refitted interval's width of its ends."""
    games = field(16, 12, 3.0, 3)
    refitted = standings(games, "rating")
    large(monkeypatch)
    stepped = standings(games, "rating")
    for r, s in zip(stepped.rows, refitted.rows, strict=True):
        width = s.rating.high - s.rating.low
        assert r.rating.elo == s.rating.elo
        assert abs(r.rating.low - s.rating.low) < 0.15 * width
        assert abs(r.rating.high - s.rating.high) < 0.15 * width


@pytest.mark.parametrize("entrants", [2, 5, 12])
def test_resamples_refitted_together_get_the_ratings_of_each_fitted_alone(entrants: int) -> None:
    """The bootstrap's resamples, their fits stepped together, get the ratings each gets fitted
    on its own, to a millionth of an Elo point: resamples that weigh every deal once (whose fit
    stops at its start), that drop deals, and that count ties."""
    rng = np.random.default_rng(entrants)
    seats = [list(rng.choice(entrants, size=min(4, entrants), replace=False))
             for _ in range(60)]
    ranks = [[1, 1, *range(3, len(s) + 1)] if g % 5 == 0 else list(range(1, len(s) + 1))
             for g, s in enumerate(seats)]
    finishes = rating.Finishes.of(entrants, seats, ranks).by_deal(np.arange(60) % 12)
    weights = np.vstack([np.ones(12), rng.poisson(1.0, size=(40, 12))]).astype(float)
    point = rating.fit(finishes.matrix())
    together = rating.refit(finishes, point, weights)
    alone = np.stack([rating.fit(finishes.matrix(w), point) for w in weights])
    assert together[0].tolist() == point.tolist()
    assert together == pytest.approx(alone, abs=1e-6)


def test_two_entrants_get_the_ratings_of_their_finishes_and_the_prior() -> None:
    """a finished above b 30 times and below 10 times; with the prior's drawn finish (half to
    each) a's chance of finishing above is 30.5 / 41, so a and b stand ln(30.5 / 10.5) apart on
    the log scale, each half of it from their mean of 0, in Elo points."""
    results = [(f"g{i}", ["a", "b"], {"money": [1, 0] if i < 30 else [0, 1],
                                      "ranks": [1, 2] if i < 30 else [2, 1], "retired": [],
                                      "faults": [[], []]}) for i in range(40)]
    games = Games.load(all_stored(results), {f"g{i}": i for i in range(40)})
    half = rating.ELO * math.log(30.5 / 10.5) / 2
    assert ratings(games) == pytest.approx([half, -half], abs=1e-6)


@pytest.mark.parametrize("primary", ["placement", "rating"])
@pytest.mark.parametrize("size", ["small", "large"])
def test_the_places_a_schedule_asks_for_are_those_of_the_standings(
        monkeypatch: pytest.MonkeyPatch, primary: str, size: str) -> None:
    """`uncertainty` orders the field as the standings do and gives every entrant the same
    place range, with the exact degrees of freedom and with the bound, and a finite standard
    error for each strength; the entrants whose place is open are those with a range."""
    games = field(12, 8, 8.0, 4)
    if size == "large":
        large(monkeypatch)
    board = standings(games, primary)
    found = uncertainty(games, primary)
    assert found.names == [r.name for r in board.rows]
    assert found.places() == {r.name: (r.place.best, r.place.worst) for r in board.rows}
    assert found.strength == pytest.approx([r.strength for r in board.rows])
    assert np.isfinite(found.se).all() and (found.se > 0).all()
    assert found.open() == [r.name for r in board.rows if r.place.best < r.place.worst]
    assert any(r != (1, 12) for r in found.places().values())  # some pairs are separated
