"""One submission graded as a course platform grades it: `referee grade-one`, timed.

Run: python benchmarks/grade_one.py [--config tournaments/gradescope.toml] [--workers 1]
Grades a copy of the Python baseline sample with the config (the check, then its games against
the baselines) and prints the wall time and the CPU time of the referee and every bot, which
on Gradescope's half a CPU is about twice the wall time a run takes there.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "tournaments" / "gradescope.toml")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        submission = Path(tmp) / "submission"
        submission.mkdir()
        shutil.copy(ROOT / "sample_bots" / "python" / "baseline_bot.py", submission / "bot.py")
        results = Path(tmp) / "results.json"
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "referee", "grade-one", str(submission),
                               "--config", str(args.config), "--results", str(results),
                               "--format", "gradescope", "--workers", str(args.workers), "-q"],
                              check=False)
        wall = time.perf_counter() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        graded = json.loads(results.read_text()) if results.exists() else {}
    games = next((t["output"].split(" games")[0] for t in graded.get("tests", [])
                  if t["name"] == "games: mean placement points"), "?")
    print(f"{args.config.name}: exit {done.returncode}, score {graded.get('score')}, "
          f"{games} games; wall {wall:.1f} s, CPU {usage.ru_utime + usage.ru_stime:.1f} s "
          f"(referee and bots), about {2 * (usage.ru_utime + usage.ru_stime):.0f} s on half "
          "a CPU")


if __name__ == "__main__":
    main()
