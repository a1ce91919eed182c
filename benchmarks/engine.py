"""Engine speed: random 4-player games in process, against a raw pipe round trip.

Run: python benchmarks/engine.py [--games N]
Prints games per second, decisions per second, and the engine's cost per decision as a
fraction of one request/response over a pipe (target <= 0.2, aim 0.1).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pipe import pipe_round_trips

from referee.game import GameConfig, GameState, HiddenBids, Phase
from referee.game.random_policy import random_action


def play_games(games: int) -> tuple[int, float, float]:
    """Play `games` random games; return decisions, total seconds, seconds inside the engine."""
    config = GameConfig(4)
    rng = random.Random(2026)
    clock = time.perf_counter
    decisions = 0
    engine = 0.0
    start = clock()
    for seed in range(games):
        t = clock()
        state = GameState(config, seed=seed)
        engine += clock() - t
        while True:
            t = clock()
            if state.phase is Phase.OVER:
                engine += clock() - t
                break
            if state.phase is Phase.HIDDEN:
                asked = state.decisions()
                engine += clock() - t
                action = HiddenBids(tuple(random_action(d, rng).amount for d in asked))  # type: ignore[union-attr]
                decisions += len(asked)
            else:
                decision = state.decision(state.pending)
                engine += clock() - t
                action = random_action(decision, rng)
                decisions += 1
            t = clock()
            state.apply(action)
            engine += clock() - t
    return decisions, clock() - start, engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    decisions, total, engine = play_games(args.games)
    pipe = statistics.median(pipe_round_trips())
    per_decision = engine / decisions
    with_players = total / decisions
    print(f"games: {args.games} (4 players, cmon, random players in process)")
    print(f"games per second:        {args.games / total:10.1f}")
    print(f"decisions per second:    {decisions / total:10.0f}")
    print(f"engine per decision:     {per_decision * 1e6:10.2f} us")
    print(f"  with random players:   {with_players * 1e6:10.2f} us")
    print(f"pipe round trip (median):{pipe * 1e6:10.2f} us")
    print(f"engine / pipe:           {per_decision / pipe:10.3f}  (target <= 0.2, aim 0.1)")
    print(f"  with random players:   {with_players / pipe:10.3f}")


if __name__ == "__main__":
    main()
