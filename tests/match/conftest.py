from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .support import copy_bots, leftover_processes


@pytest.fixture
def bot_dir(tmp_path: Path) -> Iterator[Path]:
    """A private copy of tests/bots; after the test, none of its processes may be alive."""
    bots = copy_bots(tmp_path / "bots")
    yield bots
    left = leftover_processes(f"{bots}/")
    assert not left, "bot processes left behind:\n" + "\n".join(left)
