"""Games with one hostile bot (seat 0) and three first_legal bots, under limits and a sandbox."""

from __future__ import annotations

import re
from pathlib import Path

import trio

from referee.bots.launch import BotSpec
from referee.bots.limits import DEFAULT_MAX_FAULTS, BotLimits
from referee.bots.sandbox import SandboxMode
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.player import Fault
from referee.match.record import GameRecord
from referee.match.spec import GameSpec

from ..processes import command

NAMES = ["bad", "good1", "good2", "good3"]


def players(bot_dir: Path, hostile: str, sandbox: str, limits: BotLimits,
            stderr: Path | None = None) -> list[BotPlayer]:
    mode: SandboxMode = "bwrap" if sandbox == "bwrap" else "none"
    bad = BotSpec("bad", command(bot_dir, hostile), cwd=bot_dir, limits=limits, sandbox=mode)
    good = [BotSpec(n, command(bot_dir, "first_legal.py"), cwd=bot_dir, sandbox=mode)
            for n in NAMES[1:]]
    return [BotPlayer(s, startup_time=10, stderr_path=stderr if s is bad else None)
            for s in [bad, *good]]


def play(bot_dir: Path, hostile: str, sandbox: str = "none",
         limits: BotLimits = BotLimits(), games: int = 1, move_time: float = 0.5,  # noqa: B008
         time_bank: float = 0.5, stderr: Path | None = None,
         max_faults: int = DEFAULT_MAX_FAULTS) -> list[GameRecord]:
    """Play `games` games (the same players throughout), then close every player."""
    seats = players(bot_dir, hostile, sandbox, limits, stderr)

    async def run() -> list[GameRecord]:
        try:
            return [await play_game(GameSpec.make(f"g{g}", 40 + g, NAMES, move_time=move_time,
                                                  time_bank=time_bank, max_faults=max_faults),
                                    seats)
                    for g in range(games)]
        finally:
            for p in seats:
                await p.aclose()

    return trio.run(run)


def assert_contained(record: GameRecord, kind: str, pattern: str) -> Fault:
    """The game finished for everyone; seat 0 has exactly one fault, of `kind`, whose reason
    matches `pattern`; the good seats have none.  Returns the fault."""
    result = record.result
    assert len(result.money) == 4 and len(result.ranks) == 4
    assert result.faults[1:] == ((), (), ()), result.faults
    faults = result.faults[0]
    assert len(faults) == 1, faults
    assert faults[0].kind == kind, faults
    assert re.search(pattern, faults[0].reason), faults[0].reason
    return faults[0]
