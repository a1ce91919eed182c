"""The field a store was last played with: each entrant's version, who is left out or has
withdrawn, and the games a changed bot no longer owns.

An entrant's version is a digest of what runs (`referee.bots.version`).  A game belongs to
the versions that played it: when an entrant's version changes, the games it sat in are moved
to the `superseded` table (kept for the record, out of the leaderboard) and so are played
again.  An entrant no longer in the file is `withdrawn`: its games stay in the store, out of
the leaderboard, and count again if it comes back unchanged.  An entrant whose build or
command fails is `left out`, with the reason; the games it played with its last version that
ran stay counted, and its version is kept, so that it is not taken for a changed bot when the
same version runs again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import orjson

from .store import Store

PLAYING, LEFT_OUT, WITHDRAWN = "playing", "left out", "withdrawn"


@dataclass(frozen=True)
class FieldChange:
    """What changed since the store's last run: entrants whose version changed (with the
    number of their stored games superseded), newcomers, and those who withdrew."""

    changed: tuple[str, ...]
    superseded: int
    new: tuple[str, ...]
    withdrawn: tuple[str, ...]


class FrozenField(Exception):
    """`--frozen`: an entrant changed, and the run refuses to re-play its games."""


def versions_of(store: Store) -> dict[str, str | None]:
    """Each entrant's version as the store's last run recorded it (none in a store of an
    earlier version)."""
    if store.earlier:
        return {}
    with store.failing():
        return {name: version for name, version in
                store.db.execute("SELECT name, version FROM entrants")}


def update_field(store: Store, names: Sequence[str], versions: Mapping[str, str],
                 left_out: Mapping[str, str], frozen: bool = False) -> FieldChange:
    """Record this run's field (`names` in the file; `versions` of those that run here,
    `left_out` the others with why) and supersede the games of every entrant whose version
    changed, all in one transaction.  With `frozen`, a changed entrant raises FrozenField and
    nothing is written."""
    before = versions_of(store)
    changed = tuple(n for n in names if n in versions and before.get(n) not in (None, versions[n]))
    if frozen and changed:
        raise FrozenField(f"{', '.join(changed)} changed since the store's last run, and "
                          "--frozen refuses to play their games again; restore them, or run "
                          "without --frozen")
    new = tuple(n for n in names if n not in before) if before else ()
    gone = tuple(sorted(set(before) - set(names)))
    with store.failing(), store.db:
        store.db.execute("BEGIN")
        superseded = _supersede(store, {n: versions[n] for n in changed})
        for name in names:
            version = versions.get(name, before.get(name))
            status = LEFT_OUT if name in left_out else PLAYING
            store.db.execute("INSERT OR REPLACE INTO entrants VALUES (?, ?, ?, ?)",
                             (name, version, status, left_out.get(name, "")))
        for name in gone:
            store.db.execute("UPDATE entrants SET status = ?, reason = '' WHERE name = ?",
                             (WITHDRAWN, name))
    return FieldChange(changed, superseded, new, gone)


def _supersede(store: Store, current: Mapping[str, str]) -> int:
    """Move the games in which an entrant of `current` played another version than its
    current one to `superseded`; how many."""
    if not current:
        return 0
    stale = []
    for game_id, seats, versions in store.db.execute(
            "SELECT game_id, seats, versions FROM games"):
        played = dict(zip(orjson.loads(seats), orjson.loads(versions), strict=True))
        if any(n in played and played[n] != v for n, v in current.items()):
            stale.append(game_id)
    why = "changed: " + ", ".join(sorted(current))
    now = time.time()
    for game_id in stale:
        store.db.execute("INSERT INTO superseded SELECT *, ?, ? FROM games WHERE game_id = ?",
                         (now, why, game_id))
        store.db.execute("DELETE FROM games WHERE game_id = ?", (game_id,))
    return len(stale)
