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


RANGE = re.compile(
    r"^(free|apart|together)\s+(python|c)\s+(auto|yes|no)\s+([\d.]+)-([\d.]+)\s+"
    r"(polling|blocking)\s+([\d.]+)-([\d.]+)\s+([\d.]+)-([\d.]+)x\s+([\d.]+)-([\d.]+)\s+"
    r"([\d.]+)-([\d.]+)x\s+(\d+) of (\d+)$"
)


def names(summary: str) -> set[str]:
    return {part.split(" (")[0] for part in summary.split(", ")}


def check_run(text: str) -> list[tuple[str, ...]]:
    """One run's table: each row's figures, ratios and verdict agree; returns the rows."""
    rows = [m.groups() for line in text.splitlines() if (m := ROW.match(line))]
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
    met = re.search(r"^  met by: (.+)$", text, re.M)
    missed = re.search(r"^  missed by: (.+)$", text, re.M)
    assert met and missed
    for place, lang, polls, *_, ratio, _bmed, _bp99, _bratio, _to_next in rows:
        row = f"{place} {lang} polls={polls}"
        if float(ratio) != 1.3:  # printed rounded: the summary may go either way
            right, wrong = (met, missed) if float(ratio) < 1.3 else (missed, met)
            assert row in names(right[1]) and row not in names(wrong[1]), (row, met[1], missed[1])
    return rows


def test_protocol_benchmark_prints_each_placement_against_its_like_floor() -> None:
    """Each row: the decision's median and p99, the floor of its kind (polling when the
    referee polls, blocking when not) and the blocking floor, with both ratios; with
    `--repeat`, each run's table and then each line's range over the runs."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "protocol.py"), "--games", "1",
         "--repeat", "2"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"referee alone .*: [\d.]+us per decision", run.stdout)
    parts = re.split(r"^run \d of 2$", run.stdout, flags=re.M)
    assert len(parts) == 3, run.stdout
    runs = [check_run(part) for part in parts[1:]]
    ranges = {m.group(1, 2, 3): m.groups()[3:]
              for line in run.stdout.splitlines() if (m := RANGE.match(line))}
    assert set(ranges) == {tuple(row[:3]) for row in runs[0]}
    for first, second in zip(*runs, strict=True):
        lo, hi, kind, flo, fhi, rlo, rhi, blo, bhi, brlo, brhi, met, count = ranges[first[:3]]
        assert kind == first[5] and count == "2"
        # Rounding keeps order: each range is the lower and the higher of the two runs' figures.
        for lower, upper, column in ((lo, hi, 3), (flo, fhi, 6), (rlo, rhi, 8), (blo, bhi, 9),
                                     (brlo, brhi, 11)):
            pair = sorted((float(first[column]), float(second[column])))
            assert [float(lower), float(upper)] == pair, (first, second, column)
        ratios = [float(first[8]), float(second[8])]
        if 1.3 not in ratios:  # printed rounded: the count may go either way
            assert int(met) == sum(r < 1.3 for r in ratios)


def test_wake_benchmark_prints_each_wake_up_lead() -> None:
    """benchmarks/wake.py (quoted by the README): a line per lead of the wake-up byte, each
    trip timed from the first write and from the line's."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "wake.py"), "--trips", "20"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = re.findall(r"^\s+(none|\d+ us ahead)\s+([\d.]+)\s+([\d.]+)$", run.stdout, re.M)
    assert [label for label, _, _ in lines] == ["none"] + [f"{us} us ahead" for us in
                                                           (0, 5, 10, 15, 20, 25, 30)]
    for label, total, from_line in lines:
        assert 0 < float(from_line) <= float(total)
        if label == "none":
            assert abs(float(total) - float(from_line)) <= 0.2  # one write: the same trip
