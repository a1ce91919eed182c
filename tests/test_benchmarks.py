"""The benchmarks the READMEs quote run and print every figure (smoke runs: one game a line,
or two tournaments, so their figures are not judged here; targets are read off a full run)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from referee.leaderboard import sequential

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


SPAN = r"([\d.]+)-([\d.]+)"
RANGE = re.compile(
    rf"^(free|apart|together)\s+(python|c)\s+(auto|yes|no)\s+{SPAN}\s+{SPAN}\s+"
    rf"(polling|blocking)\s+{SPAN}\s+{SPAN}\s+{SPAN}x\s+{SPAN}\s+{SPAN}x\s+(\d+) of (\d+)$"
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
        (lo, hi, plo, phi, kind, flo, fhi, fplo, fphi, rlo, rhi, blo, bhi, brlo, brhi, met,
         count) = ranges[first[:3]]
        assert kind == first[5] and count == "2"
        # Rounding keeps order: each range is the lower and the higher of the two runs' figures.
        for lower, upper, column in ((lo, hi, 3), (plo, phi, 4), (flo, fhi, 6), (fplo, fphi, 7),
                                     (rlo, rhi, 8), (blo, bhi, 9), (brlo, brhi, 11)):
            pair = sorted((float(first[column]), float(second[column])))
            assert [float(lower), float(upper)] == pair, (first, second, column)
        ratios = [float(first[8]), float(second[8])]
        if 1.3 not in ratios:  # printed rounded: the count may go either way
            assert int(met) == sum(r < 1.3 for r in ratios)


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/NAME.py as a module (not importable by its name: the repository's
    protocol/ folder holds the spec, and benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark",
                                                  ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_protocol_benchmark_ranges_count_the_runs_that_met_the_target(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Over three runs with known figures: each line's lowest and highest figures, and the
    runs whose ratio was at most 1.3 (1.3 itself meets it), in the columns of the header."""
    bench = load_benchmark("protocol")
    us = 1e-6

    def row(polls: str, med: float, like: float, blocking: float) -> Any:
        kind = "blocking" if polls == "no" else "polling"
        return bench.Row("free", "c", polls, kind, med * us, 3 * med * us, like * us,
                         2 * like * us, blocking * us, 2 * blocking * us, 5 * us)

    runs = [[row("auto", 36.0, 30.0, 60.0), row("no", 80.0, 50.0, 50.0)],
            [row("auto", 39.0, 30.0, 65.0), row("no", 60.0, 50.0, 50.0)],
            [row("auto", 45.0, 30.0, 55.0), row("no", 130.0, 100.0, 100.0)]]
    bench.print_ranges(runs)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "over 3 runs: lowest-highest, in microseconds"
    header = lines[1]
    auto, no = (RANGE.match(line) for line in lines[2:4])
    assert auto and no and len(lines) == 4
    assert auto.groups() == (
        "free", "c", "auto", "36.0", "45.0", "108.0", "135.0", "polling", "30.0", "30.0",
        "60.0", "60.0", "1.20", "1.50", "55.0", "65.0", "0.60", "0.82", "2", "3")
    assert no.groups()[3:] == (
        "60.0", "130.0", "180.0", "390.0", "blocking", "50.0", "100.0", "100.0", "200.0",
        "1.20", "1.60", "50.0", "100.0", "1.20", "1.60", "2", "3")  # 1.6, 1.2, 1.3
    for line in lines[2:4]:  # figures end under their column's name; the count starts there
        for name in ("decision", "ratio", "blocking"):
            end = header.index(name) + len(name)
            assert line[end - 1] != " " and line[end] == " ", (name, line)
        start = header.index("runs met")
        assert line[start - 1] == " " and line[start:] == "2 of 3", line

    bench.print_verdict(runs[2])
    verdict = capsys.readouterr().out
    assert "  met by: free c polls=no\n  missed by: free c polls=auto (1.50x)\n" in verdict
    bench.print_verdict(runs[1])
    assert "  met by: free c polls=auto, free c polls=no\n" in capsys.readouterr().out


def test_wake_benchmark_prints_each_wake_up_lead() -> None:
    """benchmarks/wake.py (quoted by benchmarks/README.md): a line per lead of the wake-up
    byte, each trip timed from the first write and from the line's, the wake-up write's own
    time, and the work hidden: the plain trip plus the lead minus the total."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "wake.py"), "--trips", "20"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert run.returncode == 0, run.stderr
    plain = re.search(r"^\s+none\s+([\d.]+)\s+([\d.]+)$", run.stdout, re.M)
    assert plain, run.stdout
    assert abs(float(plain[1]) - float(plain[2])) <= 1.0  # one write: the same trips
    lines = re.findall(r"^\s+(\d+) us ahead\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(-?[\d.]+)$",
                       run.stdout, re.M)
    assert [int(lead) for lead, *_ in lines] == [0, 5, 10, 15, 20, 25, 30], run.stdout
    for lead, total, from_line, waking, hidden in lines:
        assert 0 < float(from_line) <= float(total) and 0 < float(waking) <= float(total)
        assert abs(float(plain[1]) + int(lead) - float(total) - float(hidden)) <= 0.2


def test_wait_cost_benchmark_prints_each_wait_in_each_placement() -> None:
    """benchmarks/wait_cost.py (quoted by benchmarks/README.md): for both placements, a line
    per way of waiting with the CPU inside the write and inside the wait."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "wait_cost.py"), "--trips", "20"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert run.returncode == 0, run.stderr
    blocks = re.split(r"^(any core|one core): .*$", run.stdout, flags=re.M)[1:]
    assert blocks[0::2] == ["any core", "one core"], run.stdout
    for block in blocks[1::2]:
        lines = re.findall(r"^  (\S.*?)\s+([\d.]+)\s+([\d.]+)$", block, re.M)
        assert [label for label, _, _ in lines] == [
            "blocking read", "poll, 1 ms", "poll, 2 ms", "poll, 5 ms", "poll, 20 ms",
            "poll, no timeout"], run.stdout


RATE = r"(\d+)/(\d+) = +([\d.]+)% ± ([\d.]+)%"


def check_rate(figures: tuple[str, ...], runs: int = 2) -> None:
    k, n, percent, error = figures
    p = int(k) / int(n)
    assert int(n) == runs and float(percent) == pytest.approx(100 * p, abs=0.05)
    assert float(error) == pytest.approx(100 * (p * (1 - p) / runs) ** 0.5, abs=0.05)


def test_verdict_benchmark_prints_each_rate_with_its_error() -> None:
    """benchmarks/verdict.py (quoted by benchmarks/README.md), a smoke run (a small pool of
    blocks, each design at its first size, 2 tournaments a line): the false verdicts and
    range misses of each design by both methods, the power lines, and `until` against one
    test, each figure k/n with its percentage and binomial error."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "verdict.py"), "--quick"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    unit = r"(\d+) (deals|rounds|tables) +(\d+)"
    false = re.findall(rf"^(.+?) +{unit}  +{RATE}  +{RATE}  +{RATE}  +{RATE}$", out, re.M)
    assert [row[0] for row in false] == [
        "4 at one table (4R)", "6 at all 15 tables (6R)", "12 sampled (12R)",
        "gauntlet 10 vs B+R, tables of 3", "12 sampled (6B 6R)", "40 sampled (40R)",
        "40 sampled (16B 24R)", "2 tables never meeting (8R)", "2 tables never meeting (4B 4R)",
        "3 tables, one linking (8R)", "3 tables, one apart (10R)",
        "gauntlet 6, stopped mid-deal"], out
    for row in false:
        for i in range(4, 20, 4):
            check_rate(row[i:i + 4])
    power = re.findall(rf"^(.+?) +{unit}  (bidder 1-1|B > R all|B > R, R calm) +{RATE}  +"
                       rf"{RATE}$", out, re.M)
    assert [(row[0], row[4]) for row in power] == [
        ("4 at one table (1D 3R)", "bidder 1-1"), ("12 sampled (1D 11R)", "bidder 1-1"),
        ("40 sampled (16B 24R)", "B > R all"), ("40 sampled (16B 24R)", "B > R, R calm"),
        ("12 sampled (6B 6R)", "B > R all"), ("12 sampled (6B 6R)", "B > R, R calm")], out
    for row in power:
        for i in (5, 9):
            check_rate(row[i:i + 4])
    assert re.search(r"the bidder \(edge [+-][\d.]+ ± [\d.]+ placement points\)", out), out
    errors = sequential.spending(8, "separated", 4, True)
    at = ", ".join(f"{n} ({e:.2%})" for n, e in zip(sequential.looks(8), errors, strict=True))
    until = re.findall(rf"^(RRRR|DRRR) +8  (.+?) +(until|once) +{RATE}  +{RATE} +([\d.]+)$",
                       out, re.M)
    assert [(row[0], row[2]) for row in until] == [
        ("RRRR", "until"), ("RRRR", "once"), ("DRRR", "until"), ("DRRR", "once")], out
    assert [row[1] for row in until] == [at, "all deals, once (5.00%)"] * 2, out
    for row in until:
        check_rate(row[3:7])
        check_rate(row[7:11])
        assert 1 <= float(row[11]) <= 8


def test_until_top_benchmark_prints_each_rate_with_its_error() -> None:
    """benchmarks/until_top.py (quoted by benchmarks/README.md), a smoke run: a line for each
    field, rule and most deals, with the looks' errors, the stops and right cuts as k/n with
    their binomial errors, and the mean deals within the most."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "until_top.py"), "--quick"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stderr
    rows = re.findall(rf"^(RRRR|BBRR) +(top|ranked) +(16|32)  (.+?) +{RATE}  +{RATE} +"
                      r"([\d.]+)$", run.stdout, re.M)
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("RRRR", "top", "16"), ("RRRR", "top", "32"), ("BBRR", "top", "16"),
        ("BBRR", "ranked", "16"), ("BBRR", "top", "32"), ("BBRR", "ranked", "32")], run.stdout
    for row in rows:
        most = int(row[2])
        errors = sequential.spending(most, row[1], 4, True)  # type: ignore[arg-type]
        assert row[3] == ", ".join(f"{n} ({e:.2%})" for n, e in zip(
            sequential.looks(most), errors, strict=True))
        check_rate(row[4:8], 2)
        check_rate(row[8:12], 2)
        assert 8 <= float(row[12]) <= most


def test_suite_cpu_by_test_counts_each_tests_own_cpu_and_its_processes(tmp_path: Path) -> None:
    """`suite_time.py --by-test`: a test that burns CPU in a process it starts is charged
    that CPU as its processes', one that burns it itself as its own, the costlier first."""
    (tmp_path / "test_burn.py").write_text(
        "import subprocess, sys, time\n"
        "def burn(s):\n"
        "    end = time.process_time() + s\n"
        "    while time.process_time() < end: pass\n"
        "def test_own(): burn(0.1)\n"
        "def test_child():\n"
        "    subprocess.run([sys.executable, '-c', 'import time\\nend = time.process_time() "
        "+ 0.3\\nwhile time.process_time() < end: pass'], check=True)\n")
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    shutil.copy(ROOT / "benchmarks" / "suite_cpu.py", plugin)
    log = tmp_path / "cpu.jsonl"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p",
                           "no:cacheprovider", "-p", "suite_cpu", "test_burn.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(plugin),
                               "SUITE_CPU_LOG": str(log)})
    assert done.returncode == 0, done.stdout + done.stderr
    lines = load_benchmark("suite_time").by_test(log, 2)
    assert lines[0].startswith("2 tests: "), lines
    first, second = (line.split() for line in lines[2:4])
    assert first[2].endswith("::test_child") and second[2].endswith("::test_own"), lines
    assert float(first[0]) >= 0.3 and 0.1 <= float(second[0]) < 0.3, lines
    records = {r["test"].split("::")[1]: r for r in map(json.loads, log.read_text().splitlines())}
    assert records["test_child"]["children"] >= 0.3 > records["test_child"]["own"]
    assert records["test_own"]["own"] >= 0.1 > records["test_own"]["children"]
