"""The choice of an adaptive round (`tournament/adaptive.py`), on results made up for it: a
round is the same from the same games whatever their order, a late entrant comes first, the
places in doubt get the tables, every table keeps a seat for the entrant who has played
least, and the fit behind it finds the order of the field."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from referee.tournament.adaptive import WARM_UP, Finish, choose_round, differ, fit_strengths
from referee.tournament.config import TournamentConfig
from referee.tournament.sampling import Table, grow

NAMES = [f"e{i:02d}" for i in range(12)]


def played(tables: list[Table], strength: dict[str, float], seed: int,
           games_per_table: int = 3) -> list[Finish]:
    """Each table's games, its entrants finishing in the order of their strength plus luck
    (a uniform draw of width 3)."""
    rng = random.Random(seed)
    games = []
    for table in tables:
        for _ in range(games_per_table):
            order = sorted(table, key=lambda n: -strength[n] - 3 * rng.random())
            games.append(Finish(tuple(order), tuple(range(1, len(order) + 1))))
    return games


def ladder(top_level: int = 3) -> dict[str, float]:
    """The first `top_level` entrants equally strong at the top, the others a step apart
    below them."""
    return {n: 10.0 if i < top_level else 10.0 - i for i, n in enumerate(NAMES)}


def test_a_round_is_the_same_from_the_same_games_in_any_order() -> None:
    """The round depends on the games, not on the order the store gives them in, and the
    same inputs give the same round on every call; another round number breaks ties
    another way."""
    drawn = grow(NAMES, 3, 12, 1).tables
    games = played(drawn, ladder(), 1)
    first = choose_round(NAMES, 3, 4, 7, 3, drawn, games)
    shuffled = games[:]
    random.Random(2).shuffle(shuffled)
    assert choose_round(list(reversed(NAMES)), 3, 4, 7, 3, drawn, shuffled) == first
    assert len(first) == 4 and all(len(set(t)) == 3 and list(t) == sorted(t) for t in first)
    empty = [choose_round(NAMES, 3, 4, 7, r, [], []) for r in range(3)]
    assert len({tuple(r) for r in empty}) == 3


def test_the_first_round_seats_every_entrant_once() -> None:
    """With nothing played, a round of one table per k entrants seats each entrant once:
    new entrants first, as a uniform sample would."""
    tables = choose_round(NAMES, 4, 3, 1, 0, [], [])
    assert sorted(n for t in tables for n in t) == NAMES


def test_a_late_entrant_is_seated_first() -> None:
    """An entrant who has played nothing, in a field that has played many rounds, sits at
    the round's first WARM_UP tables."""
    drawn = grow(NAMES, 3, 24, 1).tables
    games = played(drawn, ladder(), 1)
    tables = choose_round([*NAMES, "late"], 3, 4, 1, 6, drawn, games)
    assert all("late" in t for t in tables[:WARM_UP])


def test_the_places_in_doubt_get_the_tables() -> None:
    """Three equally strong entrants at the top, the others a step apart: the top three
    and the first below them, whose order is in doubt, sit at three times as many of the
    round's tables as the three at the bottom, whose places are settled (and who keep the
    seats of those who played least)."""
    drawn = grow(NAMES, 3, 80, 1).tables
    games = played(drawn, ladder(), 1)
    seats = Counter(n for t in choose_round(NAMES, 3, 8, 1, 6, drawn, games) for n in t)
    assert sum(seats[n] for n in NAMES[:4]) >= 3 * sum(seats[n] for n in NAMES[-3:])


def test_every_table_keeps_a_seat_for_who_has_played_least() -> None:
    """Round after round chosen from their own results, every entrant keeps playing (none
    falls more than a few rounds' share behind) and everyone is linked to everyone through
    the tables: a model that is never split into neighbours only."""
    strength = ladder()
    drawn: list[Table] = []
    games: list[Finish] = []
    size = 4
    for number in range(12):
        tables = choose_round(NAMES, 3, size, 1, number, drawn, games)
        drawn += tables
        games += played(tables, strength, number)
    counts = Counter(n for t in drawn for n in t)
    assert min(counts[n] for n in NAMES) >= len(drawn) // len(NAMES)
    linked = {NAMES[0]}
    while True:
        grown = linked | {n for t in drawn if linked.intersection(t) for n in t}
        if grown == linked:
            break
        linked = grown
    assert linked == set(NAMES)


@pytest.mark.parametrize("seed", [0, 1])
def test_entrants_their_games_keep_level_do_not_keep_the_tables(seed: int) -> None:
    """Five equally strong entrants at the top of forty, soon separated from the rest: once
    their games have shown nothing between them, they hold no more than their share of the
    later rounds' seats, which go to the places still in doubt below them."""
    names = [f"e{i:02d}" for i in range(40)]
    strength = {n: 10.0 if i < 5 else 9.0 - 0.2 * (i - 5) for i, n in enumerate(names)}
    drawn: list[Table] = []
    games: list[Finish] = []
    for number in range(60):
        tables = choose_round(names, 4, 10, seed, number, drawn, games)
        drawn += tables
        games += played(tables, strength, 1000 * seed + number, games_per_table=4)
    late = Counter(n for t in drawn[len(drawn) // 2:] for n in t)
    assert sum(late[n] for n in names[:5]) <= sum(late.values()) * 5 / 40


def test_a_level_pair_counts_less_the_more_its_games_keep_it_level() -> None:
    """The chance that two entrants differ at all, which weighs their pair's claim on the
    tables: at the same ratio of gap to standard error it falls as their games add up (the
    pair stays level however much is known), and a gap many standard errors wide makes it
    near certain."""
    ratio = np.array([1.0, 1.0, 1.0, 8.0])
    variance = np.array([1.0, 0.1, 0.01, 0.01])
    p = differ(ratio, variance)
    assert p[0] > p[1] > p[2] and p[2] < 0.1
    assert p[3] > 0.999


def test_the_fit_finds_the_order_and_grows_surer_with_games() -> None:
    """The Bradley-Terry fit behind the choice puts a ladder in its order, and its standard
    errors shrink as games are added."""
    n = 6
    wins = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i < j:
                wins[i, j], wins[j, i] = 8, 2
    few = fit_strengths(n, wins)
    many = fit_strengths(n, wins * 10)
    assert list(np.argsort(-few.strength)) == list(range(n))
    assert np.all(np.sqrt(np.diag(many.cov)) < np.sqrt(np.diag(few.cov)))


@pytest.mark.parametrize(("extra", "expected"), [
    ({}, "give its budget"),
    ({"tables": 4, "until": "separated"}, "until: goes with a fixed schedule"),
    ({"rounds": 3, "format": "gauntlet", "baselines": ["e00", "e01"]}, "a gauntlet"),
])
def test_an_adaptive_file_needs_a_budget_and_a_round_robin(extra: dict[str, object],
                                                           expected: str) -> None:
    """An adaptive schedule without a budget, with `until`, or in a gauntlet is refused,
    naming why; `rounds` without it too."""
    bots = [{"name": n, "command": "bot"} for n in NAMES[:5]]
    with pytest.raises(ValueError, match=expected):
        TournamentConfig.model_validate({"name": "t", "bots": bots, "table_size": 3,
                                         "schedule": "adaptive", **extra})
    with pytest.raises(ValueError, match="rounds: goes with"):
        TournamentConfig.model_validate({"name": "t", "bots": bots, "table_size": 3,
                                         "rounds": 2})
