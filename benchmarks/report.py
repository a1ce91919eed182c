"""Speed and size of `referee report` on a 1,000-game tournament.

Run: python benchmarks/report.py [--games-sample 50] [--all-games]
     python benchmarks/report.py --field 1000 [--rounds 12] [--uncertainty] [--ratings]
Plays a 1,000-game round robin (12 entrants at tables of four, 250 sampled tables, every
rotation) of in-process random players through the tournament session into a temporary store;
one entrant, "sloppy", now and then over-bids its money, so some games have faults (and so a
page).  Then times the `referee report` command (a fresh process, as a user runs it) and prints
the seconds and the folder's size.  Target: under 10 s.

With --field N: a synthetic store of N entrants (tests/report/field.py: shuffled into tables
of four each round, each deal in 4 rotations; no game records, so no game pages), and
`write_report` timed in-process in two parts: the leaderboard's statistics (`data.load`) and
the rest (the pages written).  Target: 1,000 entrants under 60 s.  Then, with --uncertainty,
`referee.leaderboard.uncertainty` (what a schedule asks every round) timed on the same
games; with --ratings, the ratings' bootstrap intervals refitted against one Newton step from
the full fit (`rating.linearised`, the method above `rating.REFIT_ENTRANTS` entrants).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np
import trio

from referee.game import Action, Bid, Decision
from referee.game.actions import DecisionKind
from referee.game.random_policy import random_action
from referee.leaderboard.stats import Games
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


def field(entrants: int, rounds: int, uncertain: bool, ratings: bool) -> None:
    """The report of a synthetic field of `entrants`, its statistics and pages timed apart."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from referee.report import data as report_data
    from referee.report import write_report
    from tests.report.field import fill_field

    timed = {"statistics": 0.0}
    real_load = report_data.load

    def load(store: Store) -> report_data.Tournament:
        started = time.perf_counter()
        try:
            return real_load(store)
        finally:
            timed["statistics"] += time.perf_counter() - started

    import referee.report as report
    report.load = load  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "field.db"
        games = fill_field(db, entrants, rounds)
        store = Store.for_reading(db)
        cpu = time.process_time()
        summary = write_report(store, Path(tmp) / "site", games_sample=0)
        cpu = time.process_time() - cpu
        stats = timed["statistics"]
        print(f"field: {entrants} entrants, {games} games ({rounds * 4} each), "
              f"{entrants * (entrants - 1) // 2} pairs")
        print(f"report: {summary.seconds:.1f} s wall in-process (target < 60 s at 1,000), "
              f"{cpu:.1f} s CPU: statistics {stats:.1f} s, pages {summary.seconds - stats:.2f} s;"
              f" {summary.files} files, {summary.bytes / 1e6:.1f} MB; load average "
              f"{os.getloadavg()[0]:.1f}")
        played = Games.from_store(store)
        store.close()
    if uncertain:
        from referee.leaderboard import uncertainty

        for primary in ("placement", "rating"):
            started, cpu = time.perf_counter(), time.process_time()
            found = uncertainty(played, primary)
            print(f"uncertainty ({primary}): {time.perf_counter() - started:.1f} s wall, "
                  f"{time.process_time() - cpu:.1f} s CPU; {len(found.open())} of {entrants} "
                  "places open")
    if ratings:
        compare_ratings(played)


def compare_ratings(games: Games) -> None:
    """The ratings' 95% intervals over the same 1,000 resamples of deals, each resample
    refitted and one Newton step from the full fit: how far apart their ends are."""
    from referee.leaderboard import rating
    from referee.leaderboard.stats import deal_weights, finishes

    found = finishes(games)
    weights = deal_weights(games.deals)
    started = time.perf_counter()
    point = rating.fit(found.matrix())
    refitted = np.stack([rating.fit(found.matrix(w), point) for w in weights])
    refit_s = time.perf_counter() - started
    started = time.perf_counter()
    stepped = point + rating.linearised(found, point, weights) * rating.ELO
    step_s = time.perf_counter() - started
    low, high = np.percentile(refitted, [2.5, 97.5], axis=0)
    low1, high1 = np.percentile(stepped, [2.5, 97.5], axis=0)
    width = high - low
    ends = np.abs(np.concatenate([low1 - low, high1 - high]))
    share = ends / np.concatenate([width, width])
    print(f"ratings: refitted {refit_s:.1f} s, one step {step_s:.2f} s; refitted interval "
          f"{np.median(width):.1f} Elo wide (median); the one step's ends {np.median(ends):.1f}"
          f" Elo from them (median; {ends.max():.1f} at most), {np.median(share):.1%} of the "
          f"width ({share.max():.1%} at most); its width / the refitted "
          f"{np.median((high1 - low1) / width):.3f} (median)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-sample", type=int, default=50)
    parser.add_argument("--all-games", action="store_true")
    parser.add_argument("--field", type=int, metavar="N", help="a synthetic field of N")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--uncertainty", action="store_true",
                        help="with --field: time `uncertainty` (a schedule's every round)")
    parser.add_argument("--ratings", action="store_true",
                        help="with --field: the one-step rating bootstrap against refits")
    args = parser.parse_args()
    if args.field:
        field(args.field, args.rounds, args.uncertainty, args.ratings)
        return
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
