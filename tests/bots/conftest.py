"""The sandbox fixtures: `mode` runs a test without a sandbox and in bwrap; `bwrap` only in it."""

from __future__ import annotations

import pytest

from referee.bots.sandbox import SandboxError, check_sandbox_available


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
