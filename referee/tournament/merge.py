"""Merging the stores of a sharded run (`--shard I/N`) into one.

Every shard must come from the same tournament file (the same fingerprint), each shard 1..N
exactly once, each complete: a missing game is a gap, a game in two stores a duplicate, and
either is refused rather than merged into a leaderboard nobody can trust.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from referee.validation import first_errors

from .config import TournamentConfig
from .runner import shard_games
from .schedule import schedule
from .store import Store, StoreError, open_store


def missing_shards(labels: list[str], total: int, show: int = 5) -> str:
    """The first few of the shards 1..total that are not among the (distinct) `labels`,
    found without counting up to `total`, which a store's label may make huge."""
    first = [f"{i}/{total}" for i in range(1, min(total, len(labels) + show) + 1)
             if f"{i}/{total}" not in labels][:show]
    more = total - len(labels) - len(first)
    return ", ".join(first) + (f" and {more} more" if more > 0 else "")


def merge(out: Path, shards: list[Path]) -> int:
    """Check the shards and copy their games into `out`; return how many games it holds."""
    if not shards:
        raise StoreError("give the shards' stores to merge")
    stores: list[Store] = []
    try:
        for path in shards:
            if not path.is_file():
                raise StoreError(f"no results store at {path}")
            stores.append(open_store(path, read_only=True))  # a shard is only read
        prints = {s.meta("fingerprint") for s in stores}
        if len(prints) != 1 or None in prints:
            raise StoreError("the stores come from different tournament files (or are empty)")
        labels = [s.meta("shard") or "all" for s in stores]
        counts = {label.split("/")[-1] for label in labels}
        if "all" in labels or len(counts) != 1:
            raise StoreError(f"not the shards of one run: {', '.join(labels)}")
        total = int(counts.pop())
        for label in set(labels):
            if labels.count(label) > 1:
                raise StoreError(f"shard {label} is given twice")
        if len(labels) < total:
            raise StoreError(f"gap: shard(s) {missing_shards(labels, total)} missing")
        config_json = stores[0].meta("config")
        assert config_json is not None
        try:
            config = TournamentConfig.model_validate_json(config_json)
        except ValidationError as exc:  # a store written by a version that allowed more
            raise StoreError(f"{stores[0].path}: its tournament file is not valid any more: "
                             f"{first_errors(exc)}") from None
        games = schedule(config)
        seen: dict[str, str] = {}
        for store, label in zip(stores, labels, strict=True):
            index = int(label.split("/")[0])
            expected = {g.game_id for g in shard_games(games, (index, total))}
            stored = store.done()
            for game_id in stored:
                if game_id in seen:
                    raise StoreError(f"duplicate: game {game_id} is in {seen[game_id]} and "
                                     f"{store.path}")
                seen[game_id] = str(store.path)
            if stored - expected:
                raise StoreError(f"{store.path} holds games that are not shard {label}'s")
            if expected - stored:
                gap = sorted(expected - stored)
                raise StoreError(f"gap: {store.path} (shard {label}) lacks {len(gap)} games, "
                                 f"e.g. {gap[0]}; finish it first (run the shard again)")
        # Written beside `out` under another name, and given its name only once whole: a
        # merge stopped partway (Ctrl-C, a job's time limit) leaves no store that looks done.
        part = out.with_name(f"{out.name}.merging-{os.getpid()}")
        try:
            target = open_store(part)
            try:
                target.bind(config.name, stores[0].meta("fingerprint") or "", config_json)
                target.bind_shard(None)
                for store in stores:
                    target.add_from(store)
                count = target.count()
            finally:
                target.close()
            _name_it(part, out)
        except StoreError as exc:  # it names the file being written: the user's is `out`
            raise type(exc)(str(exc).replace(str(part), str(out))) from None
        finally:
            for suffix in ("", "-wal", "-shm"):
                part.with_name(part.name + suffix).unlink(missing_ok=True)
        return count
    finally:
        for s in stores:
            s.close()


def _name_it(part: Path, out: Path) -> None:
    """Give the finished merge its name, never replacing a file that took it meanwhile."""
    try:
        os.link(part, out)
    except FileExistsError:
        raise StoreError(f"{out} exists already; merge into a new file") from None
    except OSError:  # a file system without hard links
        if out.exists():
            raise StoreError(f"{out} exists already; merge into a new file") from None
        os.replace(part, out)
