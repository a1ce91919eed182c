"""A Ctrl-C at any moment of `run`, `play`, `check`, `grade` and `merge` ends the command
with one line and exit status 2, and leaves no bot running (`tests/interrupting.py`;
`benchmarks/interrupts.py` tries many more moments)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from .interrupting import COMMANDS, ROOT, catchable, interrupt, prepare

# Seconds over which the moments are drawn: from the first import to about the end of each
# command's work on an idle machine (a later moment finds it finished: exit 0, also fine).
# Measured whole, start-up included, on a 2-core machine with other tests running: run
# 2.2 s, grade 2.4 s, check 0.6 s, play 0.5 s; a span much longer spends its later moments
# (and their wait) on a command already finished.
SPAN = {"run": 3.0, "play": 1.0, "check": 1.0, "grade": 3.5, "merge": 0.8}
MOMENTS = 3


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_ctrl_c_at_any_moment_gives_one_line(tmp_path: Path, command: str) -> None:
    """At random moments from the start (imports) to the end of the work: each time the
    command had finished, or it printed the one `error: interrupted` line last, with no
    traceback, warning or "Aborted!", exited with status 2, and left no bot running (or the
    signal came while Python itself was starting, before the referee's first import)."""
    args = prepare(tmp_path, shards=command == "merge")[command]
    rng = random.Random(f"{command}-2026")
    delays = [rng.uniform(0.0, SPAN[command]) for _ in range(MOMENTS)]
    ended = [interrupt(command, args, tmp_path, delay, n) for n, delay in enumerate(delays)]
    problems = [f"at {e.delay:.2f} s: {e.problem()}" for e in ended if e.problem()]
    assert not problems, problems


def test_an_interrupt_caught_in_code_run_from_text_still_exits_2(tmp_path: Path) -> None:
    """A Ctrl-C that lands while Python runs code made from text (a dataclass's or a
    namedtuple's methods, made as the referee imports) and is caught by the command ends
    `python -m referee` with the command's exit status 2, not with the death by SIGINT
    CPython otherwise gives a process in which such an interrupt ever passed."""
    (tmp_path / "caught_in_text.py").write_text(
        "import sys, referee.cli, referee.__main__ as entry\n"
        "def command():\n"
        "    try:\n"
        "        exec('raise KeyboardInterrupt')\n"
        "    except KeyboardInterrupt:\n"
        "        sys.exit(2)\n"
        "referee.cli.main = command\n"
        "entry.main()\n")
    done = _run_module(tmp_path, "caught_in_text")
    assert done.returncode == 2, done.stderr


@pytest.mark.parametrize("idle_thread", [False, True])
def test_a_ctrl_c_once_the_command_is_done_changes_nothing(tmp_path: Path,
                                                           idle_thread: bool) -> None:
    """A Ctrl-C that comes after the command has finished, while Python is exiting, leaves its
    output and exit status as they were: no `interrupted` line, status 0; also where the
    command left a daemon thread behind (trio's idle worker threads, after `grade` or
    `replay`), which Python does not wait for as it exits."""
    (tmp_path / "done_then_ctrl_c.py").write_text(
        "import atexit, os, signal, threading, referee.cli, referee.__main__ as entry\n"
        "atexit.register(lambda: os.kill(os.getpid(), signal.SIGINT))\n"
        "def command():\n"
        + ("    threading.Thread(target=threading.Event().wait, daemon=True).start()\n"
           if idle_thread else "") +
        "    print('done')\n"
        "referee.cli.main = command\n"
        "entry.main()\n")
    done = _run_module(tmp_path, "done_then_ctrl_c")
    assert (done.returncode, done.stdout, done.stderr) == (0, "done\n", "")


def _run_module(folder: Path, module: str) -> subprocess.CompletedProcess[str]:
    """`python -m module` from `folder`, the referee importable, SIGINT as a terminal's."""
    path = os.pathsep.join([str(folder), str(ROOT), os.environ.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", module], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": path},
                          preexec_fn=catchable)
