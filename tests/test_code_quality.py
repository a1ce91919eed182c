"""ruff and mypy are part of the test run: a lint or type error fails the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_is_clean() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_is_clean() -> None:
    """mypy, strict, over the whole referee/ package."""
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
