"""Floods do not grow the referee: `referee play` against huge_line (one 10 MB line),
flood_stdout (endless garbage lines) and flood_stderr (120 MB of stderr) keeps a small peak
RSS, and each stderr log kept with --stderr-dir is capped at about 1 MiB per game."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from ..processes import ROOT, command

MAX_RSS_KIB = 200 * 1024
MAX_STDERR_LOG = int(1.1 * (1 << 20))

# The peak RSS of a command and its waited-for descendants, printed last on stdout, for
# systems without /usr/bin/time.
RUSAGE_WRAPPER = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.exit(code)\n"
)


def run_measured(argv: list[str], tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run `argv`; its output and its peak RSS in KiB.  Both ways measure the maximum over
    the referee and the bots it reaped, so this bounds the referee's own peak from above."""
    time_bin = shutil.which("time", path="/usr/bin")
    if time_bin:
        out = tmp_path / "maxrss"
        proc = subprocess.run([time_bin, "-o", str(out), "-f", "%M", *argv], capture_output=True,
                              text=True, timeout=120, cwd=ROOT)
        return proc, int(out.read_text().split()[-1])
    proc = subprocess.run([sys.executable, "-c", RUSAGE_WRAPPER, *argv], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    *lines, peak = proc.stdout.splitlines()
    proc.stdout = "\n".join(lines)
    return proc, int(peak)


def test_floods_keep_the_referee_small(bot_dir: Path, tmp_path: Path) -> None:
    stderr_dir = tmp_path / "stderr"
    bots = {
        "huge": "huge_line.py",
        "stdout": "flood_stdout.py",
        "stderr": "flood_stderr.py",
        "good": "first_legal.py",
    }
    argv = [sys.executable, "-m", "referee", "play", "--json", "--seed", "42",
            "--move-time", "0.3", "--time-bank", "0.5", "--startup-time", "5",
            "--stderr-dir", str(stderr_dir)]
    argv += [f"{name}={command(bot_dir, bot)}" for name, bot in bots.items()]
    proc, peak_kib = run_measured(argv, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert peak_kib < MAX_RSS_KIB, f"peak RSS {peak_kib} KiB"

    seats = {s["name"]: s for s in json.loads(proc.stdout)["seats"]}
    assert [f["kind"] for f in seats["huge"]["faults"]] == ["malformed"]
    assert "longer than" in seats["huge"]["faults"][0]["reason"]
    assert seats["stdout"]["retired"]
    assert {f["kind"] for f in seats["stdout"]["faults"]} == {"malformed"}
    assert [f["kind"] for f in seats["stderr"]["faults"]] == ["stderr"]
    assert not seats["stderr"]["retired"]
    assert seats["good"]["faults"] == []

    logs = {p.name: p.stat().st_size for p in stderr_dir.iterdir()}
    assert set(logs) == {f"{name}.stderr.log" for name in bots}
    assert 1 << 20 <= logs["stderr.stderr.log"] <= MAX_STDERR_LOG, logs
    assert all(size <= MAX_STDERR_LOG for size in logs.values()), logs
    tail = (stderr_dir / "stderr.stderr.log").read_bytes()[-8192:]
    assert b"[stderr cut: over the per-game limit; its end follows]" in tail


def test_a_bot_flooding_stderr_while_it_thinks_keeps_a_capped_log_and_its_time(
    bot_dir: Path, tmp_path: Path
) -> None:
    """A bot that floods stderr in one long think is read as it writes, at a bounded rate
    past the cap: it writes tens of MB (it is not stuck on a full pipe), answers in time (its
    only fault is `stderr`), and the log kept is capped at about 1 MiB."""
    report = tmp_path / "report.json"
    stderr_dir = tmp_path / "stderr"
    flooder = f"stderr_while_thinking.py --report {report} --total 400 --seconds 1.5"
    argv = [sys.executable, "-m", "referee", "play", "--json", "--seed", "42",
            "--move-time", "1", "--time-bank", "5", "--stderr-dir", str(stderr_dir),
            f"flooder={command(bot_dir, flooder)}",
            *(f"good{i}={command(bot_dir, 'first_legal.py')}" for i in range(3))]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(report.read_text())
    assert seen["written"] >= 20 << 20, seen
    seats = {s["name"]: s for s in json.loads(proc.stdout)["seats"]}
    assert [f["kind"] for f in seats["flooder"]["faults"]] == ["stderr"]
    assert (stderr_dir / "flooder.stderr.log").stat().st_size <= MAX_STDERR_LOG
