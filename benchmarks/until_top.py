"""`until = "top"`: how often a qualifier's cut stops a run falsely, how often it names the
right entrants, and how many deals it saves, under simulation.

Run: python benchmarks/until_top.py [--sims 400] [--pool /tmp/pool.npz] [--workers 2]

One table of four, each deal one block of 12 games drawn from the pool of played blocks that
`verdict.py` uses (`block_pool.py`: B the baseline bot, R the random bot).  Each run plays up
to the most deals, looking as `referee.leaderboard.sequential` does (after 8 deals, at every
doubling and at the most), and stops at the first look where `sequential.settled(..., "top",
top=2)` holds.  RRRR: four random bots, equally strong, so any stop is a false cut (two of
equals put above the others); it must be at most 5%.  BBRR: the cut after 2 is right when it
names the two baseline bots.  "ranked" is run beside it on BBRR: it must tell the two baseline
bots apart, which it cannot, so it plays every deal.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import block_pool

from referee.leaderboard import sequential
from referee.leaderboard.stats import Games, order

TOP = 2
_POOL: dict[str, np.ndarray] = {}


def _init(path: str) -> None:
    _POOL.update(dict(np.load(path)))


def one_run(job: tuple[str, str, int, int, int]) -> tuple[int | None, bool]:
    """(deals at which the run stopped or None, whether the entrants it put above the cut
    are the strongest kind's)."""
    mix, until, most, sim, seed = job
    draws = block_pool.Draws(_POOL, np.random.default_rng([seed, len(mix), most, sim]))
    _, values, present = draws.field(mix, [(0, 1, 2, 3)] * most)
    names = [f"{k}{i}" for i, k in enumerate(mix)]

    def games(n: int) -> Games:
        return Games(names, [f"g{g}" for g in range(n)], [[0, 1, 2, 3]] * n,
                     [[1, 2, 3, 4]] * n, np.arange(n), present[:n], values[:n],
                     np.zeros((n, 4)), np.zeros((n, 4)), [{} for _ in names], [0] * 4,
                     [{} for _ in names])

    errors = sequential.spending(most, until, 4, True)  # type: ignore[arg-type]
    for n, alpha in zip(sequential.looks(most), errors, strict=True):
        played = games(n)
        if sequential.settled(played, until, "placement", alpha,  # type: ignore[arg-type]
                              TOP if until == "top" else None):
            above = order(played)[:TOP]
            return n, mix != "RRRR" and all(name.startswith("B") for name in above)
    return None, False


def rate(k: int, n: int) -> str:
    p = k / n
    return f"{k:3d}/{n} = {100 * p:5.1f}% ± {100 * math.sqrt(p * (1 - p) / n):3.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pool", type=Path, default=None,
                        help="the block pool's cache (verdict.py's; built if missing)")
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    args = parser.parse_args()
    sims = 2 if args.quick else args.sims
    blocks, decks, candidates = (6, 6, 10) if args.quick else (300, 120, 20)  # verdict.py's
    path = args.pool or Path(tempfile.gettempdir()) / (
        f"referee-block-pool-{blocks}-{decks}x{candidates}.npz")
    started = time.perf_counter()
    block_pool.load(path, blocks, decks, candidates, args.workers)
    cases = [("RRRR", "top", most) for most in (16, 32)] + \
        [("BBRR", until, most) for most in (16, 32) for until in ("top", "ranked")]
    jobs = [(mix, until, most, s, args.seed) for mix, until, most in cases
            for s in range(sims)]
    with multiprocessing.Pool(args.workers, _init, (str(path),)) as workers:
        out = workers.map(one_run, jobs, chunksize=8)
    runs: dict[tuple[str, str, int], list[tuple[int | None, bool]]] = {}
    for (mix, until, most, _, _), r in zip(jobs, out, strict=True):
        runs.setdefault((mix, until, most), []).append(r)
    print(f'until = "top" (top = {TOP}) and "ranked", one table of four (deals of 12 games), '
          f"{sims} runs a line")
    print(f"{'players':8s} {'until':7s} {'most':>4s}  {'looks (error)':34s} "
          f"{'stopped (false for RRRR)':>24s}  {'cut right':>22s}  {'mean deals':>10s}")
    for (mix, until, most), found in runs.items():
        n = len(found)
        errors = sequential.spending(most, until, 4, True)  # type: ignore[arg-type]
        at = ", ".join(f"{k} ({e:.2%})" for k, e in zip(sequential.looks(most), errors,
                                                          strict=True))
        used = sum(s if s is not None else most for s, _ in found) / n
        print(f"{mix:8s} {until:7s} {most:4d}  {at:34s} "
              f"{rate(sum(s is not None for s, _ in found), n):>24s}  "
              f"{rate(sum(r for _, r in found), n):>22s}  {used:10.1f}")
    print(f"\n{time.perf_counter() - started:.0f} s ({args.workers} workers)", file=sys.stderr)


if __name__ == "__main__":
    main()
