"""The pace of the games stored, for `plan`'s time of the games left: a game's own time apart
from its bots' start-up, and how many of the games to play start a bot.

A worker keeps each entrant's bot process from game to game and from table to table
(`executors/bot_pool.py`), so a run starts a bot once per worker it plays on (again only
when its pool, full, stopped it), not once per game or per table; and a game's bots start at
once, so a game that starts any of them waits about one start-up.  A trial's games are mostly
such games (in a large field, each entrant's first): their mean, taken as the pace of every
game, doubled the time of a 120-entrant run.  So the pace is read apart: a stored game in
which an entrant played one of its first `workers` stored games started a bot (the store
does not say which worker played a game; a run deals an entrant's first games, a table's
seat orders one after another, to as many workers); the others give the pace of a game, and
those that started one how much more they took.  The games to play that will start
a bot are counted by dealing them out to the workers in their order, as the run's one queue
does, each worker with a pool of its size.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .config import TournamentConfig

SIMULATED = 100_000  # games dealt out at most; the starts of the rest are in proportion


@dataclass(frozen=True)
class StoredPace:
    """Seconds of the stored games: `game`, a game that started no bot, on average (of every
    game when they cannot be told apart); `start`, how much more one that started a bot took
    (0: no more, or not known); `mean`, every game's."""

    game: float
    start: float
    mean: float


def stored_pace(games: Iterable[tuple[Sequence[str], float]],
                workers: int) -> StoredPace | None:
    """The pace of stored games, each its seats and seconds in the order they finished (None:
    none stored), played by runs of `workers`: a game in which an entrant played one of its
    first `workers` stored games started a bot."""
    seen: Counter[str] = Counter()
    started: list[float] = []
    kept: list[float] = []
    for seats, seconds in games:
        fresh = any(seen[name] < workers for name in seats)
        seen.update(seats)
        (started if fresh else kept).append(seconds)
    if not started and not kept:
        return None
    mean = (sum(started) + sum(kept)) / (len(started) + len(kept))
    if not started or not kept:
        return StoredPace(mean, 0.0, mean)
    game, first = sum(kept) / len(kept), sum(started) / len(started)
    if first <= game:
        return StoredPace(mean, 0.0, mean)
    return StoredPace(game, first - game, mean)


def starting_games(seatings: Iterable[Sequence[str]], workers: int, limit: int,
                   entrants: int, count: int) -> int:
    """Of `count` games to play, seated as `seatings` in the order they are played, those in
    which a bot starts: the games dealt to `workers` in turn, each keeping at most `limit`
    bot processes, the least recently used stopped first (`BotPool`).  Once every worker
    keeps all `entrants`, no game starts one: the count stops there; after SIMULATED games,
    the rest start bots in the proportion of those dealt out."""
    pools: list[OrderedDict[str, None]] = [OrderedDict() for _ in range(max(1, workers))]
    full = 0  # workers keeping every entrant for good (a pool that holds them all)
    starts = 0
    for dealt, seats in enumerate(seatings):
        if dealt == count or full == len(pools):
            return starts
        if dealt == SIMULATED:
            return round(starts * count / dealt)
        pool = pools[dealt % len(pools)]
        wanted = pool.keys() | set(seats)
        if len(wanted) > len(pool):  # a bot starts; the least recently used others stop
            starts += 1
            over = len(wanted) - limit
            for name in [n for n in pool if n not in seats][:max(0, over)]:
                del pool[name]
            full += limit >= entrants and len(wanted) == entrants
        for name in seats:
            pool[name] = None
            pool.move_to_end(name)
    return starts


def pool_limit(config: TournamentConfig, workers: int, games: int) -> int:
    """The bot processes each worker of a run of `games` games keeps: as the local executor
    sizes them, in a process per worker when it plays there (descriptors of its own), else
    in this process (shared)."""
    from .executors.bot_pool import bot_process_limit
    from .executors.local import PROCESSES_FROM

    if workers > 1 and games >= PROCESSES_FROM * workers:
        return bot_process_limit(config, 1, workers)
    return bot_process_limit(config, workers)
