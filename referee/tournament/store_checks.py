"""Whether a results store belongs to a tournament file, and the stores an earlier referee made
that a run takes over rather than refuses: a sample drawn all at once (before samples grew),
rotations whose cyclic order did not yet change from deal to deal (of the first deal only,
whose games are the same), and adaptive rotations whose tables' first cyclic order was not
yet drawn (its rounds kept, its games seated otherwise now superseded and played again).
`plan` asks the same questions as `run`."""

from __future__ import annotations

from collections.abc import Callable

from referee.game import Edition

from .config import TournamentConfig
from .sampling import Table
from .schedule import ROTATIONS_VERSION, Schedule, fingerprint, game_settings, table_key
from .store import Store, StoreError


def take_over_earlier(config: TournamentConfig, edition: Edition, store: Store, prints: str,
                      say: Callable[[str], None]) -> None:
    """Bind to `prints` a store an earlier referee made whose games this file keeps."""
    _take_over_sample(config, edition, store, prints, say)
    _take_over_rotations(config, edition, store, prints, say)
    _take_over_adaptive_rotations(config, edition, store, prints, say)


def _earlier_sample(config: TournamentConfig, edition: Edition, store: Store) -> bool:
    """Whether the store holds a sample drawn all at once (before samples grew) of this
    file but for `tables`, which a run takes over."""
    stored = store.fingerprint()
    if stored in (None, fingerprint(config, edition)) or store.draws():
        return False
    old = store.tournament_config()
    return old is not None and old.tables is not None and \
        stored == fingerprint(config, edition, sampled=old.tables)


def check_store(config: TournamentConfig, edition: Edition, store: Store) -> None:
    """StoreError where a run of `config` would refuse the store: it holds games of another
    schedule (`plan`)."""
    if _earlier_sample(config, edition, store) or _earlier_adaptive(config, edition, store):
        return
    if _earlier_rotations(config, edition, store):
        if _first_deal_only(store):
            return  # a run takes it over (`_take_over_rotations`)
        raise StoreError(f"{store.path} {OLD_ROTATIONS}")
    try:
        old = store.tournament_config()
    except StoreError:  # not valid any more: nothing to compare
        old = None
    if config.seat_orders == "rotations" and old is not None and old.tables is not None and \
            store.fingerprint() == fingerprint(config, edition, sampled=old.tables, rotations=0):
        raise StoreError(f"{store.path} {OLD_ROTATIONS}")  # a sample drawn at once, too
    changed = []
    if old is not None:
        now, was = game_settings(config), game_settings(old)
        changed = [k for k in now if was[k] != now[k]]
        if old.schedule != config.schedule:
            changed.append("schedule")
    store.check_belongs(fingerprint(config, edition), changed, config.name)


# Why a store of rotations made before they changed from deal to deal is refused.
OLD_ROTATIONS = ("holds rotations that kept one cyclic order in every deal, made by an "
                 "earlier referee; rotations now change it from deal to deal, as one order "
                 "favours some bots over others, so its games after the first deal are not "
                 "this tournament's any more. Play it again with another --db")


def _earlier_rotations(config: TournamentConfig, edition: Edition, store: Store) -> bool:
    """Whether the store holds rotations of this file made before their cyclic order changed
    from deal to deal."""
    return config.seat_orders == "rotations" and config.schedule != "adaptive" and \
        store.fingerprint() == fingerprint(config, edition, rotations=0)


def _earlier_adaptive(config: TournamentConfig, edition: Edition, store: Store) -> bool:
    """Whether the store holds adaptive rotations of this file made before each table's
    first cyclic order was drawn (`schedule.spin`)."""
    return config.seat_orders == "rotations" and config.schedule == "adaptive" and \
        store.fingerprint() in {fingerprint(config, edition, rotations=version)
                                for version in (0, ROTATIONS_VERSION)}


def reseated(config: TournamentConfig, edition: Edition, store: Store) -> list[str]:
    """The games of a store of earlier adaptive rotations (`_earlier_adaptive`) that its
    rounds now seat otherwise: those a run supersedes and plays again (none otherwise)."""
    if not _earlier_adaptive(config, edition, store):
        return []
    now = {g.game_id: g.seats for g in Schedule(config, (), store.rounds()).games()}
    return sorted(game_id for game_id, seats in store.seatings().items()
                  if game_id in now and now[game_id] != seats)


# Why the games of an earlier store of adaptive rotations are superseded.
RESEATED = "rotations now draw each adaptive table's first cyclic order"


def _take_over_adaptive_rotations(config: TournamentConfig, edition: Edition, store: Store,
                                  prints: str, say: Callable[[str], None]) -> None:
    """A store of adaptive rotations made before each table's first cyclic order was
    drawn: keep its rounds and the games seated as now, supersede the others, bind it anew."""
    if not _earlier_adaptive(config, edition, store):
        return
    games = reseated(config, edition, store)
    store.take_over_reseated(prints, games, RESEATED)
    say(f"taken over a store of adaptive rotations made by an earlier version of the "
        f"referee: {RESEATED} (a table by name kept one order, favouring some bots); its "
        f"rounds are kept, and {len(games):,} of its games, seated otherwise now, are "
        "superseded and played again")


def _first_deal_only(store: Store) -> bool:
    """Whether the store holds games of deal 0 only, which rotations play as they did before
    their cyclic order changed from deal to deal."""
    return all("-d00-" in game_id for game_id in store.done())


def _take_over_rotations(config: TournamentConfig, edition: Edition, store: Store, prints: str,
                         say: Callable[[str], None]) -> None:
    """A store of rotations made before their cyclic order changed from deal to deal, holding
    the first deal only (the same games now): bind it anew."""
    if _earlier_rotations(config, edition, store) and _first_deal_only(store):
        store.take_over(prints)
        say("taken over a store of rotations made by an earlier version of the referee: its "
            "games, all of the first deal, are kept; later deals now change the cyclic order")


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
