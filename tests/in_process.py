"""`referee ARGS` run inside the test process through click's CliRunner, for the tests of a
user's mistakes, which check only what a command prints and its exit status: a new Python for
each of them costs half a second of start-up.  Whatever only a process shows (a signal, the
start-up itself, a bot's processes) is tested with `python -m referee` in a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main


class Hung(Exception):
    """The command ran past its test's hang guard."""


def referee(*args: str, cwd: Path, timeout: float = 300,
            exact: bool = False) -> subprocess.CompletedProcess[str]:
    """As `subprocess.run([python, -m, referee, *args], cwd=cwd, capture_output=True,
    text=True, timeout=timeout)` would end.  An exception the command let through (a
    traceback, exit status 1, in a real process) is raised here, so the test fails on it; so
    is `Hung` after `timeout` seconds (a hang guard: SIGALRM, which the referee leaves alone).
    With `exact`, the output is every character as it came (`text=True`, and click's runner,
    would turn a carriage return into a newline, hiding it)."""

    def hung(signum: int, frame: object) -> None:
        raise Hung(f"referee {' '.join(args)}: still running after {timeout} s")

    before = os.getcwd()
    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args), prog_name="referee")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(before)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    if exact:
        return subprocess.CompletedProcess(["referee", *args], result.exit_code,
                                           result.stdout_bytes.decode("utf-8", "backslashreplace"),
                                           result.stderr_bytes.decode("utf-8", "backslashreplace"))
    return subprocess.CompletedProcess(["referee", *args], result.exit_code, result.stdout,
                                       result.stderr)
