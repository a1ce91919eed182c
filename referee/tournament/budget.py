"""Budgets: `max_games = N` in the tournament file (the store holds at most N games of the
schedule) and `--time-budget DURATION` on `run` (this run plays for at most that long).

Either stops the run between games, and since the schedule hands games out deal by deal and,
within a deal, round by round (`schedule.Schedule.games`), every entrant has then played
within about one table of every other: a budget buys a fair prefix of the tournament, and
the next run (with a higher `max_games`, or another budget) plays on from there.  So do
Ctrl-C and a kill.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the schedule imports numpy: not for parsing a --time-budget
    from .schedule import ScheduledGame

UNITS = {"s": 1, "m": 60, "h": 3600}
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*([smh])")


class BudgetError(ValueError):
    """A duration that cannot be read."""


class BudgetSpent(Exception):
    """The time budget ran out while games were being played (raised from a report, to stop
    an executor that cannot be cancelled between its games, such as Dask's)."""


def parse_duration(text: str) -> float:
    """"90s", "15m", "2h" or "1.5h" as seconds; a BudgetError says how to write one."""
    match = _DURATION.fullmatch(text.strip())
    seconds = float(match[1]) * UNITS[match[2]] if match else math.nan
    if match and seconds == 0:
        raise BudgetError(f"--time-budget {text!r}: give more than no time")
    if not seconds > 0 or math.isinf(seconds):
        raise BudgetError(f"--time-budget {text!r}: write a number and a unit, s, m or h "
                          "(90s, 15m, 2h)")
    return seconds


def duration(seconds: float) -> str:
    """Seconds as "3 h 05 min", "12 min", "1 min 15 s" (under 10 min, its seconds said: a
    time budget of 75 s read "1 min") or "40 s": beside `parse_duration`, a duration's one
    wording, for a budget's stop line and `plan`'s times alike."""
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 600 or (s >= 60 and not s % 60):
        return f"{s // 60} min"
    if s >= 60:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s} s"


@dataclass
class Budget:
    """What a run may still play: games (None: no limit; `max_games` less the schedule's
    games stored before) and time (a deadline on the monotonic clock, or None)."""

    games: int | None = None
    deadline: float | None = None
    handed: int = 0  # games handed to the executor so far
    why: str | None = field(default=None)  # set once a budget stops the run

    @classmethod
    def of(cls, max_games: int | None, stored: int, deadline: float | None) -> Budget:
        """`max_games` with `stored` of the schedule's games stored; a `deadline` on the
        monotonic clock."""
        return cls(None if max_games is None else max(0, max_games - stored), deadline)

    def seconds_left(self) -> float:
        return math.inf if self.deadline is None else self.deadline - time.monotonic()

    def out_of_time(self) -> bool:
        return self.seconds_left() <= 0

    def spent(self) -> bool:
        """Whether the games or the time are used up; say why, once."""
        if self.games is not None and self.handed >= self.games:
            self.why = self.why or "games"
        elif self.out_of_time():
            self.why = self.why or "time"
        return self.why is not None

    def within(self, games: Iterable[ScheduledGame]) -> Iterator[ScheduledGame]:
        """`games` until a budget is spent; an executor takes them one at a time."""
        for game in games:
            if self.spent():
                return
            self.handed += 1
            yield game


def stop_line(why: str | None, max_games: int | None, held: int, seconds: float | None,
              before_games: float, played: int, adaptive: bool) -> str:
    """What a run says where a budget stopped it: `max_games` (`why` "games", the store
    holding `held` games of the schedule) or the time budget of `seconds`, `before_games` of
    them spent before the first game (building the entrants: said when that is much of it),
    after `played` games; either fair to every entrant."""
    fair = (", every entrant within about one round of every other" if adaptive else
            ", every entrant within about one table of every other")
    if why == "games":
        return (f"stopped at max_games = {max_games}: the store holds {held} games of the "
                f"schedule{fair}; raise max_games to play on")
    assert seconds is not None
    built = ""
    if before_games >= max(1.0, seconds / 10):  # the builds took much of it
        built = f" ({duration(before_games)} of it building the entrants before the first game)"
    return (f"stopped when the time budget of {duration(seconds)} ran out{built}, after "
            f"{played:,} games{fair}; run again to play on")


def waited_out_line(seconds: float, name: str) -> str:
    """What a run says where its time budget of `seconds` ran out while a build waited for
    another referee's build of entrant `name`, before any game: the budget's end is the
    organiser's promise of when the run ends, which no other referee's build may break."""
    return (f"stopped when the time budget of {duration(seconds)} ran out while waiting for "
            f"another referee's build of {name}, before the first game; run again to play on")
