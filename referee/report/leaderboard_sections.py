"""The leaderboard page's sections below the standings: the verdicts of neighbours in the
standings (every pair on pairs.html), the head-to-head grid and the seat bias."""

from __future__ import annotations

from referee.leaderboard.notes import method_note
from referee.leaderboard.pairs import Pair
from referee.leaderboard.render import PAIRED, los_text

from . import svg
from .data import Tournament
from .markup import Links, e, page, share_color
from .tables import cell, sortable

NEIGHBOURS = 3  # the front page's pairs: entrants at most this many places apart
H2H_MAX = 40  # entrants up to which the front page has the head-to-head grid
PAIRS_PAGE_MAX = 20_000  # rows of the page of every pair; beyond, the nearest pairs


def neighbour_pairs(data: Tournament) -> list[Pair]:
    """The pairs of entrants at most NEIGHBOURS places apart in the standings: the verdicts
    that decide the places, a few per entrant whatever the size of the field."""
    rank = {n: i for i, n in enumerate(data.placed)}
    return [p for p in data.pairs if abs(rank[p.a] - rank[p.b]) <= NEIGHBOURS]


def pairs_table(data: Tournament, links: Links, pairs: list[Pair], root: str) -> str:
    """Pairs with their paired difference, interval, LOS and verdict, sortable and
    searchable (a bot's name finds its pairs)."""
    digits = 1 if data.primary == "money" else 3
    rank = {n: i + 1 for i, n in enumerate(data.placed)}
    rows = []
    for p in pairs:
        t = p.test
        diff = ("-" if p.paired == "apart" else  # never compared: no difference to show
                f"{t.diff:+.{digits}f} <small>unbounded</small>" if t.low is None or
                t.high is None else f"{t.diff:+.{digits}f} <small>[{t.low:.{digits}f}, "
                f"{t.high:.{digits}f}]</small>")
        mark = ' class="separated"' if p.separated else ""
        rows.append(f"<tr{mark}>" + cell(str(rank[p.a])) + cell(links.bot(p.a, root), p.a)
                    + cell(str(rank[p.b])) + cell(links.bot(p.b, root), p.b)
                    + f"<td>{t.games}</td><td>{t.deals}</td><td>{PAIRED[p.paired]}</td>"
                    + cell(diff, t.diff) + f"<td>{los_text(p)}</td>"
                    f"<td>{'yes' if p.separated else 'no'}</td></tr>")
    return sortable("pairs", "pairs", ["#", "a", "#", "b", "games", "deals",
                                       "compared over", "a &minus; b [95% CI]", "LOS",
                                       "separated"], rows, search="search pairs by bot")


def pairs_section(data: Tournament, links: Links) -> str:
    """The verdicts of the pairs of neighbours in the standings, with every pair on
    pairs.html."""
    if not data.pairs:
        return ""
    near = neighbour_pairs(data)
    every = len(data.pairs)
    scope = (f"The {len(near):,} pairs of entrants at most {NEIGHBOURS} places apart, of "
             f'{every:,}: <a href="pairs.html">every pair</a>.' if len(near) < every else
             f'All {every} pairs (also on <a href="pairs.html">their own page</a>).')
    note = e(method_note(data.primary, data.pairs)).replace("\n", " ")
    return (f'<section><h2>Pairs</h2><p class="note">{scope}</p>'
            f"{pairs_table(data, links, near, '')}"
            f'<p class="note">{note}</p></section>')


def pairs_page(data: Tournament, links: Links) -> str:
    """Every pair on a page of its own; in a field of more than PAIRS_PAGE_MAX pairs, those of
    the entrants nearest in the standings (each entrant's nearest, whatever its place), the
    rest counted and left to `referee leaderboard --format json`."""
    listed = data.pairs
    more = ""
    if len(data.pairs) > PAIRS_PAGE_MAX:
        rank = {n: i for i, n in enumerate(data.placed)}
        apart = sorted({abs(rank[p.a] - rank[p.b]) for p in data.pairs})
        count = dict.fromkeys(apart, 0)
        for p in data.pairs:
            count[abs(rank[p.a] - rank[p.b])] += 1
        reach, total = 0, 0
        for d in apart:  # the most places apart that keeps the page within its rows
            if total + count[d] > PAIRS_PAGE_MAX:
                break
            reach, total = d, total + count[d]
        listed = [p for p in data.pairs if abs(rank[p.a] - rank[p.b]) <= reach]
        more = (f'<p class="note">The {len(listed):,} pairs of entrants at most {reach} places '
                f"apart, of {len(data.pairs):,}; <code>referee leaderboard --format json"
                "</code> gives every pair.</p>")
    note = e(method_note(data.primary, data.pairs)).replace("\n", " ")
    body = (f"<h1>Every pair</h1><section>{more}{pairs_table(data, links, listed, '')}"
            f'<p class="note">{note}</p></section>')
    return page(f"{data.name}: pairs", body, root="", kind="pairs", tournament=data.name,
                scripts='<script src="report.js"></script>\n')


def head_to_head_section(data: Tournament, links: Links) -> str:
    """The grid of every entrant against every other, with labels that stay in view; for a
    field of more than H2H_MAX, a note that each bot's page has its row."""
    names = data.names
    if len(names) > H2H_MAX:
        return ('<section><h2>Head to head</h2><p class="note">A grid of '
                f"{len(names)} &times; {len(names)} is too large to read: each bot's page "
                "has its record against each opponent.</p></section>")
    head = "".join(f'<th class="rot"><span>{e(n)}</span></th>' for n in names)
    rows = []
    for a in names:
        cells = [f"<th>{links.bot(a, '')}</th>"]
        for b in names:
            c = data.h2h.get(a, {}).get(b)
            if a == b:
                cells.append('<td class="self"></td>')
                continue
            if c is None or not c.total:  # never at one table
                cells.append('<td class="none">-</td>')
                continue
            share = c.share
            dark = abs(share - 0.5) > 0.35
            tip = (f"{a} finished above {b} in {c.above} of {c.total} games together "
                   f"(below {c.below}, level {c.level})")
            cells.append(f'<td style="background:{share_color(share)}"'
                         f'{" class=dark" if dark else ""} title="{e(tip)}">{share:.0%}'
                         f"<small>{c.above}/{c.total}</small></td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ('<section><h2>Head to head</h2><div class="scroll tall grid"><table class="h2h">'
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            '</div><p class="note">Each cell: how often the row\'s bot finished above the '
            "column's at the same table (a level finish counts half), and the count of games "
            "above of games together. Green: the row's bot did better.</p></section>")


def seats_section(data: Tournament) -> str:
    if not data.seats:
        return ""
    rows = []
    for s in data.seats:
        low, high = s.placement_low, s.placement_high
        bar = svg.interval_bar(s.placement, low, high, (0.0, 1.0),
                               label=f"seat {s.seat}: {s.placement:.3f}",
                               fill=svg.color(s.seat), width=240)
        ci = (f"{s.placement:.3f} <small>[{low:.3f}, {high:.3f}]</small>"
              if low == low else f"{s.placement:.3f}")  # NaN with one game
        rows.append(f"<tr><td>{s.seat}</td><td>{s.games}</td>"
                    f"<td>{s.win_share:.1%}</td><td><div class=\"cell-bar\">{bar}"
                    f"<span>{ci}</span></div></td><td>{s.money:.1f}</td></tr>")
    return ('<section><h2>Seat bias</h2><table class="seats"><thead><tr><th>seat</th>'
            "<th>games</th><th>win share</th><th>placement points "
            f'{svg.axis_caption((0.0, 1.0), "{:.1f}")}</th><th>mean money</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
            '<p class="note">Results by seat over all entrants: seat 0 is the first '
            "auctioneer. An even game gives every seat 0.5 placement points.</p></section>")
