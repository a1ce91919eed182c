"""A bot's page: its results and how it did against each opponent, its faults with links to
where they happened, the end of its stderr, and its games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from referee.leaderboard.render import place_text
from referee.leaderboard.rows import StandingRow

from . import svg
from .data import BotGame, Tournament
from .markup import FAULT_TITLES, MAX_ROWS, Links, ci_html, e, page, rating_html, share_color
from .stderr import Excerpt


def bot_page(data: Tournament, links: Links, name: str, stderr_dir: Path | None,
             excerpts: list[Excerpt], fault_step: dict[tuple[str, int], list[int]]) -> str:
    root = "../"
    row = next((r for r in data.rows if r.name == name), None)
    played: list[BotGame] = data.bot_games.get(name, [])
    parts = [f"<h1>{e(name)}</h1>"]
    if row is not None:
        parts.append(_results_section(data, links, row, played, root))
    parts.append(_faults_section(played, links, root, fault_step))
    crashed = sum(1 for g in played for f in g.faults if f.kind in ("crash", "start"))
    parts.append(_stderr_section(name, stderr_dir, excerpts, crashed))
    parts.append(_games_section(played, links, root))
    return page(f"{name}: {data.name}", "\n".join(parts), root=root, kind="bot",
                tournament=data.name)


def _results_section(data: Tournament, links: Links, row: StandingRow, played: list[BotGame],
                     root: str) -> str:
    """Its figures from the standings, its finishing places, and its share against each
    opponent."""
    name = row.name
    ms = row.response_ms
    figures = [
        ("rank", f"{row.rank} of {len(data.placed)}" if row.rank is not None else
         "none: a baseline of this gauntlet, its yardstick, is not placed"),
        ("place", place_text(row.place)
         + ("" if row.place is None or row.place.best == row.place.worst else
            " (the places it could hold, given which pairs are separated)")),
        ("games", str(row.games)),
        ("win share", ci_html(row.win_share, 3, pct=True)),
        ("placement points", ci_html(row.placement, 3)),
        ("final money", ci_html(row.money, 1)),
        ("rating", rating_html(row.rating) + " Elo"),
        ("faults", ", ".join(f"{FAULT_TITLES[k]} {v}" for k, v in row.faults.counts().items())),
        ("response time", "-" if ms.median is None
         else f"median {ms.median:.2f} ms, p99 {ms.p99:.2f} ms"),
    ]
    parts = ['<section><h2>Results</h2><dl class="figures">'
             + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in figures) + "</dl>"]
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
        if c.total:
            vs.append(f'<tr><td>{links.bot(other, root)}</td>'
                      f'<td style="background:{share_color(c.share)}">{c.share:.0%}</td>'
                      f"<td>{c.above}</td><td>{c.below}</td><td>{c.level}</td>"
                      f"<td>{c.total}</td></tr>")
    if vs:
        parts.append('<div class="vs"><h3>Against each opponent</h3><table><thead><tr>'
                     "<th>opponent</th><th>share above</th><th>above</th><th>below</th>"
                     f"<th>level</th><th>games</th></tr></thead><tbody>{''.join(vs)}"
                     "</tbody></table></div>")
    parts.append("</section>")
    return "\n".join(parts)


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


def _stderr_section(name: str, stderr_dir: Path | None, excerpts: list[Excerpt],
                    crashed: int = 0) -> str:
    """The end of each of its logs, after how many of their lines look like errors: those
    it lived through, or, for a bot that crashed (`crashed` faults that ended its process),
    those and its crashes' own, which are faults."""
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
    errors = sum(x.errors for x in excerpts)
    if errors:
        first = next(x.first_error for x in excerpts if x.errors)
        lines = (f"{errors:,} lines of its stderr look like errors" if errors > 1 else
                 "1 line of its stderr looks like an error")
        blocks.append(
            f'<p class="note">{lines} it lived through, the first: '
            f"<code>{e(first)}</code>. They are no faults: a kit that catches an exception "
            "plays a default answer, not its strategy's.</p>" if not crashed else
            f'<p class="note">{lines}, the first: <code>{e(first)}</code>. '
            f"Those of its {crashed:,} crash{'es' if crashed > 1 else ''} (or failed starts) "
            "are among its faults; the others, if any, are errors it lived through, no "
            "faults: a kit that catches an exception plays a default answer, not its "
            "strategy's.</p>")
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
            f'</div>{more}<p class="note">Linked games have a game page.</p></section>')


