"""What a tournament file will play, before any game: `referee tournament plan`, and the first
lines of `tournament run`; of a fixed schedule (`Plan`), its games counted by table, deal, seat
order and entrant, and of an adaptive one (`adaptive_preview.AdaptivePlan`), chosen here.

The time is a bound, not a forecast: every decision taking the whole move time.  The steps
per game (decisions asked one after another; a hidden bid asks every seat at once) are the
mean over 200 games of random players (`STEPS_PER_GAME`); bots that pass less make longer
games, bots that answer in milliseconds far shorter ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, replace

from referee.text import counted

from .adaptive_preview import AdaptivePlan, adaptive_plan
from .budget import duration
from .config import TournamentConfig
from .design_warnings import ROTATIONS, too_few_deals, unpaired_rotations
from .merge import shard_games
from .pace import StoredPace, pool_limit, starting_games
from .schedule import Schedule
from .tally import stored_by_table, tally

# Mean steps of a game by table size, 200 games of random players each (3: 188, 4: 253, 5: 331).
STEPS_PER_GAME = {3: 190, 4: 255, 5: 330}
LARGE = 20_000  # games: above this, the plan warns and says how to shrink it


@dataclass(frozen=True)
class Plan:
    """The games of a schedule, counted the ways an organiser asks about them."""

    games: int
    tables: int
    deals: int  # per table (of a shard: the most a table of it holds)
    table_size: int
    seat_orders: int  # per table and deal (of a shard: the most a table of it holds)
    per_entrant: dict[str, int]  # games
    seats: dict[str, list[int]]  # per entrant, its games in seat 0, 1, ...
    workers: int
    bound_seconds: float  # every decision at its whole move time, `workers` games at a time
    stored: int | None = None  # of these games, those the store holds (None: no store)
    max_games: int | None = None  # the file's: the store holds at most this many
    drawn: int | None = None  # a sample's tables drawn now, after the store's (else None)
    drawn_before: int = 0  # a sample's tables the store drew before, counted or passed over
    changed: tuple[str, ...] = ()  # entrants changed since the store's last run
    unpaired: bool = False  # seat_orders = "rotations" with an odd number of deals
    pace: float | None = None  # seconds a stored game took, on average (None: none stored),
    # apart from start-up: of those that started no bot, where `start_up` is told apart
    start_up: float = 0.0  # seconds more of a stored game that started a bot (`pace.py`)
    start_games: int = 0  # of the games to play, those that will start a bot
    few_deals: str | None = None  # `too_few_deals`: why no pair can be separated
    shard: str | None = None  # "I/N" when these are one shard's games
    whole: int | None = None  # the games of the whole schedule, with `shard`
    baselines: tuple[str, ...] = ()  # a gauntlet's, at every table
    skipped: int = 0  # of these games, those not stored that need a left-out entrant

    def as_dict(self) -> dict[str, object]:
        return {"games": self.games, "tables": self.tables, "deals": self.deals,
                "table_size": self.table_size, "seat_orders_per_table": self.seat_orders,
                "games_per_entrant": self.per_entrant, "seats": self.seats,
                "workers": self.workers, "time_bound_seconds": round(self.bound_seconds),
                "stored": self.stored, "max_games": self.max_games,
                "tables_drawn_now": self.drawn, "tables_drawn_before": self.drawn_before,
                "changed": list(self.changed),
                "warning": self.warning(),
                "seat_orders_warning": ROTATIONS if self.unpaired else None,
                "deals_warning": self.few_deals,
                "seconds_at_stored_pace": None if self.pace is None else
                round(self.paced_seconds), "games_starting_bots": self.start_games,
                "shard": self.shard, "whole_games": self.whole,
                "baselines": list(self.baselines), "skipped": self.skipped}

    @property
    def paced_seconds(self) -> float:
        """The games to play at the stored games' pace, and the start-up of those that start
        a bot, `workers` at a time."""
        return ((self.to_play * (self.pace or 0.0) + self.start_games * self.start_up)
                / max(1, self.workers))

    @property
    def to_play(self) -> int:
        """The games a run would play: those not stored and not skipped, within
        `max_games`."""
        stored = self.stored or 0
        left = self.games - stored - self.skipped
        if self.max_games is not None:
            left = max(0, min(left, self.max_games - stored))
        return left

    def warning(self) -> str | None:
        if self.games <= LARGE:
            return None
        return (f"{self.games:,} games is a lot: `tables = N` in the file plays a sample of N "
                "tables in which every pair still meets about equally often, and "
                '`seat_orders = "balanced"` plays fewer seat orders per table')

    def _grown(self) -> str | None:
        """What a sample keeps of the tables the store drew before, and what it draws now
        (None: no sample, or the store's tables as they were).  A table with an entrant no
        longer in the file (withdrawn) is passed over: counted in what the store drew, not in
        the sample; with none drawn now, a lowered `tables` counts the first of them."""
        if self.drawn is None or not self.drawn_before:
            return None
        before, kept = self.drawn_before, self.tables - self.drawn
        if not self.drawn:
            return (f"the sample is the first {kept:,} of the {before:,} tables the store drew "
                    "before: none drawn now" if kept < before else None)
        passed = (f" ({before - kept:,} of them passed over: they seat an entrant no longer "
                  "in the file)" if kept < before else "")
        return (f"the sample grows from the {before:,} tables the store drew before{passed}: "
                f"{self.drawn:,} drawn now")

    def lines(self, bound: bool = True) -> list[str]:
        """The plan in a few lines of text; `bound`, with the bound on its time (`plan`
        says it; a run's progress gives its pace instead, from its first games)."""
        counts = sorted(set(self.per_entrant.values()))
        each = (counted(counts[0], "game") if len(counts) == 1 else
                f"{counts[0]:,} to {counts[-1]:,} games")
        part = ("" if self.shard is None else
                f"shard {self.shard}, of the schedule's {counted(self.whole or 0, 'game')}: ")
        out = [f"{part}{counted(self.games, 'game')}: {counted(self.tables, 'table')} of "
               f"{self.table_size}, {counted(self.deals, 'deal')}, "
               f"{counted(self.seat_orders, 'seat order')} per table; {each} per entrant"]
        if self.baselines:
            candidates = len(self.per_entrant) - len(self.baselines)
            out.append(f"a gauntlet: {counted(candidates, 'candidate')}, each at tables of its "
                       f"own with the baselines {', '.join(self.baselines)}; the board places "
                       "the candidates alone")
        if bound:
            # Once games are stored, the bound (of every game) and the pace (of those left)
            # count different games: each says which.
            playable = self.games - self.skipped
            bounded = playable if self.max_games is None else min(playable, self.max_games)
            scope = (f" for all {bounded:,} games" + (" not skipped" if self.skipped else "")
                     if self.stored else "")
            out.append(f"time: at most {duration(self.bound_seconds)}{scope} on "
                       f"{counted(self.workers, 'worker')}, a bound if every decision took the "
                       "whole move time (bots answering in milliseconds take far less)")
            if self.pace is not None and self.to_play:
                start = (f", {self.start_up:.2f} s more in each of the {self.start_games:,} "
                         "that start a bot" if self.start_games and self.start_up else "")
                out.append(f"time at the pace of the games stored ({self.pace:.2f} s a game"
                           f"{start}): about {duration(self.paced_seconds)} for the "
                           f"{self.to_play:,} to play")
        grown = self._grown()
        if grown is not None:
            out.append(grown)
        if self.max_games is not None and self.max_games < self.games - self.skipped:
            of = "those not skipped" if self.skipped else "them"
            out.append(f"max_games = {self.max_games:,}: the first {self.max_games:,} of {of}, "
                       "round by round (every entrant within about one table of every other)")
        if self.changed:
            out.append(f"changed since the store's last run: {', '.join(self.changed)}: "
                       f"{'its' if len(self.changed) == 1 else 'their'} stored games are "
                       "superseded and played again")
        if self.stored is not None:
            out.append(f"stored already: {self.stored:,} of them; {self.to_play:,} to play"
                       + (f", {self.skipped:,} skipped: they need a left-out entrant"
                          if self.skipped else ""))
        elif self.skipped:
            out.append(f"{self.to_play:,} to play, {self.skipped:,} skipped: they need a "
                       "left-out entrant")
        warning = self.warning()
        if warning:
            out.append(f"warning: {warning}")
        if self.unpaired:
            out.append(f"warning: {ROTATIONS}")
        if self.few_deals is not None:
            out.append(f"warning: {self.few_deals}")
        return out


def make_plan(config: TournamentConfig, games: Schedule, workers: int,
              stored: Collection[str] | None = None,
              shard: tuple[int, int] | None = None,
              changed: tuple[str, ...] = (), pace: StoredPace | None = None,
              left_out: Collection[str] = (),
              left_before: Collection[str] = ()) -> Plan | AdaptivePlan:
    """The plan of the schedule `games` (or of its `shard`), counted by formula and from its
    tables, not game by game (a shard's games are counted one by one); `stored`: the ids of
    the games in the store, if there is one; `left_out`: the entrants a run seats at no
    table, whose games not stored it skips; `left_before`: those the last run left out, which
    an adaptive plan names apart among the entrants at no table yet; `pace`: the stored
    games' (an adaptive plan takes their mean: its rounds are not chosen yet)."""
    k = config.table_size  # a gauntlet's too: its baselines and the candidate
    steps = STEPS_PER_GAME.get(k, STEPS_PER_GAME[5])
    if games.kind == "adaptive":
        held = None if stored is None else sum(g.game_id in stored for g in games.games())
        out = set(left_out)  # their games of the rounds chosen are never played
        skipped = sum(1 for g in games.games() if out.intersection(g.seats)
                      and (stored is None or g.game_id not in stored))
        return adaptive_plan(config, games, workers, held, steps * config.limits.move_time,
                             changed, None if pace is None else pace.mean, left_out, skipped,
                             left_before)
    names = [b.name for b in config.bots]
    orders, deals = games.orders, config.deals
    if shard is None:
        per_entrant = {n: t * orders * config.deals
                       for n, t in games.tables_by_entrant().items()}
        # Every seat order kind seats each entrant of a table in each seat equally often.
        seats = {n: [count // k] * k for n, count in per_entrant.items()}
        count, table_count = len(games), games.table_count
        counts = tally(games, range(config.deals), stored or (), stored_by_table(stored or ()),
                       left_out)
        held = None if stored is None else counts.stored
        skipped = counts.skipped
    else:
        per: Counter[str] = Counter()
        seats = {n: [0] * k for n in names}
        out = set(left_out)
        held_here = skipped = 0
        # A shard takes every N-th game: a table of it may hold a few of its seat orders and
        # deals, which are counted as the shard has them (the most a table of it has).
        played: Counter[tuple[str, int]] = Counter()  # games by table and deal
        dealt: dict[str, set[int]] = {}  # deals by table
        count = 0
        for g in shard_games(games.games(), shard):
            count += 1
            key = g.game_id.split("-", 1)[0]
            played[key, g.deal] += 1
            dealt.setdefault(key, set()).add(g.deal)
            for seat, name in enumerate(g.seats):
                per[name] += 1
                seats[name][seat] += 1
            if stored is not None and g.game_id in stored:
                held_here += 1
            elif out.intersection(g.seats):
                skipped += 1
        per_entrant = {n: per[n] for n in names}
        table_count = len(dealt)
        orders = max(played.values(), default=0)
        deals = max((len(d) for d in dealt.values()), default=0)
        held = None if stored is None else held_here
    per_game = steps * config.limits.move_time
    playable = count - skipped
    to_play = playable if config.max_games is None else min(playable, config.max_games)
    plan = Plan(
        games=count, tables=table_count, deals=deals, table_size=k,
        seat_orders=orders, per_entrant=per_entrant, seats=seats, workers=workers,
        bound_seconds=to_play * per_game / max(1, workers), stored=held,
        max_games=config.max_games,
        drawn=None if games.sample is None else len(games.sample.drawn),
        drawn_before=0 if games.sample is None else games.sample.before, changed=changed,
        unpaired=unpaired_rotations(config), pace=None if pace is None else pace.game,
        start_up=0.0 if pace is None else pace.start, few_deals=too_few_deals(config, games),
        shard=None if shard is None else f"{shard[0]}/{shard[1]}",
        whole=None if shard is None else len(games),
        baselines=tuple(config.baselines) if config.format == "gauntlet" else (),
        skipped=skipped)
    if not plan.start_up or not plan.to_play:
        return plan
    out = set(left_out)
    held_ids = stored or ()
    seatings = (g.seats for g in shard_games(games.games(), shard)
                if g.game_id not in held_ids and not out.intersection(g.seats))
    playing = len(set(names) - out)
    return replace(plan, start_games=starting_games(
        seatings, workers, pool_limit(config, workers, plan.to_play), playing, plan.to_play))
