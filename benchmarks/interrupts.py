"""Ctrl-C at many random moments of each command: how often it ends as promised.

Run: python benchmarks/interrupts.py [--moments 50] [--seed 1] [--commands run,play,...]
For each command (`tournament run`, `play`, `check`, `grade`, `tournament merge`), SIGINT at
`--moments` moments drawn uniformly from the start (imports) to about the end of its work;
prints, per command, how many ended with the one `error: interrupted` line and exit 2, how
many had finished first (exit 0), and every other ending in full (`tests/interrupting.py`
says what counts as clean).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.interrupting import COMMANDS, interrupt, prepare

SPAN = {"run": 4.0, "play": 2.0, "check": 3.0, "grade": 6.0, "merge": 0.8}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moments", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", default=",".join(COMMANDS))
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commands = prepare(folder)
        for command in opts.commands.split(","):
            clean = finished = early = 0
            for n in range(opts.moments):
                ended = interrupt(command, commands[command], folder, rng.uniform(
                    0.0, SPAN[command]), n)
                problem = ended.problem()
                if problem:
                    bad += 1
                    print(f"  {command} at {ended.delay:.3f} s: {problem}")
                elif ended.returncode == 0:
                    finished += 1
                elif ended.before_referee:
                    early += 1
                else:
                    clean += 1
            print(f"{command:6} {opts.moments} moments: {clean} interrupted in one line, "
                  f"{finished} finished first, {early} before the referee's first import, "
                  f"{opts.moments - clean - finished - early} otherwise", flush=True)
    print(f"endings not as promised: {bad}")


if __name__ == "__main__":
    main()
