"""Contests of many entrants: how many games each schedule needs to find the top 10, how well
it orders the whole board, what it costs the referee, and whether adaptive pairing biases the
result.

Run: python benchmarks/contest.py [--entrants 100] [--schedules adaptive uniform nearest]
                                  [--most 40] [--every 1] [--seed 1] [--jobs 1]
     python benchmarks/contest.py --real [--entrants 100] [--rounds 4] [--workers 2]
                                  [--max-bot-processes N]

1. In-process (the default).  A ladder of known strengths: 10 copies of the Python baseline
   bot (the true top 10, equally strong), and below them rungs of 10 identical copies each of
   the baseline mixed with the random bot (following the baseline in a share p of its
   decisions; `grading_power.SampleBot`: the sample bots' own code fed the messages a bot
   process reads): the contenders at p = 0.7, then the tail, p evenly from 0.2 down to 0.
   Tables of 4, each in its 4 rotations on one deck.  Each schedule is played through the
   referee's own session, schedule, store and
   leaderboard (`run_tournament` with in-process players), in a fresh process, one round at
   a time (n / 4 tables: about one table per entrant), and judged after every `--every`
   rounds:
   - `adaptive`: `schedule = "adaptive"`, `rounds` raised by one each time;
   - `uniform`: the sample of `tables = N` (drawn fewest tables first), N raised by a round;
   - `nearest`: rating-nearest matchmaking as Halite's: each round every entrant plays once,
     the field sorted by the Bradley-Terry fit of the games so far and cut into tables of
     neighbours (the cut shifted each round); played by the same rounds as `adaptive`, with
     `referee.tournament.adaptive.choose_round` replaced.
   Judged by the leaderboard (`stats.order`, `stats.verdicts`, familywise 5%): the first
   point where every true top-10 entrant's place range lies within places 1-10 (the
   leaderboard names the top 10), and Kendall's tau-b of the board (the block model's
   strengths) against the true ladder.  Printed: per judgement, games per entrant, tau,
   whether the top 10 are resolved; per schedule, the referee's seconds (the session: games,
   store and the rounds' choice, the choice alone beside it), the leaderboard's seconds, and
   the process's peak memory.  Then the bias check of the last judgement: pairs of identical
   entrants separated (none should be), the spread of each group's strengths against their
   standard errors, and within each group the correlation of games played and strength
   (adaptive sampling's bias shows there: the unlucky early play less, or more).
2. `--real`: one adaptive run through `referee tournament run` with real processes:
   `--entrants` of benchmarks/minimal_bot.c (compiled here) and the Python sample bots (random
   and baseline) on `--workers`, watched from /proc: games per second, the referee's own CPU
   per game, the most bot processes alive at once.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

TOP = 10  # the true top: copies of the baseline
RUNG = 10  # identical entrants per rung below it
CONTENDER = 0.7  # the rung just below the top: its share of the baseline's decisions
TAIL = 0.2  # the strongest rung of the rest, which goes down to 0
K = 4


def ladder(n: int, seed: int) -> dict[str, float]:
    """Entrant name -> its share of the baseline's decisions: TOP at 1.0, a rung of RUNG
    contenders at CONTENDER, then the tail, rungs of RUNG from TAIL down to 0 (as in real
    contests, most entrants far from the top).  Names are shuffled, so that no order of
    names is the true one."""
    shares = [1.0] * TOP + [CONTENDER] * RUNG
    rest = n - len(shares)
    rungs = max(1, rest // RUNG)
    for j in range(rest):
        rung = min(j // RUNG, rungs - 1)
        shares.append(TAIL * (1 - rung / max(1, rungs - 1)))
    names = [f"b{i:04d}" for i in range(n)]
    random.Random(seed).shuffle(names)
    return dict(zip(names, shares, strict=True))


def config_for(kind: str, field: dict[str, float], rounds: int, seed: int) -> object:
    from referee.tournament.config import TournamentConfig

    data: dict[str, object] = {
        "name": f"contest-{kind}", "seed": seed, "table_size": K, "seat_orders": "rotations",
        "bots": [{"name": name, "command": "in-process"} for name in field]}
    size = len(field) // K
    if kind == "uniform":
        data["tables"] = rounds * size
    else:
        data.update(schedule="adaptive", rounds=rounds)
    return TournamentConfig.model_validate(data)


def nearest_round(field: Sequence[str], k: int, size: int, seed: int, number: int,
                  drawn: Sequence[tuple[str, ...]], games: object) -> list[tuple[str, ...]]:
    """Halite's matchmaking, as a round: every entrant once, the field sorted by its fitted
    strength (a random order before any game) and cut into tables of neighbours, the cut
    shifted by `number` so that the same neighbours do not always meet."""
    from referee.tournament import adaptive

    names = sorted(field)
    index = {name: i for i, name in enumerate(names)}
    fit = adaptive.fit_strengths(len(names), adaptive.wins_of(index, games))  # type: ignore
    ties = [adaptive._hash01(seed, number, name) for name in names]
    ranked = sorted(range(len(names)), key=lambda i: (-round(fit.strength[i], 9), ties[i]))
    shift = number % k
    ranked = ranked[shift:] + ranked[:shift]
    return [tuple(sorted(names[i] for i in ranked[t * k:(t + 1) * k]))
            for t in range(min(size, len(names) // k))]


def places(games: object) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray,
                                   np.ndarray]:
    """The leaderboard's names best first, strengths, standard errors, best and worst
    places: `leaderboard.uncertainty`, what a schedule asks every round (the standings'
    own places, without the rest of the standings)."""
    from referee.leaderboard import uncertainty

    u = uncertainty(games)  # type: ignore[arg-type]
    return u.names, u.strength, u.se, u.best, u.worst


def judge(store: object, field: dict[str, float]) -> dict[str, object]:
    """The leaderboard's view: the top 10 resolved, tau, and the bias figures."""
    from scipy.stats import kendalltau

    from referee.leaderboard.stats import Games

    games = Games.from_store(store)  # type: ignore[arg-type]
    names, strength, se, best, worst = places(games)
    at = {n: i for i, n in enumerate(names)}
    tops = [n for n, p in field.items() if p == 1.0]
    resolved = all(worst[at[n]] <= TOP for n in tops)
    hits = len(set(names[:TOP]) & set(tops))  # the true top in the board's first places
    width = float(np.mean([worst[at[n]] - best[at[n]] + 1 for n in tops]))
    truth = np.array([field[n] for n in names])
    tau = float(kendalltau(truth, strength).statistic)
    played = games.present.sum(axis=0)
    played_by = {n: played[i] for i, n in enumerate(games.names)}
    spread, corr, apart, pairs = [], [], 0, 0
    for share in sorted(set(field.values())):
        members = [at[n] for n in names if field[n] == share]
        for x in members:  # identical entrants whose place ranges do not even overlap
            for y in members:
                if x < y:
                    pairs += 1
                    apart += bool(worst[x] < best[y] or worst[y] < best[x])
        if len(members) > 2:
            spread.append(float(strength[members].std(ddof=1)
                                / np.sqrt(np.mean(se[members] ** 2))))
            counts = np.array([played_by[names[i]] for i in members])
            if counts.std() > 0:
                corr.append(float(np.corrcoef(counts, strength[members])[0, 1]))
    return {"games": len(games.game_ids), "per_entrant": float(played.mean()),
            "top_games": float(np.mean([played_by[n] for n in tops])), "tau": tau,
            "resolved": resolved, "top_hits": hits, "top_width": width,
            "identical_apart": apart, "identical_pairs": pairs,
            "spread": float(np.mean(spread)), "top_spread": spread[-1],
            "games_strength_corr": float(np.mean(corr)) if corr else 0.0,
            "rung_means": {str(s): float(np.mean([strength[at[n]] for n in names
                                                  if field[n] == s]))
                           for s in sorted(set(field.values()))},
            "rung_games": {str(s): float(np.mean([played_by[n] for n in field
                                                  if field[n] == s]))
                           for s in sorted(set(field.values()))}}


def contest(kind: str, n: int, most: int, every: int, seed: int, stop: bool) -> None:
    """One schedule in this process: a line of JSON per judgement, then one of totals."""
    from grading_power import SampleBot

    from referee.tournament import adaptive
    from referee.tournament.executors.local import LocalExecutor
    from referee.tournament.session import run_tournament
    from referee.tournament.store import Store

    field = ladder(n, seed)
    choosing = [0.0]
    choose = nearest_round if kind == "nearest" else adaptive.choose_round

    def timed(*args: object) -> list[tuple[str, ...]]:
        start = time.process_time()
        try:
            return choose(*args)  # type: ignore[arg-type]
        finally:
            choosing[0] += time.process_time() - start

    adaptive.choose_round = timed  # type: ignore[assignment]

    def quiet(line: str) -> None:
        pass

    referee_cpu = judge_cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "contest.toml"
        store = Store.for_writing(Path(tmp) / "contest.db")
        for rounds in range(1, most + 1):
            config = config_for(kind, field, rounds, seed)
            executor = LocalExecutor(1, lambda name, worker: SampleBot(name, field[name]))
            start = time.process_time()
            trio.run(run_tournament, config, path, store, executor, quiet)
            referee_cpu += time.process_time() - start
            if rounds % every and rounds != most:
                continue
            start = time.process_time()
            seen = judge(store, field)
            judge_cpu += time.process_time() - start
            seen["rounds"] = rounds
            print(json.dumps(seen), flush=True)
            if seen["resolved"] and stop:
                break
        store.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"referee_cpu": referee_cpu, "choosing_cpu": choosing[0],
                      "judge_cpu": judge_cpu, "peak_mb": rss}), flush=True)


def simulated(args: argparse.Namespace) -> None:
    print(f"{args.entrants} entrants: {TOP} copies of the baseline, {RUNG} contenders at "
          f"p = {CONTENDER}, then rungs of {RUNG} from p = {TAIL} to 0; tables of {K} in "
          f"rotations; load {os.getloadavg()[0]:.1f}")
    results: dict[str, list[dict[str, object]]] = {}

    outputs = {kind: tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed at exit)
               for kind in args.schedules}

    def start(kind: str) -> subprocess.Popen[str]:  # into a file: no pipe to fill and block
        return subprocess.Popen(
            [sys.executable, __file__, "--child", kind, "--entrants", str(args.entrants),
             "--most", str(args.most), "--every", str(args.every), "--seed", str(args.seed),
             *(["--stop"] if args.stop else [])],
            stdout=outputs[kind], stderr=subprocess.PIPE, text=True)

    children = {kind: start(kind) for kind in args.schedules[:args.jobs]}
    for at, kind in enumerate(args.schedules):
        later = args.schedules[at + args.jobs:at + args.jobs + 1]
        child = children.pop(kind)
        _, stderr = child.communicate()
        children.update({name: start(name) for name in later})  # --jobs at once
        if child.returncode:
            sys.exit(f"{kind}: {stderr}")
        outputs[kind].seek(0)
        rows = [json.loads(line) for line in outputs[kind]]
        results[kind] = rows
        *seen, totals = rows
        first = next((r for r in seen if r["resolved"]), None)
        print(f"\n{kind}: top 10 resolved at "
              + (f"{first['per_entrant']:.1f} games per entrant ({first['games']} games, "
                 f"tau {first['tau']:.3f}, the top 10 {first['top_games']:.0f} games each)"
                 if first else "no point up to the most rounds"))
        print("  games/entrant  tau    top 10 placed  their place ranges  top 10")
        for r in seen:
            print(f"  {r['per_entrant']:13.1f}  {r['tau']:.3f}  {r['top_hits']:13d}  "
                  f"{r['top_width']:18.1f}  {'resolved' if r['resolved'] else '-'}")
        last = seen[-1]
        print(f"  referee {totals['referee_cpu']:.0f} s CPU (choosing rounds "
              f"{totals['choosing_cpu']:.1f} s), leaderboard {totals['judge_cpu']:.0f} s, "
              f"peak memory {totals['peak_mb']:.0f} MB")
        print(f"  identical entrants apart (place ranges disjoint): "
              f"{last['identical_apart']} of {last['identical_pairs']} pairs; spread of a "
              f"group's strengths / their standard error: {last['spread']:.2f} (the top 10: "
              f"{last['top_spread']:.2f}); games-strength correlation within groups: "
              f"{last['games_strength_corr']:+.2f}")
    if args.save:
        Path(args.save).write_text(json.dumps(results))
    if "uniform" in results:
        base = results["uniform"][-2]["rung_means"]
        for kind, rows in results.items():
            means = rows[-2]["rung_means"]
            diff = [means[s] - base[s] for s in base]
            print(f"{kind}: rung means less uniform's: mean {np.mean(diff):+.3f}, "
                  f"largest {max(diff, key=abs):+.3f}")
    print(f"load after: {os.getloadavg()[0]:.1f}")


def real(args: argparse.Namespace) -> None:
    """One adaptive run of real processes, watched from /proc."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        subprocess.run(["cc", "-O2", "-o", str(folder / "minimal"),
                        str(ROOT / "benchmarks" / "minimal_bot.c")], check=True)
        python = sys.executable
        sample = ROOT / "sample_bots" / "python"
        lines = ['name = "real-contest"', "seed = 2", f"table_size = {K}",
                 'seat_orders = "rotations"', 'schedule = "adaptive"',
                 f"rounds = {args.rounds}"]
        for i in range(args.entrants):
            kind = i % 4
            command = (f"{folder / 'minimal'}" if kind < 2 else
                       f"{python} {sample / 'random_bot.py'} --seed {i}" if kind == 2 else
                       f"{python} {sample / 'baseline_bot.py'}")
            lines += ["[[bots]]", f'name = "e{i:03d}"', f'command = "{command}"']
        config = folder / "real.toml"
        config.write_text("\n".join(lines) + "\n")
        load = os.getloadavg()[0]
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "run",
                                 str(config), "-q", "--workers", str(args.workers),
                                 *(["--max-bot-processes", str(args.max_bot_processes)]
                                   if args.max_bot_processes else [])],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        most, cpu = [0], [0.0]
        tick = os.sysconf("SC_CLK_TCK")

        def watch() -> None:
            here = Path(f"/proc/{proc.pid}")
            while proc.poll() is None:
                try:
                    children = " ".join(p.read_text() for p in here.glob("task/*/children"))
                    fields = (here / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                most[0] = max(most[0], len(children.split()))
                cpu[0] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime: its own
                time.sleep(0.01)

        watcher = threading.Thread(target=watch)
        watcher.start()
        _, err = proc.communicate()
        watcher.join()
        seconds = time.perf_counter() - start
        if proc.returncode:
            sys.exit(err)
        import sqlite3

        with sqlite3.connect(folder / "real.db") as con:
            games = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    print(f"{args.entrants} entrants (half minimal_bot.c, a quarter each of the Python random "
          f"and baseline bots), adaptive, {args.rounds} rounds, {args.workers} workers, "
          f"max_bot_processes {args.max_bot_processes or 'default'}, load "
          f"{load:.1f} before")
    print(f"{games} games in {seconds:.0f} s: {games / seconds:.1f} games/s; referee CPU "
          f"{cpu[0]:.1f} s, {1000 * cpu[0] / max(1, games):.0f} ms per game; at most "
          f"{most[0]} bot processes at once")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=100)
    parser.add_argument("--schedules", nargs="+", default=["adaptive", "uniform", "nearest"],
                        choices=["adaptive", "uniform", "nearest"])
    parser.add_argument("--most", type=int, default=40, help="rounds at most")
    parser.add_argument("--every", type=int, default=1, help="judge every N rounds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stop", action="store_true",
                        help="stop each schedule once the top 10 are resolved")
    parser.add_argument("--save", help="write every judgement's figures to this JSON file")
    parser.add_argument("--jobs", type=int, default=1,
                        help="schedules played at once, each in its own process")
    parser.add_argument("--real", action="store_true")
    parser.add_argument("--rounds", type=int, default=4, help="--real: rounds to play")
    parser.add_argument("--workers", type=int, default=2, help="--real: workers")
    parser.add_argument("--max-bot-processes", type=int, default=0,
                        help="--real: bot processes kept per worker (default: the referee's)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        contest(args.child, args.entrants, args.most, args.every, args.seed, args.stop)
    elif args.real:
        real(args)
    else:
        simulated(args)


if __name__ == "__main__":
    main()
