"""The README's test command, timed: wall time, the CPU of everything it started, how busy
it kept the cores, and the machine's speed just before (a fixed pure-Python loop), so that
runs on a shared or throttled machine can be told apart from changes to the suite.

    python benchmarks/suite_time.py [--repeat N] [--by-test N] [pytest args]

With no pytest arguments it runs `python -m pytest -n auto -q` from the repository root, as
the README says; `--durations=20` is added so that the slowest tests are printed after it.
With `--by-test N` it prints after each run the N tests and the N files that took the most
CPU (their own and their processes', `suite_cpu.py`), and the CPU of all the tests.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
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


def by_test(log: Path, most: int) -> list[str]:
    """The lines `--by-test` prints from the plugin's log: the CPU of all the tests (their
    own, their processes'), then the `most` costliest tests and files, CPU first."""
    tests = [json.loads(line) for line in log.read_text().splitlines()]
    own = sum(t["own"] for t in tests)
    children = sum(t["children"] for t in tests)
    files: collections.Counter[str] = collections.Counter()
    for t in tests:
        files[t["test"].split("::")[0]] += t["own"] + t["children"]
    lines = [f"{len(tests)} tests: {own + children:.0f} s of CPU ({own:.0f} s in pytest's "
             f"workers, {children:.0f} s in what they started), {sum(t['wall'] for t in tests):.0f}"
             " s of test wall time", f"the {most} tests that took the most CPU (s, wall s):"]
    for t in sorted(tests, key=lambda t: -(t["own"] + t["children"]))[:most]:
        lines.append(f"{t['own'] + t['children']:7.1f} {t['wall']:7.1f}  {t['test']}")
    lines.append(f"the {most} files that took the most CPU (s):")
    lines += [f"{cpu:7.1f}  {name}" for name, cpu in files.most_common(most)]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs, one after another")
    parser.add_argument("--by-test", type=int, default=0, metavar="N",
                        help="print the N tests and files that took the most CPU")
    known, pytest_args = parser.parse_known_args()
    command = [sys.executable, "-m", "pytest", "-n", "auto", "-q", "--durations=20",
               *(["-p", "suite_cpu"] if known.by_test else []), *pytest_args]
    path = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    if known.by_test:  # the plugin alone on the path: the benchmarks' names could shadow
        plugin = Path(tempfile.mkdtemp(prefix="suite_cpu."))
        shutil.copy(Path(__file__).with_name("suite_cpu.py"), plugin)
        path.append(str(plugin))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    for run in range(1, known.repeat + 1):
        log = Path(tempfile.mkstemp(prefix="suite_cpu.", suffix=".jsonl")[1])
        env["SUITE_CPU_LOG"] = str(log)
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
        if known.by_test:
            print("\n".join(by_test(log, known.by_test)), flush=True)
        log.unlink()
    if known.by_test:
        shutil.rmtree(plugin)


if __name__ == "__main__":
    main()
