"""The game pages: the list of games, the page of one game (the viewer of report.js over
the game's data as JSON), and the page of a game whose record cannot be read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from referee.match.result import GameResult

from .data import Tournament
from .markup import Links, e, page


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
    body = (f"<h1>Game pages</h1><p class=\"meta\">{e(policy)}</p>"
            '<table class="games"><thead><tr><th>game</th><th>seats by seat order: final '
            f"money (winners in bold)</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
    if data.superseded:
        items = "".join(f"<li><code>{e(gid)}</code>: {e(why)}</li>"
                        for gid, why in data.superseded)
        body += ("<section><h2>Superseded games</h2><p class=\"note\">Played by a version of "
                 "a bot that has changed since; kept in the store, not counted in the "
                 "standings (<code>referee replay --db STORE GAME_ID</code> shows the last "
                 f"one of an id).</p><ul>{items}</ul></section>")
    return page(f"{data.name}: games", body, root="", kind="games", tournament=data.name)


def _json_for_script(doc: dict[str, Any]) -> str:
    """JSON safe inside <script>: no `</script>` or `<!--` can close or confuse the block."""
    text = orjson.dumps(doc).decode()
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def game_page(data: Tournament, links: Links, doc: dict[str, Any], result: GameResult) -> str:
    """The page of one game: `doc` (game_document's) for the viewer, and its result."""
    root = "../"
    body = viewer_body(doc, result, lambda name: links.bot(name, root))
    return page(f"Game {doc['game_id']}: {data.name}", body, root=root, kind="game",
                tournament=data.name, scripts=f'<script src="{root}report.js"></script>\n')


def viewer_body(doc: dict[str, Any], result: GameResult, bot: Callable[[str], str]) -> str:
    """The heading, the viewer over `doc` (game_document's) with its data, and the record's
    result: what a game page of the report and `referee view` share.  `bot` writes a bot's
    name as HTML (a link to its page in the report, escaped text alone)."""
    seats = ", ".join(f"{s}: {bot(n)}" for s, n in enumerate(result.names))
    variants = ", ".join(doc["variants"]) or "none"
    final = []
    for s in sorted(result.seats(), key=lambda s: (s.rank, s.seat)):
        reasons = "; ".join(f"{f.kind}: {f.reason}" for f in s.faults)
        final.append(f"<tr><td>{s.rank}</td><td>{bot(s.name)}</td>"
                     f"<td>{s.seat}</td><td>{s.money}</td>"
                     f"<td>{'retired' if s.retired else ''}</td>"
                     f'<td class="reason">{e(reasons)}</td></tr>')
    steps = len(doc["steps"])
    return f"""<h1>Game {e(doc['game_id'])}</h1>
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
<noscript><p class="note">The game viewer needs JavaScript; the result is below.</p></noscript>
<section><h2>Result (from the record)</h2><table class="result"><thead><tr><th>rank</th>
<th>bot</th><th>seat</th><th>money</th><th></th><th>faults</th></tr></thead>
<tbody>{''.join(final)}</tbody></table></section>
<script type="application/json" id="game-data">{_json_for_script(doc)}</script>"""


def missing_game_page(data: Tournament, gid: str, why: str) -> str:
    body = (f"<h1>Game {e(gid)}</h1><p class=\"note\">No viewer: the stored record of this "
            f"game cannot be read ({e(why)}).</p>")
    return page(f"Game {gid}: {data.name}", body, root="../", kind="game",
                tournament=data.name)
