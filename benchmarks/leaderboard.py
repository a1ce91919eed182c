"""Leaderboard speed on a large store: bootstrap intervals and ratings over N games.

Run: python benchmarks/leaderboard.py [--games 100000]
Fills a temporary store with N synthetic four-player results of 8 entrants (as a tournament
would store them, without the game records), then times loading them, the bootstrap (1,000
resamples of whole games) and the OpenSkill ratings.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from referee.leaderboard.stats import Games, bootstrap, leaderboard, ratings
from referee.tournament.store import open_store


def fill(path: Path, games: int) -> None:
    store = open_store(path)
    rng = random.Random(1)
    names = [f"bot{i}" for i in range(8)]
    store.db.execute("BEGIN")
    for g in range(games):
        seats = rng.sample(names, 4)
        money = [rng.randint(150, 600) for _ in seats]
        ranks = [1 + sum(1 for m in money if m > mine) for mine in money]
        result = {"money": money, "ranks": ranks, "retired": [], "faults": [[], [], [], []],
                  "response_us": [{"36": 30, "40": 5}] * 4}
        store.save(f"g{g:07d}", seats, g, result, b"", 0.1, 1)
    store.db.execute("COMMIT")
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.db"
        fill(path, args.games)
        store = open_store(path)
        t0 = time.perf_counter()
        games = Games.load(store.results())
        t1 = time.perf_counter()
        bootstrap(games)
        t2 = time.perf_counter()
        ratings(games)
        t3 = time.perf_counter()
        leaderboard(games)
        t4 = time.perf_counter()
        store.close()
    print(f"games: {args.games}, 8 entrants, tables of 4")
    print(f"load from the store:        {t1 - t0:6.2f} s")
    print(f"bootstrap (1,000 samples):  {t2 - t1:6.2f} s")
    print(f"OpenSkill ratings:          {t3 - t2:6.2f} s")
    print(f"bootstrap + rating:         {t3 - t1:6.2f} s   (target < 10 s)")
    print(f"whole leaderboard:          {t4 - t3 + t1 - t0:6.2f} s (load + all statistics)")


if __name__ == "__main__":
    main()
