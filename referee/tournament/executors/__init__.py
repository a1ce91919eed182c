"""Executors: what plays a tournament's games, and nothing else (`local.py`, `dask.py`).

An executor is handed the games of one stage and reports what became of each: finished, void
(each attempt), lost with a batch that failed, or handed to another worker when its own was
lost.  Binding the store, building the bots, choosing the games, storing them and the summary
are the session's (`session.py`), written once whatever plays the games.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import trio

from referee.match.result import StoredResult

from ..config import TournamentConfig
from ..schedule import ScheduledGame


@dataclass
class Finished:
    """A game played to its end, ready for the store (picklable, for Dask workers)."""

    game_id: str
    seats: list[str]
    seed: int
    result: StoredResult
    record: bytes
    seconds: float
    attempts: int


@dataclass
class Voided:
    """One attempt at a game that the referee failed; the game is played again, up to
    `worker.MAX_ATTEMPTS` times."""

    game_id: str
    attempt: int
    reason: str


@dataclass
class Lost:
    """Games neither finished nor void: their batch failed where it ran; a later run plays
    them."""

    game_ids: list[str]
    reason: str


@dataclass
class Requeued:
    """Games whose worker was lost before they were stored: the cluster plays them again
    elsewhere (nothing is lost; said so that the user knows why they take longer)."""

    game_ids: list[str]
    reason: str


Outcome = Finished | Voided | Lost | Requeued
Report = Callable[[Outcome], None]


class Executor(Protocol):
    """Plays scheduled games: batches of them in, finished or void games out."""

    # Where it keeps each bot's stderr (--stderr-dir), or None: the run's own folder, which
    # no entrant's version or build digest counts (`isolation.own_files`).
    stderr_dir: Path | None

    @property
    def runs_bots(self) -> bool:
        """Whether it plays the file's bot processes (checked for the sandbox and built
        first), not in-process players."""
        ...

    async def start(self, config: TournamentConfig, config_path: Path) -> None:
        """Get ready to play `config`'s games, before anything else of the run, so that
        what cannot work (a cluster out of reach) fails first."""

    async def start_fault(self, name: str) -> str | None:
        """Start entrant `name`'s bot once where this executor plays the games (on a Dask
        cluster, in a worker), read its hello and close it: why it failed to start, or None.
        An adaptive run tries so an entrant whose stored games show it never started
        (`start_probe.py`)."""

    async def play(self, games: Iterable[ScheduledGame], report: Report) -> None:
        """Play `games` (taken in their order, lazily: a schedule may be long), reporting each
        finished game, each void attempt, each lost batch and each game handed to another
        worker as it comes; return when none is left.  An error `report` raises stops the
        play, and so does OutOfResources (the referee short of its own descriptors or memory,
        for good)."""

    async def aclose(self) -> None:
        """Stop what it kept between batches: bot processes, a cluster it started."""


async def from_one_queue(games: Iterable[ScheduledGame],
                         workers: Iterable[Callable[[ScheduledGame], Awaitable[None]]]) -> None:
    """Each worker plays the next game of one queue until none is left; the first error of
    any (the store failed, the referee is short of its own resources, a worker's process
    ended) stops them all, and is raised."""
    failed: list[Exception] = []

    async def work(play: Callable[[ScheduledGame], Awaitable[None]], nursery: trio.Nursery
                   ) -> None:
        try:
            for game in queue:
                await play(game)
        except Exception as exc:
            failed.append(exc)
            nursery.cancel_scope.cancel()

    queue = iter(games)
    async with trio.open_nursery() as nursery:
        for play in workers:
            nursery.start_soon(work, play, nursery)
    if failed:
        raise failed[0]
