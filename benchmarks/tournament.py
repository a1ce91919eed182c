"""Tournament throughput and memory; with --cpu, the referee's own CPU (`referee_cpu.py`).

Run: python benchmarks/tournament.py [--deals N] [--memory-games 1000 10000]
     python benchmarks/tournament.py --cpu [--quick] ... (see referee_cpu.py)
1. Games per second for four sample bots (Python baseline and random, JavaScript, Perl) at
   tables of 4 over every seat order: bot processes kept across games vs started for every
   game, with 1 and 2 workers, and on a 2-worker Dask LocalCluster.
2. The referee's peak memory (max RSS) after running N games of in-process default players
   through the same session and store, for each N, each in a fresh process.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
BOTS = {
    "baseline": f"{sys.executable} {ROOT}/sample_bots/python/baseline_bot.py",
    "random": f"{sys.executable} {ROOT}/sample_bots/python/random_bot.py",
    "javascript": f"node {ROOT}/sample_bots/javascript/bot.js",
    "perl": f"perl {ROOT}/sample_bots/perl/bot.pl",
}


def config_text(deals: int, bots: dict[str, str]) -> str:
    lines = ['name = "bench"', "seed = 3", "table_size = 4", f"deals = {deals}"]
    for name, command in bots.items():
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{command}"']
    return "\n".join(lines) + "\n"


def throughput(workers: int, restart: bool, deals: int) -> tuple[int, float]:
    import tomllib

    from referee.tournament.config import TournamentConfig
    from referee.tournament.executors.local import LocalExecutor
    from referee.tournament.session import run_tournament
    from referee.tournament.store import Store

    config = TournamentConfig.model_validate(tomllib.loads(config_text(deals, BOTS)))
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.for_writing(Path(tmp) / "bench.db")
        start = time.perf_counter()
        summary = trio.run(lambda: run_tournament(
            config, Path(tmp) / "bench.toml", store,
            LocalExecutor(workers, restart_each_game=restart), lambda m: None))
        elapsed = time.perf_counter() - start
        store.close()
    return summary.played, elapsed


def dask_throughput(deals: int) -> tuple[int, float]:
    """The same games on a 2-worker Dask LocalCluster (cluster start-up not counted)."""
    import tomllib

    from distributed import Client, LocalCluster

    from referee.tournament.config import TournamentConfig
    from referee.tournament.executors.dask import DaskExecutor
    from referee.tournament.session import run_tournament
    from referee.tournament.store import Store

    config = TournamentConfig.model_validate(tomllib.loads(config_text(deals, BOTS)))
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    client = Client(cluster)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store.for_writing(Path(tmp) / "bench.db")
            start = time.perf_counter()
            summary = trio.run(run_tournament, config, Path(tmp) / "bench.toml", store,
                               DaskExecutor(client=client), lambda m: None)
            elapsed = time.perf_counter() - start
            store.close()
    finally:
        client.close()
        cluster.close()
    return summary.played, elapsed


def memory_child(games: int) -> None:
    """Run in a fresh process: N in-process games through session and store; print max RSS."""
    import tomllib

    from referee.match.policy_player import default_player
    from referee.tournament.config import TournamentConfig
    from referee.tournament.executors.local import LocalExecutor
    from referee.tournament.session import run_tournament
    from referee.tournament.store import Store

    names = {f"p{i}": "unused" for i in range(6)}
    # 6 entrants, tables of 4, 24 seat orders: 360 games per deal
    deals = -(-games // 360)
    config = TournamentConfig.model_validate(tomllib.loads(config_text(deals, names)))
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.for_writing(Path(tmp) / "mem.db")
        summary = trio.run(lambda: run_tournament(
            config, Path(tmp) / "m.toml", store,
            LocalExecutor(2, lambda name, worker: default_player(name)), lambda m: None))
        store.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{summary.played} {rss:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1, help="deals for the throughput runs")
    parser.add_argument("--memory-games", type=int, nargs="*", default=[1000, 10000])
    args = parser.parse_args()
    print("four sample bots (Python baseline + random, JavaScript, Perl), tables of 4, "
          "all 24 seat orders")
    print(f"{'bot processes':16} {'workers':>7} {'games':>6} {'seconds':>8} {'games/s':>8}")
    for restart in (False, True):
        for workers in (1, 2):
            games, seconds = throughput(workers, restart, args.deals)
            label = "started per game" if restart else "kept across games"
            print(f"{label:16} {workers:7} {games:6} {seconds:8.2f} {games / seconds:8.2f}")
    games, seconds = dask_throughput(args.deals)
    print(f"{'dask LocalCluster':16} {2:7} {games:6} {seconds:8.2f} {games / seconds:8.2f}"
          "   (processes kept within each batch of 8 games)")
    for n in args.memory_games:
        out = subprocess.run([sys.executable, __file__, "--memory-child", str(n)],
                             capture_output=True, text=True, check=True).stdout.split()
        print(f"peak referee memory after {out[0]} in-process games: {out[1]} MB")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--memory-child":
        memory_child(int(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "--cpu":
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import referee_cpu

        referee_cpu.main(sys.argv[2:])
    else:
        main()
