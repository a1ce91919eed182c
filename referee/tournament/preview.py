"""What a tournament file will play, before any game: `referee tournament plan`, and the first
lines of `tournament run`; of an adaptive schedule (`AdaptivePlan`), how its rounds are chosen,
its budget and the rounds chosen so far.

The time is a bound, not a forecast: every decision taking the whole move time.  The steps
per game (decisions asked one after another; a hidden bid asks every seat at once) are the
mean over 200 games of random players (`STEPS_PER_GAME`); bots that pass less make longer
games, bots that answer in milliseconds far shorter ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from referee.text import counted, listed

from .config import TournamentConfig
from .design_warnings import ROTATIONS, too_few_deals, unpaired_rotations
from .merge import shard_games
from .rounds import HOW, budget_games, budget_left, budget_text, round_size
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
    pace: float | None = None  # seconds a stored game took, on average (None: none stored)
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
                round(self.paced_seconds), "shard": self.shard, "whole_games": self.whole,
                "baselines": list(self.baselines), "skipped": self.skipped}

    @property
    def paced_seconds(self) -> float:
        """The games to play at the stored games' pace, `workers` at a time."""
        return self.to_play * (self.pace or 0.0) / max(1, self.workers)

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
                out.append(f"time at the pace of the games stored ({self.pace:.2f} s a game): "
                           f"about {duration(self.paced_seconds)} for the {self.to_play:,} to "
                           "play")
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


def duration(seconds: float) -> str:
    """Seconds as "3 h 05 min", "12 min", "1 min 15 s" (under 10 min, its seconds said: a
    time budget of 75 s read "1 min") or "40 s"."""
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 600 or (s >= 60 and not s % 60):
        return f"{s // 60} min"
    if s >= 60:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s} s"


def make_plan(config: TournamentConfig, games: Schedule, workers: int,
              stored: Collection[str] | None = None,
              shard: tuple[int, int] | None = None,
              changed: tuple[str, ...] = (), pace: float | None = None,
              left_out: Collection[str] = (),
              left_before: Collection[str] = ()) -> Plan | AdaptivePlan:
    """The plan of the schedule `games` (or of its `shard`), counted by formula and from its
    tables, not game by game (a shard's games are counted one by one); `stored`: the ids of
    the games in the store, if there is one; `left_out`: the entrants a run seats at no
    table, whose games not stored it skips; `left_before`: those the last run left out, which
    an adaptive plan names apart among the entrants at no table yet."""
    k = config.table_size  # a gauntlet's too: its baselines and the candidate
    steps = STEPS_PER_GAME.get(k, STEPS_PER_GAME[5])
    if games.kind == "adaptive":
        held = None if stored is None else sum(g.game_id in stored for g in games.games())
        out = set(left_out)  # their games of the rounds chosen are never played
        skipped = sum(1 for g in games.games() if out.intersection(g.seats)
                      and (stored is None or g.game_id not in stored))
        return adaptive_plan(config, games, workers, held, steps * config.limits.move_time,
                             changed, pace, left_out, skipped, left_before)
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
    return Plan(
        games=count, tables=table_count, deals=deals, table_size=k,
        seat_orders=orders, per_entrant=per_entrant, seats=seats, workers=workers,
        bound_seconds=to_play * per_game / max(1, workers), stored=held,
        max_games=config.max_games,
        drawn=None if games.sample is None else len(games.sample.drawn),
        drawn_before=0 if games.sample is None else games.sample.before, changed=changed,
        unpaired=unpaired_rotations(config), pace=pace, few_deals=too_few_deals(config, games),
        shard=None if shard is None else f"{shard[0]}/{shard[1]}",
        whole=None if shard is None else len(games),
        baselines=tuple(config.baselines) if config.format == "gauntlet" else (),
        skipped=skipped)


@dataclass(frozen=True)
class AdaptivePlan:
    """What `plan` says of an adaptive schedule: how rounds are chosen, the budget, and the
    rounds chosen so far."""

    table_size: int
    round_tables: int
    deals: int
    seat_orders: int
    budget: str
    budget_games: int | None
    # the budget's games, a grown field's rounds chosen counted at their size (None: no bound)
    most_games: int | None
    rounds_chosen: int
    tables_chosen: int
    games_chosen: int
    per_entrant: dict[str, int]  # games of the rounds chosen so far
    seats: dict[str, list[int]]
    workers: int
    bound_seconds: float | None
    stored: int | None
    changed: tuple[str, ...] = ()
    unpaired: bool = False  # seat_orders = "rotations" with an odd number of deals
    pace: float | None = None  # seconds a stored game took, on average (None: none stored)
    left_out: tuple[str, ...] = ()  # a run would seat them at no table
    # left out by the last run (a failed build, which plan cannot foresee: it builds nothing)
    left_before: tuple[str, ...] = ()
    # the games the budget leaves for rounds not chosen yet, and the bound that sets it
    left: tuple[int, str] | None = None
    skipped: int = 0  # games of the rounds chosen, not stored, that need a left-out entrant
    max_games: int | None = None  # the file's: a run stops once the store holds as many

    @property
    def begun(self) -> int:
        """The games of the rounds chosen still to play (none stored: all of them)."""
        return self.games_chosen - (self.stored or 0) - self.skipped

    @property
    def spent(self) -> bool:
        """Whether the budget is spent: a run would play nothing."""
        games = self.budget_games
        return self.stored is not None and self.left is not None and (
            (self.left[1] == "max_games" and games is not None and self.stored >= games)
            or (self.left[0] == 0 and self.begun <= 0))

    @property
    def to_play(self) -> int | None:
        """The games a run would play: those left of the rounds chosen and those the budget
        leaves for the rounds to come (None: no bound but the time)."""
        if self.spent:
            return 0
        if self.left is not None:
            return max(0, self.begun) + self.left[0]
        if self.budget_games is None:
            return None
        return max(0, self.budget_games - (self.stored or 0))

    @property
    def paced_seconds(self) -> float | None:
        """The games the budget leaves at the stored games' pace, `workers` at a time (None:
        no pace or no bound)."""
        if self.pace is None or self.to_play is None:
            return None
        return self.to_play * self.pace / max(1, self.workers)

    def lines(self, bound: bool = True) -> list[str]:
        entrants = len(self.per_entrant)
        games = self.budget_games
        out = [f"adaptive: rounds of {counted(self.round_tables, 'table')} of "
               f"{self.table_size}, {counted(self.deals, 'deal')}, "
               f"{counted(self.seat_orders, 'seat order')} per table; {HOW}"]
        if games is not None and self.games_chosen > games:
            # a budget lowered since, or max_games reached inside the last round: a run plays
            # the rounds chosen, but never past max_games (`budget.py`)
            out.append(f"budget: {self.budget}: {games:,} games, fewer than the rounds already "
                       f"chosen hold ({self.games_chosen:,}): " + (
                           "a run plays those out, and no more rounds"
                           if self.max_games is None or self.max_games >= self.games_chosen
                           else f"a run plays them until the store holds {self.max_games:,}, "
                           "and no more rounds"))
        elif self.most_games is not None:
            most = self.most_games
            out.append(f"budget: {self.budget}: at most {most:,} games, about "
                       f"{most * self.table_size / max(1, entrants):,.0f} per entrant "
                       "(more where places are in doubt, fewer where they are settled)")
        if bound and self.bound_seconds is not None:
            out.append(f"time: at most {duration(self.bound_seconds)} on "
                       f"{counted(self.workers, 'worker')}, a bound if every decision took "
                       "the whole move time (bots answering in milliseconds take far less)")
            paced = self.paced_seconds
            if paced is not None and self.to_play:
                out.append(f"time at the pace of the games stored ({self.pace:.2f} s a game): "
                           f"about {duration(paced)} for the {self.to_play:,} the budget "
                           "leaves")
        if self.rounds_chosen and not self.tables_chosen:  # another field's (withdrawn) rounds
            out.append(f"chosen so far: {counted(self.rounds_chosen, 'round')}, none of their "
                       "tables of this file's entrants")
        else:
            out.append(f"chosen so far: {counted(self.rounds_chosen, 'round')}, "
                       f"{counted(self.tables_chosen, 'table')}, "
                       f"{counted(self.games_chosen, 'game')}")
        if self.changed:
            out.append(f"changed since the store's last run: {', '.join(self.changed)}: "
                       f"{'its' if len(self.changed) == 1 else 'their'} stored games are "
                       "superseded and played again first")
        begun, spent = self.begun, self.spent
        if self.stored is not None and not self.rounds_chosen:  # a new store: no round yet
            out.append("nothing stored yet: the first round is chosen as play begins")
        elif self.stored is not None:
            out.append(f"stored already: {self.stored:,} of them; " + (
                "the budget is spent: raise it to play on" + (
                    f" (the {begun:,} games left of the round begun first)" if begun else "")
                if spent else f"{begun:,} to play before the next round"))
        if self.rounds_chosen and self.left is not None and not spent:
            left = self.left[0]
            out.append(f"the budget leaves {left:,} games for the rounds to come" if left > 0
                       else "the budget ends with the round begun")
        unseated = [name for name, played in self.per_entrant.items()
                    if not played and name not in self.left_out]
        # Those the last run left out are counted apart: a run seats them only if their
        # build works now, which plan cannot know.
        new = [name for name in unseated if name not in self.left_before]
        before = [name for name in unseated if name in self.left_before]
        if self.rounds_chosen and new:
            out.append(f"at no table yet: {listed(new, total=True)}: the next rounds seat "
                       f"{'them' if len(new) > 1 else 'it'} first")
        if self.rounds_chosen and before:
            out.append(f"at no table yet, left out by the last run: {listed(before, total=True)}"
                       f": the next rounds seat {'them' if len(before) > 1 else 'it'} first if "
                       f"a run builds {'them' if len(before) > 1 else 'it'} now")
        if self.rounds_chosen and unseated:
            short = self._newcomers_short(len(new), before)
            if short is not None:
                out.append(short)
        if self.unpaired:
            out.append(f"warning: {ROTATIONS}")
        return out

    def _newcomers_short(self, new: int, before: Sequence[str] = ()) -> str | None:
        """A warning when the budget left gives the `new` entrants at no table yet fewer than
        half the games of the others' median, with how much to raise `max_games` by to give
        them as many: a late entrant's place on a few games is far wider than the field's.
        Those at no table that the last run left out (`before`) are named apart, as seated
        only if a run builds them now."""
        played = sorted(n for n in self.per_entrant.values() if n)
        if self.left is None or not played:
            return None
        left, bound = self.left
        per_table = self.seat_orders * self.deals
        per_round = self.round_tables * per_table
        # seated about once a round; a part round seats them first, as far as it goes
        expected = (left // max(1, per_round)) * per_table + min(per_table,
                                                                  left % max(1, per_round))
        median = played[len(played) // 2]
        if expected * 2 >= median:
            return None
        rounds = -(-(median - expected) // per_table)
        raise_by = {"rounds": counted(rounds, "round"),
                    "tables": counted(rounds * self.round_tables, "table"),
                    "max_games": f"{rounds * per_round:,} games"}[bound]
        one = new + len(before) == 1
        them = listed(list(before), total=True)
        if not new:
            who = (f"{them}, left out by the last run and at no table yet, if a run builds "
                   f"{'it' if one else 'them'} now,")
        else:
            who = f"the {'entrant' if new == 1 else f'{new} entrants'} at no table yet" + (
                f" (and {them}, left out by the last run, if a run builds "
                f"{'it' if len(before) == 1 else 'them'} now)" if before else "")
        return (f"warning: the budget leaves {who} about {expected:,} games "
                f"{'' if one else 'each '}against a median of {median:,} for the others, so "
                f"{'its place' if one else 'their places'} will be far wider: raise {bound} by "
                f"about {raise_by} to give {'it' if one else 'them'} as many")

    def as_dict(self) -> dict[str, object]:
        return {"schedule": "adaptive", "how": HOW, "table_size": self.table_size,
                "round_tables": self.round_tables, "deals": self.deals,
                "seat_orders_per_table": self.seat_orders, "budget": self.budget,
                "budget_games": self.budget_games, "rounds_chosen": self.rounds_chosen,
                "tables_chosen": self.tables_chosen, "games": self.games_chosen,
                "games_per_entrant": self.per_entrant, "seats": self.seats,
                "workers": self.workers,
                "time_bound_seconds": None if self.bound_seconds is None
                else round(self.bound_seconds),
                "stored": self.stored, "changed": list(self.changed),
                "seat_orders_warning": ROTATIONS if self.unpaired else None,
                "seconds_at_stored_pace": None if self.paced_seconds is None
                else round(self.paced_seconds)}


def adaptive_plan(config: TournamentConfig, games: Schedule, workers: int,
                  stored: int | None, per_game_seconds: float,
                  changed: tuple[str, ...] = (), pace: float | None = None,
                  left_out: Collection[str] = (), skipped: int = 0,
                  left_before: Collection[str] = ()) -> AdaptivePlan:
    """The plan of an adaptive schedule with the rounds `games` holds; `stored`: of their
    games, those in the store (None: no store); `skipped`: those not stored that need a
    left-out entrant; `left_before`: those the last run left out (said apart)."""
    k = config.table_size
    per_entrant = {n: t * games.orders * config.deals
                   for n, t in games.tables_by_entrant().items()}
    most = budget_games(config, left_out)
    left = budget_left(config, games, left_out, skipped)
    bounded = most  # a field grown since: the rounds chosen at their size, the rest at this
    if most is not None and games.rounds and left is not None:
        bounded = min(most, len(games) + left[0])
    return AdaptivePlan(
        table_size=k, round_tables=round_size(config, left_out), deals=config.deals,
        seat_orders=games.orders, budget=budget_text(config), budget_games=most,
        most_games=bounded,
        rounds_chosen=len(games.rounds), tables_chosen=games.table_count,
        games_chosen=len(games), per_entrant=per_entrant,
        seats={n: [c // k] * k for n, c in per_entrant.items()}, workers=workers,
        bound_seconds=None if bounded is None else bounded * per_game_seconds / max(1, workers),
        stored=stored, changed=changed,
        unpaired=unpaired_rotations(config), pace=pace, left_out=tuple(left_out),
        left_before=tuple(left_before), left=left, skipped=skipped,
        max_games=config.max_games)

