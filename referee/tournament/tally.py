"""How many of a schedule's games are stored, left to play, or skipped (a left-out bot
sits at their table), counted table by table from the stored game ids, without making the
games: a full round robin of 40 entrants holds 2.2 million of them, and a run says its
progress before its first game (with nothing stored, a full round robin is counted by formula,
its left-out bots' tables too).  A shard's share (every N-th game), and the rounds an adaptive
schedule has chosen (a table may come back with new deals), are counted game by game.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from referee.text import visible

from .config import TournamentConfig
from .merge import shard_games
from .rounds import budget_left, budget_text, playing
from .schedule import GAME_ID, Schedule, table_key
from .store import LEFT_OUT, Store, StoreError


@dataclass(frozen=True)
class Tally:
    """The games of some deals of a schedule: all, those stored, and those not stored that
    need a left-out bot."""

    games: int
    stored: int
    skipped: int

    @property
    def playable(self) -> int:
        return self.games - self.stored - self.skipped


def unnamed_games(games: Schedule, store: Store, withdrawn: Collection[str]) -> int:
    """A sample's stored games at tables it no longer names (`tables` lowered), but for
    those of entrants the file no longer names (`withdrawn`, said apart)."""
    if games.sample is None:
        return 0
    named = {table_key(t) for t in games.tables(ordered=False)}
    gone = set(withdrawn)
    return sum(1 for game_id, seats in store.seatings().items()
               if game_id.rsplit("-", 2)[0] not in named and not gone.intersection(seats))


def withdrawn_games(store: Store, withdrawn: Collection[str]) -> int:
    """The stored games at a table of an entrant the file no longer names (`withdrawn`)."""
    gone = set(withdrawn)
    return sum(1 for seats in store.seatings().values()
               if gone.intersection(seats)) if gone else 0


def stored_by_table(done: Iterable[str]) -> dict[str, Counter[int]]:
    """The stored games by table key, then deal, read from their ids ("tKEY-dNN-oNN")."""
    out: dict[str, Counter[int]] = {}
    for game_id in done:
        key, deal, _order = game_id.rsplit("-", 2)
        out.setdefault(key, Counter())[int(deal[1:])] += 1
    return out


def tally(schedule: Schedule, deals: range, done: Collection[str],
          by_table: dict[str, Counter[int]], left_out: Collection[str],
          shard: tuple[int, int] | None = None) -> Tally:
    """The games of `deals` (of `shard`): `done` the stored ids, `by_table` the same counted
    by `stored_by_table`."""
    games = stored = skipped = 0
    if shard is not None or schedule.kind == "adaptive":  # (adaptive: every round chosen)
        for g in shard_games(schedule.games(), shard):
            if g.deal not in deals and schedule.kind != "adaptive":
                continue
            games += 1
            if g.game_id in done:
                stored += 1
            elif set(left_out).intersection(g.seats):
                skipped += 1
        return Tally(games, stored, skipped)
    per_deal = schedule.orders
    out = set(left_out)
    if not by_table and (not out or schedule.kind == "all"):  # nothing stored: by formula
        # a full round robin's tables seating any of the L left out of n: C(n,k) - C(n-L,k)
        n, k = len(schedule.names), schedule.k
        seating = math.comb(n, k) - math.comb(n - len(out.intersection(schedule.names)), k)
        return Tally(schedule.table_count * per_deal * len(deals), 0,
                     seating * per_deal * len(deals))
    for table in schedule.tables(ordered=False):
        key = table_key(table)
        have = sum(n for d, n in by_table[key].items() if d in deals) if key in by_table else 0
        games += per_deal * len(deals)
        stored += have
        if out.intersection(table):
            skipped += per_deal * len(deals) - have
    return Tally(games, stored, skipped)


@dataclass(frozen=True)
class Stored:
    """A store's tournament as its latest run's file plays it, and which of its games count:
    what `unfinished` and `until_decision` read."""

    config: TournamentConfig
    games: Schedule
    ours: set[str]  # the stored games of the file's entrants (not of the withdrawn)
    by_table: dict[str, Counter[int]]
    left_out: dict[str, str]


def _stored(store: Store) -> Stored | None:
    """The store's `Stored`; None where it cannot be said: a shard, no file recorded, or a
    store of games this referee's schedule does not make (an earlier referee's, which a run
    refuses).  StoreError or ValueError where the store cannot be read."""
    config = store.tournament_config()
    if config is None or store.shard() != "all":
        return None
    adaptive = config.schedule == "adaptive"
    games = Schedule(config, store.draws(), store.rounds() if adaptive else ())
    seated = store.seatings()
    left_out = store.entrants(LEFT_OUT)
    names = {b.name for b in config.bots}
    ours = {g for g, seats in seated.items() if names.issuperset(seats)}  # not the withdrawn
    if not all(GAME_ID.fullmatch(g) for g in ours):
        return None
    return Stored(config, games, ours, stored_by_table(ours), left_out)


def unfinished(store: Store) -> tuple[int, int] | None:
    """(stored, to store) where a run of the store's tournament file would play more of it
    (a fixed schedule within `max_games`, an adaptive one's rounds chosen so far, without the
    games of left-out bots), for a leaderboard to say its places may change; None where it
    would not, or where it cannot be said (`_stored`).  With `until`, the games up to the
    look a run would make next (`_until_unfinished`).  An adaptive store counts the games of
    the rounds chosen so far and those its budget leaves for the rounds to come
    (`rounds.budget_left`; none when fewer than `table_size` entrants can play, where a run
    chooses no round): a run stopped between two rounds (Ctrl-C, a time budget) holds
    every game of its rounds, yet the next run plays on.  The file is the latest run's, as
    far as what it plays goes (`Store.follow`)."""
    found = _found(store)
    return None if found is None else found[:2]


def _found(store: Store) -> tuple[int, int, int] | None:
    """`unfinished`, with the games of an adaptive run's rounds not chosen yet (counted in
    the second), which its line names."""
    try:
        field = _stored(store)
    except (StoreError, ValueError):
        return None
    return None if field is None else _unfinished(store, field)


def _unfinished(store: Store, field: Stored) -> tuple[int, int, int] | None:
    config, games = field.config, field.games
    count = tally(games, range(config.deals), field.ours, field.by_table, field.left_out)
    if count.stored < len(field.ours):  # games of another schedule
        return None
    if config.until is not None:
        found = _until_unfinished(store, config, games, field.ours, field.by_table,
                                  field.left_out)
        return None if found is None else (*found, 0)
    scheduled = count.games - count.skipped  # adaptive: the rounds chosen so far
    beyond = 0
    # an adaptive run's rounds to come, unless too few entrants can play for any (the run
    # says "no round can be chosen" and stops)
    if config.schedule == "adaptive" and playing(config, field.left_out) >= config.table_size:
        left = budget_left(config, games, field.left_out, count.skipped)
        beyond = 0 if left is None else left[0]
    if config.max_games is not None:
        beyond = max(0, min(beyond, config.max_games - scheduled))
        scheduled = min(scheduled, config.max_games)
    if count.stored >= scheduled + beyond:
        return None
    return count.stored, scheduled + beyond, beyond


def _until_unfinished(store: Store, config: TournamentConfig, games: Schedule,
                      ours: Collection[str], by_table: dict[str, Counter[int]],
                      left_out: Collection[str]) -> tuple[int, int] | None:
    """(stored, to store) of a run with `until` stopped between two looks, where it would
    play on to the next: a stage begun and not finished (a time budget ran out in it, after
    a look had said to play on: an organiser published such a store as final), or every
    stage so far finished and the last look's verdict to play on.  None where the run would
    stop, or has played every deal."""
    from .until import look, stages

    stored = scheduled = 0
    last = None  # the last stage played out
    for stage in stages(config):
        count = tally(games, stage.range, ours, by_table, left_out)
        playable = count.games - count.skipped
        if count.stored < playable:
            if count.stored == 0 and (last is None or look(config, store, games, last).stop):
                return None  # the run stops at its last look, or has not begun
            return stored + count.stored, scheduled + playable
        stored, scheduled, last = stored + count.stored, scheduled + playable, stage
    return None


def until_decision(store: Store) -> str | None:
    """What a run with `until` decided on the games stored, as one line for the leaderboard
    and the report: the look at which the run stopped (the question settled, or every deal
    played and it still open) and why, as the run said it, with the error that look was
    judged at (the board's places are at the whole 5%, so its ranges may be narrower).  None
    without `until`, for a shard, for a store a run would play on (`unfinished` says so), or
    where it cannot be said."""
    from .until import look, look_errors, question, stages

    try:
        field = _stored(store)
        if field is None or field.config.until is None or \
                field.config.schedule == "adaptive" or _unfinished(store, field) is not None:
            return None
        config = field.config
        for stage, error in zip(stages(config), look_errors(config), strict=True):
            count = tally(field.games, stage.range, field.ours, field.by_table,
                          field.left_out)
            if count.stored == 0 or count.stored < count.games - count.skipped:
                return None  # not played this far: no look was taken here
            outcome = look(config, store, field.games, stage)
            if outcome.stop:
                return (f"until {question(config)}: {outcome.text} (this look's error: "
                        f"{error:.2%} of the 5%)")
    except (StoreError, ValueError):
        return None
    return None


def unfinished_line(store: Store, shown: str) -> str | None:
    """The note that the store (`shown` as the user gave it) holds only part of its
    tournament (`unfinished`), or one shard of it, so that its places may change; None when it
    holds all a run would play, or that cannot be said.  Said under a leaderboard, in its
    Markdown and JSON too, and on the report's first page.  With `until`, the games counted
    are those up to the run's next look, not all it holds (a store grown by a late entrant
    holds later deals of the others too), and the note says so."""
    try:
        found = _found(store)
        name = store.name()
        shard = store.shard()
        config = store.tournament_config()
    except (StoreError, ValueError):
        return None
    if shard != "all":
        return (f"note: {shown} holds shard {shard} of tournament {visible(name)!r}, "
                "not all of it: merge the shards (referee tournament merge) before publishing")
    if found is None:
        return None
    stored, scheduled, beyond = found
    upto = " up to its next look" if config is not None and config.until else ""
    if beyond and config is not None:  # an adaptive run's rounds to come, not chosen yet
        upto = (f" (about {beyond:,} of them in rounds not chosen yet: its budget is "
                f"{budget_text(config)})")
    return (f"note: {shown} holds {stored:,} of the {scheduled:,} games of tournament "
            f"{visible(name)!r}{upto}: a run of its file plays the rest, and the places may "
            "change")

