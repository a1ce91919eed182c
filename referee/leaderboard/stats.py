"""Leaderboard statistics over stored games.

Luck is large in a four-player game, so every mean comes with a 95% interval from a bootstrap
that resamples whole games (an entrant's results in one game are not independent of the
others').  Ratings are OpenSkill Plackett-Luce with tau 0 (the bots do not change), updated in
game id order.  An entrant whose interval overlaps the leader's is marked as not separated.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from openskill.models import PlackettLuce

BOOTSTRAP_SAMPLES = 1000
FAULT_GROUPS = {
    "timeouts": ("timeout",),
    "illegal_or_malformed": ("illegal", "malformed", "wrong_id"),
    "crashes": ("crash", "start"),
    "stderr_over_limit": ("stderr",),
    "exits_between_games": ("exit",),
}
METRICS = ("placement", "win_share", "money", "rating")


def placement_points(ranks: list[int]) -> list[float]:
    """First 1, last 0, linear between; tied seats share the average of their places."""
    k = len(ranks)
    out = []
    for r in ranks:
        place = r + (ranks.count(r) - 1) / 2  # 1-based average place of the tie
        out.append((k - place) / (k - 1))
    return out


@dataclass
class Games:
    """Stored games as arrays: G games by E entrants (absent entrants weigh nothing)."""

    names: list[str]
    game_ids: list[str]
    seats: list[list[int]]  # entrant index by seat, per game
    ranks: list[list[int]]
    present: np.ndarray  # G x E, 1.0 where the entrant played
    points: np.ndarray  # G x E placement points
    wins: np.ndarray  # G x E win share
    money: np.ndarray  # G x E final money
    faults: list[dict[str, int]]  # per entrant, by fault kind
    retired: list[int]
    response: list[dict[int, int]]  # per entrant, histogram buckets of microseconds

    @classmethod
    def load(cls, results: Iterable[tuple[str, list[str], dict[str, Any]]]) -> Games:
        names: list[str] = []
        index: dict[str, int] = {}
        game_ids, seats, ranks, rows = [], [], [], []
        faults: list[dict[str, int]] = []
        retired: list[int] = []
        response: list[dict[int, int]] = []
        for game_id, seat_names, result in results:
            seat_idx = []
            for name in seat_names:
                if name not in index:
                    index[name] = len(names)
                    names.append(name)
                    faults.append({})
                    retired.append(0)
                    response.append({})
                seat_idx.append(index[name])
            r = result["ranks"]
            winners = sum(1 for x in r if x == 1)
            pts = placement_points(r)
            hists = result.get("response_us") or [{} for _ in seat_idx]
            for seat, e in enumerate(seat_idx):
                for f in result["faults"][seat]:
                    faults[e][f["kind"]] = faults[e].get(f["kind"], 0) + 1
                if seat in result["retired"]:
                    retired[e] += 1
                for bucket, n in hists[seat].items():
                    response[e][int(bucket)] = response[e].get(int(bucket), 0) + n
            rows.append((seat_idx, pts, [1 / winners if x == 1 else 0.0 for x in r],
                         result["money"]))
            game_ids.append(game_id)
            seats.append(seat_idx)
            ranks.append(r)
        g, e = len(rows), len(names)
        present, points = np.zeros((g, e)), np.zeros((g, e))
        wins, money = np.zeros((g, e)), np.zeros((g, e))
        for i, (seat_idx, pts, win, mon) in enumerate(rows):
            present[i, seat_idx] = 1.0
            points[i, seat_idx] = pts
            wins[i, seat_idx] = win
            money[i, seat_idx] = mon
        return cls(names, game_ids, seats, ranks, present, points, wins, money, faults,
                   retired, response)


def bootstrap(games: Games, samples: int = BOOTSTRAP_SAMPLES, seed: int = 0,
              batch: int = 50) -> dict[str, np.ndarray]:
    """Per metric, a (samples x E) array of means over games resampled with replacement."""
    g = len(games.game_ids)
    rng = np.random.default_rng(seed)
    values = np.stack([games.points, games.wins, games.money], axis=2)  # G x E x 3
    flat = values.reshape(g, -1)
    out: list[np.ndarray] = []
    for start in range(0, samples, batch):
        n = min(batch, samples - start)
        weights = np.stack([np.bincount(rng.integers(0, g, g), minlength=g)
                            for _ in range(n)]).astype(np.float64)  # n x G
        counts = weights @ games.present  # n x E
        sums = (weights @ flat).reshape(n, -1, 3)
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(sums / counts[:, :, None])
    means = np.concatenate(out)  # samples x E x 3
    return {"placement": means[:, :, 0], "win_share": means[:, :, 1], "money": means[:, :, 2]}


def ratings(games: Games) -> list[tuple[float, float]]:
    """OpenSkill Plackett-Luce (tau 0) over the games in game id order: (mu, sigma)."""
    return _rate(games, set())[0]


def rating_history(games: Games, points: int = 200
                   ) -> list[tuple[int, list[tuple[float, float] | None]]]:
    """The ratings as games accumulated, in game id order, at about `points` evenly spaced
    moments: (games so far, per entrant (mu, sigma) or None before its first game).  The last
    moment is after every game, and equals `ratings`."""
    g = len(games.game_ids)
    if not g:
        return []
    keep = {max(1, round(g * k / points)) for k in range(1, points + 1)} | {g}
    return _rate(games, keep)[1]


def _rate(games: Games, keep: set[int]
          ) -> tuple[list[tuple[float, float]], list[tuple[int, list[tuple[float, float] | None]]]]:
    model = PlackettLuce(tau=0)
    current = [model.rating(name=n) for n in games.names]
    played = [False] * len(games.names)
    history: list[tuple[int, list[tuple[float, float] | None]]] = []
    orders = np.argsort(np.array(games.game_ids, dtype=object), kind="stable")
    for done, order in enumerate(orders, 1):
        seats = games.seats[order]
        teams = [[current[e]] for e in seats]
        for e, team in zip(seats, model.rate(teams, ranks=games.ranks[order]), strict=True):
            current[e] = team[0]
            played[e] = True
        if done in keep:
            history.append((done, [(r.mu, r.sigma) if p else None
                                   for r, p in zip(current, played, strict=True)]))
    return [(r.mu, r.sigma) for r in current], history


def _quantile(hist: dict[int, int], q: float) -> float | None:
    """From quarter-octave buckets of microseconds, in milliseconds (to about 10%)."""
    total = sum(hist.values())
    if not total:
        return None
    seen = 0
    for bucket in sorted(hist):
        seen += hist[bucket]
        if seen >= q * total:
            return round(2 ** ((bucket + 0.5) / 4) / 1000, 3)
    return None


def leaderboard(games: Games, primary: str = "placement",
                samples: int = BOOTSTRAP_SAMPLES) -> list[dict[str, Any]]:
    """One row per entrant, best first by `primary`, with the keys documented in README."""
    if primary not in METRICS:
        raise ValueError(f"unknown metric {primary!r}; known: {', '.join(METRICS)}")
    if not games.game_ids:
        return []
    present = games.present.sum(axis=0)
    boot = bootstrap(games, samples)
    rated = ratings(games)
    rows: list[dict[str, Any]] = []
    for e, name in enumerate(games.names):
        n = present[e]
        row: dict[str, Any] = {"name": name, "games": int(n)}
        for metric, values in (("placement", games.points), ("win_share", games.wins),
                               ("money", games.money)):
            mean = float(values[:, e].sum() / n)
            lo, hi = np.nanpercentile(boot[metric][:, e], [2.5, 97.5])
            row[metric] = {"mean": mean, "low": float(lo), "high": float(hi)}
        mu, sigma = rated[e]
        row["rating"] = {"mu": mu, "sigma": sigma, "low": mu - 1.96 * sigma,
                         "high": mu + 1.96 * sigma}
        f = games.faults[e]
        row["faults"] = {group: sum(f.get(k, 0) for k in kinds)
                         for group, kinds in FAULT_GROUPS.items()}
        row["faults"]["retirements"] = games.retired[e]
        row["response_ms"] = {"median": _quantile(games.response[e], 0.5),
                              "p99": _quantile(games.response[e], 0.99)}
        rows.append(row)

    def key(r: dict[str, Any]) -> float:
        return float(r["rating"]["mu"] if primary == "rating" else r[primary]["mean"])

    rows.sort(key=lambda r: (-key(r), r["name"]))
    leader = rows[0][primary]
    for place, r in enumerate(rows, 1):
        r["rank"] = place
        r["separated"] = place == 1 or r[primary]["high"] < leader["low"]
    return rows


def head_to_head(games: Games) -> dict[str, dict[str, dict[str, int]]]:
    """For each ordered pair: games at the same table where a finished above b, below, level."""
    out: dict[str, dict[str, dict[str, int]]] = {
        a: {b: {"above": 0, "below": 0, "level": 0} for b in games.names if b != a}
        for a in games.names
    }
    for seats, ranks in zip(games.seats, games.ranks, strict=True):
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if i != j:
                    cell = out[games.names[a]][games.names[b]]
                    key = "above" if ranks[i] < ranks[j] else "below" if ranks[i] > ranks[j] \
                        else "level"
                    cell[key] += 1
    return out


def by_seat(games: Games) -> list[dict[str, Any]]:
    """Results by seat position over all entrants: the game's own seat bias."""
    table: dict[int, list[tuple[float, float, float]]] = {}
    for g, seats in enumerate(games.seats):
        for seat, e in enumerate(seats):
            table.setdefault(seat, []).append(
                (games.points[g, e], games.wins[g, e], games.money[g, e]))
    rows = []
    for seat in sorted(table):
        vals = np.array(table[seat])
        n = len(vals)
        half = 1.96 * vals[:, 0].std(ddof=1) / math.sqrt(n) if n > 1 else math.nan
        rows.append({"seat": seat, "games": n, "placement": float(vals[:, 0].mean()),
                     "placement_low": float(vals[:, 0].mean() - half),
                     "placement_high": float(vals[:, 0].mean() + half),
                     "win_share": float(vals[:, 1].mean()), "money": float(vals[:, 2].mean())})
    return rows
