"""The leaderboard page's sections below the standings: every pair's verdict, the
head-to-head grid and the seat bias."""

from __future__ import annotations

from referee.leaderboard.render import PAIRED, method_note

from . import svg
from .data import Tournament
from .markup import MAX_ROWS, Links, e, share_color


def pairs_section(data: Tournament, links: Links) -> str:
    """Every pair's paired difference with its interval, LOS and verdict."""
    if not data.pairs:
        return ""
    digits = 1 if data.primary == "money" else 3
    rows = []
    for p in data.pairs[:MAX_ROWS]:
        t = p.test
        diff = (f"{t.diff:+.{digits}f} <small>unbounded</small>" if t.low is None or
                t.high is None else f"{t.diff:+.{digits}f} <small>[{t.low:.{digits}f}, "
                f"{t.high:.{digits}f}]</small>")
        mark = ' class="separated"' if p.separated else ""
        rows.append(f"<tr{mark}>"
                    f"<td>{links.bot(p.a, '')}</td><td>{links.bot(p.b, '')}</td>"
                    f"<td>{t.games}</td><td>{t.deals}</td><td>{PAIRED[p.paired]}</td>"
                    f"<td>{diff}</td><td>{t.los:.1%}</td>"
                    f"<td>{'yes' if p.separated else 'no'}</td></tr>")
    more = (f'<p class="note">{len(data.pairs) - MAX_ROWS} more pairs not listed.</p>'
            if len(data.pairs) > MAX_ROWS else "")
    note = e(method_note(data.primary, len(data.pairs))).replace("\n", " ")
    return ('<section><h2>Pairs</h2><div class="scroll tall"><table class="pairs"><thead><tr>'
            "<th>a</th><th>b</th><th>games</th><th>deals</th><th>compared over</th>"
            "<th>a &minus; b [95% CI]</th><th>LOS</th><th>separated</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>{more}"
            f'<p class="note">{note}</p></section>')


def head_to_head_section(data: Tournament, links: Links) -> str:
    names = data.names
    head = "".join(f'<th class="rot"><span>{e(n)}</span></th>' for n in names)
    rows = []
    for a in names:
        cells = [f"<th>{links.bot(a, '')}</th>"]
        for b in names:
            c = data.h2h.get(a, {}).get(b)
            if a == b or c is None:
                cells.append('<td class="self"></td>')
                continue
            if not c.total:
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
    return ('<section><h2>Head to head</h2><div class="scroll"><table class="h2h">'
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
