"""Entrants that never started, tried once before an adaptive run's first round.

An adaptive run seats an entrant that fails to start `IN_A_ROW` times in no later round of
that run (`unstarted.py`), and the next run tries it again.  It tried it by seating it: each
new run's first round seated a bot dead since its first game at its tables again, until it
failed twice more (a dozen games a run played a seat short in a 70-entrant ladder).  Now an
entrant whose stored games (of its version now: a changed bot's are superseded) show it never
started is started once before the first round, alone: its hello read, then closed.  Still
failing, it is left out of the run with why, as a bot whose build fails; started, it is seated
as ever (what it lacked was fixed outside its folder); a start that timed out is no failure
(a loaded machine makes those of a healthy bot).

The try runs where the run's games run (`Executor.start_fault`): on a Dask cluster, as a task
on a worker.  What a bot lacks at its start (an interpreter, a module, a shared library) is
most often mended on the machines that play, and the organiser's machine, where builds run,
need not have it: tried there, a bot mended on the workers was left out for nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path

from referee.bots.errors import ResourcesExhausted
from referee.match.bot_player import BotPlayer

from .config import TournamentConfig
from .entrants import bot_spec
from .store import Store
from .unstarted import IN_A_ROW, STDERR_TAIL, TIMED_OUT, StartWatch


def dead_at_start(starts: Iterable[tuple[Sequence[str], Sequence[str | None]]]
                  ) -> dict[str, tuple[int, str]]:
    """The entrants that started in none of their games among `starts` (each game's bots by
    seat and why each one's start failed, None if it started: `Store.start_faults`;
    `IN_A_ROW` games or more, each failing other than by timing out), with how many and the
    last one's reason."""
    watch = StartWatch()
    for names, reasons in starts:
        for name, reason in zip(names, reasons, strict=True):
            watch.count(name, reason)
    return {name: (watch.games[name], why) for name, why in sorted(watch.never.items())
            if watch.games[name] >= IN_A_ROW}


def probe_note(name: str, games: int) -> str:
    """What `plan` says of an entrant that a run will try before its first round: its stored
    games show it never started (`dead_at_start`)."""
    return (f"note: {name} started in none of its {games} stored games: a run tries it once "
            "and leaves it out if it still does not start")


def to_probe(store: Store, playing: Iterable[str]) -> dict[str, int]:
    """Those of `playing` (the entrants a run would seat, as its version now) that a run tries
    once before its first round, with their stored games: what `still_unstarted` reads,
    without starting any."""
    dead = dead_at_start(store.start_faults())
    return {name: dead[name][0] for name in playing if name in dead}


class NotTried(Exception):
    """The try could not be made where the games run (a Dask task that failed there, its
    worker lost or the cluster unable to read it): no verdict on the bot, which is seated as
    any, and the run says why."""


async def start_fault(config: TournamentConfig, config_path: Path, name: str) -> str | None:
    """Start entrant `name`'s bot once in this process, read its hello and close it: why it
    failed to start, or None (it started, or the referee here ran short of its own
    resources, which is no fault of the bot's)."""
    player = BotPlayer(bot_spec(config, config_path, name),
                       startup_time=config.limits.startup_time)
    try:
        fault = await player.start()
    except ResourcesExhausted:
        fault = None
    finally:
        await player.aclose()
    return None if fault is None else fault.reason


async def still_unstarted(store: Store, playing: Iterable[str],
                          start: Callable[[str], Awaitable[str | None]],
                          say: Callable[[str], None]) -> dict[str, str]:
    """Those of `playing` whose games in `store` show they never started and that fail to
    start again now, each tried by `start` (where the run plays: `Executor.start_fault`),
    with why (said, as a left-out bot is)."""
    left_out: dict[str, str] = {}
    for name, games in to_probe(store, playing).items():
        try:
            reason = await start(name)
        except NotTried as exc:
            say(f"note: {name} could not be tried again before the first round ({exc}): the "
                "rounds seat it as any")
            continue
        if reason is None or reason.startswith(TIMED_OUT):
            continue
        why = reason.split(STDERR_TAIL, 1)[0]
        left_out[name] = (f"it started in none of its {games} stored games, nor when tried "
                          f"again now ({why}); no round of this run seats it, and the next "
                          "run tries it again")
        say(f"left out {name}: {left_out[name]}")
    return left_out
