"""One decision through the referee, with a minimal bot, against a raw pipe round trip.

Run: python benchmarks/protocol.py [--games N]
A decision's cost is the time from the referee asking one decision to asking the next: it
holds the view, the encoding, the round trip, the decoding, the engine and the events.
The floor is a raw write-then-read-one-line round trip to a minimal echo child.
Target: median <= 1.3 x the floor.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from pipe import pipe_round_trips  # noqa: E402

from referee.bots.player import BotPlayer, BotSpec  # noqa: E402
from referee.game import Decision  # noqa: E402
from referee.match.runner import play_game  # noqa: E402
from referee.match.spec import GameSpec  # noqa: E402
from referee.player import Answer  # noqa: E402


class Timed(BotPlayer):
    """Notes when each decision is asked, to time decision-to-decision."""

    stamps: list[float]

    async def decide(self, decision: Decision, view: dict[str, Any]) -> Answer:
        self.stamps.append(time.perf_counter())
        return await super().decide(decision, view)


async def measure(games: int, floor: list[float] | None = None) -> list[float]:
    """Decision-to-decision gaps; with `floor`, pipe round trips are measured between games
    too, so both figures come from the same stretches of machine state."""
    stamps: list[float] = []
    command = f"{sys.executable} {HERE / 'minimal_bot.py'}"
    players = [Timed(BotSpec(f"minimal{i}", command)) for i in range(4)]
    for p in players:
        p.stamps = stamps
    gaps: list[float] = []
    try:
        for g in range(games):
            stamps.clear()
            spec = GameSpec.make(f"bench-{g}", g, [p.name for p in players])
            await play_game(spec, players)
            gaps += [b - a for a, b in itertools.pairwise(stamps)]
            if floor is not None:
                floor += pipe_round_trips(150)
    finally:
        for p in players:
            await p.aclose()
    return gaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    floor: list[float] = []
    gaps = trio.run(measure, args.games, floor)
    gaps.sort()
    floor.sort()
    med, p99 = statistics.median(gaps), gaps[int(len(gaps) * 0.99)]
    fmed, fp99 = statistics.median(floor), floor[int(len(floor) * 0.99)]
    print(f"decisions measured: {len(gaps)} over {args.games} 4-player games")
    print(f"referee decision:  median {med * 1e6:8.1f} us   p99 {p99 * 1e6:8.1f} us")
    print(f"raw pipe (floor):  median {fmed * 1e6:8.1f} us   p99 {fp99 * 1e6:8.1f} us")
    print(f"ratio:             median {med / fmed:8.2f} x    p99 {p99 / fp99:8.2f} x"
          "   (target: median <= 1.3 x)")


if __name__ == "__main__":
    main()
