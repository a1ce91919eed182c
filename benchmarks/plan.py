"""How long `referee tournament plan` takes, and how much memory, for large fields; and how
long `run` takes to its first game.

Run: python benchmarks/plan.py
1. `referee tournament plan FILE --json` as a user runs it (a fresh process, imports
   included): wall time, CPU time and peak memory (max RSS of that process), for a 40-entrant full
   round robin (2.2 million games), 300 entrants with `tables = 3000`, 1,000 entrants with
   `tables = 10000`, and the last grown by 1% from a store holding its 10,000 tables drawn.
2. `run` to its first game, in-process players (max_games = 1, the plan said first): the
   same fields, wall and CPU time from the call to the end of the first game stored.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {  # name: entrants, tables (None: the full round robin)
    "40 entrants, full round robin": (40, None),
    "300 entrants, tables = 3000": (300, 3000),
    "1000 entrants, tables = 10000": (1000, 10000),
}


def config_text(entrants: int, tables: int | None, extra: str = "") -> str:
    lines = ['name = "plan"', "seed = 3", "table_size = 4", extra]
    if tables is not None:
        lines.append(f"tables = {tables}")
    for i in range(entrants):
        lines += ["[[bots]]", f'name = "e{i:04d}"', 'command = "./bot"']
    return "\n".join(lines) + "\n"


def plan_child(entrants: int, tables: int | None, grown_from: int | None) -> None:
    """In a fresh process: `referee tournament plan` in a child of its own; print its wall
    time and max RSS (of that child alone: this process has run no other)."""
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "plan.toml"
        bot = Path(tmp) / "bot"  # the entrants' `./bot`: plan refuses a file none can run
        bot.write_text("#!/bin/sh\n")
        bot.chmod(0o755)
        if grown_from is not None:  # a store holding the tables drawn for `grown_from`
            file.write_text(config_text(entrants, grown_from))
            draw_into_store(file)
        file.write_text(config_text(entrants, tables))
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "referee", "tournament", "plan", str(file),
                              "--json"], capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    plan = json.loads(out.stdout)
    print(json.dumps({"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime,
                      "mb": usage.ru_maxrss / 1024, "games": plan["games"],
                      "tables": plan["tables"], "drawn_now": plan["tables_drawn_now"]}))


def draw_into_store(file: Path) -> None:
    """Bind a store to `file` as a run does (its sample drawn and kept), playing nothing."""
    from referee.tournament.config import load_tournament
    from referee.tournament.session import bind
    from referee.tournament.store import Store

    store = Store.for_writing(file.with_suffix(".db"))
    try:
        bind(load_tournament(file), file, store, None, lambda line: None)
    finally:
        store.close()


def first_game_child(entrants: int, tables: int | None) -> None:
    """In a fresh process: `run_tournament` of one game (max_games = 1) with in-process
    players, saying its plan first as `run` does; print the wall time."""
    import trio

    from referee.match.policy_player import default_player
    from referee.tournament.config import load_tournament
    from referee.tournament.executors.local import LocalExecutor
    from referee.tournament.session import run_tournament
    from referee.tournament.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "run.toml"
        file.write_text(config_text(entrants, tables, "max_games = 1"))
        config = load_tournament(file)
        store = Store.for_writing(Path(tmp) / "run.db")
        start, cpu = time.perf_counter(), time.process_time()
        summary = trio.run(lambda: run_tournament(
            config, file, store, LocalExecutor(1, lambda name, worker: default_player(name)),
            lambda line: None, workers=1))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        store.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "mb": rss, "played": summary.played}))


def child(*args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                         check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    print("referee tournament plan FILE --json (a fresh process), tables of 4, all 24 seat "
          "orders, one deal")
    print(f"{'field':44} {'games':>10} {'tables':>7} {'seconds':>8} {'CPU s':>6} "
          f"{'peak MB':>8}")
    runs = [(name, str(n), str(t), "") for name, (n, t) in CASES.items()]
    runs.append(("1000 entrants, tables 10000 -> 10100, stored", "1000", "10100", "10000"))
    for name, n, t, grown in runs:
        r = child("--plan", n, t, grown)
        print(f"{name:44} {int(r['games']):>10,} {int(r['tables']):>7,} {r['seconds']:8.2f} "
              f"{r['cpu']:6.2f} {r['mb']:8.0f}")
    print("\nrun to its first game (in-process players, max_games = 1, the plan said first)")
    print(f"{'field':44} {'seconds':>8} {'CPU s':>6} {'peak MB':>8}")
    for name, (n, t) in CASES.items():
        r = child("--first-game", str(n), str(t))
        assert r["played"] == 1
        print(f"{name:44} {r['seconds']:8.2f} {r['cpu']:6.2f} {r['mb']:8.0f}")


def _tables(text: str) -> int | None:
    return None if text in ("None", "") else int(text)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--plan":
        plan_child(int(sys.argv[2]), _tables(sys.argv[3]), _tables(sys.argv[4]))
    elif len(sys.argv) > 1 and sys.argv[1] == "--first-game":
        first_game_child(int(sys.argv[2]), _tables(sys.argv[3]))
    else:
        main()
