"""A pool of played blocks for simulated fields: the sample bots in-process, one block a deal.

A block is one table's deal: one deck, played in the 12 balanced seat orders of four.  For
each mix of the table (0 to 4 baseline bots, the rest random bots, or a "bidder" with three
random bots) the pool holds blocks played on distinct decks, as each seat's mean placement
points, win share and money over the block's games.  Identical bots are interchangeable, so a
simulated field of many entrants (`verdict.py`) takes for each of its tables a block of the
table's mix from the pool, instead of playing it again: the same games a tournament of that
field would play, up to which deck falls to which table.

Run: python benchmarks/block_pool.py [--blocks 300] [--out pool.npz]   (cached by verdict.py)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from grading_power import SampleBot  # noqa: E402

from referee.leaderboard.stats import placement_points  # noqa: E402
from referee.match.game import play_game  # noqa: E402
from referee.match.spec import GameSpec  # noqa: E402
from referee.tournament.schedule import BALANCED_ORDERS  # noqa: E402

MIXES = ("BBBB", "BBBR", "BBRR", "BRRR", "RRRR", "DRRR")  # B baseline, R random, D bidder


def player(kind: str, name: str) -> SampleBot:
    if kind == "B":
        return SampleBot(name, 1.0)
    if kind == "D":
        from verdict import BidderBot
        return BidderBot(name)  # type: ignore[no-any-return]
    return SampleBot(name, 0.0, None)


async def play_block(mix: str, seed: int) -> np.ndarray:
    """(3 x 4): per seat of the table (in `mix` order) mean placement, win share, money."""
    names = [f"{kind}{i}" for i, kind in enumerate(mix)]
    players = {n: player(n[0], n) for n in names}
    out = np.zeros((3, 4))
    orders = BALANCED_ORDERS[4]
    for k, order in enumerate(orders):
        seats = [names[i] for i in order]
        spec = GameSpec.make(f"pool-{mix}-{seed}-o{k:02d}", seed, seats)
        record = await play_game(spec, [players[n] for n in seats])
        ranks = list(record.result.ranks)
        winners = sum(1 for r in ranks if r == 1)
        for seat, (n, pts) in enumerate(zip(seats, placement_points(ranks), strict=True)):
            i = names.index(n)
            out[0, i] += pts
            out[1, i] += (1 / winners) if ranks[seat] == 1 else 0.0
            out[2, i] += record.result.money[seat]
    return out / len(orders)


def build(blocks: int, seed: int = 1) -> dict[str, np.ndarray]:
    rng = random.Random(seed)
    pool: dict[str, np.ndarray] = {}

    async def main() -> None:
        for mix in MIXES:
            pool[mix] = np.stack([await play_block(mix, rng.randrange(2 ** 31))
                                  for _ in range(blocks)])
    trio.run(main)
    return pool


def load(path: Path, blocks: int) -> dict[str, np.ndarray]:
    """The pool at `path`, built first if it is missing or smaller than `blocks`."""
    if path.exists():
        data = dict(np.load(path))
        if all(len(data.get(m, ())) >= blocks for m in MIXES):
            return data
    start = time.perf_counter()
    pool = build(blocks)
    np.savez(path, **pool)
    print(f"(pool of {blocks} blocks per mix played in {time.perf_counter() - start:.0f} s, "
          f"saved to {path})", file=sys.stderr)
    return pool


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=300)
    parser.add_argument("--out", type=Path, default=Path("pool.npz"))
    args = parser.parse_args()
    load(args.out, args.blocks)
