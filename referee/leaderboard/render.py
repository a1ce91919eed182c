"""The leaderboard as a terminal table, Markdown, CSV or JSON.

A name is shown `visible` (escapes for control characters) in every format but JSON, which
escapes them itself: a store's names are only as trustworthy as whoever wrote it."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from tabulate import tabulate

from referee.text import visible


def _ci(m: dict[str, float], digits: int) -> str:
    return f"{m['mean']:.{digits}f} [{m['low']:.{digits}f}, {m['high']:.{digits}f}]"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _md(text: str) -> str:
    """A name as Markdown shows it as it is: its control characters `visible`, then `_`, `*`
    and friends escaped."""
    return "".join("\\" + c if c in "\\`*_[]<>|#+-.!" else c for c in visible(text))


def standings_table(rows: list[dict[str, Any]], fmt: str = "simple") -> str:
    body = []
    name = _md if fmt == "github" else visible
    for r in rows:
        f = r["faults"]
        body.append([
            r["rank"], name(r["name"]) + ("" if r["separated"] else " \\*" if fmt == "github"
                                          else " *"), r["games"],
            f"{r['win_share']['mean']:.1%}", _ci(r["placement"], 3), _ci(r["money"], 1),
            f"{r['rating']['mu']:.1f} ± {r['rating']['sigma']:.1f}",
            f["timeouts"], f["illegal_or_malformed"], f["crashes"], f["stderr_over_limit"],
            f["exits_between_games"], f["retirements"], _ms(r["response_ms"]["median"]),
            _ms(r["response_ms"]["p99"]),
        ])
    headers = ["#", "bot", "games", "win share", "placement [95% CI]", "money [95% CI]",
               "rating", "timeouts", "illegal", "crashes", "stderr cut", "exits", "retired",
               "ms median", "ms p99"]
    text = tabulate(body, headers=headers, tablefmt=fmt)
    if any(not r["separated"] for r in rows):
        legend = "* not separated from the leader: the 95% intervals overlap"
        # In Markdown a line starting "* " is a bullet, and one right after a table a row.
        text += "\n\n\\" + legend if fmt == "github" else "\n" + legend
    return text


def standings_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["rank", "name", "games", "separated", "win_share", "win_share_low",
                "win_share_high", "placement", "placement_low", "placement_high", "money",
                "money_low", "money_high", "rating_mu", "rating_sigma", "timeouts",
                "illegal_or_malformed", "crashes", "stderr_over_limit", "exits_between_games",
                "retirements",
                "response_ms_median",
                "response_ms_p99"])
    for r in rows:
        w.writerow([r["rank"], visible(r["name"]), r["games"], r["separated"],
                    *(f"{r[m][k]:.4f}" for m in ("win_share", "placement", "money")
                      for k in ("mean", "low", "high")),
                    f"{r['rating']['mu']:.3f}", f"{r['rating']['sigma']:.3f}",
                    r["faults"]["timeouts"], r["faults"]["illegal_or_malformed"],
                    r["faults"]["crashes"], r["faults"]["stderr_over_limit"],
                    r["faults"]["exits_between_games"], r["faults"]["retirements"],
                    r["response_ms"]["median"], r["response_ms"]["p99"]])
    return out.getvalue()


def head_to_head_table(h2h: dict[str, dict[str, dict[str, int]]], fmt: str = "simple") -> str:
    names = list(h2h)
    shown = [_md(n) if fmt == "github" else visible(n) for n in names]
    body = []
    for a, label in zip(names, shown, strict=True):
        row: list[Any] = [label]
        for b in names:
            if a == b:
                row.append("")
            else:
                c = h2h[a][b]
                total = c["above"] + c["below"] + c["level"]
                row.append(f"{c['above']}/{total}" if total else "-")
        body.append(row)
    return ("games in which the row's bot finished above the column's, of games together\n"
            + tabulate(body, headers=["", *shown], tablefmt=fmt))


def seats_table(rows: list[dict[str, Any]], fmt: str = "simple") -> str:
    body = [[r["seat"], r["games"], f"{r['win_share']:.1%}",
             f"{r['placement']:.3f} [{r['placement_low']:.3f}, {r['placement_high']:.3f}]",
             f"{r['money']:.1f}"] for r in rows]
    return tabulate(body, headers=["seat", "games", "win share", "placement [95% CI]", "money"],
                    tablefmt=fmt)


def render(rows: list[dict[str, Any]], fmt: str, h2h: dict[str, Any] | None = None,
           seats: list[dict[str, Any]] | None = None, primary: str = "placement") -> str:
    if fmt == "json":
        doc: dict[str, Any] = {"primary_metric": primary, "entrants": rows}
        if h2h is not None:
            doc["head_to_head"] = h2h
        if seats is not None:
            doc["seats"] = seats
        return json.dumps(doc, indent=2)
    if fmt == "csv":  # one table: the CLI refuses the extras with it
        return standings_csv(rows)
    tablefmt = "github" if fmt == "markdown" else "simple"
    parts = [standings_table(rows, tablefmt)]
    if h2h is not None:
        parts.append(head_to_head_table(h2h, tablefmt))
    if seats is not None:
        parts.append(seats_table(seats, tablefmt))
    return "\n\n".join(parts)
