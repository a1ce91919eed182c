"""What bounding the bot processes costs: a field of random bots played with every process
kept, and with `--max-bot-processes` of a few values.

Run: python benchmarks/bot_pool.py [--entrants 40] [--tables 40] [--workers 2] [--bounds 12 4]
Each run is `referee tournament run` in a subprocess (tables of three, their three rotations,
the tiny edition's short games), watched from /proc: the wall time, the most bot processes
alive at once and the most descriptors the referee held.  The default bound for the same
number of workers, as this machine's limits give it, is printed first.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot.py"
TINY = ROOT / "protocol" / "examples" / "tiny.toml"


def write_config(folder: Path, entrants: int, tables: int) -> Path:
    lines = ['name = "pool"', "seed = 3", "table_size = 3", 'seat_orders = "rotations"',
             f"tables = {tables}", f'edition = "{TINY}"']
    for i in range(entrants):
        lines += ["[[bots]]", f'name = "r{i}"', f'command = "{sys.executable} {RANDOM_BOT}"']
    path = folder / "pool.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def watched(config: Path, db: Path, args: list[str]) -> tuple[float, int, int, int]:
    """Wall seconds, most bot processes alive, most descriptors of the referee, exit status."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "run", str(config),
                             "--db", str(db), "-q", *args], stdout=subprocess.DEVNULL)
    most = [0, 0]

    def watch() -> None:
        proc_dir = Path(f"/proc/{proc.pid}")
        while proc.poll() is None:
            try:
                children = " ".join(p.read_text() for p in proc_dir.glob("task/*/children"))
                fds = len(os.listdir(proc_dir / "fd"))
            except OSError:
                continue
            most[0] = max(most[0], len(children.split()))
            most[1] = max(most[1], fds)
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    code = proc.wait()
    watcher.join()
    return time.perf_counter() - start, most[0], most[1], code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=40)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bounds", type=int, nargs="*", default=[12, 4])
    args = parser.parse_args()

    from referee.tournament.executors.bot_pool import default_max_bot_processes

    print(f"default bound here: {default_max_bot_processes(args.workers)} bot processes per "
          f"worker with {args.workers} workers")
    print(f"{args.entrants} entrants, {args.tables * 3} games, {args.workers} workers")
    print(f"{'bound':>8} {'seconds':>8} {'processes':>10} {'descriptors':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        config = write_config(Path(tmp), args.entrants, args.tables)
        for bound in [None, *args.bounds]:
            extra = ["--workers", str(args.workers)]
            if bound is not None:
                extra += ["--max-bot-processes", str(bound)]
            db = Path(tmp) / f"b{bound}.db"
            seconds, alive, fds, code = watched(config, db, extra)
            if code != 0:
                sys.exit(f"the run with bound {bound} failed (exit status {code})")
            print(f"{'none' if bound is None else bound:>8} {seconds:>8.1f} {alive:>10} "
                  f"{fds:>12}")


if __name__ == "__main__":
    main()
