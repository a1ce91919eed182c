"""Randomized playouts: 2,000 games over 3-5 players, both editions, every variant."""

from __future__ import annotations

import pytest

from referee.game import CLASSIC, CMON, GameConfig

from .playout import play_checked_game

CONFIGS = [
    (players, edition, variants)
    for edition in (CMON, CLASSIC)
    for players, variants in [
        (3, ()), (3, ("split-double",)), (3, ("mystery",)), (3, ("mystery-winner",)),
        (3, ("mystery", "split-double", "hidden-money")), (4, ()), (4, ("split-double",)),
        (4, ("hidden-money",)), (5, ()), (5, ("split-double", "hidden-money")),
    ]
]
GAMES_PER_CONFIG = 100  # 20 configurations x 100 = 2,000 games, each step checked


@pytest.mark.parametrize(
    ("players", "edition", "variants"), CONFIGS,
    ids=[f"{p}p-{e.name}-{'+'.join(v) or 'plain'}" for p, e, v in CONFIGS],
)
def test_R2_R8_random_playouts_keep_invariants(players, edition, variants) -> None:
    """After every step: money conserved, every card in one place, legal accepted, illegal
    rejected with the state unchanged, views show no hidden card, and the game ends."""
    config = GameConfig.from_variants(players, edition, variants)
    for seed in range(GAMES_PER_CONFIG):
        state = play_checked_game(config, seed)
        assert state.is_over
        assert len(state.final_ranks) == players
