"""What reading an entrant's folder costs: its version (`folder_digest`, which says the entrant
changed since the last run) and its build digest (`build_digest`, which lets a resumed run
reuse its build), for folders of many small files.

Run: python benchmarks/digest.py [--files 2000 20000] [--repeat 5] [--before PATH]
Each size is one folder `bot/` of that many files of 200 bytes, 100 to a subfolder, beside a
one-entrant tournament file (`dir = "bot"`, `build = "true"`).  Each line is the median over
`--repeat` runs, in a fresh process per checkout, of the CPU (user + system, `process_time`)
and wall time of: the version alone, the build digest alone, and the two as `tournament plan`
takes them (`planned_builds`, then `entrant_versions`), as a resumed run does for an entrant
whose build it reuses.  The files are read once, unmeasured, first: the figures are of a warm
page cache, as a resumed run finds its entrants' folders.  `--before PATH` also runs another
checkout of the referee (e.g. `git worktree add /tmp/before HEAD~3`), interleaved.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PER_FOLDER = 100
FILE_BYTES = 200
MEASURES = ("version", "build digest", "both, as plan")


def make_field(top: Path, files: int) -> Path:
    """`top/bot/` of `files` files in subfolders of PER_FOLDER, and `top/t.toml` naming it."""
    bot = top / "bot"
    for i in range(files):
        folder = bot / f"d{i // PER_FOLDER:04d}"
        if i % PER_FOLDER == 0:
            folder.mkdir(parents=True)
        (folder / f"f{i % PER_FOLDER:03d}.txt").write_bytes(os.urandom(FILE_BYTES // 2).hex()
                                                             .encode())
    (bot / "bot.py").write_text("print('bot')\n")
    file = top / "t.toml"
    lines = ['name = "digest"', "seed = 1", "table_size = 3"]
    for name in ("a", "b", "c"):  # a field needs a table's worth; only `a` has the folder
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{sys.executable} bot.py"']
        if name == "a":
            lines += ['dir = "bot"', 'build = "true"']
    file.write_text("\n".join(lines) + "\n")
    (top / "bot.py").write_text("print('bot')\n")
    return file


def child(file: Path) -> None:
    """In a fresh process: time each measure once on `file`'s entrant; print them as JSON."""
    from referee.bots.build_state import build_digest
    from referee.bots.version import folder_digest
    from referee.tournament.config import load_tournament
    from referee.tournament.entrants import entrant_versions, planned_builds

    config = load_tournament(file)
    bot = file.parent / "bot"
    folder_digest(bot)  # the page cache warm, the modules imported
    last = {"a": build_digest("true", bot, config.sandbox) or ""}
    skip: frozenset[str] = frozenset()

    def as_plan() -> None:
        """What `plan` does: a checkout whose build digests keep the folders' versions
        (`taken`) reads each folder once."""
        if "versions" in inspect.signature(planned_builds).parameters:
            taken: dict[str, str] = {}
            planned_builds(config, file, last, {}, skip, taken)
            entrant_versions(config, file, {}, skip, taken)
        else:
            entrant_versions(config, file, {}, skip)
            planned_builds(config, file, last, {}, skip)

    work = {
        "version": lambda: folder_digest(bot),
        "build digest": lambda: build_digest("true", bot, config.sandbox),
        "both, as plan": as_plan,
    }
    figures = {}
    for name in MEASURES:
        wall, cpu = time.perf_counter(), time.process_time()
        work[name]()
        figures[name] = (time.process_time() - cpu, time.perf_counter() - wall)
    print(json.dumps(figures))


def measure(file: Path, checkout: Path) -> dict[str, list[float]]:
    out = subprocess.run([sys.executable, __file__, "--child", str(file)], check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(checkout)})
    figures: dict[str, list[float]] = json.loads(out.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--repeat", type=int, default=5, help="runs per line (median)")
    parser.add_argument("--before", type=Path, help="another checkout, measured alongside")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child(options.child)
        return
    checkouts = {"now": ROOT}
    if options.before:
        checkouts = {"before": options.before.resolve(), **checkouts}
    heads = " | ".join(f"{name} CPU s | {name} wall s" for name in checkouts)
    print(f"| files | measure | {heads} |")
    print("|---:|---|" + "---:|---:|" * len(checkouts))
    for files in options.files:
        with tempfile.TemporaryDirectory() as scratch:
            file = make_field(Path(scratch), files)
            runs: dict[str, dict[str, list[list[float]]]] = {
                name: {m: [] for m in MEASURES} for name in checkouts}
            for _ in range(options.repeat):
                for name, path in checkouts.items():  # interleaved: load falls on each alike
                    for m, figure in measure(file, path).items():
                        runs[name][m].append(figure)
            for m in MEASURES:
                cells = " | ".join(
                    f"{statistics.median(c for c, _ in runs[name][m]):.3f} | "
                    f"{statistics.median(w for _, w in runs[name][m]):.3f}"
                    for name in checkouts)
                print(f"| {files:,} | {m} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
