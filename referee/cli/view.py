"""`referee view`: one game as an HTML page, from a game log or a results store."""

from __future__ import annotations

from pathlib import Path

import click

from ..match.record import GameRecord, RecordError, read_record
from . import short_help
from .common import (
    OutputPath,
    db_option,
    fail,
    need_store,
    stored_record,
    superseded_option,
)


@click.command(name="view", short_help=short_help("view"))
@click.argument("source", metavar="GAME.jsonl | GAME_ID")
@db_option("Show game GAME_ID of this tournament's results store.")
@superseded_option
@click.option("-o", "--out", "out_path", type=OutputPath(path_type=Path),
              help="The HTML file to write [default: the game log's name with .html, or "
                   "GAME_ID.html in the current folder].")
def view_cmd(source: str, db_path: Path | None, superseded: bool, out_path: Path | None) -> None:
    """Write one game as an HTML page (the report's viewer) and print the file's path.

    Either a game log written by `referee play --log`, or `--db DB GAME_ID`.  The page is one
    file, script and styles inlined: it opens from anywhere, with nothing fetched.
    """
    from ..report.markup import slug

    record = read_game(source, db_path, superseded)
    if out_path is None:
        out_path = Path(source).with_suffix(".html") if db_path is None else \
            Path(f"{slug(source)}.html")
    if db_path is None and out_path.resolve() == Path(source).resolve():
        fail(f"{source} would be written over by its own page; give another --out")
    write_page(record, out_path, source)
    click.echo(str(out_path))


def read_game(source: str, db_path: Path | None, superseded: bool) -> GameRecord:
    """The record of a game log at `source`, or of game `source` in the store at `db_path`
    (telling on stderr when it is a superseded one), or `fail`."""
    from ..tournament.store import not_a_file

    if superseded and db_path is None:
        fail("--superseded goes with --db")
    if db_path is None:
        path = Path(source)
        if not path.is_file():
            what = not_a_file(path)
            fail(f"{source}: {what}, not a game log" if what else
                 f"{source}: no such game log (to show a stored game, add --db DB)")
        try:
            return read_record(path.read_bytes())
        except RecordError as exc:
            fail(f"{source}: {exc}")
        except OSError as exc:
            fail(f"{source}: cannot read it: {exc.strerror or exc}")
    need_store(db_path)
    return stored_record(source, db_path, superseded)


def write_page(record: GameRecord, out: Path, source: str) -> None:
    """Write the page of `record` (read from `source`) to `out`, or `fail`."""
    from ..report.single_game import write_game_page

    try:
        write_game_page(record, out)
    except RecordError as exc:
        fail(f"{source}: {exc}")
    except OSError as exc:
        fail(f"cannot write the page to {out}: {exc.strerror or exc}")
