"""The ranks a game ends with (R6.1 and D8): the most money wins, equal money shares a rank,
and a retired seat ranks below every seat that was not, retired seats by their money."""

from __future__ import annotations

from referee.match.game import final_ranks


def test_D8_retired_seats_rank_below_the_others_and_by_money_among_themselves() -> None:
    """A retired seat with the most money still ranks below the seats that played on; two
    retired seats rank by money, and equal money shares a rank (R6.1)."""
    assert final_ranks([100, 300, 200, 50], [False, True, False, True]) == [2, 3, 1, 4]
    assert final_ranks([100, 100, 90, 90], [False, False, True, True]) == [1, 1, 3, 3]
