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

import difflib
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from .store import LEFT_OUT, PLAYING, WITHDRAWN, Entrant, Store


def withdrawn_shown(games: int) -> str:
    """Why a withdrawn entrant with `games` stored is not on a leaderboard, listed where the
    left-out entrants are (with its stored games: a CSV row of it said 0 games where 280 were
    kept out of the board)."""
    held = ("it has no games stored" if games == 0 else
            f"its {games:,} stored {'game is' if games == 1 else 'games are'} out of these "
            f"standings, and count{'s' if games == 1 else ''} again if it comes back unchanged")
    return f"withdrawn: in the store, not in its last run's file; {held}"


def shown_left_out(store: Store) -> dict[str, str]:
    """The entrants a leaderboard lists as not on it, with why: those the last run left out,
    and those withdrawn (an organiser found a withdrawn entrant nowhere in what they
    published)."""
    withdrawn = store.entrants(WITHDRAWN)
    held = stored_games(store, withdrawn)
    return {**store.entrants(LEFT_OUT), **{n: withdrawn_shown(held[n]) for n in withdrawn}}


def stored_games(store: Store, names: Collection[str]) -> dict[str, int]:
    """How many games each of `names` sits in among the store's games (not those
    superseded), counted or not on the leaderboard."""
    wanted = set(names)
    held: Counter[str] = Counter(dict.fromkeys(wanted, 0))
    for seats in store.seatings().values():
        held.update(wanted.intersection(seats))
    return dict(held)


@dataclass(frozen=True)
class FieldChange:
    """What changed since the store's last run: entrants whose version changed (with the
    number of their stored games superseded), newcomers, and those who withdrew."""

    changed: tuple[str, ...]
    superseded: int
    new: tuple[str, ...]
    withdrawn: tuple[str, ...]
    lost: str = ""  # what the withdrawal takes out of the others' records (`withdrawal_cost`)
    back: tuple[str, ...] = ()  # withdrawn before, in the file again


def changed_now(store: Store, versions: Mapping[str, str]) -> tuple[tuple[str, ...], list[str]]:
    """The entrants whose `versions` (as their files are now) differ from the store's last
    run, and the stored games a run would supersede for them: what `plan` tells before
    `run` plays them again."""
    before = store.versions()
    changed = tuple(n for n, v in versions.items() if before.get(n) not in (None, v))
    return changed, store.stale_games({n: versions[n] for n in changed})


def renamed(left_out: Mapping[str, str], withdrawn: Sequence[str]) -> list[str]:
    """A warning for each entrant left out for want of its folder whose name is close to one
    that withdrew (in the store, not in the file): most likely one entrant, its name or dir
    mistyped, whose games leave the leaderboard until the file names it again."""
    out = []
    for name, why in left_out.items():
        if not (why.startswith("its directory ") and why.endswith(" does not exist")):
            continue
        close = difflib.get_close_matches(name, withdrawn, n=1, cutoff=0.7)
        if close:
            out.append(f"warning: {name} has no folder and {close[0]}, in the store, is no "
                       f"longer in the file: one entrant whose name or dir is mistyped? Until "
                       f"the file names {close[0]} again, its games are out of the leaderboard")
    return out


def withdrawal_cost(store: Store, withdrawn: Collection[str]) -> str:
    """What withdrawing entrants takes out of the leaderboard, said after "a run withdraws
    them": their stored games, and so the others' games at their tables, by entrant, the
    most first (an organiser who withdrew one entrant of a ladder found 27 others' records
    shorter, by up to 20 games, and nothing had said so).  An entrant withdrawn by an earlier
    run still has its games stored; they left the others' records then, not now."""
    gone = set(withdrawn)
    games = sum(1 for seats in store.seatings().values() if gone.intersection(seats))
    one = len(gone) == 1
    if not games:
        return "; it has no games stored" if one else "; they have no games stored"
    others: Counter[str] = Counter()
    if gone - set(store.entrants(WITHDRAWN)):  # the games of the others that count until now
        for result in store.results():
            if gone.intersection(result.names):
                others.update(n for n in set(result.names) if n not in gone)
    kept = (f"; {'its' if one else 'their'} {games:,} stored "
            f"{'game is' if games == 1 else 'games are'} kept, out of the leaderboard")
    again = f"they count again if the file names {'it' if one else 'them'} again, unchanged"
    if not others:
        return f"{kept}; {again}"
    most = sorted(others.items(), key=lambda item: (-item[1], item[0]))
    shown = ", ".join(f"{name} {count:,}" for name, count in most[:3])
    more = f" and {len(most) - 3:,} more" if len(most) > 3 else ""
    others_said = "another entrant's record" if len(most) == 1 else \
        f"{len(most):,} other entrants' records"
    return (f"{kept}, and so out of {others_said} too (games each loses: {shown}{more}); "
            f"{again}")


def coming_back(store: Store, names: Collection[str]) -> tuple[str, ...]:
    """Those of `names` (the file's) that an earlier run withdrew."""
    withdrawn = set(store.entrants(WITHDRAWN))
    return tuple(n for n in names if n in withdrawn)


def returned(back: Collection[str], changed: Collection[str]) -> list[str]:
    """Of the entrants brought `back`, those unchanged, whose stored games count again (a
    changed one's are played again): an organiser could not tell, and is now told."""
    return [n for n in back if n not in changed]


class FrozenField(Exception):
    """`--frozen`: an entrant changed, and the run refuses to re-play its games."""


def update_field(store: Store, names: Sequence[str], versions: Mapping[str, str],
                 left_out: Mapping[str, str], frozen: bool = False) -> FieldChange:
    """Record this run's field (`names` in the file; `versions` of those that run here,
    `left_out` the others with why) and supersede the games of every entrant whose version
    changed, all in one transaction (`Store.record_field`).  With `frozen`, a changed entrant
    raises FrozenField and nothing is written."""
    before = store.versions()
    changed = tuple(n for n in names if n in versions and before.get(n) not in (None, versions[n]))
    if frozen and changed:
        raise FrozenField(f"{', '.join(changed)} changed since the store's last run, and "
                          f"--frozen refuses to play {'its' if len(changed) == 1 else 'their'} "
                          f"games again; restore {'it' if len(changed) == 1 else 'them'}, or "
                          "run without --frozen")
    new = tuple(n for n in names if n not in before) if before else ()
    gone = tuple(sorted(set(before) - set(names)))
    lost = withdrawal_cost(store, gone) if gone else ""  # while they still count
    back = coming_back(store, names)
    field = [Entrant(name, versions.get(name, before.get(name)),
                     LEFT_OUT if name in left_out else PLAYING, left_out.get(name, ""))
             for name in names]
    superseded = store.record_field(field, gone, {n: versions[n] for n in changed},
                                    new_run=True)
    return FieldChange(changed, superseded, new, gone, lost, back)


def field_lines(change: FieldChange) -> list[str]:
    """What a run says of the field's changes since the store's last run."""
    lines = []
    if change.changed:
        lines.append(f"changed since the last run: {', '.join(change.changed)}; "
                     + superseded_said(len(change.changed), change.superseded))
    if change.new:
        lines.append(f"new in the field: {', '.join(change.new)}")
    if change.withdrawn:
        lines.append(f"withdrawn (in the store, not in the file): {', '.join(change.withdrawn)}"
                     + change.lost)
    back = returned(change.back, change.changed)
    if back:
        lines.append(f"back in the field (withdrawn before, unchanged): {', '.join(back)}; "
                     f"{'its' if len(back) == 1 else 'their'} stored games count again")
    return lines


def superseded_said(changed: int, games: int) -> str:
    """How many stored games a run supersedes for `changed` entrants: "their 12 stored games"
    after one entrant's name read as if it were several's, and after several names as if each
    had 12 (a game of two of them is one)."""
    if not games:
        return f"{'it has' if changed == 1 else 'they have'} no stored games to play again"
    stored = f"{games:,} stored game{'' if games == 1 else 's'}"
    played = f"{'is' if games == 1 else 'are'} superseded and played again"
    if changed == 1:
        return f"its {stored} {played}"
    return f"the {stored} any of them sat in {played}"
