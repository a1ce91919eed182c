"""What every page of the report shares: the page frame, escaping, links between pages, and
how a figure with its interval is shown."""

from __future__ import annotations

import re
from html import escape
from string import Template

from referee import __version__
from referee.leaderboard.rows import Interval, Rating

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

FAULT_TITLES = {"timeouts": "timeouts", "illegal_or_malformed": "illegal or malformed",
                "crashes": "crashes", "stderr_over_limit": "stderr over limit",
                "exits_between_games": "exits between games", "retirements": "retirements"}
MAX_ROWS = 2000  # rows of one table on a page; the rest are counted, not listed


def e(value: object) -> str:
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


def ci_html(m: Interval, digits: int, pct: bool = False) -> str:
    """A mean with its interval in small print, as a percentage when `pct`."""
    if pct:
        return f"{m.mean:.1%} <small>[{m.low:.1%}, {m.high:.1%}]</small>"
    return f"{m.mean:.{digits}f} <small>[{m.low:.{digits}f}, {m.high:.{digits}f}]</small>"


def rating_html(rating: Rating) -> str:
    return f"{round(rating.elo)} <small>[{round(rating.low)}, {round(rating.high)}]</small>"


def share_color(share: float) -> str:
    """Red below an even share, white at it, green above."""
    share = min(1.0, max(0.0, share))
    if share >= 0.5:
        t = (share - 0.5) * 2
        r, g, b = (255 + (26 - 255) * t, 255 + (152 - 255) * t, 255 + (80 - 255) * t)
    else:
        t = (0.5 - share) * 2
        r, g, b = (255 + (215 - 255) * t, 255 + (48 - 255) * t, 255 + (39 - 255) * t)
    return f"rgb({r:.0f},{g:.0f},{b:.0f})"
