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
    r"^(free|apart|together)\s+(python|c)\s+(auto|yes|no)\s+([\d.]+) /\s*([\d.]+)\s+"
    r"(polling|blocking)\s+([\d.]+) /\s*([\d.]+)\s+([\d.]+)x\s+([\d.]+) /\s*([\d.]+)\s+([\d.]+)x"
    r"\s+([\d.]+)$"
)


def close(ratio: str, a: str, b: str) -> bool:
    """The printed ratio is a / b, to the precision the three are printed with."""
    exact = float(a) / float(b)
    return abs(float(ratio) - exact) <= 0.005 + exact * (0.05 / float(a) + 0.05 / float(b))


def test_protocol_benchmark_prints_each_placement_against_its_like_floor() -> None:
    """Each row: the decision's median and p99, the floor of its kind (polling when the
    referee polls, blocking when not) and the blocking floor, with both ratios."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "protocol.py"), "--games", "1"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr
    rows = [m.groups() for line in run.stdout.splitlines() if (m := ROW.match(line))]
    seen = {(place, lang, polls) for place, lang, polls, *_ in rows}
    languages = ("python", "c") if shutil.which("cc") else ("python",)
    for lang in languages:
        assert {("free", lang, "auto"), ("free", lang, "no")} <= seen
        if shutil.which("taskset"):
            assert {("together", lang, "yes"), ("together", lang, "no")} <= seen
            if len(os.sched_getaffinity(0)) > 1:
                assert {("apart", lang, "yes"), ("apart", lang, "no")} <= seen
    for _, _, polls, med, p99, kind, fmed, fp99, ratio, bmed, bp99, bratio, to_next in rows:
        assert kind == "blocking" if polls == "no" else polls == "auto" or kind == "polling"
        assert 0 < float(med) <= float(p99) and 0 < float(fmed) <= float(fp99)
        assert 0 < float(to_next) < float(med)  # a part of the decision
        assert close(ratio, med, fmed) and close(bratio, med, bmed)
        if kind == "blocking":
            assert (fmed, fp99) == (bmed, bp99)
    assert re.search(r"referee alone .*: [\d.]+us per decision", run.stdout)
    met = re.search(r"^  met by: (.+)$", run.stdout, re.M)
    missed = re.search(r"^  missed by: (.+)$", run.stdout, re.M)
    assert met and missed
    def names(summary: str) -> set[str]:
        return {part.split(" (")[0] for part in summary.split(", ")}

    for place, lang, polls, *_, ratio, _bmed, _bp99, _bratio, _to_next in rows:
        row = f"{place} {lang} polls={polls}"
        if float(ratio) != 1.3:  # printed rounded: the summary may go either way
            right, wrong = (met, missed) if float(ratio) < 1.3 else (missed, met)
            assert row in names(right[1]) and row not in names(wrong[1]), (row, met[1], missed[1])
