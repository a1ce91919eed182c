"""A small tournament with a faulty subprocess bot, stored and written as a report once; and
headless Chromium for the tests that open pages."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.bots.launch import BotSpec
from referee.match.bot_player import BotPlayer
from referee.match.player import Player
from referee.match.policy_player import random_player
from referee.report import ReportSummary, write_report
from referee.tournament.config import TournamentConfig
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.session import run_tournament
from referee.tournament.store import Store, open_store

from ..processes import BOT_PYTHON
from .browser import chromium

ROOT = Path(__file__).resolve().parents[2]
ILLEGAL = ROOT / "tests" / "scripted_bots" / "illegal.py"
NAMES = ["alpha", "beta", "gamma", "delta", "illegal"]


@dataclass
class Made:
    db: Path
    out: Path
    stderr_dir: Path
    summary: ReportSummary


def make_store(folder: Path) -> tuple[Path, Path]:
    """Five entrants at tables of four (every rotation, one deal): 20 games, 16 of them with
    the `illegal` bot, which over-bids and is retired after three faults in each."""
    config = TournamentConfig.model_validate({
        "name": "report-test", "seed": 4, "table_size": 4, "seat_orders": "rotations",
        "bots": [{"name": n, "command": "unused"} for n in NAMES],
    })
    stderr_dir = folder / "stderr"
    stderr_dir.mkdir()

    def make(name: str, worker: int) -> Player:
        if name == "illegal":
            return BotPlayer(BotSpec(name, f"{BOT_PYTHON} {ILLEGAL} --kind over_money"),
                             stderr_path=stderr_dir / f"{name}.w{worker}.stderr.log")
        return random_player(name, zlib.crc32(name.encode()) % 100)

    db = folder / "t.db"
    store = open_store(db)
    trio.run(lambda: run_tournament(config, folder / "t.toml", store, LocalExecutor(2, make),
                                    lambda m: None))
    store.close()
    # What an entrant's stderr log looks like (the in-process players write none).
    (stderr_dir / "alpha.w0.stderr.log").write_text(
        "alpha: request 5 (bid): KeyError('price'); falling back to the default\n"
        "alpha: request 9 (bid): KeyError('price'); falling back to the default\n"
        + "".join(f"alpha thinking about move {i} <b>\n" for i in range(100)))
    return db, stderr_dir


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Made]:
    folder = tmp_path_factory.mktemp("report")
    db, stderr_dir = make_store(folder)
    store: Store = open_store(db)
    out = folder / "site"
    summary = write_report(store, out, stderr_dir=stderr_dir, games_sample=2)
    store.close()
    yield Made(db, out, stderr_dir, summary)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (the test skipped without Debian's chromium or playwright)."""
    with chromium() as b:
        yield b
