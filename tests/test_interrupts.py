"""A Ctrl-C at any moment of `run`, `play`, `check`, `grade` and `merge` ends the command
with one line and exit status 2, and leaves no bot running (`tests/interrupting.py`;
`benchmarks/interrupts.py` tries many more moments)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from .interrupting import COMMANDS, interrupt, prepare

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
