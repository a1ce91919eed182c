"""A board says which test gave its places: the exact sign-flip test over a complete design's
deals, Student's t past 16 of them, the block model where the tables were drawn."""

from __future__ import annotations

import numpy as np

from referee.leaderboard.methods import place_note, separated_note
from referee.leaderboard.pairs import compare

NAMES = ["a", "b", "c", "d"]


def one_table(deals: int) -> list:  # type: ignore[type-arg]
    """Four entrants at one table, 24 games a deal, `a` always first and the rest drawn."""
    rng = np.random.default_rng(deals)
    deal = np.repeat(np.arange(deals), 24)
    values = np.zeros((len(deal), 4))
    values[:, 0] = 1.0
    values[:, 1:] = np.argsort(rng.random((len(deal), 3)), axis=1) / 3
    return compare(NAMES, deal, values, np.ones((len(deal), 4)))


def test_a_complete_design_of_few_deals_names_the_exact_test() -> None:
    """With 12 deals of one table the places and the pairs name the exact sign-flip test over
    those 12 deals, and nothing else."""
    pairs = one_table(12)
    assert "(the exact sign-flip test over 12 deals; familywise error 5%, Holm)" in place_note(
        pairs)
    note = separated_note(pairs)
    assert note.startswith("separated: the exact sign-flip test over 12 deals")
    assert "Student" not in note and "block model" not in note and "Holm over 6 pairs" in note


def test_past_16_deals_the_board_names_students_t() -> None:
    """With 20 deals the same design's verdicts are Student's t over the deals, and the board
    says so rather than naming the exact test it no longer uses."""
    pairs = one_table(20)
    assert "(Student's t over 20 deals; familywise error 5%, Holm)" in place_note(pairs)
    assert "sign-flip test is exact up to 16" in separated_note(pairs)
    assert "block model" not in separated_note(pairs)


def test_drawn_tables_name_the_block_model() -> None:
    """Where each deal seats three of four entrants, the verdicts are the block model's and
    the notes name it alone, with what its pairs' deals count."""
    rng = np.random.default_rng(1)
    deal, present, values = [], [], []
    for c in range(30):
        seated = rng.permutation(4)[:3]
        for _ in range(6):
            p = np.zeros(4)
            p[seated] = 1
            v = np.zeros(4)
            v[seated] = rng.permutation(3) / 2
            deal.append(c)
            present.append(p)
            values.append(v)
    pairs = compare(NAMES, np.array(deal), np.array(values), np.array(present))
    assert {p.paired for p in pairs} == {"model"}
    assert "(the block model over every game; familywise error 5%, Holm)" in place_note(pairs)
    assert "sign-flip" not in separated_note(pairs)
    assert "each table's counted apart" in separated_note(pairs)  # what its deals count
