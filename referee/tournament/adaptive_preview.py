"""What `tournament plan` (and the first lines of `tournament run`) says of an adaptive
schedule: how its rounds are chosen, its budget, the rounds chosen so far and who is at no
table yet.  Apart from `preview.py`, which counts a fixed schedule's games: an adaptive plan
counts rounds and a budget left for rounds not chosen, and its lines change with them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from referee.text import counted, listed

from .budget import duration
from .config import TournamentConfig
from .design_warnings import ROTATIONS, unpaired_rotations
from .rounds import HOW, budget_games, budget_left, budget_text, round_size
from .schedule import Schedule


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

