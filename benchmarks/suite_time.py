"""The README's test command, timed: wall time, the CPU of everything it started, how busy
it kept the cores, and the machine's speed just before (a fixed pure-Python loop), so that
runs on a shared or throttled machine can be told apart from changes to the suite.

    python benchmarks/suite_time.py [--repeat N] [pytest args]

With no pytest arguments it runs `python -m pytest -n auto -q` from the repository root, as
the README says; `--durations=20` is added so that the slowest tests are printed after it.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOOP = "s = 0\nfor i in range(10_000_000):\n    s += i\n"


def machine_speed() -> float:
    """Seconds of CPU the fixed loop takes now (the least of three)."""
    times = []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", LOOP], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs, one after another")
    known, pytest_args = parser.parse_known_args()
    command = [sys.executable, "-m", "pytest", "-n", "auto", "-q", "--durations=20",
               *pytest_args]
    path = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    for run in range(1, known.repeat + 1):
        loop = machine_speed()
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
        print(f"run {run}: exit {done.returncode}, {wall:.0f} s wall, {user:.0f} s user + "
              f"{system:.0f} s system CPU ({(user + system) / wall:.0%} of one core), "
              f"load {load:.1f} before, the speed loop {loop:.2f} s", flush=True)


if __name__ == "__main__":
    main()
