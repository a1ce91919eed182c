"""Leaderboard speed on a large store: loading it, and every statistic of the standings.

Run: python benchmarks/leaderboard.py [--games 100000]
Fills a temporary store with about N synthetic four-player results laid out as a tournament
stores them (without the game records): 8 entrants of slightly different strength, every
table of 4 (70 tables), each deal of a table played in all 24 seat orders with one deck seed,
so about 60 deals of 1,680 games.  Then times loading them and `standings` (the bootstrap over
deals, the ratings with their bootstrap, the paired tests of every pair), part by part and as
one call, against the target of 10 s for loading plus standings; in wall-clock and CPU
seconds, as a busy machine stretches the first.  Then the standings of a sampled field of 40
entrants (150 tables of four, 12 seat orders: 1,800 games), against the target of 5 s.
"""

from __future__ import annotations

import argparse
import itertools
import random
import tempfile
import time
from pathlib import Path

from referee.leaderboard.rating import ratings as fit_ratings
from referee.leaderboard.stats import (
    Games,
    bootstrap,
    deal_weights,
    finishes,
    order,
    standings,
    verdicts,
)
from referee.match.result import StoredResult
from referee.tournament.store import Store

ENTRANTS = 8
SEATS = 4
ORDERS = 24  # seat orders of a table of four


def fill(path: Path, games: int) -> tuple[int, int]:
    """Whole deals of every table, about `games` games: (games stored, deals per table)."""
    store = Store.for_writing(path)
    rng = random.Random(1)
    names = [f"bot{i}" for i in range(ENTRANTS)]
    tables = list(itertools.combinations(names, SEATS))
    deals = max(1, round(games / (len(tables) * ORDERS)))
    stored = 0
    with store.transaction():
        for deal in range(deals):
            for t, table in enumerate(tables):
                seed = rng.randrange(2 ** 31)  # one deck for every seat order of this table's deal
                luck = {n: rng.randint(-60, 60) for n in table}  # what the deck gives each
                for k, seats in enumerate(itertools.permutations(table)):
                    money = [rng.randint(150, 600) + luck[n] + 8 * names.index(n) for n in seats]
                    ranks = [1 + sum(1 for m in money if m > mine) for mine in money]
                    game_id = f"t{t:02d}-d{deal:03d}-o{k:02d}"
                    result = StoredResult(game_id=game_id, names=tuple(seats), money=tuple(money),
                                          ranks=tuple(ranks), retired=(), faults=((),) * 4,
                                          response_us=({"36": 30, "40": 5},) * 4)
                    store.save(game_id, list(seats), seed, result, b"", 0.1, 1, ["v1"] * len(seats))
                    stored += 1
    store.close()
    return stored, deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.db"
        stored, deals = fill(path, args.games)
        store = Store.for_reading(path)
        marks = [(time.perf_counter(), time.process_time())]

        def mark() -> None:
            marks.append((time.perf_counter(), time.process_time()))

        games = Games.from_store(store)
        mark()
        weights = deal_weights(games.deals)
        bootstrap(games, weights)
        mark()
        fit_ratings(finishes(games), weights)
        mark()
        verdicts(games, order(games))
        mark()
        standings(games)
        mark()
        store.close()

    def took(i: int) -> tuple[float, float]:
        return marks[i][0] - marks[i - 1][0], marks[i][1] - marks[i - 1][1]

    print(f"games: {stored}, {ENTRANTS} entrants, every table of {SEATS}, {deals} deals of "
          f"each ({games.deals} decks, each in all {ORDERS} seat orders)")
    print("                                      wall s   CPU s")
    for i, label in enumerate(("load from the store", "bootstrap over deals (1,000 samples)",
                               "ratings and their bootstrap", "paired tests of every pair",
                               "standings (all of them, one call)"), 1):
        wall, cpu = took(i)
        print(f"{label + ':':37s} {wall:7.2f} {cpu:7.2f}")
    wall, cpu = (a + b for a, b in zip(took(1), took(5), strict=True))
    print(f"{'load + standings:':37s} {wall:7.2f} {cpu:7.2f}   (target < 10 s)")

def sampled_field(entrants: int = 40, tables: int = 150, orders: int = 12) -> None:
    """A field of `entrants` at `tables` sampled tables of four (as `tables = N` draws them),
    each deal in `orders` seat orders: 1,800 games for 40 entrants.  Times `standings`,
    whose verdicts there come from the block model, against the target of 5 s."""
    import random as _random

    from referee.tournament.sampling import sample_tables

    rng = _random.Random(1)
    names = [f"bot{i:02d}" for i in range(entrants)]
    results, seeds = [], {}
    for t, table in enumerate(sample_tables(entrants, SEATS, tables, _random.Random(2))):
        seed = rng.randrange(2 ** 31)
        for k in range(orders):
            seats = [names[i] for i in rng.sample(list(table), SEATS)]
            money = [rng.randint(150, 600) + 8 * names.index(n) for n in seats]
            ranks = [1 + sum(1 for m in money if m > mine) for mine in money]
            game_id = f"t{t:03d}-o{k:02d}"
            results.append(StoredResult(game_id=game_id, names=tuple(seats),
                                        money=tuple(money), ranks=tuple(ranks), retired=(),
                                        faults=((),) * SEATS,
                                        response_us=({"36": 3},) * SEATS))
            seeds[game_id] = seed
    games = Games.load(results, seeds)
    start, cpu = time.perf_counter(), time.process_time()
    board = standings(games)
    print(f"sampled field: {len(results)} games, {entrants} entrants, {tables} tables of "
          f"{SEATS}: standings {time.perf_counter() - start:.2f} s wall, "
          f"{time.process_time() - cpu:.2f} s CPU (target < 5 s); "
          f"{sum(p.separated for p in board.pairs)} of {len(board.pairs)} pairs separated")


if __name__ == "__main__":
    main()
    sampled_field()
