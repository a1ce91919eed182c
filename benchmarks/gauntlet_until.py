"""False stops of `until = "separated"` in a gauntlet, whose looks judge its candidates alone.

Run: python benchmarks/gauntlet_until.py [--runs 400] [--deals 16] [--candidates 3]

Each run is a gauntlet, tables of 3 in rotations, of equally strong candidates (random
players of one policy, each its own seed) against two baselines of unequal strength (a
passive player and a random one), played through the referee's own session with in-process
players, with looks at 8, 16, ... deals (`sequential.looks`).  Every stop names a leader
among equals, so every stop is false: the share of runs that stop estimates the familywise
error of the procedure, which `sequential.spending` holds to at most 5% (a union bound over
the looks and the candidates: conservative).  Prints the runs, the false stops and their
share with its binomial standard error.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
import zlib
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.match.player import Player
from referee.match.policy_player import default_player, random_player
from referee.tournament.config import TournamentConfig
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

BASELINES = ["passive", "random-base"]


def make(name: str, worker: int) -> Player:
    if name == "passive":
        return default_player(name)
    return random_player(name, zlib.crc32(name.encode()))


def one_run(seed: int, deals: int, candidates: int, folder: Path) -> str | None:
    """The run's verdict where it stopped at a look, else None."""
    names = [*BASELINES, *(f"cand-{i}" for i in range(candidates))]
    config = TournamentConfig.model_validate({
        "name": "gauntlet-until", "seed": seed, "table_size": 3, "format": "gauntlet",
        "baselines": BASELINES, "seat_orders": "rotations", "deals": deals,
        "until": "separated", "bots": [{"name": n, "command": "unused"} for n in names]})
    db = folder / f"run{seed}.db"
    store = open_store(db)
    try:
        summary = trio.run(lambda: run_tournament(config, db.with_suffix(".toml"), store,
                                                  LocalExecutor(1, make), lambda _: None))
    finally:
        store.close()
    db.unlink(missing_ok=True)
    verdict = summary.verdict or ""
    return verdict if verdict.startswith("stopped after") else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--deals", type=int, default=16, help="the most deals (looks: 8, 16)")
    parser.add_argument("--candidates", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    stops = 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.runs):
            verdict = one_run(seed, args.deals, args.candidates, Path(folder))
            if verdict is not None:
                stops += 1
                print(f"false stop, seed {seed}: {verdict}", flush=True)
    share = stops / args.runs
    se = math.sqrt(share * (1 - share) / args.runs)
    print(f"{args.runs} runs of {args.candidates} equal candidates, at most {args.deals} deals: "
          f"{stops} false stops, {share:.1%} ± {se:.1%} (at most 5% allowed); "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
