"""In-process players that a test holds at a gate, for Dask worker processes that a test
kills: a module's function (`held_player`, with its gate bound by `functools.partial`), so that
Dask can send it to its workers.  The moment of the kill is then a state the test waits for
(a worker holding a game), not a race with fast games.

The gate is a folder of files the test writes:
- every game not in `free` waits until `armed` exists;
- the worker process whose pid `armed` holds then holds its game (and says so by writing its
  pid to `held`) until `killed` exists; the others play on.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import trio

from referee.files import write_whole
from referee.match.player import Fault, GameInfo
from referee.match.policy_player import PolicyPlayer, random_player

POLL = 0.005  # seconds between looks at the gate while a game waits at it


class HeldPlayer(PolicyPlayer):
    """The random player of `name`, waiting at the gate as each game not in `free` begins."""

    def __init__(self, name: str, gate: Path, free: frozenset[str]) -> None:
        player = random_player(name, zlib.crc32(name.encode()))
        super().__init__(name, player.policy, player.seed)
        self.gate = gate
        self.free = free

    async def begin_game(self, info: GameInfo) -> Fault | None:
        if info.game_id not in self.free:
            armed = self.gate / "armed"
            while not armed.exists():
                await trio.sleep(POLL)
            if armed.read_text() == str(os.getpid()):
                write_whole(self.gate / "held", str(os.getpid()))
                while not (self.gate / "killed").exists():
                    await trio.sleep(POLL)
        return await super().begin_game(info)


def held_player(gate: Path, free: frozenset[str], name: str, worker: int) -> HeldPlayer:
    """A `make_player` for the executors, once `gate` and `free` are bound."""
    return HeldPlayer(name, gate, free)
