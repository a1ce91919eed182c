"""`python tests/grade/grade_process.py ARGS` is `python -m referee ARGS` with grading's
random and sample baselines played inside it (`baselines_in_process`): for the tests whose
claim needs the referee in a process of its own (a signal sent to it, a limit set on it,
another user running it, how deep its parser may recurse) but not its baselines' processes,
which answer three quarters of a gauntlet's decisions, each through a pipe."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

if __name__ == "__main__":
    sys.path[0] = str(ROOT)  # the tests' package, not this file's folder
    sys.argv[0] = "referee"  # as its usage lines name it
    from referee.__main__ import main  # its handling of signals, as `python -m referee`
    from tests.grade.baselines_in_process import baselines_in_process

    with baselines_in_process():
        main()
