"""The report's front page: the standings with their intervals as bars (sortable, searchable,
narrow by default), then the sections of `leaderboard_sections.py` and the ratings as games
accumulated."""

from __future__ import annotations

from referee.leaderboard.methods import place_note
from referee.leaderboard.notes import (
    BASELINES_NOTE,
    no_games_line,
    strength_note,
    strength_shown,
)
from referee.leaderboard.render import place_text, rank_text
from referee.leaderboard.rows import Interval, StandingRow

from . import svg
from .data import Tournament
from .leaderboard_sections import head_to_head_section, pairs_section, seats_section
from .markup import FAULT_TITLES, Links, ci_html, e, page, rating_html
from .tables import cell, sortable

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
             f'<p class="meta">{games:,} games, {entrants_counted(data)}, ranked by '
             f"<b>{e(METRIC_TITLES.get(primary, primary))}</b>"
             f"{'' if primary == 'rating' else ' adjusted for the opponents met'}. "
             f'<a href="games.html">{published:,} game pages</a>. {stderr_note}</p>']
    if not rows:
        parts.append('<p class="note">No games are stored yet.</p>')
        parts.append(left_out_section(data))
        return page(data.name, "\n".join(parts), root="", kind="leaderboard",
                    tournament=data.name)
    if data.baselines:
        parts.append(f'<p class="note">{e(BASELINES_NOTE.format(names=", ".join(data.baselines)))}'
                     "</p>")
    parts.append(standings_section(data, links, colors))
    parts.append(no_games_section(data))
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
                tournament=data.name, scripts='<script src="report.js"></script>\n')


def sentence(note: str) -> str:
    """A note of the text board as a sentence of the page: its first letter a capital."""
    return note[:1].upper() + note[1:]


def entrants_counted(data: Tournament) -> str:
    """How many entrants the standings hold, and of how many in the last run's file when
    some are not in them (at no table yet, left out): "8 entrants" read as the whole field to
    an organiser whose file had 11."""
    shown = len(data.rows)
    field = len(set(data.file_field) | {r.name for r in data.rows})
    if field <= shown:
        return f"{shown:,} entrant{'' if shown == 1 else 's'}"
    return f"{shown:,} of the {field:,} entrants in the standings"


def no_games_section(data: Tournament) -> str:
    """The entrants of the last run's file at no table of the games stored yet, as the text
    boards name them (nothing when there are none): not placed, and not forgotten."""
    if not data.no_games:
        return ""
    line = no_games_line(data.no_games, "html")
    return (f'<section><h2>No games yet</h2><p class="note">{e(sentence(line))}.'
            "</p></section>")


def left_out_section(data: Tournament) -> str:
    """The entrants the last run could not play, and why (nothing when there are none)."""
    if not data.left_out:
        return ""
    items = "".join(f"<li><b>{e(n)}</b>: {e(why)}</li>" for n, why in data.left_out.items())
    return (f"<section><h2>Left out</h2><p class=\"note\">Entrants the last run could not "
            f"play, and why.</p><ul>{items}</ul></section>")


def shown_metrics(primary: str) -> tuple[str, ...]:
    """The metrics the standings show by default: the primary one and the rating (or placement
    points when the rating is primary); the others are behind the table's toggle."""
    second = "placement" if primary == "rating" else "rating"
    return tuple(dict.fromkeys((primary, second)))


def standings_section(data: Tournament, links: Links, colors: dict[str, str]) -> str:
    """The standings table, sortable and searchable: each metric's interval as a bar on one
    axis per column, the leader's interval on the primary metric shaded behind every bar of
    that column; two metrics by default, so that it fits 1,400 px, the rest on demand."""
    rows = data.rows
    primary = data.primary
    shown = shown_metrics(primary)
    metrics = shown + tuple(m for m in COLUMNS if m not in shown)
    axes = {m: _axis(rows, m) for m in metrics}
    leader = rows[0].metric(primary)
    band = (leader.low, leader.high)
    head = ["#", "place", "bot", "games"]
    head_css = ["", "", "", ""]
    for m in metrics:
        fmt = "{:.0f}" if m in ("money", "rating") else "{:.2f}"
        head.append(f"{METRIC_TITLES[m]} {svg.axis_caption(axes[m], fmt)}")
        head_css.append("" if m in shown else "more")
    # The order's own figure beside the means, where it can order two entrants otherwise
    # than their plain means: the text board's rule (by rating, the order is the rating shown).
    adjusted = strength_shown(rows, primary)
    at = 4 + len(shown)
    if adjusted:
        head.insert(at, '<span title="what each bot\'s mean would be had every bot met the '
                        'same opponents; it orders the table">strength</span>')
        head_css.insert(at, "")
    head += ["faults", "retired", "ms median / p99"]
    head_css += ["", "more", "more"]
    body = []
    for r in rows:
        cells = [cell(rank_text(r.rank), r.rank if r.rank is not None else 0),
                 cell(f'<span class="place">{place_text(r.place)}</span>',
                      0 if r.place is None else r.place.best + r.place.worst / 10_000),
                 cell(f'<i class="sw" style="background:{colors[r.name]}"></i>'
                      f'{links.bot(r.name, "")}', r.name),
                 cell(str(r.games))]
        for m in metrics:
            est = r.metric(m)
            text = (ci_html(est, 1 if m == "money" else 3, pct=m == "win_share")
                    if isinstance(est, Interval) else rating_html(est))
            mean, low, high = est.centre, est.low, est.high
            bar = svg.interval_bar(mean, low, high, axes[m], label=f"{r.name}: {mean:.3g} "
                                   f"[{low:.3g}, {high:.3g}]", fill=colors[r.name],
                                   band=band if m == primary else None)
            cells.append(cell(f'<div class="cell-bar">{bar}<span>{text}</span></div>', mean,
                              "" if m in shown else "more"))
        if adjusted:
            cells.insert(at, cell(f"{r.strength:.{1 if primary == 'money' else 3}f}",
                                  r.strength))
        f = r.faults
        total = f.in_games
        detail = ", ".join(f"{FAULT_TITLES[k]} {v}" for k, v in f.counts().items()
                           if v and k != "retirements")
        cells.append(cell(f'<span title="{e(detail)}">{total}</span>' if total else "0"))
        cells.append(cell(str(f.retirements), css="more"))
        ms = r.response_ms
        cells.append(cell("-" if ms.median is None else f"{ms.median:.2f} / {ms.p99:.2f}",
                          -1 if ms.median is None else ms.median, "more"))
        body.append("<tr>" + "".join(cells) + "</tr>")
    table = sortable("standings", "standings", head, body, search="search bots",
                     more=True, head_css=head_css, box="standings-box")
    place = sentence(place_note(data.pairs))
    return ('<section><h2>Standings</h2>' + table +
            '<p class="note">A click on a heading sorts by it. Other metrics, retirements '
            "and response times: <b>all columns</b>, or each bot's page.</p>"
            + (f'<p class="note">{e(sentence(strength_note(primary)))}.</p>'
               if adjusted else "") +
            '<p class="note">Bars: 95% intervals from a bootstrap over deals (the games '
            "dealt one deck); the tick is the mean, or the rating fitted to all games; "
            "the shaded band is the leader's interval on the primary metric. Rating: "
            "Bradley-Terry on the Elo scale, mean 0 (400 points higher: 10 to 1 odds of "
            f"finishing above). {e(place)}.</p>"
            + (f'<p class="note">{e(sentence(data.note))}</p>'
               if data.note else "") + "</section>")
