"""One worker's bot processes, at most `max_bot_processes` of them alive at once.

A worker keeps each entrant's process from game to game, since starting a bot costs tens of
milliseconds; but a field of hundreds would then keep hundreds of processes per worker, with
their descriptors and memory, and past the referee's descriptor limit every start fails.  The
pool keeps at most `limit`: before a game it stops the least recently used others cleanly
(goodbye, as at the end of a run), and a seat whose entrant has none starts one.  A game's
seats are the floor: they play at once.

The default is sized here, and only here, to what the referee may hold: the descriptors under
its soft RLIMIT_NOFILE, shared by the workers of one process, and the memory available, shared
by the local workers of the run (a Dask worker knows only its own threads).
"""

from __future__ import annotations

import os
import resource
import sys
from collections import OrderedDict
from collections.abc import Sequence

from referee.match.player import Player

from ..config import TournamentConfig
from ..entrants import PlayerFactory

# Descriptors the referee holds for each live bot: its stdin and stdout pipes, its stderr
# pipe and log, /dev/null and a pidfd (6 measured), with room for a start's passing ones.
DESCRIPTORS_PER_BOT = 8
# Descriptors of the referee's own: Python, trio, the store, a table's bots starting at once
# (about 30 measured with a table of three starting).
DESCRIPTORS_KEPT = 48
# Memory allowed for each waiting bot process (a Python bot holds about 10 MiB, a JVM more).
MEMORY_PER_BOT = 64 << 20


def available_memory() -> int:
    """Bytes of memory available to start processes now (MemAvailable), or all of it."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def default_max_bot_processes(sharing: int = 1, on_machine: int | None = None) -> int:
    """The bot processes each worker may keep: the descriptors left under this process's
    soft descriptor limit after the referee's own, shared by the `sharing` workers of this
    process, and the memory available, shared by the `on_machine` workers of the run (a
    worker process has descriptors of its own, not memory; by default `sharing`); at least 1
    (`bot_process_limit` raises it to a table's seats)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    by_files = (sys.maxsize if soft == resource.RLIM_INFINITY
                else (soft - DESCRIPTORS_KEPT) // DESCRIPTORS_PER_BOT)
    by_memory = available_memory() // MEMORY_PER_BOT
    return max(1, min(by_files // max(1, sharing),
                      by_memory // max(1, sharing if on_machine is None else on_machine)))


def bot_process_limit(config: TournamentConfig, sharing: int = 1,
                      on_machine: int | None = None) -> int:
    """The file's `max_bot_processes` (or `--max-bot-processes`), else the default for one
    worker (`default_max_bot_processes`), never below a table's seats."""
    if config.max_bot_processes is not None:
        return config.max_bot_processes
    return max(config.table_size, default_max_bot_processes(sharing, on_machine))


class BotPool:
    """One worker's players by entrant, the least recently used first; at most `limit` kept
    (never fewer than `floor`, a game's seats)."""

    def __init__(self, make_player: PlayerFactory, worker: int, limit: int,
                 floor: int) -> None:
        self.make_player = make_player
        self.worker = worker
        self.floor = floor
        self.limit = max(limit, floor)
        self.players: OrderedDict[str, Player] = OrderedDict()

    async def seat(self, names: Sequence[str]) -> list[Player]:
        """The players of one game's seats, now the most recently used; the least recently
        used others are stopped first, so that no more than `limit` are kept."""
        wanted = set(names)
        over = len(self.players.keys() | wanted) - self.limit
        for name in [n for n in self.players if n not in wanted][:max(0, over)]:
            await self.players.pop(name).aclose()
        seats = []
        for name in names:
            player = self.players.get(name)
            if player is None:
                player = self.players[name] = self.make_player(name, self.worker)
            self.players.move_to_end(name)
            seats.append(player)
        return seats

    async def drop(self, names: Sequence[str]) -> None:
        """Stop these entrants' processes (a void game's, which may be in any state)."""
        for name in names:
            player = self.players.pop(name, None)
            if player is not None:
                await player.aclose()

    async def shrink(self) -> int:
        """After the referee ran short of its own resources: stop every process kept, and
        keep at most half as many as there were from now on (not fewer than `floor`);
        return the new limit."""
        kept = len(self.players)
        await self.aclose()
        self.limit = max(self.floor, min(self.limit, kept) // 2)
        return self.limit

    async def aclose(self) -> None:
        while self.players:
            _, player = self.players.popitem(last=False)
            await player.aclose()
