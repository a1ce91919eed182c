"""What a tournament file will play, before any game: `referee tournament plan`, and the first
lines of `tournament run`.

The time is a bound, not a forecast: every decision taking the whole move time.  The steps
per game (decisions asked one after another; a hidden bid asks every seat at once) are the
mean over 200 games of random players (`STEPS_PER_GAME`); bots that pass less make longer
games, bots that answer in milliseconds far shorter ones.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .config import TournamentConfig
from .schedule import ScheduledGame

# Mean steps of a game by table size, 200 games of random players each (3: 188, 4: 253, 5: 331).
STEPS_PER_GAME = {3: 190, 4: 255, 5: 330}
LARGE = 20_000  # games: above this, the plan warns and says how to shrink it


@dataclass(frozen=True)
class Plan:
    """The games of a schedule, counted the ways an organiser asks about them."""

    games: int
    tables: int
    deals: int
    table_size: int
    seat_orders: int  # per table
    per_entrant: dict[str, int]  # games
    seats: dict[str, list[int]]  # per entrant, its games in seat 0, 1, ...
    workers: int
    bound_seconds: float  # every decision at its whole move time, `workers` games at a time
    stored: int | None = None  # of these games, those the store holds (None: no store)

    def as_dict(self) -> dict[str, object]:
        return {"games": self.games, "tables": self.tables, "deals": self.deals,
                "table_size": self.table_size, "seat_orders_per_table": self.seat_orders,
                "games_per_entrant": self.per_entrant, "seats": self.seats,
                "workers": self.workers, "time_bound_seconds": round(self.bound_seconds),
                "stored": self.stored, "warning": self.warning()}

    def warning(self) -> str | None:
        if self.games <= LARGE:
            return None
        return (f"{self.games:,} games is a lot: `tables = N` in the file plays a sample of N "
                "tables in which every pair still meets about equally often, and "
                '`seat_orders = "balanced"` or "rotations" plays fewer seat orders per table')

    def lines(self) -> list[str]:
        """The plan in a few lines of text."""
        counts = sorted(set(self.per_entrant.values()))
        each = (f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}")
        out = [f"{self.games:,} games: {self.tables:,} tables of {self.table_size}, "
               f"{self.deals} deals, {self.seat_orders} seat orders per table; {each} games "
               "per entrant",
               f"time: at most {duration(self.bound_seconds)} on {self.workers} workers, if "
               "every decision took the whole move time (bots answering in milliseconds take "
               "far less)"]
        if self.stored is not None:
            out.append(f"stored already: {self.stored:,} of them; {self.games - self.stored:,} "
                       "to play")
        warning = self.warning()
        if warning:
            out.append(f"warning: {warning}")
        return out


def duration(seconds: float) -> str:
    """Seconds as "3 h 05 min", "12 min" or "40 s"."""
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 60:
        return f"{s // 60} min"
    return f"{s} s"


def make_plan(config: TournamentConfig, games: list[ScheduledGame], workers: int,
              stored: set[str] | None = None) -> Plan:
    """The plan of `games` (the file's schedule, or a shard's part of it)."""
    k = len(games[0].seats) if games else config.table_size  # a gauntlet's: 1 + baselines
    per_entrant: Counter[str] = Counter()
    seats: dict[str, list[int]] = {b.name: [0] * k for b in config.bots}
    for g in games:
        for seat, name in enumerate(g.seats):
            per_entrant[name] += 1
            seats[name][seat] += 1
    steps = STEPS_PER_GAME.get(k, STEPS_PER_GAME[5])
    per_game = steps * config.limits.move_time
    table_count = len({g.table for g in games})
    orders = len({g.order for g in games})
    return Plan(
        games=len(games), tables=table_count, deals=config.deals, table_size=k,
        seat_orders=orders, per_entrant={b.name: per_entrant[b.name] for b in config.bots},
        seats=seats, workers=workers, bound_seconds=len(games) * per_game / max(1, workers),
        stored=None if stored is None else len(stored & {g.game_id for g in games}))
