"""Whether a results store belongs to a tournament file, and the stores an earlier referee made
that a run takes over rather than refuses: a sample drawn all at once (before samples grew),
and rotations whose cyclic order did not yet change from deal to deal, or (adaptive) whose
tables' first cyclic order was not yet drawn: their games seated as now are kept (and the
rounds), the others superseded and played again.  `plan` asks the same questions as `run`."""

from __future__ import annotations

from collections.abc import Callable

from referee.game import Edition

from .config import TournamentConfig
from .field import FrozenField
from .sampling import Table
from .schedule import (
    GAME_ID,
    ROTATIONS_VERSION,
    fingerprint,
    game_settings,
    seats_of,
    table_key,
    table_of,
)
from .store import Store, StoreError


def take_over_earlier(config: TournamentConfig, edition: Edition, store: Store, prints: str,
                      say: Callable[[str], None], frozen: bool = False) -> None:
    """Bind to `prints` a store an earlier referee made whose games this file keeps; with
    `frozen`, FrozenField rather than supersede any of them."""
    _take_over_sample(config, edition, store, prints, say)
    _take_over_rotations(config, edition, store, prints, say, frozen)


def _earlier_sample(config: TournamentConfig, edition: Edition, store: Store) -> bool:
    """Whether the store holds a sample drawn all at once (before samples grew) of this
    file but for `tables`, which a run takes over."""
    stored = store.fingerprint()
    if stored in (None, fingerprint(config, edition)) or store.draws():
        return False
    try:
        old = store.tournament_config()
    except StoreError:  # not valid any more (check_store says the store is another's)
        return False
    return old is not None and old.tables is not None and \
        stored == fingerprint(config, edition, sampled=old.tables)


def check_store(config: TournamentConfig, edition: Edition, store: Store) -> None:
    """StoreError where a run of `config` would refuse the store: it holds games of another
    schedule (`plan`)."""
    if _earlier_sample(config, edition, store) or _earlier_rotations(config, edition, store):
        return  # a run takes it over
    try:
        old = store.tournament_config()
    except StoreError:  # not valid any more: nothing to compare
        old = None
    if config.seat_orders == "rotations" and old is not None and old.tables is not None and \
            store.fingerprint() == fingerprint(config, edition, sampled=old.tables, rotations=0):
        raise StoreError(f"{store.path} {OLD_ROTATIONS}")  # a sample drawn at once, too
    changed = [] if old is None else changes(old, config)
    store.check_belongs(fingerprint(config, edition), changed, config.name)


def changes(was: TournamentConfig, now: TournamentConfig) -> list[str]:
    """Each setting that changes the games and differs between the two files, with its value
    in each: `seed (3 in the store, 4 in this file)`."""
    before, after = _named(was), _named(now)
    return [f"{key} ({_shown(before[key])} in the store, {_shown(after[key])} in this file)"
            for key in after if before.get(key) != after[key]]


def _named(config: TournamentConfig) -> dict[str, object]:
    """`game_settings` with its limits each under its own key, and the schedule."""
    settings = dict(game_settings(config))
    del settings["limits"]
    limits = config.limits
    settings |= {"limits.move_time": limits.move_time, "limits.time_bank": limits.time_bank,
                 "limits.max_faults": limits.max_faults, "schedule": config.schedule}
    return settings


def _shown(value: object) -> str:
    """A setting's value as the file writes it."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return f"{value:g}" if isinstance(value, float) else str(value)


# Why a store that is both a sample drawn at once and of rotations before they changed from
# deal to deal is refused (either alone is taken over).
OLD_ROTATIONS = ("holds a sample drawn at once and rotations that kept one cyclic order in "
                 "every deal, made by an earlier referee; rotations now change it from deal to "
                 "deal, as one order favours some bots over others, and such a store cannot "
                 "be taken over. Play it again with another --db")


def _earlier_rotations(config: TournamentConfig, edition: Edition, store: Store) -> bool:
    """Whether the store holds rotations of this file made by an earlier referee: before
    their cyclic order changed from deal to deal, or (adaptive) before each table's first
    cyclic order was drawn (`schedule.spin`)."""
    if config.seat_orders != "rotations":
        return False
    versions = (0, ROTATIONS_VERSION) if config.schedule == "adaptive" else (0,)
    return store.fingerprint() in {fingerprint(config, edition, rotations=v) for v in versions}


def reseated(config: TournamentConfig, edition: Edition, store: Store) -> list[str]:
    """The games of a store of earlier rotations (`_earlier_rotations`) that the schedule now
    seats otherwise: those a run supersedes and plays again (none otherwise).  Each stored
    game's seats now are worked out from its id and its table, not from the whole schedule
    (which a large round robin holds millions of games of); a withdrawn entrant's games are
    kept as they are."""
    if not _earlier_rotations(config, edition, store):
        return []
    names = {b.name for b in config.bots}
    moved = []
    for game_id, seats in store.seatings().items():
        found = GAME_ID.fullmatch(game_id)
        if found is None or not names.issuperset(seats):
            continue
        table = table_of(config, seats)
        deal, order = int(found[2]), int(found[3])
        if table_key(table) != found[1] or len(table) != len(seats) or order >= len(seats):
            continue  # (rotations: as many seat orders as seats)
        if seats_of(config, table, deal, order) != seats:
            moved.append(game_id)
    return sorted(moved)


def reseated_why(config: TournamentConfig) -> str:
    """What changed in rotations since an earlier referee made a store of `config`'s."""
    return ("rotations now draw each adaptive table's first cyclic order"
            if config.schedule == "adaptive" else
            "rotations now change their cyclic order from deal to deal")


def _take_over_rotations(config: TournamentConfig, edition: Edition, store: Store, prints: str,
                         say: Callable[[str], None], frozen: bool) -> None:
    """A store of rotations made by an earlier referee: keep its games seated as now (its
    rounds, adaptive), supersede the others to be played again, and bind it anew."""
    if not _earlier_rotations(config, edition, store):
        return
    games = reseated(config, edition, store)
    why = reseated_why(config)
    if frozen and games:
        raise FrozenField(f"{store.path} was made by an earlier referee ({why}): {len(games):,} "
                          "of its games would be played again, which --frozen refuses; run "
                          "without --frozen")
    store.take_over_reseated(prints, games, why)
    kept = store.count()
    say(f"taken over a store of rotations made by an earlier version of the referee ({why}: "
        f"one order favours some bots over others): {kept:,} of its games are kept"
        + (f", and {len(games):,} seated otherwise now are superseded and played again"
           if games else ""))


def stored_draws(config: TournamentConfig, edition: Edition, store: Store) -> list[Table]:
    """The tables the store's sample drew, as a run on it takes them (`plan`)."""
    return store.played_tables() if _earlier_sample(config, edition, store) else store.draws()


def _take_over_sample(config: TournamentConfig, edition: Edition, store: Store, prints: str,
                      say: Callable[[str], None]) -> None:
    """A store whose sample was drawn all at once (before samples grew), of this file but
    for `tables`: keep its played tables as the first drawn, and bind it anew."""
    if not _earlier_sample(config, edition, store):
        return
    played = store.played_tables()
    store.take_over(prints)
    store.record_draws([(table_key(t), t) for t in played], None)
    say(f"taken over a sample drawn by an earlier version of the referee: its "
        f"{len(played)} played tables are kept, and the sample grows from them")
