"""One worker: plays scheduled games with its own players, in the local executor's tasks and
in Dask's workers alike, keeping bot processes across games (the protocol's new_game message),
at most `max_bot_processes` of them (`bot_pool.py`), and starting one afresh only after a void
game or its death.  A referee failure voids a game, which is played again up to MAX_ATTEMPTS
times.  When the failure was the referee's own want of resources (`OutOfResources`: too many
open files, say), the worker first stops every process it keeps and keeps fewer from then on;
if the game still cannot be played, the run stops: that is not the bots' fault, and playing on
would only void game after game."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

import trio

from referee.bots.errors import want_of_resources
from referee.game.edition import Edition
from referee.match.game import OutOfResources, RefereeError, play_game
from referee.match.record import AnswerLine, ApplyLine, FaultLine, GameRecord
from referee.match.result import StoredResult
from referee.protocol.messages import FaultKind

from ..config import TournamentConfig, tournament_edition
from ..entrants import PlayerFactory
from ..schedule import ScheduledGame, game_spec
from . import Finished, Voided
from .bot_pool import BotPool, bot_process_limit

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
    """Plays scheduled games with one worker's players, keeping bot processes across games;
    `sharing`: the workers of this process, which share its descriptors, and `on_machine`
    those of the run, which share the machine's memory (by default the same): the default
    limit of bot processes is theirs to share.  `edition`: the tournament's, if already read
    (else read from the file)."""

    def __init__(self, config: TournamentConfig, config_path: Path, number: int,
                 make_player: PlayerFactory, restart_each_game: bool = False,
                 sharing: int = 1, on_machine: int | None = None,
                 edition: Edition | None = None) -> None:
        self.config = config
        self.edition = (edition if edition is not None
                        else tournament_edition(config, config_path))
        self.number = number
        self.restart_each_game = restart_each_game
        self.pool = BotPool(make_player, number, bot_process_limit(config, sharing, on_machine),
                            config.table_size)

    async def play(self, game: ScheduledGame, voided: Callable[[Voided], None]) -> Finished | None:
        """Play one game; a void game is reported and played again, up to MAX_ATTEMPTS.
        Raises OutOfResources when every attempt failed for want of the referee's own."""
        spec = game_spec(self.config, game, self.edition)
        short: OutOfResources | None = None
        for attempt in range(1, MAX_ATTEMPTS + 1):
            seat_players = await self.pool.seat(game.seats)
            started = time.monotonic()
            try:
                record = await play_game(spec, seat_players)
            except OutOfResources as exc:
                short = exc
                before = self.pool.limit
                limit = await self.pool.shrink()
                fewer = (f"; worker {self.number} keeps at most {limit} bot processes from now "
                         "on" if limit < before else "")
                voided(Voided(game.game_id, attempt, f"{exc}{fewer}"))
                await trio.sleep(0.1 * attempt)  # a passing shortage may pass
                continue
            except RefereeError as exc:
                short = None
                voided(Voided(game.game_id, attempt, str(exc)))
                await self.pool.drop(game.seats)  # start afresh: they may be in any state
                continue
            result = StoredResult.of(record.result, response_histogram(record, len(game.seats)))
            if self.restart_each_game:
                await self.pool.drop(game.seats)
            return Finished(game.game_id, list(game.seats), game.seed, result,
                            record.to_jsonl(), time.monotonic() - started, attempt)
        if short is not None:
            want = want_of_resources(short.__cause__ or short)
            raise OutOfResources(f"game {game.game_id} was void {MAX_ATTEMPTS} times; the last "
                                 f"time: {want or short}")
        return None

    async def aclose(self) -> None:
        await self.pool.aclose()
