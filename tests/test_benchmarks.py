"""The protocol benchmark runs and prints every figure the README quotes (a smoke run: one
game a line, so its figures are not judged here; the speed target is read off a full run)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(
    r"^(free|apart|together)\s+(python|c)\s+(auto|\d+us)\s+([\d.]+)us\s+([\d.]+)us\s+"
    r"([\d.]+)us\s+([\d.]+)us\s+([\d.]+)x$"
)


def test_protocol_benchmark_prints_each_placement_with_its_floor_and_ratio() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "protocol.py"), "--games", "1"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr
    rows = [m.groups() for line in run.stdout.splitlines() if (m := ROW.match(line))]
    seen = {(place, lang, polling) for place, lang, polling, *_ in rows}
    languages = ("python", "c") if shutil.which("cc") else ("python",)
    for lang in languages:
        assert {("free", lang, "auto"), ("free", lang, "0us")} <= seen
        if shutil.which("taskset"):
            assert ("together", lang, "300us") in seen
            if len(os.sched_getaffinity(0)) > 1:
                assert ("apart", lang, "300us") in seen
    for *_, med, _p99, fmed, _fp99, ratio in rows:
        assert float(med) > 0 and float(fmed) > 0
        assert abs(float(ratio) - float(med) / float(fmed)) < 0.01 + 0.01 * float(ratio)
    assert re.search(r"referee alone .*: [\d.]+us per decision", run.stdout)
