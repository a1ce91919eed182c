"""The `referee` command's start-up: the CPU (user + system) that each common command costs
before its first useful work, median of several runs.

Run: python benchmarks/startup.py [--repeat N] [--before PATH]
Each line is one command run as `python -m referee ...` in a fresh process from a scratch
folder; its figure is that child's CPU (RUSAGE_CHILDREN), not wall time, so that a shared
machine's load does not count.  Each command runs once first, unmeasured, so that every
module's bytecode is compiled and cached (PYTHONDONTWRITEBYTECODE is unset for the children),
as after an install.  The commands do no work past their start, or little: `--help` (a
command's module imported), a mistake each command reports in one line (a missing file or
bot), `tournament plan` of the demo tournament, and `tournament run` and `leaderboard` of a
3-game tournament whose games are all stored already (played once, unmeasured, before).
`--before PATH` also runs each command with another checkout of the referee first on
PYTHONPATH (e.g. `git worktree add /tmp/before HEAD~3`), interleaved with this one.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "tournaments" / "demo.toml"
FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"

# Label -> arguments of `referee`. Paths that do not exist are the mistakes.
COMMANDS: dict[str, list[str]] = {
    "--version": ["--version"],
    "--help": ["--help"],
    "play --help": ["play", "--help"],
    "play, missing bot": ["play", "./no_such_bot", "./no_such_bot", "./no_such_bot"],
    "check, missing bot": ["check", "./no_such_bot"],
    "replay, missing record": ["replay", "no_such.jsonl"],
    "tournament plan demo.toml": ["tournament", "plan", str(DEMO)],
    "tournament run, missing file": ["tournament", "run", "no_such.toml"],
    "tournament run --help": ["tournament", "run", "--help"],
    "grade --help": ["grade", "--help"],
    "grade, missing config": ["grade", "submissions", "--out", "out"],
    "tournament run, all stored": ["tournament", "run", "t.toml", "-q"],
    "leaderboard, missing store": ["leaderboard", "no_such.db"],
    "leaderboard t.db": ["leaderboard", "t.db"],
    "report, missing store": ["report", "no_such.db", "--out", "out"],
}
# Label -> arguments of Python itself: the floor of any command, and of a bot that needs only
# the standard library started without `site` (as the tests start theirs).
FLOORS: dict[str, list[str]] = {
    "python -c pass (floor)": ["-c", "pass"],
    "python -S -c pass (no site)": ["-S", "-c", "pass"],
}


def cpu_ms(args: list[str], path: Path, cwd: str) -> float:
    """One run's CPU in milliseconds of `python ARGS`: the child's user + system time."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once (the warm-up run), as installed
    command = [sys.executable, *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def small_tournament(folder: Path, path: Path) -> None:
    """t.toml, 3 bots at one table over 3 seat orders, and t.db with its 3 games played."""
    bots = "".join(f'[[bots]]\nname = "b{i}"\ncommand = "{sys.executable} {FIRST_LEGAL}"\n'
                   for i in range(3))
    (folder / "t.toml").write_text('name = "startup"\nseed = 11\ntable_size = 3\n'
                                   'seat_orders = "rotations"\ndeals = 1\n' + bots)
    subprocess.run([sys.executable, "-m", "referee", "tournament", "run", "t.toml", "-q"],
                   cwd=folder, env={**os.environ, "PYTHONPATH": str(path)}, check=True,
                   stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per command (median)")
    parser.add_argument("--before", type=Path, help="another checkout, measured alongside")
    options = parser.parse_args()
    checkouts = {"now": ROOT}
    if options.before:
        checkouts = {"before": options.before.resolve(), **checkouts}
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "submissions").mkdir()  # empty: `grade` stops at its missing config
        small_tournament(Path(scratch), checkouts["now"])
        header = " | ".join(f"{name} ms" for name in checkouts)
        print(f"| command | {header} |")
        print("|---|" + "---:|" * len(checkouts))
        runs_of = {**FLOORS, **{k: ["-m", "referee", *v] for k, v in COMMANDS.items()}}
        for label, args in runs_of.items():
            runs: dict[str, list[float]] = {name: [] for name in checkouts}
            for path in checkouts.values():  # warm-up: bytecode written, files in the cache
                cpu_ms(args, path, scratch)
            for _ in range(options.repeat):
                for name, path in checkouts.items():  # interleaved: load falls on each alike
                    runs[name].append(cpu_ms(args, path, scratch))
            figures = " | ".join(f"{statistics.median(r):.0f}" for r in runs.values())
            print(f"| {label} | {figures} |", flush=True)


if __name__ == "__main__":
    main()
