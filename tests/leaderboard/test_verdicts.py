"""Verdicts a contest can stand behind: equal entrants are rarely called different, a real
difference hidden by shared luck is found, and the order of the games changes nothing."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from scipy.special import stdtrit  # Student's t quantile; scipy.stats takes a second to import

from referee.leaderboard import Games, standings
from referee.leaderboard import pairs as paired
from referee.leaderboard.pairs import Pair, compare, holm, paired_test, places
from referee.leaderboard.render import render
from referee.leaderboard.stats import Standings, ratings

from .support import all_stored

Result = tuple[str, list[str], dict[str, Any]]
NAMES = ["a", "b", "c", "d"]


def result(ranks: list[int]) -> dict[str, Any]:
    """A four-seat result with these ranks (money to match), without faults."""
    return {"money": [100 * (5 - r) for r in ranks], "ranks": ranks, "retired": [],
            "faults": [[], [], [], []]}


def tournament(deals: int, rank: Any) -> tuple[list[Result], dict[str, int]]:
    """Every deal in all 24 seat orders with one seed; `rank(deal, k, seats)` gives the
    ranks of game k of the deal."""
    results: list[Result] = []
    seeds: dict[str, int] = {}
    for deal in range(deals):
        for k, seats in enumerate(itertools.permutations(NAMES)):
            game_id = f"d{deal:03d}-o{k:02d}"
            results.append((game_id, list(seats), result(rank(deal, k, list(seats)))))
            seeds[game_id] = 1000 + deal
    return results, seeds


@pytest.mark.parametrize("deals", [10, 30])
def test_identical_entrants_are_separated_in_at_most_5_percent_of_tournaments(
        deals: int) -> None:
    """Four entrants whose every finish is a fair draw, each deal played in 24 seat orders:
    in at most 5% of 1,000 tournaments is any pair called separated, with the exact test
    (10 deals) and with the t test (30 deals)."""
    rng = np.random.default_rng(deals)
    deal = np.repeat(np.arange(deals), 24)
    present = np.ones((len(deal), len(NAMES)))
    points = np.array([1, 2 / 3, 1 / 3, 0])
    separated = 0
    for _ in range(1000):
        places_drawn = np.argsort(rng.random((len(deal), len(NAMES))), axis=1)
        pairs = compare(NAMES, deal, points[places_drawn], present)
        separated += any(p.separated for p in pairs)
    assert separated <= 50


def edge_of_a(deal: int, k: int, seats: list[str]) -> list[int]:
    """Finishes drawn at random from the deal and the seat order, except that a is moved to
    first place in a third of the games: a real edge of a over the others."""
    rng = random.Random(f"{deal}:{k}")
    order = rng.sample(NAMES, len(NAMES))
    if rng.random() < 1 / 3:
        order = ["a", *(n for n in order if n != "a")]
    return [1 + order.index(n) for n in seats]


@pytest.mark.parametrize("arrange", ["reversed", "shuffled", "renumbered"])
def test_the_order_of_the_games_changes_no_rating_and_no_verdict(arrange: str) -> None:
    """The same games reversed, shuffled, or played in another order (their ids dealt out
    afresh) give the same ratings and the same pairs: a batch fit, not a sequence of updates."""
    results, seeds = tournament(20, edge_of_a)
    if arrange == "reversed":
        other = results[::-1]
    elif arrange == "shuffled":
        other = random.Random(1).sample(results, len(results))
    else:
        ids = random.Random(2).sample([gid for gid, _, _ in results], len(results))
        renamed = list(zip((f"x{new}" for new in ids), results, strict=True))
        seeds = {**seeds, **{new: seeds[gid] for new, (gid, _, _) in renamed}}
        other = sorted((new, seats, r) for new, (_, seats, r) in renamed)
    first, second = Games.load(all_stored(results), seeds), Games.load(all_stored(other), seeds)
    rated = dict(zip(first.names, ratings(first), strict=True))
    rated_again = dict(zip(second.names, ratings(second), strict=True))
    assert rated == pytest.approx(rated_again, abs=1e-9)
    assert len(set(rated.values())) == len(NAMES)  # a fit that tells them apart
    pairs = [p.as_dict() for p in standings(first, samples=10).pairs]
    pairs_again = [p.as_dict() for p in standings(second, samples=10).pairs]
    numbers = [{k: v for k, v in p.items() if isinstance(v, float)} for p in pairs_again]
    assert [{k: v for k, v in p.items() if k not in n} for p, n in zip(pairs, numbers,
                                                                        strict=True)] == \
        [{k: v for k, v in p.items() if k not in n} for p, n in zip(pairs_again, numbers,
                                                                     strict=True)]
    assert [{k: p[k] for k in n} for p, n in zip(pairs, numbers, strict=True)] == \
        [pytest.approx(n, rel=1e-9) for n in numbers]
    assert any(p["separated"] for p in pairs) and not all(p["separated"] for p in pairs)


def test_a_paired_difference_is_found_where_the_intervals_overlap() -> None:
    """a and b share each deal's luck (both high, or both low) and a finishes above b a little
    more often in every deal: their intervals overlap widely, yet the pair a-b is
    separated, with an interval of the difference above 0."""
    def shared_luck(deal: int, k: int, seats: list[str]) -> list[int]:
        a_first = k < 13 + deal % 2  # 13 or 14 of 24 games
        pair = ["a", "b"] if a_first else ["b", "a"]
        rest = ["c", "d"] if k % 2 else ["d", "c"]
        order = [*pair, *rest] if deal % 2 == 0 else [*rest, *pair]  # luck: high or low
        return [1 + order.index(n) for n in seats]

    results, seeds = tournament(12, shared_luck)
    games = Games.load(all_stored(results), seeds)
    board = standings(games)
    rows = {r.name: r.placement for r in board.rows}
    a, b = rows["a"], rows["b"]
    assert a.low < b.high and b.low < a.high  # the intervals overlap
    pair = next(p for p in board.pairs if {p.a, p.b} == {"a", "b"})
    assert (pair.a, pair.b, pair.paired, pair.separated) == ("a", "b", "table", True)
    assert pair.test.low is not None and pair.test.low > 0
    assert pair.test.diff == pytest.approx((13.5 - 10.5) / 24 / 3)  # a third per place


def test_the_sign_flip_test_counts_every_sign_pattern() -> None:
    """Three deals whose weighted differences are 2, 1 and -1: of the 8 sign patterns, 6 have
    a sum at least 2 away from 0 (p = 6/8), 3 a sum of at least 2 (one-sided 3/8), 7 a sum of
    at most 2; the LOS counts the 2 patterns equal to it as half (5/8 + 1/8); the interval is
    the exact test inverted, unbounded on 3 deals, where no shift can be rejected at 2.5%."""
    test = paired_test(np.array([1.0, 0.5, -0.25]), np.array([2.0, 2.0, 4.0]))
    assert test.exact and (test.deals, test.games) == (3, 8)
    assert test.diff == pytest.approx(2 / 8)
    assert (test.p, test.p_above, test.p_below, test.los) == pytest.approx((6 / 8, 3 / 8,
                                                                            7 / 8, 6 / 8))
    assert (test.low, test.high) == (None, None)
    every_deal_ahead = paired_test(np.array([1.0, 2.0, 3.0, 4.0]), np.ones(4))
    assert (every_deal_ahead.p, every_deal_ahead.p_above) == pytest.approx((2 / 16, 1 / 16))
    assert every_deal_ahead.los == pytest.approx(1 - 1 / 16 + 1 / 32)


def test_holm_multiplies_each_p_value_by_the_hypotheses_left() -> None:
    """Sorted, 0.005 x 4, 0.01 x 3, 0.03 x 2, then 0.04 x 1 kept at least the 0.06 before it;
    values are given back in the order they came, and never above 1."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.6, 0.5]) == [1.0, 1.0]
    assert holm([]) == []


def pair(a: str, b: str, diff: float, separated: bool) -> Pair:
    test = paired.Test(10, 240, diff, None, None, 0.5, 0.5, 0.5, 0.5, True)
    return Pair(a, b, "table", test, 0.001 if separated else 0.5, separated)


def test_places_run_from_those_separated_above_to_those_separated_below() -> None:
    """a is separated above c and d, b above d; and c, listed before d, is separated below
    it (a negative difference): a holds places 1-2, b 1-3, d exactly 3 (a and b above it, c
    below), c 3-4."""
    pairs = [pair("a", "b", 0.05, False), pair("a", "c", 0.2, True), pair("a", "d", 0.2, True),
             pair("b", "c", 0.1, False), pair("b", "d", 0.1, True),
             pair("c", "d", -0.1, True)]
    assert places(NAMES, pairs) == {"a": (1, 2), "b": (1, 3), "c": (3, 4), "d": (3, 3)}


def test_a_level_verdict_never_comes_with_an_interval_that_excludes_zero() -> None:
    """Five deals, four clearly ahead and one a little behind: the exact one-sided test gives
    p = 2/32 (flipping the one behind makes the sum larger), above 5%, so the verdict is
    "level"; the 90% interval printed beside it comes from the same test inverted and so
    holds 0.  (Student's t on the same deals would exclude 0.)"""
    d = np.array([0.10, 0.12, 0.09, 0.11, -0.01])
    test = paired_test(d, np.ones(5), alpha=0.10)
    assert test.exact and test.p_above == pytest.approx(2 / 32)
    assert test.low is not None and test.high is not None
    assert test.low <= 0 <= test.high
    t_half = stdtrit(4, 0.95) * d.std(ddof=1) / 5 ** 0.5
    assert d.mean() - t_half > 0  # what the t interval said beside the same verdict
    ahead = paired_test(np.array([0.10, 0.12, 0.09, 0.11, 0.01]), np.ones(5), alpha=0.10)
    assert ahead.p_above == pytest.approx(1 / 32)
    assert ahead.low is not None and ahead.low > 0  # beats: the interval excludes 0


def test_exact_intervals_agree_with_the_one_sided_tests() -> None:
    """Over many random sets of deals and weights, the exact interval of coverage 1 - alpha
    excludes 0 exactly when a one-sided exact test at alpha / 2 rejects."""
    rng = np.random.default_rng(5)
    for _ in range(500):
        c = int(rng.integers(2, 12))
        test = paired_test(rng.normal(0.3, 1, c), rng.integers(1, 20, c).astype(float), 0.1)
        excludes = test.low is not None and test.high is not None and (
            test.low > 0 or test.high < 0)
        assert excludes == (min(test.p_above, test.p_below) <= 0.05)


def test_a_board_that_cannot_separate_anything_says_so_under_the_table() -> None:
    """Four entrants at one table for three deals: the exact test cannot separate any pair
    after Holm (its smallest p-value, 2/8, is above 0.05/6), and the board says so under the
    table in one paragraph (wrapped to the terminal table's width), names the 8 deals it
    needs, and the games a difference of 0.1 would need."""
    results = []
    for deal in range(3):
        for k, seats in enumerate(itertools.permutations(["a", "b", "c", "d"])):
            ranks = [1, 2, 3, 4] if k % 2 else [4, 3, 2, 1]
            results.append((f"g{deal}-{k:02d}", list(seats), {
                "money": [40 - 10 * r for r in ranks], "ranks": ranks, "retired": [],
                "faults": [[]] * 4}))
    seeds = {gid: int(gid[1]) for gid, _, _ in results}
    board = standings(Games.load(all_stored(results), seeds), samples=50)
    assert not any(p.separated for p in board.pairs)
    assert board.note is not None
    assert board.note.startswith("no pair can be separated: with 3 deals the exact test's "
                                 "smallest p-value is above 0.05/6; 4 entrants need at least "
                                 "8 deals of a table")
    text = render(board, "table")
    paragraphs = [" ".join(part.split()) for part in text.split("\n\n")]
    assert board.note in paragraphs, text


def three_baselines_board(stopped: bool) -> Standings:
    """The board of a gauntlet of baselines x, y, z and candidates c0-c3, each at its own
    table, 3 deals of 4 rotations, finishes alternating with the order, deal and candidate;
    `stopped`: inside its third deal, c2's and c3's tables after 1 seat order of 4."""
    results = []
    for deal in range(3):
        for c in range(4):
            table = ["x", "y", "z", f"c{c}"]
            for k in range(1 if stopped and deal == 2 and c >= 2 else 4):
                seats = table[k:] + table[:k]
                ranks = [1, 2, 3, 4] if (k + c + deal) % 2 else [4, 3, 2, 1]
                results.append((f"g{deal}-c{c}-o{k}", seats, {
                    "money": [40 - 10 * r for r in ranks], "ranks": ranks, "retired": [],
                    "faults": [[]] * 4}))
    seeds = {gid: int(gid[1]) for gid, _, _ in results}
    return standings(Games.load(all_stored(results), seeds), samples=50)


def test_a_gauntlets_note_counts_the_deals_of_every_candidates_table() -> None:
    """A gauntlet of three baselines and four candidates, each candidate at its own table,
    every deal dealt alike at every table, 3 deals: the note's games and its "deals of every
    table" agree (a deal of a table is its 4 seat orders, at each of the 4 tables), and are
    never fewer than the deals it says the exact test needs."""
    board = three_baselines_board(stopped=False)
    assert board.note is not None and board.note.startswith("no pair can be separated: with 3")
    found = re.search(r"would need about ([\d,]+) games \(([\d,]+) deals of every table\)",
                      board.note)
    assert found, board.note
    games, deals = (int(x.replace(",", "")) for x in found.groups())
    assert games == deals * 4 * 4, board.note
    need = re.search(r"entrants need at least (\d+) deals of a table", board.note)
    assert need and deals >= int(need.group(1)), board.note  # never fewer than it says


def test_a_run_stopped_inside_a_deal_is_told_the_games_of_whole_deals() -> None:
    """A gauntlet stopped by a time budget inside its third deal (two candidates' tables
    have played 1 of its 4 seat orders): the note's games are still its deals of every table
    (a deal: 4 seat orders at each of 4 tables), not a deal short for the part-played one."""
    board = three_baselines_board(stopped=True)
    assert board.note is not None
    found = re.search(r"would need about ([\d,]+) games \(([\d,]+) deals of every table\)",
                      board.note)
    assert found, board.note
    games, deals = (int(x.replace(",", "")) for x in found.groups())
    assert games == deals * 4 * 4, board.note


def test_until_separated_tests_the_leader_at_the_error_over_the_entrants() -> None:
    """Two entrants at one table, the first ahead in every deal: the exact one-sided p-value is
    1/2**deals, and a look at 5% stops only when it is at most 5% / 2 (two entrants): not
    after 5 deals (1/32), but after 6 (1/64)."""
    from referee.leaderboard.sequential import settled

    def games(deals: int) -> Games:
        results = [(f"g{c}-{k}", seats, {
            "money": [20, 10] if seats[0] == "a" else [10, 20],
            "ranks": [1, 2] if seats[0] == "a" else [2, 1], "retired": [], "faults": [[], []]})
            for c in range(deals) for k, seats in enumerate((["a", "b"], ["b", "a"]))]
        return Games.load(all_stored(results), {gid: int(gid[1:].split("-")[0])
                                                for gid, _, _ in results})

    assert not settled(games(5), "separated", "placement", 0.05)
    assert settled(games(6), "separated", "placement", 0.05)


def test_in_a_complete_design_strength_orders_as_the_mean_on_a_wider_scale() -> None:
    """Every table of 4 of 6 entrants, one deal each, random finishes: each entrant's strength
    less the overall mean is its plain mean's times k(n - 1) / ((k - 1) n) = 10/9, so the two
    order the entrants alike (as docs/statistics.md says)."""
    from referee.leaderboard.stats import strengths

    rng = random.Random(5)
    names = [f"e{i}" for i in range(6)]
    results = []
    for t, table in enumerate(itertools.combinations(names, 4)):
        ranks = rng.sample([1, 2, 3, 4], 4)
        results.append((f"t{t}-d00-o00", list(table), {
            "money": [40 - 10 * r for r in ranks], "ranks": ranks, "retired": [],
            "faults": [[]] * 4}))
    games = Games.load(all_stored(results), {gid: int(gid[1:].split("-")[0])
                                             for gid, _, _ in results})
    values, present = games.metric("placement"), games.present
    means = (values * present).sum(axis=0) / present.sum(axis=0)
    overall = float((values * present).sum() / present.sum())
    found = strengths(games) - overall
    assert np.allclose(found, (means - overall) * 4 * 5 / (3 * 6)), (found, means)


def gauntlet_board(candidates: tuple[str, ...], beats_y: Callable[[int, str], bool],
                   stopped: tuple[str, ...] = ()) -> Standings:
    """The board of a gauntlet of baselines x (always first) and y and the `candidates` at
    tables of their own, 10 deals of 3 rotations: a candidate finishes second, above y, in
    the deals where `beats_y(deal, candidate)`, else last.  The `stopped` candidates lack
    the last deal, as a run stopped in mid-deal leaves them."""
    results = []
    for deal in range(10):
        for c in candidates:
            if deal == 9 and c in stopped:
                continue
            for k in range(3):
                table = ["x", "y", c]
                seats = table[k:] + table[:k]
                order = ["x", c, "y"] if beats_y(deal, c) else ["x", "y", c]
                ranks = [order.index(s) + 1 for s in seats]
                results.append((f"{c}-d{deal}-o{k}", seats, {
                    "money": [40 - 10 * r for r in ranks], "ranks": ranks, "retired": [],
                    "faults": [[]] * 3}))
    seeds = {gid: int(gid.split("-")[1][1:]) for gid, _, _ in results}
    return standings(Games.load(all_stored(results), seeds), samples=50,
                     baselines=["x", "y"])


def test_a_gauntlet_places_its_candidates_and_shows_its_baselines_without_a_place() -> None:
    """Baselines x (always first) and y, three candidates at tables of their own, 10 deals:
    c0 always beats y, c1 and c2 never do.  The best candidate reads place 1, not 3 behind
    two baselines: the candidates hold places 1 and 2-3 by the pairs of candidates alone (3
    pairs), and the baselines keep their rows and figures, marked "baseline" with no place
    (no rank, no place in CSV; null in JSON).  A baseline with no games yet has a CSV row
    marked baseline too, a candidate's not."""
    import csv
    import io
    import json

    from referee.leaderboard.rows import Place

    board = gauntlet_board(("c0", "c1", "c2"), lambda deal, c: c == "c0")
    rows = {r.name: r for r in board.rows}
    assert [r.name for r in board.rows] == ["x", "c0", "y", "c1", "c2"]
    assert (rows["c0"].rank, rows["c0"].place) == (1, Place(1, 1))
    assert {rows[c].place for c in ("c1", "c2")} == {Place(2, 3)}
    assert all(rows[b].place is None and rows[b].rank is None and rows[b].baseline
               for b in ("x", "y"))
    assert len(board.pairs) == 3 and not {"x", "y"} & {n for p in board.pairs for n in (p.a, p.b)}
    table = render(board, "table", baselines=["x", "y"])
    shown = [line.split()[:3] for line in table.splitlines()[2:7]]
    assert shown[:3] == [["baseline", "x", "90"], ["1", "1", "c0"], ["baseline", "y", "90"]], \
        table
    assert "| baseline | y" in render(board, "markdown", baselines=["x", "y"])
    csv_rows = {r["name"]: r for r in csv.DictReader(io.StringIO(
        render(board, "csv", baselines=["x", "y"])))}
    assert (csv_rows["y"]["rank"], csv_rows["y"]["place_best"], csv_rows["y"]["baseline"]) \
        == ("", "", "True")
    assert csv_rows["c0"]["place_best"] == "1"
    unseated = {r["name"]: r["baseline"] for r in csv.DictReader(io.StringIO(render(
        board, "csv", baselines=["x", "y", "z"], no_games=["z", "c3"])))}
    assert (unseated["z"], unseated["c3"], unseated["x"]) == ("True", "False", "True"), unseated
    entrants = {e["name"]: e for e in json.loads(render(board, "json"))["entrants"]}
    assert entrants["x"]["place"] is None and entrants["x"]["baseline"] is True
    assert entrants["c0"]["place"] == {"best": 1, "worst": 1}


def test_a_gauntlet_stopped_in_mid_deal_still_places_its_candidates() -> None:
    """A gauntlet stopped in its last deal after c0's games (by a time budget, say): c0,
    which beat y in every deal, still reads place 1 above c1 and c2, each pair compared on
    the deals both played (9 for c0 and c1), not every place 1-3 with no difference."""
    from referee.leaderboard.rows import Place

    board = gauntlet_board(("c0", "c1", "c2"), lambda deal, c: c == "c0",
                           stopped=("c1", "c2"))
    rows = {r.name: r for r in board.rows}
    assert rows["c0"].place == Place(1, 1) and rows["c1"].place == Place(2, 3)
    c0_c1 = next(p for p in board.pairs if {p.a, p.b} == {"c0", "c1"})
    assert (c0_c1.paired, c0_c1.test.deals, c0_c1.separated) == ("deal", 9, True)


def test_copies_level_in_every_deal_are_said_to_be_beyond_any_number_of_games() -> None:
    """Candidates c1 and c2 of a gauntlet with the same results in every deal (copies of
    one deterministic bot, dealt the same cards): no pair is separated, and the note says why
    (level in every deal) rather than nothing, and no number of games that would do it."""
    board = gauntlet_board(("c1", "c2"), lambda deal, c: deal % 2 == 1)
    assert board.note is not None and board.note.startswith("no pair is separated: every "
                                                            "pair's results are level in "
                                                            "every deal"), board.note
    assert "would separate them" in board.note and "would need about" not in board.note
