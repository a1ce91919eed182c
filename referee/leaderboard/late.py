"""Entrants that joined a contest late: a contest whose entrants arrive over weeks grows its
store run by run, and an entrant that joined in a later run has fewer games than those there
from the start (its intervals wider, its place less settled), which a board read as final
did not say.

The store keeps the run in which each entrant first played (`Store.joined`).  An entrant is
marked when it joined after the first run of those on the board *and* has fewer games than
every placed entrant there from that first run and still in the field (the last run's: one left
out or withdrawn early, still on the board with the few games it played, would silence the mark
for all; a gauntlet's baselines, at every table, are not its measure either): short for having
joined late, not merely a table short, as entrants there from the start can be too (an adaptive
contest's rounds seat the places in doubt more often: a ladder's late entrant with 60 games was
named beside originals with 48 to 160).  The line says the median of those entrants' games,
what most have.  So a run in which everyone started together marks nobody, nor does a late
entrant whose games have caught up (a gauntlet's late candidate, once its gauntlet is played,
has the same deals as every other).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass

from .rows import StandingRow


@dataclass(frozen=True)
class Late:
    """An entrant that joined late: the run it first played in, of the store's runs, and its
    games beside those most entrants have."""

    name: str
    run: int
    runs: int
    games: int
    usual_games: int

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def text(self, show: Callable[[str], str]) -> str:
        """As the line under a board says it, the name as `show` writes it."""
        return (f"{show(self.name)} (run {self.run} of {self.runs}, {self.games:,} of the "
                f"{self.usual_games:,} games most entrants have)")


def joined_late(rows: Sequence[StandingRow], joined: Mapping[str, int], runs: int,
                field: Collection[str] = ()) -> list[Late]:
    """Of the board's `rows`, in its order, those that joined after the first run of the
    entrants on it with fewer games than any placed entrant of that run still in the
    `field` (the last run's entrants playing; all of that run's where none of them is, as
    in a store that does not record its field) (`joined`: each entrant's first run, of
    `runs`)."""
    first = min((joined[r.name] for r in rows if r.name in joined), default=None)
    if first is None:
        return []
    originals = [r for r in rows if joined.get(r.name) == first and not r.baseline]
    still = [r for r in originals if r.name in field]
    usual = [r.games for r in still or originals]
    if not usual:
        return []
    most = int(statistics.median_low(usual))
    return [Late(r.name, joined[r.name], max(runs, joined[r.name]), r.games, most)
            for r in rows if joined.get(r.name, first) > first and r.games < min(usual)]


def late_line(late: Sequence[Late], show: Callable[[str], str]) -> str:
    """The line under a board that names the entrants that joined late (each name as `show`
    writes it)."""
    return ("joined late, with fewer games than any entrant there from the start (their "
            "intervals wider, their places less settled): "
            + "; ".join(x.text(show) for x in late))


def at_no_table(field: Sequence[str], placed: Collection[str], listed: Collection[str]
                ) -> list[str]:
    """The entrants of the last run's `field`, in its order, with no game on the board (not
    `placed`), less those `listed` apart with why (left out, withdrawn): an adaptive run's
    entrants not seated yet, a run stopped before their first table.  Joined so late that
    they have no games at all, they are on no board's rows, so every board (`referee
    leaderboard` in each format, the report) names them apart, as it names the left out."""
    return [n for n in field if n not in placed and n not in listed]
