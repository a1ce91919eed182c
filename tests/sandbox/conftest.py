from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.bots.sandbox import SandboxError, check_sandbox_available

from ..match.support import copy_bots, leftover_processes


@pytest.fixture
def bot_dir(tmp_path: Path) -> Iterator[Path]:
    """A private copy of tests/bots; after the test, none of its processes may be alive."""
    bots = copy_bots(tmp_path / "bots")
    yield bots
    left = leftover_processes(f"{bots}/")
    assert not left, "bot processes left behind:\n" + "\n".join(left)


def bwrap_problem() -> str | None:
    try:
        check_sandbox_available("bwrap")
    except SandboxError as exc:
        return str(exc)
    return None


@pytest.fixture(params=["none", "bwrap"])
def mode(request: pytest.FixtureRequest) -> str:
    """Each test twice: without a sandbox, and in bwrap (skipped, saying why, where bwrap
    cannot run: not installed, or user namespaces blocked)."""
    if request.param == "bwrap":
        problem = bwrap_problem()
        if problem is not None:
            pytest.skip(problem)
    return str(request.param)


@pytest.fixture
def bwrap() -> str:
    problem = bwrap_problem()
    if problem is not None:
        pytest.skip(problem)
    return "bwrap"
