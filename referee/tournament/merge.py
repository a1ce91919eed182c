"""Sharded runs (`--shard I/N`): each shard's part of the schedule, and merging the shards'
stores into one.

Every shard must come from the same tournament file (the same fingerprint), each shard 1..N
exactly once, each complete: a missing game is a gap, a game in two stores a duplicate, and
either is refused rather than merged into a leaderboard nobody can trust.  The shards must
have played the same version of every entrant and left out the same entrants (whose games
are then no gap).  The merged store keeps the entrants' build digests the shards agree on, so
that a run into it reuses those builds.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
from collections.abc import Iterable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

# The schedule and the store (numpy, pydantic, the game record) are imported where used: the
# command line imports MAX_SHARDS for `--shard`'s help, and every `tournament` command,
# its one-line errors too, would pay for them at start-up.
if TYPE_CHECKING:
    from .config import TournamentConfig
    from .schedule import ScheduledGame
    from .store import Store

PARTIAL = "{}.merging-"  # then the merging process's pid
SQLITE_FILES = ("", "-journal", "-wal", "-shm")  # a database's file and those SQLite adds
MAX_SHARDS = 10_000  # `--shard I/N`: N at most this (a shard beyond the games plays none)
# The stored file's settings that change the games (`schedule.fingerprint`), and those that
# change how many are played (`bound_file.FOLLOWED`), each named as a message shows it.
GAME_SETTINGS = ("seed", "table_size", "format", "schedule", "seat_orders", "baselines",
                 "edition", "variants", "limits.move_time", "limits.time_bank",
                 "limits.max_faults")
PLAYED_SETTINGS = ("deals", "tables", "max_games", "rounds", "until", "top", "bots")
SHARDED_UNTIL = ("--shard: a run with until looks at every game of the field after each stage, "
                 "so it cannot be sharded; run it whole (on Dask to spread it over machines)")
SHARDED_BUDGET = ("--shard: max_games counts the games of the whole tournament, which a "
                  "shard cannot see; give each shard a --time-budget instead, or run it whole")
SHARDED_ADAPTIVE = ('--shard: an adaptive schedule chooses each round from every game of '
                    "the rounds before, which a shard cannot see; run it whole (on Dask to "
                    "spread it over machines)")


def unshardable(config: TournamentConfig) -> str | None:
    """Why `config` cannot be run in shards, if it cannot: each of these reads the games of
    the whole field, which no shard holds."""
    if config.until is not None:
        return SHARDED_UNTIL
    if config.max_games is not None:
        return SHARDED_BUDGET
    if config.schedule == "adaptive":
        return SHARDED_ADAPTIVE
    return None


def shard_games(games: Iterable[ScheduledGame],
                shard: tuple[int, int] | None) -> Iterator[ScheduledGame]:
    """Shard I of N (1-based): every N-th game of the schedule, a fixed and disjoint part."""
    if shard is None:
        yield from games
        return
    index, count = shard
    yield from itertools.islice(games, index - 1, None, count)


def missing_shards(labels: list[str], total: int, show: int = 5) -> str:
    """The first few of the shards 1..total that are not among the (distinct) `labels`,
    found without counting up to `total`, which a store's label may make huge."""
    first = [f"{i}/{total}" for i in range(1, min(total, len(labels) + show) + 1)
             if f"{i}/{total}" not in labels][:show]
    more = total - len(labels) - len(first)
    return ", ".join(first) + (f" and {more} more" if more > 0 else "")


def merge(out: Path, shards: list[Path]) -> int:
    """Check the shards and copy their games into `out`; return how many games it holds."""
    from .schedule import Schedule
    from .store import Store, StoreError

    if not shards:
        raise StoreError("give the shards' stores to merge")
    remove_stale_parts(out)
    stores: list[Store] = []
    try:
        for path in shards:
            if not path.exists():  # anything else there: opening it says what it is
                raise StoreError(f"no results store at {path}")
            stores.append(Store.for_reading(path))  # a shard is only read
        prints = [s.fingerprint() for s in stores]
        empty = [str(s.path) for s, p in zip(stores, prints, strict=True) if p is None]
        if empty:
            raise StoreError(f"{', '.join(empty)}: no tournament's games (an empty store)")
        if len(set(prints)) != 1:
            most = max(prints, key=prints.count)  # on a tie, the first store's
            odd = [f"{s.path} ({s.name()!r})" for s, p in zip(stores, prints, strict=True)
                   if p != most]
            differ = _settings_differ(stores, GAME_SETTINGS)
            raise StoreError(f"the stores come from different tournament files: "
                             f"{', '.join(odd)} {'is' if len(odd) == 1 else 'are'} not of "
                             f"{stores[prints.index(most)].path}'s"
                             + (f" ({differ})" if differ else ""))
        labels = [s.shard() for s in stores]
        counts = {label.split("/")[-1] for label in labels}
        if "all" in labels or len(counts) != 1:
            held = ", ".join(
                f"{s.path} holds {'every game' if label == 'all' else 'shard ' + label}"
                for s, label in zip(stores, labels, strict=True))
            raise StoreError(f"not the shards of one run: {held}; merge joins the stores of "
                             "`run --shard I/N` for one N, each I once")
        total = int(counts.pop())
        for label in set(labels):
            if labels.count(label) > 1:
                raise StoreError(f"shard {label} is given twice")
        if len(labels) < total:
            raise StoreError(f"gap: shard(s) {missing_shards(labels, total)} missing")
        config = stores[0].tournament_config()  # a StoreError if no longer valid
        assert config is not None  # bound, as its fingerprint says
        left_out = _same_field(stores)
        games = Schedule(config, _same_draws(stores))
        seen: dict[str, str] = {}
        for store, label in zip(stores, labels, strict=True):
            index = int(label.split("/")[0])
            expected = {g.game_id for g in shard_games(games.games(), (index, total))
                        if not left_out.intersection(g.seats)}
            stored = store.done()
            for game_id in stored:
                if game_id in seen:
                    _same_plays(stores)  # shards of another field share games: say so
                    raise StoreError(f"duplicate: game {game_id} is in {seen[game_id]} and "
                                     f"{store.path}")
                seen[game_id] = str(store.path)
            if stored != expected:
                _same_plays(stores)  # a shard run with other deals: say so, not a gap
            if stored - expected:
                raise StoreError(f"{store.path} holds games that are not shard {label}'s")
            if expected - stored:
                gap = sorted(expected - stored)
                raise StoreError(f"gap: {store.path} (shard {label}) lacks {len(gap)} games, "
                                 f"e.g. {gap[0]}; finish it first (run the shard again, or "
                                 "wait for the run still writing it)")
        # Written beside `out` under another name, and given its name only once whole: a
        # merge stopped partway (Ctrl-C, a job's time limit) leaves no store that looks done.
        part = out.with_name(f"{PARTIAL.format(out.name)}{os.getpid()}")
        try:
            target = Store.for_writing(part)
            try:
                target.bind(config, stores[0].fingerprint() or "")
                target.bind_shard(None)
                for store in stores:
                    target.add_from(store)
                target.record_builds(_agreed_builds(stores))
                count = target.count()
            finally:
                target.close()
            _name_it(part, out)
        except StoreError as exc:  # it names the file being written: the user's is `out`
            raise type(exc)(str(exc).replace(str(part), str(out))) from None
        finally:
            for suffix in SQLITE_FILES:
                part.with_name(part.name + suffix).unlink(missing_ok=True)
        return count
    finally:
        for s in stores:
            s.close()


def _same_field(stores: list[Store]) -> set[str]:
    """The entrants the shards left out, once every shard is known to have played the same
    version of each entrant and left out the same ones."""
    from .store import LEFT_OUT, StoreError

    versions: dict[str, tuple[str, Path]] = {}
    for store in stores:
        for name, version in store.versions().items():
            if version is None:
                continue
            if name in versions and versions[name][0] != version:
                raise StoreError(f"the shards played different versions of {name} "
                                 f"({versions[name][1]} and {store.path}); run them again with "
                                 "the same files")
            versions.setdefault(name, (version, store.path))
    sets = [(set(s.entrants(LEFT_OUT)), s.path) for s in stores]
    for left, path in sets[1:]:
        if left != sets[0][0]:
            differ = sorted(left ^ sets[0][0])
            raise StoreError(f"{sets[0][1]} and {path} left out different entrants "
                             f"({', '.join(differ)}); run the shards again with the same bots")
    return sets[0][0] if sets else set()


def _agreed_builds(stores: list[Store]) -> dict[str, str]:
    """The build digests (`Store.builds`) every shard holds, and holds alike, for an entrant:
    a run into the merged store reuses those builds.  Without them it built every entrant
    again; an entrant whose digests differ (a shard on a machine with another compiler, or
    another environment) or that some shard lacks is left to build, the safe side."""
    each = [store.builds() for store in stores]
    return {name: digest for name, digest in each[0].items()
            if all(other.get(name) == digest for other in each[1:])}


def _same_plays(stores: list[Store]) -> None:
    """Refuse shards run with different settings of how much is played (`deals`, `tables`,
    ...: not in the fingerprint, since a run may extend a store by them), naming the setting:
    the schedule is read from the first shard's, so the others' games looked like strays,
    gaps or duplicates.  Called once those are found: shards whose `until` differs yet which
    played the same games merge."""
    from .store import StoreError

    differ = _settings_differ(stores, PLAYED_SETTINGS)
    if differ:
        raise StoreError(f"{differ}; run the shards again with the same file")


def _settings_differ(stores: list[Store], keys: tuple[str, ...]) -> str | None:
    """A line such as "the shards differ in deals: 16 in a.db, 32 in b.db" for the first of
    `keys` (as "limits.move_time" for a key of a table) on which the shards' stored files
    differ; None if they agree on all (or a file is not there to compare)."""
    files = []
    for store in stores:
        text = store.meta("config")
        if text is None:
            return None
        files.append(json.loads(text))
    for key in keys:
        values = [_setting(file, key) for file in files]
        if len(set(values)) == 1:
            continue
        if key == "bots":
            fields = [set(v.split("\n")) for v in values]
            odd = sorted(fields[0].union(*fields[1:]) - fields[0].intersection(*fields[1:]))
            return (f"the shards differ in entrants: {_listed(odd)} "
                    f"{'is' if len(odd) == 1 else 'are'} not in every shard")
        held: dict[str, list[str]] = {}
        for store, value in zip(stores, values, strict=True):
            held.setdefault(value, []).append(str(store.path))
        return f"the shards differ in {key}: " + ", ".join(
            f"{value} in {_listed(paths)}" for value, paths in held.items())
    return None


def _setting(file: dict[str, object], key: str) -> str:
    """A stored file's `key` as shown in a message (entrants: their names, sorted, one a
    line)."""
    value: object = file
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if key == "bots":
        return "\n".join(sorted(str(b.get("name")) for b in value if isinstance(b, dict))) \
            if isinstance(value, list) else ""
    return "not set" if value is None else json.dumps(value)


def _listed(items: list[str], show: int = 3) -> str:
    """The items as "a, b and c", or "a, b, c and 5 more" past `show` of them."""
    if len(items) > show:
        return f"{', '.join(items[:show])} and {len(items) - show} more"
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)


def _same_draws(stores: list[Store]) -> list[tuple[str, ...]]:
    """The tables the shards' samples drew, once every shard is known to have drawn the same
    (each draws them from the file and the tables drawn before, `sampling.py`)."""
    from .store import StoreError

    first = stores[0].draws()
    for store in stores[1:]:
        if store.draws() != first:
            raise StoreError(f"{stores[0].path} and {store.path} drew different tables (the "
                             "field or `tables` changed between the shards' runs); run the "
                             "shards again with the same file")
    return first


def remove_stale_parts(out: Path) -> None:
    """Remove the partial files (and SQLite's -journal, -wal and -shm beside them) of earlier
    merges into `out` that were killed with SIGKILL, which no `finally` outlives.  One is
    stale once the process it is named after runs no longer and no process holds the store's
    lock on it (which goes with the process): the folder may be shared with another machine,
    whose pids mean nothing here."""
    prefix = PARTIAL.format(out.name)
    try:
        names = [p.name for p in out.parent.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return  # the merge itself says what is wrong with the folder
    for base in {_base(name) for name in names}:
        pid = base.removeprefix(prefix)
        if not pid.isdigit() or _running(int(pid)):
            continue  # not a merge's, or its merge still runs
        if out.with_name(base).exists() and not _unlocked(out.with_name(base)):
            continue  # a merge on another machine
        for suffix in SQLITE_FILES:
            with suppress(OSError):
                out.with_name(base + suffix).unlink(missing_ok=True)


def _base(name: str) -> str:
    """The database a file of SQLite's (or the database itself) belongs to."""
    for suffix in SQLITE_FILES[1:]:
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


def _running(pid: int) -> bool:
    """Whether process `pid` exists (or might: a pid no process can have is not ours)."""
    if not 0 < pid < 1 << 22:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        pass
    return True


def _unlocked(path: Path) -> bool:
    """Whether no process holds the store's writer lock (flock) on `path`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        pass  # a file system without flock: the pid alone tells
    finally:
        os.close(fd)
    return True


def exists_already(out: Path) -> str:
    """The refusal of an `--out` that is there: a merge never replaces a store, yet a ladder
    run in shards merges again after every run, and the organiser must know that the earlier
    merge may go (the shards' stores hold its games)."""
    return (f"{out} exists already; merge into a new file (to merge the shards again after "
            "they played on, remove it first if it holds only their earlier merge)")


def _name_it(part: Path, out: Path) -> None:
    """Give the finished merge its name, never replacing a file that took it meanwhile."""
    from .store import StoreError

    try:
        os.link(part, out)
    except FileExistsError:
        raise StoreError(exists_already(out)) from None
    except OSError:  # a file system without hard links
        if out.exists():
            raise StoreError(exists_already(out)) from None
        os.replace(part, out)
