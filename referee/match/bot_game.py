"""One game between bot processes, as `referee play` plays it: a player per bot, its stderr and
its transcript kept in the folders given, and every bot closed at the end on every path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from referee.bots.launch import BotSpec
from referee.bots.limits import DEFAULT_STARTUP_TIME

from .bot_session import BotPlayer
from .game import play_game
from .record import GameRecord
from .spec import GameSpec


async def play_bots(game: GameSpec, bots: Sequence[BotSpec], *,
                    startup_time: float = DEFAULT_STARTUP_TIME, stderr_dir: Path | None = None,
                    transcript_dir: Path | None = None) -> GameRecord:
    """Play `game` between `bots`, one per seat, keeping each bot's stderr in
    NAME.stderr.log in `stderr_dir` and the lines it exchanged in NAME.transcript.jsonl in
    `transcript_dir` (an earlier game's transcript removed first).  Both folders must exist.
    Raises RefereeError when the game is void."""
    if transcript_dir is not None:
        for s in bots:
            (transcript_dir / f"{s.name}.transcript.jsonl").unlink(missing_ok=True)
    players = [
        BotPlayer(s, startup_time=startup_time,
                  stderr_path=stderr_dir / f"{s.name}.stderr.log" if stderr_dir else None,
                  transcript_path=(transcript_dir / f"{s.name}.transcript.jsonl"
                                   if transcript_dir else None))
        for s in bots
    ]
    try:
        return await play_game(game, players)
    finally:
        for p in players:
            await p.aclose()
