"""One game's page as a single HTML file (`referee view`, `referee play --html`): the
report's game page without the rest of the report, its script and style sheet inlined so that
the file opens from anywhere, by itself, with nothing fetched."""

from __future__ import annotations

from pathlib import Path
from string import Template

from referee import __version__
from referee.match.record import GameRecord, RecordError

from . import STATIC  # the report's own files: one viewer for both
from .game_pages import viewer_body
from .markup import e
from .viewer import game_document

PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="icon" href="data:,">
<style>
$style</style>
</head>
<body class="game">
<header><nav><span>Modern Art: one game</span></nav></header>
<main>
$body
</main>
<footer>Written by <code>referee</code> $version from one game record.</footer>
<script>
$script</script>
</body>
</html>
""")


def _inlined(asset: str, tag: str) -> str:
    """The text of one of the report's static files, to go inside a `<tag>` element (which
    nothing in it may close early)."""
    text = (STATIC / asset).read_text(encoding="utf-8")
    if f"</{tag}" in text.lower():
        raise ValueError(f"{asset} holds </{tag}, which would end it early when inlined")
    return text


def game_html(record: GameRecord) -> str:
    """The page: the viewer over the record's public steps, and its result.  RecordError when
    the record's lines name seats its spec does not have (a record edited by hand)."""
    try:
        doc = game_document(record)
    except IndexError:
        raise RecordError("its lines name seats that its spec does not have") from None
    return PAGE.substitute(
        title=e(f"Game {record.spec.game_id}"), body=viewer_body(doc, record.result, e),
        style=_inlined("report.css", "style"), script=_inlined("report.js", "script"),
        version=e(__version__))


def write_game_page(record: GameRecord, out: Path) -> None:
    """Write the page to `out` (OSError if it cannot be written; RecordError as `game_html`)."""
    out.write_text(game_html(record), encoding="utf-8")
