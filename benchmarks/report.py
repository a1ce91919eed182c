"""Speed and size of `referee report` on a 1,000-game tournament.

Run: python benchmarks/report.py [--games-sample 50] [--all-games]
Plays a 1,000-game round robin (12 entrants at tables of four, 250 sampled tables, every
rotation) of in-process random players through the tournament session into a temporary store;
one entrant, "sloppy", now and then over-bids its money, so some games have faults (and so a
page).  Then times the `referee report` command (a fresh process, as a user runs it) and prints
the seconds and the folder's size.  Target: under 10 s.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import trio

from referee.game import Action, Bid, Decision
from referee.game.actions import DecisionKind
from referee.game.random_policy import random_action
from referee.match.player import Player
from referee.match.policy_player import PolicyPlayer, random_player
from referee.tournament.config import TournamentConfig
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.session import run_tournament
from referee.tournament.store import Store

NAMES = [f"bot{i:02d}" for i in range(11)] + ["sloppy"]


def sloppy(decision: Decision, view: dict[str, object], rng: random.Random) -> Action:
    """Random play, but one open bid in a thousand is more than its money (an illegal fault)."""
    if decision.kind is DecisionKind.BID and rng.random() < 0.001:
        return Bid(decision.seat, decision.max_amount + 1)
    return random_action(decision, rng)


def make_store(path: Path) -> float:
    config = TournamentConfig.model_validate({
        "name": "bench-1000", "seed": 9, "table_size": 4, "seat_orders": "rotations",
        "tables": 250, "bots": [{"name": n, "command": "unused"} for n in NAMES],
    })

    def make(name: str, worker: int) -> Player:
        seed = zlib.crc32(name.encode()) % 1000
        return PolicyPlayer(name, sloppy, seed) if name == "sloppy" else random_player(name, seed)

    store = Store.for_writing(path)
    started = time.perf_counter()
    trio.run(lambda: run_tournament(config, path.with_suffix(".toml"), store,
                                    LocalExecutor(1, make), lambda m: None))
    elapsed = time.perf_counter() - started
    store.close()
    return elapsed


def folder_size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-sample", type=int, default=50)
    parser.add_argument("--all-games", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        made = make_store(db)
        store = Store.for_reading(db)
        games = store.count()
        faulty = sum(1 for r in store.results() if any(r.faults))
        store.close()
        print(f"store: {games} games of 12 entrants ({faulty} with a fault), "
              f"{db.stat().st_size / 1e6:.1f} MB, made in {made:.1f} s")
        out = Path(tmp) / "site"
        command = [sys.executable, "-m", "referee", "report", str(db), "--out", str(out),
                   "--games-sample", str(args.games_sample)]
        if args.all_games:
            command.append("--all-games")
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            sys.exit(done.stderr)
        files, size = folder_size(out)
        pages = len(list((out / "games").glob("*.html")))
        print(f"command: referee report DB --out DIR --games-sample {args.games_sample}"
              + (" --all-games" if args.all_games else ""))
        print(f"report:  {seconds:.2f} s wall (a fresh process; target < 10 s)")
        print(f"folder:  {files} files, {size / 1e6:.2f} MB ({pages} game pages)")


if __name__ == "__main__":
    main()
