"""Games a second of an adaptive run whose rounds are small, in worker processes or not.

Run: python benchmarks/adaptive_pace.py [--entrants 16] [--games 240] [--workers 2] [--repeat 2]

An adaptive round has one table per four entrants, each in its 4 rotations: 16 games for 16
entrants, far fewer than the PROCESSES_FROM games a worker that make a batch of a fixed
schedule play in worker processes.  The local executor starts them all the same where the
run's budget holds that many (`executors/local.py`).  This plays the same adaptive run of the
Python samples (half baseline, half random bots, real processes) to a `max_games` budget
both ways, each into a store of its own, and prints each one's wall time, games a second and
CPU (the referee's own and its processes'), and whether the two stored the same games with
the same results.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import trio

from referee.tournament.config import load_tournament
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_bots" / "python"
NEVER = 10**9  # processes_from that no run reaches: every round in the referee's own process


def write_config(folder: Path, entrants: int, games: int) -> Path:
    lines = ['name = "pace"', "seed = 9", "table_size = 4", 'schedule = "adaptive"',
             'seat_orders = "rotations"', f"max_games = {games}"]
    for i in range(entrants):
        bot = (f"{SAMPLES / 'baseline_bot.py'}" if i % 2 else
               f"{SAMPLES / 'random_bot.py'} --seed {i}")
        lines += ["[[bots]]", f'name = "b{i:03d}"', f'command = "{sys.executable} {bot}"']
    path = folder / "pace.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(path: Path, db: Path, workers: int, processes_from: int | None
        ) -> tuple[float, float, dict[str, str]]:
    """Wall seconds, CPU seconds (this process and its children), and the stored results."""
    config = load_tournament(path)
    executor = (LocalExecutor(workers) if processes_from is None
                else LocalExecutor(workers, processes_from=processes_from))
    store = open_store(db)
    who = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    before = [resource.getrusage(w) for w in who]
    start = time.perf_counter()
    try:
        trio.run(run_tournament, config, path, store, executor, lambda line: None)
        results = {r.game_id: repr((r.money, r.ranks)) for r in store.results()}
    finally:
        store.close()
    wall = time.perf_counter() - start
    after = [resource.getrusage(w) for w in who]
    cpu = sum(a.ru_utime - b.ru_utime + a.ru_stime - b.ru_stime
              for a, b in zip(after, before, strict=True))
    return wall, cpu, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=16)
    parser.add_argument("--games", type=int, default=240, help="the run's max_games")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="adaptive-pace."))
    path = write_config(folder, args.entrants, args.games)
    print(f"{args.entrants} entrants, rounds of {args.entrants // 4 * 4} games, max_games "
          f"{args.games}, {args.workers} workers")
    for n in range(args.repeat):
        stored = {}
        for label, processes_from in (("worker processes (default)", None),
                                      ("this process only", NEVER)):
            db = folder / f"{n}-{processes_from}.db"
            wall, cpu, stored[label] = run(path, db, args.workers, processes_from)
            print(f"  {label:28} {wall:6.1f} s  {len(stored[label]) / wall:5.1f} games/s  "
                  f"{cpu:6.1f} s of CPU", flush=True)
        one, other = stored.values()
        print(f"  the same games and results: {one == other}")


if __name__ == "__main__":
    main()
