"""Leaderboards over a tournament's results store."""

from __future__ import annotations

import json

from referee.tournament.store import Store

from .render import render
from .stats import Games, Standings, by_seat, head_to_head, leaderboard, standings


def primary_metric(store: Store) -> str:
    """The metric the tournament file chose (default: mean placement points)."""
    config = store.meta("config")
    return str(json.loads(config).get("primary_metric", "placement")) if config else "placement"


def board(store: Store, fmt: str = "table", with_head_to_head: bool = False,
          with_seats: bool = False, with_pairs: bool = False) -> str:
    """The standings of `store` in `fmt` (JSON always with the pairs; the tables with them
    when `with_pairs`), and the entrants its last run left out, with why."""
    games = Games.load(store.results(), store.seeds())
    primary = primary_metric(store)
    result = standings(games, primary)
    h2h = None
    if with_head_to_head:  # in standings order, as the report shows it
        pairs = head_to_head(games)
        order = [r.name for r in result.rows]
        h2h = {a: {b: pairs[a][b] for b in order if b != a} for a in order}
    return render(result, fmt, h2h, by_seat(games) if with_seats else None, primary, with_pairs,
                  store.entrants("left out"))


__all__ = ["Games", "Standings", "board", "by_seat", "head_to_head", "leaderboard",
           "primary_metric", "standings"]
