"""Workers that meet a stop at a chosen moment, for worker processes started by a test
(`boot`): the stop's timing is theirs, not the machine's."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

import trio
import trio.testing

from referee.tournament.executors import Finished, Voided
from referee.tournament.executors.worker import Worker
from referee.tournament.schedule import ScheduledGame

from ..processes import ROOT


class VoidsAfterTheStop(Worker):
    """Voids its game once, and again only after the stop has come, as a retry short of
    descriptors does (it stops its bots, shielded, before it reports)."""

    async def play(self, game: ScheduledGame, voided: Callable[[Voided], None]) -> Finished | None:
        voided(Voided(game.game_id, 1, "void before the stop"))
        try:
            await trio.sleep_forever()
        except trio.Cancelled:
            with trio.CancelScope(shield=True):  # its bots stopped: the others have their turn
                await trio.testing.wait_all_tasks_blocked()
            voided(Voided(game.game_id, 2, "void after the stop"))
            raise
        raise AssertionError("unreachable")


class FinishesAsTheStopComes(Worker):
    """Voids its game once, and once the stop has come plays it to the end: a game whose last
    reply came with the stop."""

    async def play(self, game: ScheduledGame, voided: Callable[[Voided], None]) -> Finished | None:
        voided(Voided(game.game_id, 1, "void before the stop"))
        with suppress(trio.Cancelled):  # the stop, which this game's end overtakes
            await trio.sleep_forever()
        with trio.CancelScope(shield=True):
            finished = await super().play(game, voided)
        return finished


def boot(worker: type[Any]) -> str:
    """A worker process's start (`ProcessWorkers.boot`) that plays with `worker`."""
    return ("import sys; sys.path.insert(0, sys.argv[1]); "
            f"sys.path.insert(0, {str(ROOT)!r}); "
            "from referee.tournament.executors import worker_process; "
            f"from tests.tournament.stand_in_workers import {worker.__name__}; "
            f"worker_process.Worker = {worker.__name__}; worker_process.main()")
