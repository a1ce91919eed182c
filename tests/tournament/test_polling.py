"""Polling for a bot's reply in a tournament: a worker alone in its event loop may poll."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.match.bot_player import BotPlayer
from referee.match.player import Player
from referee.tournament.config import TournamentConfig
from referee.tournament.executors import local
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

from ..match.support import PollingWatcher


def test_tables_that_share_one_event_loop_may_not_poll(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A run too short for worker processes (24 games) plays its tables in one event loop:
    with two workers they may not poll; one worker's table is alone in it and may (by
    default).  (Worker processes: `test_worker_processes.py`.)"""
    bot_factory = local.bot_factory

    def run(workers: int) -> set[float | None]:
        spins: set[float | None] = set()

        def factory(*args: Any, **kwargs: Any) -> Callable[[str, int], Player]:
            make_bot = bot_factory(*args, **kwargs)

            def make(name: str, worker: int) -> Player:
                bot = make_bot(name, worker)
                assert isinstance(bot, BotPlayer)
                spins.add(bot.process_limits.spin)
                return PollingWatcher(name)  # the games are played in-process

            return make

        monkeypatch.setattr(local, "bot_factory", factory)
        (tmp_path / "unused.py").touch()  # never run, but an entrant's script must be there
        config = TournamentConfig.model_validate({
            "name": "t", "seed": 1, "table_size": 4,
            "bots": [{"name": f"b{i}", "command": f"{sys.executable} unused.py"}
                     for i in range(4)],
        })
        store = open_store(tmp_path / f"w{workers}.db")
        trio.run(lambda: run_tournament(config, tmp_path / "t.toml", store,
                                        LocalExecutor(workers), lambda m: None))
        store.close()
        return spins

    assert run(2) == {0.0}
    assert run(1) == {None}
