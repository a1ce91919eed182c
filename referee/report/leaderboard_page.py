"""The report's front page: the standings with their intervals as bars, then the sections
of `leaderboard_sections.py` and the ratings as games accumulated."""

from __future__ import annotations

from referee.leaderboard.render import PLACE_NOTE, place_text
from referee.leaderboard.rows import Interval, StandingRow

from . import svg
from .data import Tournament
from .leaderboard_sections import head_to_head_section, pairs_section, seats_section
from .markup import FAULT_TITLES, Links, ci_html, e, page, rating_html

METRIC_TITLES = {"placement": "placement points", "win_share": "win share",
                 "money": "final money", "rating": "rating"}
COLUMNS = ("win_share", "placement", "money", "rating")  # the metrics shown, in this order


def _axis(rows: list[StandingRow], metric: str) -> tuple[float, float]:
    estimates = [r.metric(metric) for r in rows]
    return svg.padded_range([x for m in estimates for x in (m.low, m.high, m.centre)])


def leaderboard_page(data: Tournament, links: Links, stderr_note: str, published: int) -> str:
    rows = data.rows
    colors = {name: svg.color(i) for i, name in enumerate(data.names)}
    games = len(data.results)
    primary = data.primary
    parts = [f"<h1>{e(data.name)}</h1>",
             f'<p class="meta">{games} games, {len(rows)} entrants, ranked by '
             f"<b>{e(METRIC_TITLES.get(primary, primary))}</b>. "
             f'<a href="games.html">{published} game pages</a>. {stderr_note}</p>']
    if not rows:
        parts.append('<p class="note">No games are stored yet.</p>')
        parts.append(left_out_section(data))
        return page(data.name, "\n".join(parts), root="", kind="leaderboard",
                    tournament=data.name)
    parts.append(standings_section(data, links, colors))
    parts.append(left_out_section(data))
    parts.append(pairs_section(data, links))
    parts.append(head_to_head_section(data, links))
    parts.append(seats_section(data))
    series = [(name, colors[name], data.ratings.get(name, [])) for name in data.names]
    parts.append('<section><h2>Ratings as games accumulated</h2>'
                 + svg.line_chart(series, x_label="games played (in game id order)",
                                  y_label="rating (Elo)")
                 + '<p class="note">Each point: the ratings fitted to the first games alone, '
                   "in game id order; each line starts at the entrant's first game and ends at "
                   "its rating in the standings.</p></section>")
    return page(f"{data.name}: leaderboard", "\n".join(parts), root="", kind="leaderboard",
                tournament=data.name)


def left_out_section(data: Tournament) -> str:
    """The entrants the last run could not play, and why (nothing when there are none)."""
    if not data.left_out:
        return ""
    items = "".join(f"<li><b>{e(n)}</b>: {e(why)}</li>" for n, why in data.left_out.items())
    return (f"<section><h2>Left out</h2><p class=\"note\">Entrants the last run could not "
            f"play, and why.</p><ul>{items}</ul></section>")


def standings_section(data: Tournament, links: Links, colors: dict[str, str]) -> str:
    """The standings table: each metric's interval as a bar on one axis per column, the
    leader's interval on the primary metric shaded behind every bar of that column."""
    rows = data.rows
    primary = data.primary
    axes = {m: _axis(rows, m) for m in COLUMNS}
    leader = rows[0].metric(primary)
    band = (leader.low, leader.high)
    head = ["#", "place", "bot", "games"]
    for m in COLUMNS:
        fmt = "{:.0f}" if m in ("money", "rating") else "{:.2f}"
        head.append(f"{METRIC_TITLES[m]} {svg.axis_caption(axes[m], fmt)}")
    head += ["faults", "retired", "ms median / p99"]
    body = []
    for r in rows:
        cells = [str(r.rank), f'<span class="place">{place_text(r.place)}</span>',
                 f'<i class="sw" style="background:{colors[r.name]}"></i>'
                 f'{links.bot(r.name, "")}',
                 str(r.games)]
        for m in COLUMNS:
            est = r.metric(m)
            text = (ci_html(est, 1 if m == "money" else 3, pct=m == "win_share")
                    if isinstance(est, Interval) else rating_html(est))
            mean, low, high = est.centre, est.low, est.high
            bar = svg.interval_bar(mean, low, high, axes[m], label=f"{r.name}: {mean:.3g} "
                                   f"[{low:.3g}, {high:.3g}]", fill=colors[r.name],
                                   band=band if m == primary else None)
            cells.append(f'<div class="cell-bar">{bar}<span>{text}</span></div>')
        f = r.faults
        total = f.in_games
        detail = ", ".join(f"{FAULT_TITLES[k]} {v}" for k, v in f.counts().items()
                           if v and k != "retirements")
        cells.append(f'<span title="{e(detail)}">{total}</span>' if total else "0")
        cells.append(str(f.retirements))
        ms = r.response_ms
        cells.append("-" if ms.median is None else f"{ms.median:.2f} / {ms.p99:.2f}")
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return ('<section><h2>Standings</h2><div class="scroll"><table class="standings">'
            "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>"
            '<p class="note">Bars: 95% intervals from a bootstrap over deals (the games '
            "dealt one deck); the tick is the mean, or the rating fitted to all games; "
            "the shaded band is the leader's interval on the primary metric. Rating: "
            "Bradley-Terry on the Elo scale, mean 0 (400 points higher: 10 to 1 odds of "
            f"finishing above). {e(PLACE_NOTE[0].upper() + PLACE_NOTE[1:])}.</p>"
            + (f'<p class="note">{e(data.note[0].upper() + data.note[1:])}</p>'
               if data.note else "") + "</section>")
