"""A pool of played blocks for simulated fields: the sample bots in-process, one block a deal.

A block is one table's deal: one deck, played in the balanced seat orders of its table
(`referee.tournament.schedule.BALANCED_ORDERS`), each game with its seat order's index, so
every seat gets the seed for its own randomness the referee would send (`seat_seed`: deck,
seat order, seat; common random numbers).  The pool holds, on distinct decks:

- for each mix of a table of four (0 to 4 baseline bots B, the rest random bots R, and the
  bidder D with three random bots) blocks as each seat's mean placement points, win share and
  money over the block's 12 games (blocks x 3 x 4, seats in the mix's order);
- a gauntlet at tables of three: on each deck, K candidates (random bots, each mixing its own
  `--seed` into its seed, so equally strong but not identical) each meeting the same two
  baselines (the baseline bot and a random bot) in all 6 seat orders (decks x K x 3 x 3:
  candidate, baseline bot, random baseline).

Identical bots are interchangeable, so a simulated field of many entrants (`verdict.py`) takes
for each of its tables a block of the table's mix from the pool instead of playing it: the
games a tournament of that field would play, up to which deck falls to which table.

Run: python benchmarks/block_pool.py [--blocks 300] [--out pool.npz]   (cached by verdict.py)
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from grading_power import SampleBot  # noqa: E402

from referee.game import BUILTIN_EDITIONS, Decision, DecisionKind  # noqa: E402
from referee.leaderboard.stats import placement_points  # noqa: E402
from referee.match.game import play_game  # noqa: E402
from referee.match.player import Answer  # noqa: E402
from referee.match.spec import GameSpec  # noqa: E402
from referee.tournament.schedule import BALANCED_ORDERS  # noqa: E402

MIXES = ("BBBB", "BBBR", "BBRR", "BRRR", "RRRR", "DRRR")  # B baseline, R random, D bidder
GAUNTLET = "G3"  # the gauntlet's key in the pool
SHARE = 0.5  # the share of its bids and purchases the bidder keeps within the lot's value
TILES = (30, 20, 10)  # what a painting of the first three artists of a round sells for
EDITION = BUILTIN_EDITIONS["cmon"]  # GameSpec.make's default


def lot_value(view: dict[str, Any], cards: list[int]) -> int:
    """What the lot would sell for if the round ended now: the tile of its artist's place
    among the cards played this round, plus that artist's tiles of earlier rounds."""
    counts = view["played"]
    ranking = sorted((a for a in range(len(counts)) if counts[a]), key=lambda a: -counts[a])[:3]
    earlier = view["tiles"][: view["round"] - 1]
    value = 0
    for card in cards:
        artist = EDITION.card_artist[card]
        if artist in ranking:
            value += TILES[ranking.index(artist)] + sum(row[artist] for row in earlier)
    return value


class BidderBot(SampleBot):
    """random_bot.py, except that a SHARE of its bids and purchases stay within what the lot
    would sell for if the round ended now: a small real edge over the random bot."""

    def __init__(self, name: str) -> None:
        super().__init__(name, 0.0, None)

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        kind = decision.kind
        if kind not in (DecisionKind.BID, DecisionKind.HIDDEN_BID, DecisionKind.BUY) or \
                self.coin.random() >= SHARE:
            return await super().decide(decision, view, alone)
        from referee.game.actions import Bid, Buy, Pass

        seat, rng = decision.seat, self.coin
        value = lot_value(view, view["auction"]["cards"])
        if kind is DecisionKind.HIDDEN_BID:
            return Answer(Bid(seat, rng.randint(0, max(0, min(decision.max_amount, value)))))
        if kind is DecisionKind.BUY:
            return Answer(Buy(seat) if decision.price < value else Pass(seat))
        low, high = decision.min_amount, min(decision.max_amount, value)
        if high < low or rng.random() < 0.6:  # the random bot's own rate of passing
            return Answer(Pass(seat))
        return Answer(Bid(seat, rng.randint(low, min(high, low + 15))))


def player(kind: str, name: str, seed: int | None = None) -> SampleBot:
    if kind == "B":
        return SampleBot(name, 1.0)
    if kind == "D":
        return BidderBot(name)
    return SampleBot(name, 0.0, seed)


async def play_block(players: list[SampleBot], seed: int, tag: str) -> np.ndarray:
    """(3 x k): per player (in the order given) mean placement, win share and money over one
    deck's games in the balanced seat orders of k."""
    k = len(players)
    out = np.zeros((3, k))
    orders = BALANCED_ORDERS[k]
    for o, order in enumerate(orders):
        seats = [players[i] for i in order]
        spec = GameSpec.make(f"pool-{tag}-{seed}-o{o:02d}", seed, [p.name for p in seats],
                             order=o)
        record = await play_game(spec, seats)
        ranks = list(record.result.ranks)
        winners = sum(1 for r in ranks if r == 1)
        for seat, (i, pts) in enumerate(zip(order, placement_points(ranks), strict=True)):
            out[0, i] += pts
            out[1, i] += (1 / winners) if ranks[seat] == 1 else 0.0
            out[2, i] += record.result.money[seat]
    return out / len(orders)


def mix_blocks(job: tuple[str, list[int]]) -> np.ndarray:
    mix, seeds = job
    players = [player(kind, f"{kind}{i}") for i, kind in enumerate(mix)]

    async def run() -> np.ndarray:
        return np.stack([await play_block(players, s, mix) for s in seeds])
    return trio.run(run)


def gauntlet_deal(job: tuple[int, int]) -> np.ndarray:
    """One deck of the gauntlet: (K x 3 x 3) for K candidates."""
    seed, candidates = job
    base, rand = player("B", "baseline"), player("R", "random")

    async def run() -> np.ndarray:
        return np.stack([await play_block([player("R", f"cand{c}", c + 1), base, rand],
                                          seed, "g3") for c in range(candidates)])
    return trio.run(run)


def build(blocks: int, gauntlet_deals: int, candidates: int, seed: int = 1,
          workers: int = 2) -> dict[str, np.ndarray]:
    rng = random.Random(seed)
    seeds = {mix: [rng.randrange(2 ** 31) for _ in range(blocks * (2 if mix == "RRRR" else 1))]
             for mix in MIXES}
    chunk = 25
    jobs = [(mix, s[i:i + chunk]) for mix, s in seeds.items() for i in range(0, len(s), chunk)]
    deal_seeds = [rng.randrange(2 ** 31) for _ in range(gauntlet_deals)]
    with multiprocessing.Pool(workers) as pool:
        gauntlet = pool.map_async(gauntlet_deal, [(s, candidates) for s in deal_seeds])
        parts = pool.map(mix_blocks, jobs, chunksize=1)
        out: dict[str, np.ndarray] = {}
        for (mix, _), part in zip(jobs, parts, strict=True):
            out[mix] = np.concatenate([out[mix], part]) if mix in out else part
        out[GAUNTLET] = np.stack(gauntlet.get())
    return out


def load(path: Path, blocks: int, gauntlet_deals: int = 120, candidates: int = 20,
         workers: int = 2) -> dict[str, np.ndarray]:
    """The pool at `path`, built first if it is missing or smaller than asked (RRRR blocks:
    twice `blocks`, for the 40-entrant fields of random bots alone)."""
    if path.exists():
        data = dict(np.load(path))
        if all(len(data.get(m, ())) >= blocks for m in MIXES) and \
                data.get(GAUNTLET, np.zeros((0, 0))).shape[:2] >= (gauntlet_deals, candidates):
            return data
    start = time.perf_counter()
    pool = build(blocks, gauntlet_deals, candidates, workers=workers)
    np.savez(path, **pool)  # type: ignore[arg-type]
    print(f"(pool of {blocks} blocks per mix and {gauntlet_deals} gauntlet decks of "
          f"{candidates} candidates played in {time.perf_counter() - start:.0f} s, saved to "
          f"{path})", file=sys.stderr)
    return pool


class Draws:
    """Blocks drawn from the pool for one simulated tournament: without replacement while a
    mix's blocks last (then its pool is shuffled again), seats of one kind in random order."""

    def __init__(self, pool: dict[str, np.ndarray], rng: np.random.Generator) -> None:
        self.pool, self.rng = pool, rng
        self.left: dict[str, list[int]] = {}

    def block(self, mix: str) -> np.ndarray:
        left = self.left.get(mix)
        if not left:
            left = self.left[mix] = self.rng.permutation(len(self.pool[mix])).tolist()
        return np.asarray(self.pool[mix][left.pop()])

    def field(self, kinds: str, tables: Sequence[tuple[int, ...]], metric: int = 0
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A field of entrants of `kinds` (one letter each) at `tables` (each on its own
        deck): (deal, values, present) with one pseudo-game per table, whose values are the
        block's means (what `blocks.Design.of` takes of a block's games anyway)."""
        values = np.zeros((len(tables), len(kinds)))
        present = np.zeros_like(values)
        for t, members in enumerate(tables):
            mix = "".join(sorted((kinds[m] for m in members), key="DBR".index))
            block = self.block(mix)[metric]
            for kind in dict.fromkeys(mix):  # in a fixed order: a run is a function of its seed
                who = [m for m in members if kinds[m] == kind]
                self.rng.shuffle(who)
                values[t, who] = block[[i for i, c in enumerate(mix) if c == kind]]
            present[t, list(members)] = 1.0
        return np.arange(len(tables)), values, present

    def gauntlet(self, deals: int, candidates: int, metric: int = 0
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A gauntlet of `candidates` (random bots with their own seeds) against the baseline
        bot and a random baseline (the last two entrants), tables of three: every candidate's
        table on a deal shares its deck and the baselines' seeds (one deal index)."""
        pool = self.pool[GAUNTLET]
        picked = self.rng.choice(pool.shape[0], deals, replace=False)
        who = self.rng.choice(pool.shape[1], candidates, replace=False)
        rows = deals * candidates
        values = np.zeros((rows, candidates + 2))
        present = np.zeros_like(values)
        deal = np.repeat(np.arange(deals), candidates)
        for i, d in enumerate(picked):
            for j, c in enumerate(who):
                row = i * candidates + j
                values[row, [j, candidates, candidates + 1]] = pool[d, c, metric]
                present[row, [j, candidates, candidates + 1]] = 1.0
        return deal, values, present


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=300)
    parser.add_argument("--gauntlet-deals", type=int, default=120)
    parser.add_argument("--candidates", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("pool.npz"))
    args = parser.parse_args()
    load(args.out, args.blocks, args.gauntlet_deals, args.candidates, args.workers)
