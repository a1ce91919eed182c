"""The block model: every game informs every comparison (`referee/leaderboard/blocks.py`)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from referee.leaderboard import blocks
from referee.leaderboard.pairs import compare, paired_test
from referee.leaderboard.resolution import note


def one_table(rng: np.random.Generator, deals: int, games: int, strength: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Four entrants at one table, `games` games a deal, placement-like values."""
    e = len(strength)
    deal = np.repeat(np.arange(deals), games)
    present = np.ones((deals * games, e))
    values = strength + rng.normal(0, 0.3, (deals * games, e))
    return deal, present, values


def test_on_one_table_the_model_is_the_paired_mean_difference() -> None:
    """With every entrant in every deal, the model's difference of two entrants is their paired
    mean difference over deals, weighted by games, as the paired test computes it."""
    rng = np.random.default_rng(1)
    deal, present, values = one_table(rng, 9, 6, np.array([0.3, 0.1, 0.0, -0.2]))
    fit = blocks.fit(blocks.Design.of(deal, present, values))
    for a, b in itertools.combinations(range(4), 2):
        d = np.array([(values[deal == c, a] - values[deal == c, b]).mean() for c in range(9)])
        diff, se = fit.contrast(a, b)
        assert diff == pytest.approx(paired_test(d, np.full(9, 6.0)).diff)
        assert 0 < se < 1


def test_two_entrants_that_never_met_are_compared_through_the_others() -> None:
    """a and b never share a table, but each meets c and d: the model estimates a - b with a
    finite standard error; an entrant linked to nobody is not comparable (infinite error)."""
    rng = np.random.default_rng(2)
    tables = [(0, 2, 3), (1, 2, 3)] * 6 + [(4, 5, 6)]
    rows, deal, present = [], [], []
    for k, table in enumerate(tables):
        for _ in range(3):
            p = np.zeros(7)
            p[list(table)] = 1
            v = np.zeros(7)
            v[list(table)] = rng.normal(0, 0.2, 3) + np.array([0.5 if e == 0 else 0.0
                                                                for e in table])
            rows.append(v)
            present.append(p)
            deal.append(k)
    design = blocks.Design.of(np.array(deal), np.array(present), np.array(rows))
    assert not design.complete()
    fit = blocks.fit(design)
    diff, se = fit.contrast(0, 1)
    assert 0.2 < diff < 0.8 and 0 < se < 0.3
    assert fit.contrast(0, 4)[1] == float("inf")


def test_identical_players_in_a_sampled_field_are_rarely_separated() -> None:
    """Twelve identical entrants at 24 sampled tables of four: Holm over the block model's
    tests separates some pair in few of 40 simulated fields (at most 4; about 2 expected at
    a familywise error of 5%)."""
    rng = np.random.default_rng(3)
    false = 0
    for _ in range(40):
        deal, present, values = [], [], []
        for t in range(24):
            table = rng.choice(12, 4, replace=False)
            luck = rng.normal(0, 0.1, 4)
            for _ in range(12):
                p = np.zeros(12)
                p[table] = 1
                v = np.zeros(12)
                v[table] = np.argsort(np.argsort(luck + rng.normal(0, 1, 4))) / 3
                deal.append(t)
                present.append(p)
                values.append(v)
        pairs = compare([f"e{i}" for i in range(12)], np.array(deal), np.array(values),
                        np.array(present))
        false += any(p.separated for p in pairs)
    assert false <= 4


def test_an_entrant_seen_in_one_deal_only_is_separated_from_no_one() -> None:
    """Four entrants at one table for 12 deals, one of them left out after the first: the
    design is no longer complete, and that entrant, fitted exactly by its one deal, has no
    residual to show its noise, so its comparisons are unbounded and none is separated, even
    though it finished last in every game it played."""
    rng = np.random.default_rng(4)
    deal, present, values = [], [], []
    for c in range(12):
        players = [0, 1, 2, 3] if c == 0 else [0, 1, 2]
        for _ in range(6):
            p = np.zeros(4)
            p[players] = 1
            v = np.zeros(4)
            v[players] = rng.permutation(len(players)) / (len(players) - 1)
            if c == 0:
                v[3] = 0.0
            deal.append(c)
            present.append(p)
            values.append(v)
    pairs = compare(["a", "b", "c", "d"], np.array(deal), np.array(values), np.array(present))
    for pair in pairs:
        if "d" in (pair.a, pair.b):
            assert pair.paired == "model" and not pair.separated
            assert (pair.test.low, pair.test.high) == (None, None)


def split_final(deals: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two tables of four that never meet, each dealt `deals` decks of its own, 12 games a
    deal; in every game entrant i of a table finishes (i mod 4)-th: the same every deal."""
    deal, present, values = [], [], []
    for t, table in enumerate(([0, 1, 2, 3], [4, 5, 6, 7])):
        for c in range(deals):
            for _ in range(12):
                p = np.zeros(8)
                p[table] = 1
                v = np.zeros(8)
                v[table] = [3, 2, 1, 0]
                deal.append(t * deals + c)
                present.append(p)
                values.append(v)
    return np.array(deal), np.array(present), np.array(values)


def test_tables_that_never_meet_are_judged_each_on_its_own_deals() -> None:
    """A final that seats each entrant at one table: pairs at one table are compared on that
    table's deals by the exact paired test (2 deals separate nothing, however alike their
    differences: the block model's standard error of 0 there separated every pair), 12 deals
    of the same finishes do; pairs at different tables are never compared."""
    names = [f"e{i}" for i in range(8)]
    for deals, separated in ((2, False), (12, True)):
        deal, present, values = split_final(deals)
        pairs = compare(names, deal, values, present)
        for pair in pairs:
            same = int(pair.a[1:]) // 4 == int(pair.b[1:]) // 4
            if same:
                assert pair.paired == "table" and pair.test.exact
                assert pair.separated is separated, (deals, pair)
            else:
                assert pair.paired == "apart" and not pair.separated
                assert (pair.test.low, pair.test.high) == (None, None)
                assert pair.test.deals == 2 * deals


def test_a_pair_never_compared_shows_no_difference_nor_likelihood() -> None:
    """In the pairs table, two entrants at tables that share no entrant read "not compared", with
    "-" for the difference and the LOS: not "+0.000 (unbounded)" and 50.0%, which read as a
    level pair that more deals would bound."""
    from referee.leaderboard.render import pairs_table

    names = [f"e{i}" for i in range(8)]
    deal, present, values = split_final(2)
    lines = pairs_table(compare(names, deal, values, present), "placement").splitlines()
    apart = [line.split() for line in lines if "share no entrant)" in line]
    assert len(apart) == 16, lines
    assert all(cells[-3:] == ["-", "-", "no"] for cells in apart), lines
    same = [line for line in lines if line.startswith("e0  ") and " e1 " in line]
    assert same and "%" in same[0] and "-  " not in same[0], lines


def test_copies_at_tables_that_share_no_entrant_are_said_to_be_level() -> None:
    """A final of copies of one bot at two tables that share no entrant, each entrant taking
    every finish alike in every deal: the note says the pairs compared are level in every
    deal (copies, most likely), as at one table, not merely that none is separated; then
    that the pairs across the tables are not compared, whatever more deals those play."""
    deal, present, values = split_final(12)
    for g in range(len(deal)):  # game g of a deal: the finishes rotated g places
        table = np.flatnonzero(present[g])
        values[g, table] = np.roll([3, 2, 1, 0], g % 12)
    names = [f"e{i}" for i in range(8)]
    found = note(compare(names, deal, values, present), 8, len(deal), 12, "placement", 0.05)
    assert found == ("no pair is separated: every pair's results are level in every deal "
                     "(copies of one bot, most likely), and no number of games would separate "
                     "them. Entrants at tables that share no entrant are not compared: no "
                     "game links them, and more deals of those tables never will."), found


def test_a_pair_known_from_one_tables_two_deals_is_not_separated() -> None:
    """A field of three tables, the first apart from the others ([0-3], [4-7], [6-9]), judged
    by the block model: e0 finishes above e1 in every game of the first table's 2 deals, by
    the same margin in both, which leaves their difference about one degree of freedom and a
    standard error of 0.  It is not separated (unbounded: no test could separate a pair on two
    deals); the same finishes over 4 deals are."""
    def field(deals: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rng = np.random.default_rng(5)
        deal, present, values = [], [], []
        for t, table in enumerate([[0, 1, 2, 3], [4, 5, 6, 7], [6, 7, 8, 9]]):
            for c in range(deals):
                for _ in range(12):
                    p = np.zeros(10)
                    p[table] = 1
                    v = np.zeros(10)
                    v[table] = [3, 2, 1, 0] if t == 0 else rng.permutation(4)
                    deal.append(t * deals + c)
                    present.append(p)
                    values.append(v)
        return np.array(deal), np.array(present), np.array(values)

    for deals, separated in ((2, False), (4, True)):
        deal, present, values = field(deals)
        pairs = compare([f"e{i}" for i in range(10)], deal, values, present)
        e0_e1 = next(p for p in pairs if {p.a, p.b} == {"e0", "e1"})
        assert e0_e1.paired == "model" and e0_e1.separated is separated, (deals, e0_e1)
        assert (e0_e1.test.low is None) is not separated
