"""A class of 20 submissions graded with tournaments/classroom.toml, timed.

Run: python benchmarks/grade.py
Makes 20 submissions from the sample bots (Python baseline and random, JavaScript, Perl, C
with a Makefile), grades them with `referee grade` against the classroom baselines (5 deals in
12 balanced seat orders, 60 games each, plus the conformance check), and prints the wall time.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
S = ROOT / "sample_bots"
KINDS = [
    {"bot.py": S / "python" / "baseline_bot.py"},
    {"bot.py": S / "python" / "random_bot.py"},
    {"bot.js": S / "javascript" / "bot.js"},
    {"bot.pl": S / "perl" / "bot.pl"},
    {"Makefile": S / "c" / "Makefile", "bot.c": S / "c" / "bot.c"},
]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        subs = Path(tmp) / "subs"
        for i in range(20):
            folder = subs / f"student{i:02d}"
            folder.mkdir(parents=True)
            for name, source in KINDS[i % len(KINDS)].items():
                shutil.copy(source, folder / name)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "referee", "grade", str(subs), "--config",
                               str(ROOT / "tournaments" / "classroom.toml"), "--out",
                               str(Path(tmp) / "out"), "-q"], check=False)
        elapsed = time.perf_counter() - start
        rows = (Path(tmp) / "out" / "grades.csv").read_text().splitlines()[1:]
    statuses = [r.split(",")[1] for r in rows]
    print(f"graded {len(rows)} submissions in {elapsed:.1f} s (target < 600 s); exit "
          f"{done.returncode}; statuses: {', '.join(sorted(set(statuses)))}")


if __name__ == "__main__":
    main()
