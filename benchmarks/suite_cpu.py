"""A pytest plugin for `suite_time.py --by-test`: each test's CPU, its own and that of the
processes it started and waited for, and its wall time, one JSON line a test appended to the
file `SUITE_CPU_LOG` names.  Under `-n` wall times overlap and stretch with the load; CPU
says which tests cost the suite its minutes.  Processes a test leaves to others to reap (a
bot orphaned to init) are not counted."""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Iterator

import pytest


def _cpu(who: int) -> float:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    own, children, start = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), \
        time.perf_counter()
    yield
    line = {"test": item.nodeid, "wall": time.perf_counter() - start,
            "own": _cpu(resource.RUSAGE_SELF) - own,
            "children": _cpu(resource.RUSAGE_CHILDREN) - children}
    with open(os.environ["SUITE_CPU_LOG"], "a") as log:  # one write a line: whole lines
        log.write(json.dumps(line) + "\n")
