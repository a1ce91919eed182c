"""Helpers for tests with real processes: private copies of the scripted bots, process scans,
waiting for a state, the command line."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SCRIPTED_BOTS = Path(__file__).resolve().parent / "scripted_bots"
ROOT = SCRIPTED_BOTS.parent.parent
BOT_PYTHON = f"{shlex.quote(sys.executable)} -S"
"""This Python without `site`, for the tests' Python bots: they need only the standard library,
and site's `.pth` files (an editable install's finder, a CA bundle's hook) are three quarters
of a Python's start-up here (`benchmarks/startup.py`), paid by the thousands of bots the tests
start."""


def copy_bots(dest: Path) -> Path:
    """The scripted bots copied into `dest`, so that this test's bot processes, and only they,
    have `dest` in their command line (tests run in parallel under pytest -n)."""
    dest.mkdir(parents=True)
    for script in SCRIPTED_BOTS.glob("*.py"):
        shutil.copy(script, dest / script.name)
    return dest


def command(bot_dir: Path, script_and_args: str) -> str:
    """A bot command line: `BOT_PYTHON` running `script_and_args` from `bot_dir`."""
    script, _, args = script_and_args.partition(" ")
    line = f"{BOT_PYTHON} {shlex.quote(str(bot_dir / script))}"
    return f"{line} {args}" if args else line


def processes_with(marker: str) -> list[tuple[int, str]]:
    """Live processes (zombies have no command line) whose command line contains `marker`."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if needle in cmdline:
            found.append((int(entry.name), cmdline.replace(b"\0", b" ").decode(errors="replace")))
    return found


def leftover_processes(marker: str, wait: float = 3.0) -> list[str]:
    """Processes with `marker` that are still alive after `wait` seconds (a SIGKILLed process
    can take a moment to disappear).  Any found are killed, so one failure does not leak."""
    deadline = time.monotonic() + wait
    while True:
        found = processes_with(marker)
        if not found or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid, _ in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return [f"{pid}: {cmd}" for pid, cmd in found]


def wait_until(reached: Callable[[], object], what: str, *,
               process: subprocess.Popen[Any] | None = None, timeout: float = 120.0) -> None:
    """Poll until `reached()` is true: a state of the command under test (a process started, a
    file written), never a fixed sleep, so a busy machine makes the wait longer, not the test
    fail.  Fails the test, rather than hang, after `timeout` seconds, or as soon as `process`
    has ended; `process`, if still running, is then stopped (SIGTERM, then SIGKILL)."""
    deadline = time.monotonic() + timeout
    while not reached():
        code = None if process is None else process.poll()
        if code is not None:
            pytest.fail(f"waited for {what}, but the process ended first (exit status {code})")
        if time.monotonic() > deadline:
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            pytest.fail(f"waited {timeout:g} s for {what} in vain")
        time.sleep(0.02)


def bot_processes(bot_dir: Path, referee: subprocess.Popen[Any]) -> list[tuple[int, str]]:
    """The live processes of the bots in `bot_dir`, not the referee (whose command line names
    them too) nor a copy of it forked to run some other program (as imports do)."""
    try:
        own = (Path("/proc") / str(referee.pid) / "cmdline").read_bytes()
    except OSError:  # the referee has ended: no copy of it either
        own = b""
    ours = own.replace(b"\0", b" ").decode(errors="replace")
    return [(pid, cmd) for pid, cmd in processes_with(f"{bot_dir}/")
            if pid != referee.pid and cmd != ours]


def referee(*args: str, timeout: float = 60, cwd: Path | None = None,
            ) -> subprocess.CompletedProcess[str]:
    """Run the `referee` command line (`python -m referee`) and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], capture_output=True, text=True,
        timeout=timeout, cwd=cwd or ROOT,
    )


def children(pid: int) -> list[int]:
    """The pids of process `pid`'s children now (none once it is gone)."""
    try:
        return [int(c) for t in Path(f"/proc/{pid}/task").iterdir()
                for c in (t / "children").read_text().split()]
    except OSError:
        return []
