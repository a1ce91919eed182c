"""Set-up for every test process (each pytest-xdist worker too), and the `bot_dir` fixture
that the tests of bot processes, in any folder, share."""

from __future__ import annotations

import atexit
import compileall
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import referee
from referee.bots.cores import usable_cores

from .processes import BOT_PYTHON, copy_bots, leftover_processes


def _ignore_here_only(signum: int) -> None:
    """Tests send SIGINT and SIGHUP to the commands they start and expect them taken as a
    user's Ctrl-C or closed terminal.  A run in a shell's background (`&`: SIGINT ignored) or
    under nohup (SIGHUP ignored) would pass on the ignoring to those commands, which keep it
    (as the referee does, by design).  A handler that does nothing still ignores the signal in
    this process, and the commands it starts get the default action (exec resets handlers)."""
    if signal.getsignal(signum) is signal.SIG_IGN:
        signal.signal(signum, lambda *_: None)


def _compile_the_referee() -> None:
    """The tests start the referee hundreds of times, each a new Python that imports the
    `referee` package.  Where PYTHONDONTWRITEBYTECODE is set (as in many containers), none of
    them writes the bytecode it compiles, and each compiles the whole package again (a quarter
    of its start-up); compiled once here, they all read it.  Python reads `__pycache__` even
    where it may not write it, and compiles again any module changed since."""
    compileall.compile_dir(Path(referee.__file__).parent, quiet=1)


def _python3_is_this_python_without_site() -> None:
    """The bots of the tests are commands such as `python3 bot.py`, started thousands of times.
    Where `python3` on PATH is a pyenv shim (a bash script that asks pyenv which Python to
    run), each start runs bash and pyenv first (40-80 ms of CPU); where it is another Python
    than the one running the tests, the bots run under that one.  So a folder first on PATH,
    for the tests and every command they start, holds a `python3` that runs this Python with
    `-S` (`processes.BOT_PYTHON`): no bot of the tests needs more than the standard library.
    This Python's own folder comes next (its `python`, `pip`).  Where the wrapper cannot run
    (a temporary folder mounted noexec), that folder alone goes first.  Made once, in the
    process that starts the workers, which inherit PATH."""
    folders = [str(Path(sys.executable).parent)]
    wrapper_folder = Path(tempfile.mkdtemp(prefix="referee-tests-python3-"))
    atexit.register(shutil.rmtree, wrapper_folder, ignore_errors=True)
    wrapper = wrapper_folder / "python3"
    wrapper.write_text(f'#!/bin/sh\nexec {BOT_PYTHON} "$@"\n')
    wrapper.chmod(0o755)
    try:
        if subprocess.run([wrapper, "-c", "pass"], timeout=60).returncode == 0:
            folders.insert(0, str(wrapper_folder))
    except OSError:
        pass
    os.environ["PATH"] = os.pathsep.join([*folders, os.environ.get("PATH", "")])


def pytest_configure(config: pytest.Config) -> None:
    for signum in (signal.SIGINT, signal.SIGHUP):
        _ignore_here_only(signum)
    if not hasattr(config, "workerinput"):  # once, in the process that starts the workers
        _python3_is_this_python_without_site()
        _compile_the_referee()


@pytest.hookimpl(trylast=True)  # after xdist's own, which starts the workers
def pytest_sessionstart(session: pytest.Session) -> None:
    """Under `-n`, every worker imports every test module, and pytest rewrites each module's
    asserts as it imports it: some 2.5 s of CPU a worker, spent again by each.  pytest keeps a
    rewritten module in `__pycache__` and reads it from there even where it may not write it
    (PYTHONDONTWRITEBYTECODE); but there, or on a fresh checkout where the workers import
    the modules all at once, every worker rewrites them all.  So the process that starts the
    workers rewrites them first, once, while the workers start up (pytest reads a rewritten
    module only if it is complete and of the source as it is, and rewrites it otherwise)."""
    config = session.config
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no":
        return
    try:  # pytest's own, not its API: where it differs, the workers rewrite as before
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
        )
        state = config.stash.get(assertstate_key, None)
        if state is None:  # --assert=plain
            return
        for source in sorted(Path(__file__).parent.rglob("test_*.py")):
            cache = get_cache_dir(source)
            pyc = cache / (source.name[:-3] + PYC_TAIL)
            if _read_pyc(source, pyc) is None:
                cache.mkdir(exist_ok=True)
                stat, code = _rewrite_test(source, config)
                _write_pyc(state, code, stat, pyc)
    except Exception:  # another pytest's internals, or a file it cannot write: as before
        pass


@pytest.hookimpl(trylast=True)  # after pytest's own ordering (by fixture scope)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked `slow` (some 5-30 s each) first in every worker's share: a long test
    started last would leave the other workers idle until it ends.  xdist's work stealing
    (`pytest_xdist_make_scheduler`) hands each of N workers one of N equal runs of the
    collection, and a worker that runs out takes the back half of another's queue; so the
    slow tests are dealt in turn to the N runs, each run starting with its own."""
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    slow: list[pytest.Item] = []
    others: list[pytest.Item] = []
    for item in items:
        (others if item.get_closest_marker("slow") is None else slow).append(item)
    runs: list[list[pytest.Item]] = [slow[i::workers] for i in range(workers)]
    left = len(items)
    for i, run in enumerate(runs):  # the sizes xdist's first hand-out gives
        size = left // (workers - i)
        left -= size
        take = max(0, size - len(run))
        run += others[:take]
        del others[:take]
    items[:] = [item for run in runs for item in run] + others


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, when it is installed
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """`-n`'s tests handed out by work stealing, not in xdist's `load` chunks sized in
    advance: each of N workers starts with one of N equal runs of them (each run with its share
    of the slow tests, `pytest_collection_modifyitems`), and one that runs out takes half of
    what another still has queued, so that the workers end within a short test of each other."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import WorkStealingScheduling

    return WorkStealingScheduling(config, log)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, when it is installed
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: three workers for every two usable cores (their affinity and cgroup quota, as
    the referee counts them), rounded up.  Many tests spend much of their time waiting on a
    bot's clock (a move time, a budget, a bot that answers late); with one worker a core the
    cores sat idle a sixth of the run, and with two a core the workers' start-ups and their
    contention spent 5-15% more CPU for no shorter run (benchmarks/README.md, "The suite's own
    time")."""
    return math.ceil(max(1, round(usable_cores())) * 3 / 2)


@pytest.fixture
def bot_dir(tmp_path: Path) -> Iterator[Path]:
    """A private copy of tests/scripted_bots; after the test, none of its processes may be
    alive."""
    bots = copy_bots(tmp_path / "bots")
    yield bots
    left = leftover_processes(f"{bots}/")
    assert not left, "bot processes left behind:\n" + "\n".join(left)
