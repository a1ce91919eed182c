"""Grading runs inside the test process whose baselines play in it too, for the tests whose
claims are about the student (its folder, its copy, its build, check and games, what grading
says and keeps), not about the baselines' processes: three baseline processes answer three
quarters of a gauntlet's decisions, each through a pipe and a JSON round trip.

A baseline whose command runs the sample random bot (`test_grade.write_config`'s) or the
sample baseline bot (tournaments/classroom.toml's) is that bot's own code, fed the protocol's
lines as encoded for a process (`SeatProtocol`), so that its games are the process's, move for
move, and the student's results the same; any other baseline (a test's own, a broken one, one
built from its sources), and every student, still runs as its process, built and started as
grading starts it.

`python grade_process.py` beside this file is `python -m referee` with its baselines so, for
the tests whose claim needs a process of its own (a signal, a limit, another user) but not the
baselines' processes."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from referee.grade import gauntlet
from referee.match.player import Player
from referee.tournament.config import TournamentConfig
from referee.tournament.entrants import bot_factory
from referee.tournament.executors.local import LocalExecutor

from ..in_process_bot import BASELINE, BaselineInProcess, sample

RANDOM_BOT = Path(__file__).resolve().parents[2] / "sample_bots" / "python" / "random_bot.py"


class RandomInProcess(BaselineInProcess):
    """The sample random bot (`random_bot.py --seed SEED`), one `RandomBot` for all its
    games as in its process, fed each line that process would read."""

    def __init__(self, name: str, seed: int) -> None:
        super().__init__(name)
        self.game = sample(RANDOM_BOT).RandomBot(seed)

    def take(self, message: dict[str, Any]) -> dict[str, Any] | None:
        if message["type"] == "new_game":
            self.game.new_game(message)
        elif message["type"] == "request":
            return {"id": message["id"], **self.game.decide(message)}
        return None


def random_seed(command: str, folder: Path) -> int | None:
    """N where `command`, run from `folder`, runs the sample random bot as `random_bot.py
    --seed N`, else None."""
    words = shlex.split(command)
    if len(words) < 3 or words[-2] != "--seed" or not words[-1].isdigit() or \
            (folder / words[-3]).resolve() != RANDOM_BOT:
        return None
    return int(words[-1])


def runs_the_baseline_sample(command: str, folder: Path) -> bool:
    """Whether `command`, run from `folder`, runs the sample baseline bot, with no
    arguments."""
    words = shlex.split(command)
    return len(words) >= 2 and (folder / words[-1]).resolve() == BASELINE


class BaselinesInProcess(LocalExecutor):
    """The gauntlet's executor, its random and sample baselines in-process (`RandomInProcess`,
    `BaselineInProcess`) and its other players its bot processes.  It still runs bots
    (`runs_bots`): the session builds and checks the student's command as it does for the
    processes."""

    def __init__(self, workers: int = 1) -> None:
        super().__init__(workers)
        self.processes = None  # one event loop: the in-process players cannot be sent away

    @property
    def runs_bots(self) -> bool:
        return True

    async def start(self, config: TournamentConfig, config_path: Path) -> None:
        processes = bot_factory(config, config_path, self.stderr_dir,
                                polling=self.workers <= 1)
        folder = config_path.resolve().parent
        own = [b for b in config.bots if b.name in config.baselines and not b.build and
               not b.dir]  # one built from its sources: its build is the point
        seeds = {b.name: seed for b in own
                 if (seed := random_seed(b.command, folder)) is not None}
        samples = {b.name for b in own if runs_the_baseline_sample(b.command, folder)}

        def make(name: str, worker: int) -> Player:
            if name in seeds:
                return RandomInProcess(name, seeds[name])
            return BaselineInProcess(name) if name in samples else processes(name, worker)

        self.make_player = make
        await super().start(config, config_path)


@contextmanager
def baselines_in_process() -> Iterator[None]:
    """Within it, grading's gauntlets (`referee.grade.gauntlet`) are played by
    `BaselinesInProcess`.  (Set by hand, not by pytest's monkeypatch: `grade_process.py`
    would import pytest for it, a quarter of a second of its start-up.)"""
    before = gauntlet.LocalExecutor
    gauntlet.LocalExecutor = BaselinesInProcess  # type: ignore[misc]
    try:
        yield
    finally:
        gauntlet.LocalExecutor = before  # type: ignore[misc]
