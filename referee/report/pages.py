"""The report's HTML pages, written with `string.Template` and small helpers."""

from __future__ import annotations

import re
from collections import Counter
from html import escape
from pathlib import Path
from string import Template
from typing import Any

import orjson

from referee import __version__
from referee.leaderboard.render import PAIRED, PLACE_NOTE, method_note, place_text
from referee.match.record import GameResult

from . import svg
from .data import BotGame, Tournament
from .stderr import Excerpt

PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${root}report.css">
</head>
<body class="$kind">
<header><nav><a href="${root}index.html">Leaderboard</a><a href="${root}games.html">Games</a>\
<span class="tname">$tournament</span></nav></header>
<main>
$body
</main>
<footer>Written by <code>referee report</code> (referee $version).</footer>
$scripts</body>
</html>
""")

METRIC_TITLES = {"placement": "placement points", "win_share": "win share",
                 "money": "final money", "rating": "rating"}
FAULT_TITLES = {"timeouts": "timeouts", "illegal_or_malformed": "illegal or malformed",
                "crashes": "crashes", "stderr_over_limit": "stderr over limit",
                "exits_between_games": "exits between games", "retirements": "retirements"}
MAX_ROWS = 2000


def e(value: Any) -> str:
    return escape(str(value), quote=True)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", text)[:100] or "_"


class Links:
    """File names of the pages, and which games have one."""

    def __init__(self, names: list[str], games: list[str]) -> None:
        self.bots: dict[str, str] = {}
        used: set[str] = set()
        for name in names:
            base = f"bots/{slug(name)}"
            path, i = f"{base}.html", 1
            while path.lower() in used:  # two names that differ only in unsafe characters
                i += 1
                path = f"{base}-{i}.html"
            used.add(path.lower())
            self.bots[name] = path
        self.games = {gid: f"games/{slug(gid)}.html" for gid in games}

    def bot(self, name: str, root: str) -> str:
        path = self.bots.get(name)
        return f'<a href="{root}{e(path)}">{e(name)}</a>' if path else e(name)

    def game(self, gid: str, root: str, step: int | None = None) -> str:
        path = self.games.get(gid)
        if path is None:
            return (f'<span class="nopage" title="no page for this game in the report">'
                    f"{e(gid)}</span>")
        anchor = f"#step={step}" if step is not None else ""
        return f'<a href="{root}{e(path)}{anchor}">{e(gid)}</a>'


def page(title: str, body: str, *, root: str, kind: str, tournament: str,
         scripts: str = "") -> str:
    return PAGE.substitute(title=e(title), body=body, root=root, kind=kind,
                           tournament=e(tournament), version=e(__version__), scripts=scripts)


def _ci_text(m: dict[str, float], digits: int, pct: bool = False) -> str:
    if pct:
        return f"{m['mean']:.1%} <small>[{m['low']:.1%}, {m['high']:.1%}]</small>"
    return (f"{m['mean']:.{digits}f} <small>[{m['low']:.{digits}f}, "
            f"{m['high']:.{digits}f}]</small>")


def _rating_html(rating: dict[str, float]) -> str:
    return (f"{round(rating['elo'])} <small>[{round(rating['low'])}, "
            f"{round(rating['high'])}]</small>")


def _axis(rows: list[dict[str, Any]], metric: str) -> tuple[float, float]:
    centre = "elo" if metric == "rating" else "mean"
    values = [r[metric][k] for r in rows for k in ("low", "high", centre)]
    return svg.padded_range(values)


# ------------------------------------------------------------------ leaderboard page


def leaderboard_page(data: Tournament, links: Links, stderr_note: str, published: int) -> str:
    rows = data.rows
    colors = {name: svg.color(i) for i, name in enumerate(data.names)}
    games = len(data.results)
    primary = data.primary
    parts = [f"<h1>{e(data.name)}</h1>",
             f'<p class="meta">{games} games, {len(rows)} entrants, ranked by '
             f"<b>{e(METRIC_TITLES.get(primary, primary))}</b>. "
             f'<a href="games.html">{published} game replays</a>. {stderr_note}</p>']
    if not rows:
        parts.append('<p class="note">No games are stored yet.</p>')
        return page(data.name, "\n".join(parts), root="", kind="leaderboard",
                    tournament=data.name)
    axes = {m: _axis(rows, m) for m in ("win_share", "placement", "money", "rating")}
    leader = rows[0]
    head = ["#", "place", "bot", "games"]
    for m in ("win_share", "placement", "money", "rating"):
        fmt = "{:.0f}" if m in ("money", "rating") else "{:.2f}"
        head.append(f"{METRIC_TITLES[m]} {svg.axis_caption(axes[m], fmt)}")
    head += ["faults", "retired", "ms median / p99"]
    body = []
    for r in rows:
        band_src = leader["rating"] if primary == "rating" else leader[primary]
        band = (band_src["low"], band_src["high"])
        cells = [str(r["rank"]), f'<span class="place">{place_text(r["place"])}</span>',
                 f'<i class="sw" style="background:{colors[r["name"]]}"></i>'
                 f'{links.bot(r["name"], "")}',
                 str(r["games"])]
        for m in ("win_share", "placement", "money", "rating"):
            if m == "rating":
                rt = r["rating"]
                text = _rating_html(rt)
                mean, low, high = rt["elo"], rt["low"], rt["high"]
            else:
                text = _ci_text(r[m], 1 if m == "money" else 3, pct=m == "win_share")
                mean, low, high = r[m]["mean"], r[m]["low"], r[m]["high"]
            bar = svg.interval_bar(mean, low, high, axes[m], label=f"{r['name']}: {mean:.3g} "
                                   f"[{low:.3g}, {high:.3g}]", fill=colors[r["name"]],
                                   band=band if m == primary else None)
            cells.append(f'<div class="cell-bar">{bar}<span>{text}</span></div>')
        f = r["faults"]
        total = f["timeouts"] + f["illegal_or_malformed"] + f["crashes"] + f["stderr_over_limit"]
        detail = ", ".join(f"{FAULT_TITLES[k]} {v}" for k, v in f.items()
                           if v and k != "retirements")
        cells.append(f'<span title="{e(detail)}">{total}</span>' if total else "0")
        cells.append(str(f["retirements"]))
        ms = r["response_ms"]
        cells.append("-" if ms["median"] is None else f"{ms['median']:.2f} / {ms['p99']:.2f}")
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    parts.append('<section><h2>Standings</h2><div class="scroll"><table class="standings">'
                 "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>"
                 f"<tbody>{''.join(body)}</tbody></table></div>"
                 '<p class="note">Bars: 95% intervals from a bootstrap over deals (the games '
                 "dealt one deck); the tick is the mean, or the rating fitted to all games; "
                 "the shaded band is the leader's interval on the primary metric. Rating: "
                 "Bradley-Terry on the Elo scale, mean 0 (400 points higher: 10 to 1 odds of "
                 f"finishing above). {e(PLACE_NOTE[0].upper() + PLACE_NOTE[1:])}.</p>"
                 "</section>")
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


def _share_color(share: float) -> str:
    """Red below an even share, white at it, green above."""
    share = min(1.0, max(0.0, share))
    if share >= 0.5:
        t = (share - 0.5) * 2
        r, g, b = (255 + (26 - 255) * t, 255 + (152 - 255) * t, 255 + (80 - 255) * t)
    else:
        t = (0.5 - share) * 2
        r, g, b = (255 + (215 - 255) * t, 255 + (48 - 255) * t, 255 + (39 - 255) * t)
    return f"rgb({r:.0f},{g:.0f},{b:.0f})"


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
            total = c["above"] + c["below"] + c["level"]
            if not total:
                cells.append('<td class="none">-</td>')
                continue
            share = (c["above"] + c["level"] / 2) / total
            dark = abs(share - 0.5) > 0.35
            tip = (f"{a} finished above {b} in {c['above']} of {total} games together "
                   f"(below {c['below']}, level {c['level']})")
            cells.append(f'<td style="background:{_share_color(share)}"'
                         f'{" class=dark" if dark else ""} title="{e(tip)}">{share:.0%}'
                         f"<small>{c['above']}/{total}</small></td>")
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
        low, high = s["placement_low"], s["placement_high"]
        bar = svg.interval_bar(s["placement"], low, high, (0.0, 1.0),
                               label=f"seat {s['seat']}: {s['placement']:.3f}",
                               fill=svg.color(s["seat"]), width=240)
        ci = (f"{s['placement']:.3f} <small>[{low:.3f}, {high:.3f}]</small>"
              if low == low else f"{s['placement']:.3f}")  # NaN with one game
        rows.append(f"<tr><td>{s['seat']}</td><td>{s['games']}</td>"
                    f"<td>{s['win_share']:.1%}</td><td><div class=\"cell-bar\">{bar}"
                    f"<span>{ci}</span></div></td><td>{s['money']:.1f}</td></tr>")
    return ('<section><h2>Seat bias</h2><table class="seats"><thead><tr><th>seat</th>'
            "<th>games</th><th>win share</th><th>placement points "
            f'{svg.axis_caption((0.0, 1.0), "{:.1f}")}</th><th>mean money</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
            '<p class="note">Results by seat over all entrants: seat 0 is the first '
            "auctioneer. An even game gives every seat 0.5 placement points.</p></section>")


# ------------------------------------------------------------------ games page


def games_page(data: Tournament, links: Links, policy: str) -> str:
    rows = []
    by_id = {result.game_id: result for result in data.results}
    for gid in links.games:
        seats = []
        for s in by_id[gid].seats():
            nf = len(s.faults)
            mark = f' <span class="fault">{nf} fault{"s" if nf > 1 else ""}</span>' if nf else ""
            if s.retired:
                mark += ' <span class="fault">retired</span>'
            win = " win" if s.rank == 1 else ""
            seats.append(f'<span class="seat{win}">{e(s.name)} {s.money}{mark}</span>')
        rows.append(f"<tr><td>{links.game(gid, '')}</td><td>{' '.join(seats)}</td></tr>")
    body = (f"<h1>Game replays</h1><p class=\"meta\">{e(policy)}</p>"
            '<table class="games"><thead><tr><th>game</th><th>seats by seat order: final '
            f"money (winners in bold)</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return page(f"{data.name}: games", body, root="", kind="games", tournament=data.name)


# ------------------------------------------------------------------ bot pages


def bot_page(data: Tournament, links: Links, name: str, stderr_dir: Path | None,
             excerpts: list[Excerpt], fault_step: dict[tuple[str, int], list[int]]) -> str:
    root = "../"
    row = next((r for r in data.rows if r["name"] == name), None)
    played: list[BotGame] = data.bot_games.get(name, [])
    parts = [f"<h1>{e(name)}</h1>"]
    if row is not None:
        f = row["faults"]
        ms = row["response_ms"]
        figures = [
            ("rank", f"{row['rank']} of {len(data.rows)}"),
            ("place", place_text(row["place"])
             + ("" if row["place"]["best"] == row["place"]["worst"] else
                " (the places it could hold, given the paired tests)")),
            ("games", str(row["games"])),
            ("win share", _ci_text(row["win_share"], 3, pct=True)),
            ("placement points", _ci_text(row["placement"], 3)),
            ("final money", _ci_text(row["money"], 1)),
            ("rating", _rating_html(row["rating"]) + " Elo"),
            ("faults", ", ".join(f"{FAULT_TITLES[k]} {v}" for k, v in f.items())),
            ("response time", "-" if ms["median"] is None
             else f"median {ms['median']:.2f} ms, p99 {ms['p99']:.2f} ms"),
        ]
        parts.append('<section><h2>Results</h2><dl class="figures">'
                     + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in figures) + "</dl>")
        places = Counter(g.rank for g in played)
        top = max((len(g.names) for g in played), default=4)
        parts.append('<div class="places"><h3>Finishing places</h3>'
                     + svg.bars([places.get(p, 0) for p in range(1, top + 1)],
                                [f"#{p}" for p in range(1, top + 1)],
                                fill=svg.color(data.names.index(name)),
                                title=f"{name}: games finished in each place")
                     + "</div>")
        h2h = data.h2h.get(name, {})
        vs = []
        for other in data.names:
            c = h2h.get(other)
            if other == name or c is None:
                continue
            total = c["above"] + c["below"] + c["level"]
            if total:
                share = (c["above"] + c["level"] / 2) / total
                vs.append(f'<tr><td>{links.bot(other, root)}</td>'
                          f'<td style="background:{_share_color(share)}">{share:.0%}</td>'
                          f"<td>{c['above']}</td><td>{c['below']}</td><td>{c['level']}</td>"
                          f"<td>{total}</td></tr>")
        if vs:
            parts.append('<div class="vs"><h3>Against each opponent</h3><table><thead><tr>'
                         "<th>opponent</th><th>share above</th><th>above</th><th>below</th>"
                         f"<th>level</th><th>games</th></tr></thead><tbody>{''.join(vs)}"
                         "</tbody></table></div>")
        parts.append("</section>")
    parts.append(_faults_section(played, links, root, fault_step))
    parts.append(_stderr_section(name, stderr_dir, excerpts))
    parts.append(_games_section(played, links, root))
    return page(f"{name}: {data.name}", "\n".join(parts), root=root, kind="bot",
                tournament=data.name)


def _faults_section(played: list[BotGame], links: Links, root: str,
                    fault_step: dict[tuple[str, int], list[int]]) -> str:
    rows: list[str] = []
    count = 0
    for g in played:
        steps = fault_step.get((g.game_id, g.seat), [])
        for i, f in enumerate(g.faults):
            count += 1
            if len(rows) < MAX_ROWS:
                link = links.game(g.game_id, root, steps[i] if i < len(steps) else None)
                rows.append(f"<tr><td>{link}</td><td>{g.seat}</td><td>{e(f.kind)}</td>"
                            f'<td class="reason">{e(f.reason)}</td></tr>')
    if not count:
        return '<section><h2>Faults</h2><p class="note">No faults.</p></section>'
    more = (f'<p class="note">{count - len(rows)} more faults not listed.</p>'
            if count > len(rows) else "")
    return (f"<section><h2>Faults ({count})</h2><div class=\"scroll tall\"><table "
            'class="faults"><thead><tr><th>game</th><th>seat</th><th>kind</th><th>reason</th>'
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>{more}"
            '<p class="note">A linked game opens at that fault.</p></section>')


def _stderr_section(name: str, stderr_dir: Path | None, excerpts: list[Excerpt]) -> str:
    head = "<section><h2>Standard error</h2>"
    if stderr_dir is None:
        return (head + '<p class="note">Not included: this report was written without '
                "<code>--stderr-dir</code>. Give it the folder passed to <code>referee "
                "tournament run --stderr-dir</code> to include the last lines of each bot's "
                "stderr.</p></section>")
    if not excerpts:
        return (head + f'<p class="note">No stderr log for {e(name)} in '
                f"<code>{e(stderr_dir)}</code> (nothing written, or no such file).</p></section>")
    blocks = []
    for x in excerpts:
        blocks.append(f"<h3><code>{e(x.file)}</code> <small>({x.size:,} bytes; the last "
                      f"{len(x.lines)} lines)</small></h3><pre class=\"stderr\">"
                      f"{e(chr(10).join(x.lines))}</pre>")
    return head + "".join(blocks) + "</section>"


def _games_section(played: list[BotGame], links: Links, root: str) -> str:
    rows = []
    for g in played[:MAX_ROWS]:
        others = ", ".join(links.bot(n, root) for s, n in enumerate(g.names) if s != g.seat)
        marks = (f' <span class="fault">{len(g.faults)} fault'
                 f'{"s" if len(g.faults) > 1 else ""}</span>' if g.faults else "")
        if g.retired:
            marks += ' <span class="fault">retired</span>'
        rows.append(f"<tr><td>{links.game(g.game_id, root)}</td><td>{g.seat}</td>"
                    f"<td>{g.rank}</td><td>{g.money}</td><td>{others}</td><td>{marks}</td></tr>")
    more = (f'<p class="note">{len(played) - MAX_ROWS} more games not listed.</p>'
            if len(played) > MAX_ROWS else "")
    return (f"<section><h2>Games ({len(played)})</h2><div class=\"scroll tall\"><table "
            'class="bot-games"><thead><tr><th>game</th><th>seat</th><th>rank</th><th>money</th>'
            f"<th>opponents</th><th></th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f'</div>{more}<p class="note">Linked games have a replay page.</p></section>')


# ------------------------------------------------------------------ game pages


def _json_for_script(doc: dict[str, Any]) -> str:
    """JSON safe inside <script>: no `</script>` or `<!--` can close or confuse the block."""
    text = orjson.dumps(doc).decode()
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def game_page(data: Tournament, links: Links, doc: dict[str, Any], result: GameResult) -> str:
    """The replay page of one game: `doc` (game_document's) for the viewer, and its result."""
    root = "../"
    seats = ", ".join(f"{s}: {links.bot(n, root)}" for s, n in enumerate(result.names))
    variants = ", ".join(doc["variants"]) or "none"
    final = []
    for s in sorted(result.seats(), key=lambda s: (s.rank, s.seat)):
        reasons = "; ".join(f"{f.kind}: {f.reason}" for f in s.faults)
        final.append(f"<tr><td>{s.rank}</td><td>{links.bot(s.name, root)}</td>"
                     f"<td>{s.seat}</td><td>{s.money}</td>"
                     f"<td>{'retired' if s.retired else ''}</td>"
                     f'<td class="reason">{e(reasons)}</td></tr>')
    steps = len(doc["steps"])
    body = f"""<h1>Game {e(doc['game_id'])}</h1>
<p class="meta">Seed {doc['seed']}, edition {e(doc['edition'])}, variants {e(variants)}.
Seats: {seats}.</p>
<div id="viewer" class="viewer" data-steps="{steps}">
<div class="controls">
<button type="button" id="first" title="First step (Home)" aria-label="first step">&laquo;</button>
<button type="button" id="prev" title="Back (left arrow)" aria-label="back">&#x25C0;</button>
<span id="step-counter" class="counter">1 / {steps}</span>
<button type="button" id="next" title="Forward (right arrow)" aria-label="forward">&#x25B6;</button>
<button type="button" id="last" title="Last step (End)" aria-label="last step">&raquo;</button>
<input type="range" id="slider" min="0" max="{max(0, steps - 1)}" value="0" aria-label="step">
<span class="hint">Arrow keys step; Home and End jump.</span>
</div>
<div id="step-text" class="step-text"></div>
<div class="panes">
<section class="pane players-pane"><h2>Players</h2><table id="players" class="players"></table>
<div id="final" class="final"></div></section>
<section class="pane auction-pane"><h2>Auction</h2><div id="auction"></div></section>
<section class="pane board-pane"><h2>Board <small id="round-label"></small></h2>
<table id="board" class="board"></table></section>
<section class="pane log-pane"><h2>Every step</h2><ol id="log" class="log"></ol></section>
<section class="pane chart-pane"><h2>Money over the game</h2><div id="money-chart"></div></section>
</div>
</div>
<noscript><p class="note">The replay viewer needs JavaScript; the result is below.</p></noscript>
<section><h2>Result (from the record)</h2><table class="result"><thead><tr><th>rank</th>
<th>bot</th><th>seat</th><th>money</th><th></th><th>faults</th></tr></thead>
<tbody>{''.join(final)}</tbody></table></section>
<script type="application/json" id="game-data">{_json_for_script(doc)}</script>"""
    return page(f"Game {doc['game_id']}: {data.name}", body, root=root, kind="game",
                tournament=data.name, scripts=f'<script src="{root}report.js"></script>\n')


def missing_game_page(data: Tournament, gid: str, why: str) -> str:
    body = (f"<h1>Game {e(gid)}</h1><p class=\"note\">No replay: the stored record of this "
            f"game cannot be read ({e(why)}).</p>")
    return page(f"Game {gid}: {data.name}", body, root="../", kind="game",
                tournament=data.name)
