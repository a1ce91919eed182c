"""`referee ARGS` run inside the test process through click's CliRunner, for the tests that
check only what a command prints, its exit status and the files it writes: a new Python for
each costs half a second of start-up.  What it prints is what goes through `sys.stdout` and
`sys.stderr`, and the warnings a process would print (with Python's default filters); bytes
written straight to descriptors 1 and 2 are not seen (the referee writes so only its
interrupt line).  Whatever only a process shows (a signal, a limit, the start-up itself) is
tested with `python -m referee` in a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import warnings
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
        with warnings.catch_warnings(record=True) as caught:
            _filters_of_a_process()
            result = CliRunner().invoke(main, list(args), prog_name="referee")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(before)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    shown = "".join(warnings.formatwarning(w.message, w.category, w.filename, w.lineno)
                    for w in caught)
    if exact:
        return subprocess.CompletedProcess(
            ["referee", *args], result.exit_code,
            result.stdout_bytes.decode("utf-8", "backslashreplace"),
            result.stderr_bytes.decode("utf-8", "backslashreplace") + shown)
    return subprocess.CompletedProcess(["referee", *args], result.exit_code, result.stdout,
                                       result.stderr + shown)


def _filters_of_a_process() -> None:
    """Python's default warning filters (pytest's show more), so that what is recorded is
    what `python -m referee` would print on stderr."""
    warnings.resetwarnings()
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                     ResourceWarning):
        warnings.filterwarnings("ignore", category=category)
