"""The store's connection and the tournament file it is bound to: `Store` builds on them.

A store remembers the file that made it (`bind`) and its fingerprint, refusing a file whose
schedule changes its games (`check_belongs`); of a later run's file it follows what changes no
game (`follow`, `FOLLOWED`), so that what a leaderboard says of the store (its name, its
primary metric, whether it is finished) is what the latest file asks.  SQLite's errors come
out as one line naming the file (`failing`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from pydantic import ValidationError

from referee.validation import first_errors

from ..config import TournamentConfig
from .errors import DamagedStore, StoreError, StoreFailed

# What of a tournament file a run that resumes a store records: what changes no game.  The
# entrants too: `until` checked against the first run's field (a gauntlet of one candidate
# then) left a stored file no longer valid, and its baselines unmarked.
FOLLOWED = ("name", "primary_metric", "deals", "tables", "max_games", "until", "top", "rounds",
            "bots")


class BoundFile:
    """A store's SQLite connection and the tournament file it is bound to."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db

    @contextmanager
    def failing(self) -> Iterator[None]:
        """SQLite's errors while the store is in use, as one StoreFailed naming the file: a
        full disk ends a run with one line, not a traceback.  A damaged file (found only
        when the damaged page is read) is a DamagedStore: "run again to resume" cannot help."""
        try:
            yield
        except sqlite3.Error as exc:
            raise DamagedStore.of(self.path, exc) or StoreFailed(f"{self.path}: {exc}") from None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """What is written inside, in one transaction (committed at its end, rolled back on
        an error): many games saved at once are much faster so."""
        with self.failing(), self.db:
            self.db.execute("BEGIN")
            yield

    def meta(self, key: str) -> str | None:
        with self.failing():
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def remember(self, key: str, value: str) -> None:
        """Keep `value` under `key` among the store's notes of itself (what a run worked out
        that a reader would otherwise work out again: `until.look`)."""
        with self.failing():
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def bind(self, config: TournamentConfig, fingerprint: str) -> None:
        """Claim a new store for the tournament `config`, or check that it already belongs
        to it (the same fingerprint)."""
        if self.meta("fingerprint") is None:
            with self.failing(), self.db:
                self.db.execute("BEGIN")
                for key, value in (("name", config.name), ("fingerprint", fingerprint),
                                   ("config", config.model_dump_json()),
                                   ("created", str(time.time()))):
                    self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        else:
            self.check_belongs(fingerprint)

    def check_belongs(self, fingerprint: str, changed: Sequence[str] = (),
                      name: str | None = None) -> None:
        """StoreError unless the store is new or holds games of the tournament whose
        fingerprint is `fingerprint`; `changed`: the file's settings that differ from those
        of the file that made the store, to name; `name`: the file's tournament's."""
        stored = self.meta("fingerprint")
        if stored is None or stored == fingerprint:
            return
        held = self.meta("name")
        other = f", not {name!r}," if name is not None and name != held else ""
        why = (f"this file changes {'; '.join(changed)}, which changes the games" if
               changed else "this file, or the referee's schedule after an upgrade, changes "
               "the games")
        raise StoreError(f"{self.path} holds the games of tournament {held!r}{other} and "
                         f"{why}: give another --db, or restore the file")

    def take_over(self, fingerprint: str) -> None:
        """Bind the store to `fingerprint` instead of the one it has (a store whose games the
        new schedule keeps, `session.bind`)."""
        with self.failing():
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('fingerprint', ?)",
                            (fingerprint,))

    def fingerprint(self) -> str | None:
        """The fingerprint of the schedule whose games the store holds; None before a run
        binds it."""
        return self.meta("fingerprint")

    def shard(self) -> str:
        """Which shard of its schedule the store holds ("I/N"), or "all"."""
        return self.meta("shard") or "all"

    def name(self) -> str:
        """The tournament's name, as its latest run's file gave it (else the file's stem)."""
        return self.meta("name") or self.path.stem

    def tournament_config(self) -> TournamentConfig | None:
        """The tournament file the store was made with (with what of its latest run's file
        changes no game, `follow`); None before a run binds it.  A StoreError if it is not
        a valid tournament file any more (written by a version that allowed more)."""
        text = self.meta("config")
        if text is None:
            return None
        try:
            return TournamentConfig.model_validate_json(text)
        except ValidationError as exc:
            raise StoreError(f"{self.path}: its tournament file is not valid any more: "
                             f"{first_errors(exc)}") from None

    def baselines(self) -> list[str]:
        """A gauntlet's baselines, as its file named them; none for a round robin, or where
        the file is not valid any more."""
        try:
            config = self.tournament_config()
        except StoreError:
            return []
        return list(config.baselines) if config is not None and \
            config.format == "gauntlet" else []

    def primary_metric(self) -> str:
        """The metric the tournament file chose to order the board (default: mean placement
        points).  Read from the stored file alone, so that a store whose file is no longer
        valid as a whole (`tournament_config`) still shows its board as it was chosen."""
        text = self.meta("config")
        return str(json.loads(text).get("primary_metric", "placement")) if text else "placement"

    def follow(self, config: TournamentConfig) -> None:
        """Take from a run that resumes this store what of its file changes no game (not in
        the fingerprint): the name and primary metric, which say how its results are shown,
        and how much it plays (`FOLLOWED`), for a leaderboard to tell an unfinished store (an
        organiser's `until` run, extended to more deals and stopped by a time budget, was
        judged by the deals of its first file), and its entrants, with which those are
        checked; its other settings stay those it was made with."""
        config_text = self.meta("config")
        if config_text is None:
            return
        stored = json.loads(config_text)
        now = config.model_dump(mode="json", include=set(FOLLOWED))
        if self.meta("name") == config.name and all(stored.get(k) == v for k, v in now.items()):
            return
        stored.update(now)
        with self.failing(), self.db:
            self.db.execute("BEGIN")
            for key, value in (("name", config.name), ("config", json.dumps(stored))):
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def bind_shard(self, shard: str | None) -> None:
        """Record which shard ("I/N") this store holds; refuse another shard's games."""
        stored = self.meta("shard")
        value = shard or "all"
        if stored is None:
            with self.failing():
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('shard', ?)", (value,))
        elif stored != value:
            raise StoreError(other_shard(self.path, stored, value))


WHOLE = "the whole schedule (a run without --shard)"


def other_shard(path: object, stored: str, wanted: str) -> str:
    """The refusal of a store that holds another share of the schedule than a run's (or a
    plan's): "all", the store of a run without --shard, in words, as "holds shard all" read
    to an organiser whose trial run had made it as a name of a shard."""
    if stored == "all":
        return f"{path} holds {WHOLE}, not shard {wanted}; use another --db"
    not_this = WHOLE if wanted == "all" else wanted
    return f"{path} holds shard {stored}, not {not_this}; use another --db"
