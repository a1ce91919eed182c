"""The leaderboard as a terminal table, Markdown, CSV or JSON.

A name is shown `visible` (escapes for control characters) in every format but JSON, which
escapes them itself: a store's names are only as trustworthy as whoever wrote it.  The notes
under the tables are `notes.py`'s; this module lays out the rows and puts the notes under them."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

import tabulate as tabulate_module
from tabulate import tabulate

from referee.text import visible

from .late import Late, late_line
from .methods import place_note
from .notes import (
    BASELINES_NOTE,
    DIGITS,
    MS_NOTE,
    fixed,
    left_out_lines,
    md,
    method_note,
    never_started_line,
    no_games_line,
    strength_note,
    strength_shown,
    wrapped,
)
from .pairs import Pair
from .rows import HeadToHead, Interval, Place, Rating, SeatRow, StandingRow
from .stats import Standings

PAIRED = {"table": "same tables", "deal": "same deals", "none": "all games (unpaired)",
          "model": "all blocks (model)", "apart": "not compared (tables share no entrant)"}


def _ci(m: Interval, digits: int) -> str:
    return f"{m.mean:.{digits}f} [{m.low:.{digits}f}, {m.high:.{digits}f}]"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


BASELINE_PLACE = "baseline"  # a gauntlet's baseline holds no place: its row says this


def place_text(place: Place | None) -> str:
    """"1" when the place is known, else the range "1-3"; a gauntlet's baseline, which holds
    none, "baseline"."""
    if place is None:
        return BASELINE_PLACE
    return str(place.best) if place.best == place.worst else f"{place.best}-{place.worst}"


def rank_text(rank: int | None) -> str:
    """The row's rank among the placed entrants; blank for a gauntlet's baseline."""
    return "" if rank is None else str(rank)


def rating_text(rating: Rating) -> str:
    """The Elo rating and its 95% interval, in whole points."""
    return f"{round(rating.elo)} [{round(rating.low)}, {round(rating.high)}]"


def _metrics(r: StandingRow, primary: str) -> tuple[list[str], list[str]]:
    """The narrow table's metric columns: the primary metric with its interval, the others
    as means (`--wide` shows every interval)."""
    shown = {"win_share": ("win share", f"{r.win_share.mean:.1%}", None),
             "placement": ("placement", f"{r.placement.mean:.3f}", _ci(r.placement, 3)),
             "money": ("money", f"{r.money.mean:.1f}", _ci(r.money, 1)),
             "rating": ("Elo", f"{round(r.rating.elo)}", rating_text(r.rating))}
    heads, cells = [], []
    for metric, (head, mean, ci) in shown.items():
        if metric == primary and ci is not None:
            heads.append(f"{head} [95% CI]")
            cells.append(ci)
        else:
            heads.append(head)
            cells.append(mean)
    return heads, cells


def standings_table(rows: list[StandingRow], fmt: str = "simple", primary: str = "placement",
                    wide: bool = False, pairs: Sequence[Pair] = ()) -> str:
    """The standings as a terminal or Markdown table: by default narrow enough for 120
    columns (the primary metric's interval, the faults summed); `wide`, every interval, every
    kind of fault and the response times; the strength that orders it where it differs from
    the plain means; `pairs`: those that gave the places, whose tests the note names."""
    body = []
    strength = strength_shown(rows, primary)
    name = md if fmt == "github" else visible
    headers = ["#", "place", "bot", "games"]
    for r in rows:
        f = r.faults
        row: list[Any] = ["" if r.rank is None else r.rank, place_text(r.place), name(r.name),
                          r.games]
        if wide:
            row += [f"{r.win_share.mean:.1%}", _ci(r.placement, 3), _ci(r.money, 1),
                    rating_text(r.rating), f.timeouts, f.illegal_or_malformed, f.crashes,
                    f.stderr_over_limit, f.exits_between_games, f.retirements,
                    _ms(r.response_ms.median), _ms(r.response_ms.p99)]
        else:
            row += _metrics(r, primary)[1]
            row += [f.timeouts + f.illegal_or_malformed + f.crashes + f.stderr_over_limit
                    + f.exits_between_games, f.retirements]
        if strength:
            row.insert(4, f"{r.strength:.1%}" if primary == "win_share" else r.strength)
        body.append(row)
    if wide:
        headers += ["win share", "placement [95% CI]", "money [95% CI]",
                    "rating (Elo) [95% CI]", "timeouts", "illegal/malformed", "crashes",
                    "stderr cut", "exits", "retired", "ms median", "ms p99"]
    else:
        headers += _metrics(rows[0], primary)[0] if rows else ["placement"]
        headers += ["faults", "retired"]
    if strength:
        headers.insert(4, "strength")
    # Place and name as text: tabulate would align "1" unlike "1-2", and show a bot named
    # "1e3" as 1000; the strength with the primary metric's digits.
    floats = ["g"] * len(headers)
    for i, head in enumerate(headers):  # a mean as its digits say ("300.0", not "300")
        floats[i] = {"placement": ".3f", "money": ".1f"}.get(head, floats[i])
    if strength:
        floats[4] = f".{DIGITS[primary]}f"  # (a win share is text, as its column)
    text = _narrow(body, headers, fmt, floats, strength)
    if not rows:
        return text
    # In Markdown a line right after a table is read as one more row.
    sep = "\n\n" if fmt == "github" else "\n"
    notes = [MS_NOTE, place_note(pairs)] if wide else [place_note(pairs)]
    if strength:
        notes.append(strength_note(primary))
    return text + sep + sep.join(wrapped(note, fmt) for note in notes)


def _narrow(body: list[list[Any]], headers: list[str], fmt: str, floats: list[str],
            strength: bool) -> str:
    """The table; with the strength column, without tabulate's padding of two beyond each
    header, so that names of 20 characters still fit 120 columns (tabulate has no argument
    for it: its module setting is changed for this call, the CLI's one thread)."""
    padding = tabulate_module.MIN_PADDING
    if strength:
        tabulate_module.MIN_PADDING = 0
    try:
        return tabulate(body, headers=headers, tablefmt=fmt, floatfmt=floats,
                        disable_numparse=[1, 2] if body else True)  # (a list fails on none)
    finally:
        tabulate_module.MIN_PADDING = padding


def standings_csv(rows: list[StandingRow], left_out: dict[str, str] | None = None,
                  baselines: Sequence[str] = (), never_started: Sequence[str] = (),
                  withdrawn_games: Mapping[str, int] | None = None,
                  late_runs: Mapping[str, int] | None = None,
                  no_games: Sequence[str] = ()) -> str:
    """One row per entrant; whether it is a gauntlet's baseline and whether it started in none
    of its games (placed last by rule), which the other formats mark too; the last column
    says why an entrant was left out.  A left-out or withdrawn entrant not on the board has
    a row of its own, its figures empty but its games: a withdrawn one's stored games
    (`withdrawn_games`), out of the board, as its reason says (its row said 0 where 280 were
    kept); one left out, those the board counts: none (any it has stored are of tables
    outside the sample or with a withdrawn entrant, which the board leaves out too).
    `late_runs`: the run in which each entrant that joined late first played (`late.py`),
    its `joined_late` column (empty for the others).  An entrant with `no_games` yet (in the
    last run's file, at no table stored) has a row too, its figures empty and its games 0."""
    left_out = left_out or {}
    held = withdrawn_games or {}
    late_runs = late_runs or {}
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["rank", "name", "games", "separated", "place_best", "place_worst", "win_share",
                "win_share_low", "win_share_high", "placement", "placement_low",
                "placement_high", "money", "money_low", "money_high", "rating_elo",
                "rating_low", "rating_high", "timeouts", "illegal_or_malformed", "crashes",
                "stderr_over_limit", "exits_between_games", "retirements",
                "response_ms_median", "response_ms_p99", "strength", "joined_late",
                "baseline", "never_started", "left_out"])
    for r in rows:
        w.writerow([rank_text(r.rank), visible(r.name), r.games, r.separated,
                    *(("", "") if r.place is None else (r.place.best, r.place.worst)),
                    *(f"{x:.4f}" for m in (r.win_share, r.placement, r.money)
                      for x in (m.mean, m.low, m.high)),
                    *(f"{x:.1f}" for x in (r.rating.elo, r.rating.low, r.rating.high)),
                    r.faults.timeouts, r.faults.illegal_or_malformed, r.faults.crashes,
                    r.faults.stderr_over_limit, r.faults.exits_between_games,
                    r.faults.retirements, r.response_ms.median, r.response_ms.p99,
                    fixed(r.strength, 4), late_runs.get(r.name, ""),
                    r.baseline or r.name in baselines,
                    r.name in never_started,
                    visible(left_out.get(r.name, ""))])
    ranked = {r.name for r in rows}
    for name, why in left_out.items():
        if name not in ranked:
            w.writerow(["", visible(name), held.get(name, 0), *[""] * 25, name in baselines,
                        "", visible(why)])
    for name in no_games:
        w.writerow(["", visible(name), 0, *[""] * 25, name in baselines, "", ""])
    return out.getvalue()


def difference_text(pair: Pair, digits: int) -> str:
    """a - b with its simultaneous 95% interval, or "unbounded" where the design cannot
    bound it at that level; "-" for a pair never compared (tables that never meet), whose
    difference of 0 would read as a level pair that more deals could bound."""
    t = pair.test
    if pair.paired == "apart":
        return "-"
    if t.low is None or t.high is None:
        return f"{t.diff:+.{digits}f} (unbounded)"
    return f"{t.diff:+.{digits}f} [{t.low:+.{digits}f}, {t.high:+.{digits}f}]"


def los_text(pair: Pair) -> str:
    """The likelihood of superiority, or "-" for a pair never compared (its 50% is no
    measure)."""
    return "-" if pair.paired == "apart" else f"{pair.test.los:.1%}"


def pairs_table(pairs: list[Pair], primary: str, fmt: str = "simple") -> str:
    name = md if fmt == "github" else visible
    digits = 1 if primary == "money" else 3
    body = [[name(p.a), name(p.b), p.test.games, p.test.deals, PAIRED[p.paired],
             difference_text(p, digits), los_text(p), "yes" if p.separated else "no"]
            for p in pairs]
    headers = ["a", "b", "games", "deals", "compared over", "a - b [95% CI]", "LOS",
               "separated"]
    sep = "\n\n" if fmt == "github" else "\n"
    return (tabulate(body, headers=headers, tablefmt=fmt, disable_numparse=[0, 1]) + sep
            + method_note(primary, pairs).replace("\n", sep))


def head_to_head_table(h2h: HeadToHead, fmt: str = "simple") -> str:
    names = list(h2h)
    shown = [md(n) if fmt == "github" else visible(n) for n in names]
    body = []
    for a, label in zip(names, shown, strict=True):
        row: list[Any] = [label]
        for b in names:
            if a == b:
                row.append("")
            else:
                c = h2h[a][b]
                row.append(f"{c.above}/{c.total}" if c.total else "-")
        body.append(row)
    return ("games in which the row's bot finished above the column's, of games together\n"
            + tabulate(body, headers=["", *shown], tablefmt=fmt))


def seats_table(rows: list[SeatRow], fmt: str = "simple") -> str:
    body = [[r.seat, r.games, f"{r.win_share:.1%}",
             f"{r.placement:.3f} [{r.placement_low:.3f}, {r.placement_high:.3f}]",
             f"{r.money:.1f}"] for r in rows]
    return tabulate(body, headers=["seat", "games", "win share", "placement [95% CI]", "money"],
                    tablefmt=fmt)


def render(board: Standings, fmt: str, h2h: HeadToHead | None = None,
           seats: list[SeatRow] | None = None, primary: str = "placement",
           with_pairs: bool = False, left_out: dict[str, str] | None = None,
           wide: bool = False, baselines: list[str] | None = None,
           unfinished: str | None = None,
           withdrawn_games: Mapping[str, int] | None = None,
           decision: str | None = None, late: Sequence[Late] = (),
           no_games: Sequence[str] = ()) -> str:
    """The standings in `fmt`; JSON always holds the pairs, the tables when `with_pairs`.
    `left_out`: the entrants the last run could not play, with why, in every format; `wide`:
    the table and Markdown with every column (`standings_table`); `baselines`: a gauntlet's,
    named under the table (and in JSON), shown without a place (the `standings` of the candidates);
    `unfinished`: the note that the store holds part of its tournament, in the formats that
    are published (Markdown, JSON: `unfinished`), the table's on stderr by the command;
    `withdrawn_games`: the games stored of each withdrawn entrant, CSV's `games` of their
    rows (the other formats say it in the reason); `decision`: what a run with `until`
    decided (where it stopped and why: who qualified, or what stayed open), in the table,
    Markdown and JSON (`until`), the CSV's on stderr by the command; `late`: the entrants
    that joined late (`late.py`), a line under the tables, `joined_late` in JSON and CSV;
    `no_games`: the entrants of the last run's file at no table yet, a line under the tables
    (`no_games` in JSON, rows of their own in CSV)."""
    rows = board.rows
    left_out = left_out or {}
    if fmt == "json":
        doc: dict[str, Any] = {"primary_metric": primary,
                               "entrants": [r.as_dict() for r in rows],
                               "pairs": [p.as_dict() for p in board.pairs],
                               "note": board.note,
                               "never_started": list(board.never_started),
                               "left_out": [{"name": n, "reason": why}
                                            for n, why in left_out.items()],
                               "baselines": baselines or [],
                               "unfinished": unfinished,
                               "until": decision,
                               "joined_late": [x.as_dict() for x in late],
                               "no_games": list(no_games)}
        if h2h is not None:
            doc["head_to_head"] = {a: {b: c.as_dict() for b, c in row.items()}
                                   for a, row in h2h.items()}
        if seats is not None:
            doc["seats"] = [s.as_dict() for s in seats]
        return json.dumps(doc, indent=2)
    if fmt == "csv":  # one table: the CLI refuses the extras with it
        return standings_csv(rows, left_out, baselines or (), board.never_started,
                             withdrawn_games, {x.name: x.run for x in late}, no_games)
    tablefmt = "github" if fmt == "markdown" else "simple"
    parts = [standings_table(rows, tablefmt, primary, wide, board.pairs)]
    if board.never_started:
        parts.append(wrapped(never_started_line(board.never_started, baselines or ()),
                              tablefmt))
    if late:
        parts.append(wrapped(late_line(late, md if fmt == "markdown" else visible), tablefmt))
    if board.note:
        parts.append(wrapped(board.note, tablefmt))
    if board.narrow and fmt == "table":  # the organiser's next step: not for publishing
        parts.append(wrapped(board.narrow, tablefmt))
    if baselines:
        parts.append(wrapped(BASELINES_NOTE.format(names=", ".join(visible(b) for b in
                                                                    baselines)), tablefmt))
    if no_games:
        parts.append(wrapped(no_games_line(no_games, tablefmt), tablefmt))
    if left_out:
        parts.append(left_out_lines(left_out, tablefmt))
    if decision:
        parts.append(wrapped(decision, tablefmt))
    if unfinished and fmt == "markdown":
        parts.append(wrapped(unfinished, tablefmt))
    if with_pairs:
        parts.append(pairs_table(board.pairs, primary, tablefmt))
    if h2h is not None:
        parts.append(head_to_head_table(h2h, tablefmt))
    if seats is not None:
        parts.append(seats_table(seats, tablefmt))
    return "\n\n".join(parts)
