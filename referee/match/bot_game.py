"""One game between bot processes, as `referee play` plays it: a player per bot, each bot named
by its hello unless it was given a name, its stderr and its transcript kept in the folders
given under that name, and every bot closed at the end on every path."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import trio

from referee.bots.launch import BotArgumentError, BotSpec, names_files, number_namesakes
from referee.bots.limits import DEFAULT_STARTUP_TIME

from .bot_player import BotPlayer
from .game import RefereeError, play_game
from .record import GameRecord
from .spec import GameSpec


def named_by_hellos(bots: Sequence[BotSpec], hellos: Sequence[str | None]) -> list[BotSpec]:
    """The bots, each not given a name (`BotSpec.name_given`) named as its hello says where
    that name can name its files (`names_files`, and no spaces around it), those sharing a
    name numbered by seat (`number_namesakes`).  A bot with no usable hello name keeps its
    own, and so do all if the numbers would make two names alike."""
    named = [replace(s, name=h) if not s.name_given and h and h.strip() == h and names_files(h)
             else s for s, h in zip(bots, hellos, strict=True)]
    try:
        return number_namesakes(named)
    except BotArgumentError:  # the names the bots had are apart already
        return list(bots)


def _files(name: str, stderr_dir: Path | None, transcript_dir: Path | None,
           staged: bool = False) -> tuple[Path | None, Path | None]:
    """A bot's stderr log and transcript; `staged`: a name no bot's files have (on the way to
    its new name, which may be another bot's old one)."""
    end = ".naming" if staged else ""
    return (stderr_dir / f"{name}.stderr.log{end}" if stderr_dir else None,
            transcript_dir / f"{name}.transcript.jsonl{end}" if transcript_dir else None)


async def play_bots(game: GameSpec, bots: Sequence[BotSpec], *,
                    startup_time: float = DEFAULT_STARTUP_TIME, stderr_dir: Path | None = None,
                    transcript_dir: Path | None = None,
                    players_out: dict[str, BotPlayer] | None = None) -> GameRecord:
    """Play `game` between `bots`, one per seat, keeping each bot's stderr in
    NAME.stderr.log in `stderr_dir` and the lines it exchanged in NAME.transcript.jsonl in
    `transcript_dir` (an earlier game's transcript replaced).  Both folders must exist.  The
    bots are started first: the record names them as `named_by_hellos` says, whatever names
    `game` has.  `players_out` is given each bot's player, by name, once closed: what it
    saw of the bot (its stderr's error lines, the replies skipped).  Raises RefereeError when
    the game is void."""
    if transcript_dir is not None:
        for s in bots:
            (transcript_dir / f"{s.name}.transcript.jsonl").unlink(missing_ok=True)
    players = []
    for s in bots:
        stderr_path, transcript_path = _files(s.name, stderr_dir, transcript_dir)
        players.append(BotPlayer(s, startup_time=startup_time, stderr_path=stderr_path,
                                 transcript_path=transcript_path))
    try:
        async with trio.open_nursery() as nursery:
            for p in players:
                nursery.start_soon(p.start)
        names = [s.name for s in named_by_hellos(bots, [p.hello_name for p in players])]
        renamed = [(p, name) for p, name in zip(players, names, strict=True) if name != p.name]
        try:
            for p, _ in renamed:
                p.move_files(*_files(p.name, stderr_dir, transcript_dir, staged=True))
            for p, name in renamed:
                p.name = name
                p.move_files(*_files(name, stderr_dir, transcript_dir))
        except OSError as exc:
            raise RefereeError(f"cannot rename a bot's files after its hello: {exc}") from None
        return await play_game(game.model_copy(update={"names": names}), players)
    finally:
        for p in players:
            await p.aclose()
            if players_out is not None:
                players_out[p.name] = p
