"""Leaderboards over stored games: handed `Games` (`Games.from_store` reads them from a
results store opened by the caller), never a store of its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .late import at_no_table, joined_late
from .render import render
from .stats import Games, Standings, by_seat, head_to_head, standings
from .uncertainty import Uncertainty, uncertainty


def standings_text(games: Games, primary: str = "placement", fmt: str = "table",
          with_head_to_head: bool = False, with_seats: bool = False, with_pairs: bool = False,
          left_out: Mapping[str, str] | None = None, wide: bool = False,
          baselines: Sequence[str] = (), unfinished: str | None = None,
          withdrawn_games: Mapping[str, int] | None = None,
          decision: str | None = None, joined: Mapping[str, int] | None = None,
          runs: int = 0, field: Sequence[str] = (), grow: str | None = None) -> str:
    """The standings of `games` by the `primary` metric in `fmt` (JSON always with the
    pairs; the tables with them when `with_pairs`), the entrants `left_out` by the last
    run, with why (and, in CSV, the `withdrawn_games` stored), a gauntlet's `baselines`
    named, the note that the store is `unfinished` (Markdown and JSON), and what a run with
    `until` decided (`decision`: the table, Markdown and JSON), and the entrants that joined
    late (`joined`: the run in which each first played, of `runs`; `late.py`); the entrants
    of the last run's `field` with no games yet are named (not left out, yet at no table);
    `grow`: how the design plays more, for the note of a board that separates nothing (an
    adaptive run's rounds, not a fixed schedule's deals: `resolution.note`)."""
    result = standings(games, primary, baselines=baselines, grow=grow)
    no_games = at_no_table(field, set(games.names), left_out or {})
    h2h = None
    if with_head_to_head:  # in standings order, as the report shows it
        pairs = head_to_head(games)
        order = [r.name for r in result.rows]
        h2h = {a: {b: pairs[a][b] for b in order if b != a} for a in order}
    return render(result, fmt, h2h, by_seat(games) if with_seats else None, primary, with_pairs,
                  dict(left_out or {}), wide, list(baselines), unfinished,
                  dict(withdrawn_games or {}), decision,
                  joined_late(result.rows, joined or {}, runs, field), no_games)


__all__ = ["Games", "Standings", "Uncertainty", "by_seat", "head_to_head", "standings",
           "standings_text", "uncertainty"]
