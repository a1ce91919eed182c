"""One worker: plays scheduled games with its own players, in the local executor's tasks and
in Dask's workers alike, keeping bot processes across games (the protocol's new_game message)
and starting one afresh only after a void game or its death.  A referee failure voids a game,
which is played again up to MAX_ATTEMPTS times."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

from referee.match.game import RefereeError, play_game
from referee.match.player import Player
from referee.match.record import (
    AnswerLine,
    ApplyLine,
    FaultLine,
    GameRecord,
    StoredResult,
)
from referee.protocol.messages import FaultKind

from ..config import TournamentConfig, tournament_edition
from ..entrants import PlayerFactory
from ..schedule import ScheduledGame, game_spec
from . import Finished, Voided

MAX_ATTEMPTS = 3


def response_histogram(record: GameRecord, seats: int) -> list[dict[str, int]]:
    """Per seat, counts of the bot's response times in quarter-octave buckets of microseconds
    (bucket b holds times near 2**(b/4) us), mergeable across games for medians and p99s."""
    out: list[dict[str, int]] = [{} for _ in range(seats)]
    unanswered: set[int] = set()  # seats whose step's fault was that no answer came
    for line in record.lines:
        if isinstance(line, FaultLine) and line.kind in (FaultKind.TIMEOUT, FaultKind.CRASH):
            unanswered.add(line.seat)
        elif not isinstance(line, ApplyLine | AnswerLine) or line.seat is None:
            continue
        elif line.seat in unanswered:
            unanswered.discard(line.seat)  # the time it was given, not a response time
        elif line.source in ("bot", "default"):
            us = max(1.0, line.seconds * 1e6)
            bucket = str(int(4 * math.log2(us)))
            hist = out[line.seat]
            hist[bucket] = hist.get(bucket, 0) + 1
    return out


class Worker:
    """Plays scheduled games with one worker's players, keeping bot processes across games."""

    def __init__(self, config: TournamentConfig, config_path: Path, number: int,
                 make_player: PlayerFactory, restart_each_game: bool = False) -> None:
        self.config = config
        self.edition = tournament_edition(config, config_path)
        self.number = number
        self.make_player = make_player
        self.restart_each_game = restart_each_game
        self.players: dict[str, Player] = {}

    async def play(self, game: ScheduledGame, voided: Callable[[Voided], None]) -> Finished | None:
        """Play one game; a void game is reported and played again, up to MAX_ATTEMPTS."""
        spec = game_spec(self.config, game, self.edition)
        players = self.players
        for attempt in range(1, MAX_ATTEMPTS + 1):
            seat_players = [players.setdefault(n, self.make_player(n, self.number))
                            for n in game.seats]
            started = time.monotonic()
            try:
                record = await play_game(spec, seat_players)
            except RefereeError as exc:
                voided(Voided(game.game_id, attempt, str(exc)))
                for name in game.seats:  # start afresh: the processes may be in any state
                    p = players.pop(name, None)
                    if p is not None:
                        await p.aclose()
                continue
            result = StoredResult.of(record.result, response_histogram(record, len(game.seats)))
            if self.restart_each_game:
                for name in game.seats:
                    await players.pop(name).aclose()
            return Finished(game.game_id, list(game.seats), game.seed, result,
                            record.to_jsonl(), time.monotonic() - started, attempt)
        return None

    async def aclose(self) -> None:
        for p in self.players.values():
            await p.aclose()
        self.players.clear()
