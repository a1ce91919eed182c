"""Standings over the games in a results store.

Per entrant: games, win share (a shared win split evenly), mean placement points (first 1,
last 0, linear between, tied places averaged), mean final money, faults by kind, retirements,
and the median and 99th-percentile response time.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tabulate import tabulate

FAULT_COLUMNS = ("timeout", "malformed", "wrong_id", "illegal", "crash", "start")


@dataclass
class Entrant:
    name: str
    games: int = 0
    win_share: float = 0.0
    points: list[float] = field(default_factory=list)
    money: list[int] = field(default_factory=list)
    faults: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    retired: int = 0
    response: dict[int, int] = field(default_factory=lambda: defaultdict(int))

    def row(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "win_share": self.win_share / self.games if self.games else 0.0,
            "wins": self.win_share,
            "placement": statistics.fmean(self.points) if self.points else 0.0,
            "money": statistics.fmean(self.money) if self.money else 0.0,
            "faults": {k: self.faults.get(k, 0) for k in (*FAULT_COLUMNS, "stderr")},
            "retired": self.retired,
            "response_ms": {"median": _quantile(self.response, 0.5),
                            "p99": _quantile(self.response, 0.99)},
        }


def placement_points(ranks: list[int]) -> list[float]:
    """First 1, last 0, linear between; tied seats share the average of their places."""
    k = len(ranks)
    out = []
    for r in ranks:
        tied = ranks.count(r)
        place = r + (tied - 1) / 2  # 1-based average place
        out.append((k - place) / (k - 1))
    return out


def _quantile(hist: dict[int, int], q: float) -> float | None:
    """From quarter-octave buckets of microseconds, in milliseconds (to about 10%)."""
    total = sum(hist.values())
    if not total:
        return None
    need = q * total
    seen = 0
    for bucket in sorted(hist):
        seen += hist[bucket]
        if seen >= need:
            return round(2 ** ((bucket + 0.5) / 4) / 1000, 3)
    return None


def standings(results: Iterable[tuple[str, list[str], dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row per entrant, best first by mean placement points."""
    table: dict[str, Entrant] = {}
    for _game_id, seats, result in results:
        ranks = result["ranks"]
        points = placement_points(ranks)
        winners = [s for s, r in enumerate(ranks) if r == 1]
        hists = result.get("response_us") or [{} for _ in seats]
        for seat, name in enumerate(seats):
            e = table.setdefault(name, Entrant(name))
            e.games += 1
            if seat in winners:
                e.win_share += 1 / len(winners)
            e.points.append(points[seat])
            e.money.append(result["money"][seat])
            for f in result["faults"][seat]:
                e.faults[f["kind"]] += 1
            if seat in result["retired"]:
                e.retired += 1
            for bucket, n in hists[seat].items():
                e.response[int(bucket)] += n
    rows = [e.row() for e in table.values()]
    rows.sort(key=lambda r: (-r["placement"], -r["win_share"], r["name"]))
    return rows


def format_table(rows: list[dict[str, Any]], fmt: str = "simple") -> str:
    body = []
    for i, r in enumerate(rows, 1):
        faults = r["faults"]
        med, p99 = r["response_ms"]["median"], r["response_ms"]["p99"]
        body.append([
            i, r["name"], r["games"], f"{r['win_share']:.1%}", f"{r['placement']:.3f}",
            f"{r['money']:.1f}", sum(faults[k] for k in FAULT_COLUMNS), r["retired"],
            "-" if med is None else f"{med:.2f}", "-" if p99 is None else f"{p99:.2f}",
        ])
    headers = ["#", "bot", "games", "win share", "placement", "money", "faults", "retired",
               "ms median", "ms p99"]
    return tabulate(body, headers=headers, tablefmt=fmt)
