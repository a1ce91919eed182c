"""`referee leaderboard` and `referee report`: the stored games as a table or a site."""

from __future__ import annotations

from pathlib import Path

import click

from . import short_help
from .common import (
    PUBLISHED_WITH_NOTE,
    OutputPath,
    fail,
    faults_note,
    need_store,
    read_stored,
    stored_standings_text,
    unfinished_note,
    until_decision,
)


@click.command(name="leaderboard", short_help=short_help("leaderboard"))
@click.argument("db_path", metavar="DB", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "csv", "json"]),
              default="table", show_default=True)
@click.option("--head-to-head", is_flag=True,
              help="Also: for each pair, how often each finished above the other.")
@click.option("--seats", is_flag=True, help="Also: results by seat position (seat bias).")
@click.option("--pairs", is_flag=True,
              help="Also: each pair's difference, LOS and whether it is separated (JSON "
                   "always has them).")
@click.option("--wide", is_flag=True,
              help="Every column in the table and Markdown: each metric's interval, each kind "
                   "of fault, the response times (CSV and JSON always have them).")
def leaderboard_cmd(db_path: Path, fmt: str, head_to_head: bool, seats: bool,
                    pairs: bool, wide: bool) -> None:
    """The standings of the games stored in DB, with 95% intervals and ratings.

    The table is ordered by each bot's strength: its mean on the tournament's primary metric
    adjusted for the opponents it met (or its rating, where that is the primary metric).  It
    shows a strength column only where that can order the bots otherwise than their means:
    where they did not all meet alike (a sampled field, a gauntlet, a run stopped part-way)
    or, ranked by money, played at more than one table.  On one table, or in a complete round
    robin ranked by placement or win share, it orders them as their means do and is left
    out; JSON and CSV always have it (docs/leaderboard.md)."""
    if fmt == "csv" and (head_to_head or seats or pairs):
        fail("--pairs, --head-to-head and --seats do not fit --format csv (one table of "
             "entrants); use json, table or markdown for them")
    need_store(db_path)
    # Imported once the arguments are checked: a mistake's one line need not wait for them.
    from ..tournament.store import StoreError

    try:
        stored = read_stored(db_path)
        text = stored_standings_text(db_path, fmt, head_to_head, seats, pairs, wide, stored)
    except StoreError as exc:
        fail(str(exc))
    click.echo(text.rstrip("\n"))
    # Where the faults' reasons are, as `tournament run` says under its table: not in a CSV
    # or JSON a program reads, and on stderr under Markdown, which is published.
    fault_note = None if fmt in ("csv", "json") else faults_note(stored.games, db_path)
    if fault_note:
        click.echo(fault_note if fmt == "markdown" else "\n" + fault_note,
                   err=fmt == "markdown")
    note = None if fmt in PUBLISHED_WITH_NOTE else unfinished_note(db_path)
    if note:
        click.echo(note, err=True)
    decision = until_decision(db_path) if fmt == "csv" else None  # the others hold it
    if decision:
        click.echo(decision, err=True)


@click.command(name="report", short_help=short_help("report"))
@click.argument("db_path", metavar="DB", type=click.Path(path_type=Path))
@click.option("--out", "out_name", required=True, type=click.Path(),
              help="Folder to write the site into: a new or empty one, or an earlier report's.")
@click.option("--stderr-dir", type=OutputPath(path_type=Path),
              help="The folder given to `tournament run --stderr-dir`: include the last lines "
                   "of each bot's stderr.")
@click.option("--games-sample", type=click.IntRange(0), default=50, show_default=True,
              help="Game pages for this many games spread over the tournament (plus every "
                   "game with a fault).")
@click.option("--all-games", is_flag=True, help="A game page for every game.")
def report_cmd(db_path: Path, out_name: str, stderr_dir: Path | None, games_sample: int,
               all_games: bool) -> None:
    """Write the games stored in DB as a static site in OUT: the leaderboard, a page per bot
    and a page per game.  It works from file://, with nothing fetched from the network."""
    if not out_name:  # Path("") is the current folder
        fail("--out: give a folder name")
    out_dir = Path(out_name)
    need_store(db_path)
    if stderr_dir is not None and not stderr_dir.is_dir():
        fail(f"--stderr-dir {stderr_dir}: "
             f"{'a file, not a folder' if stderr_dir.exists() else 'no such folder'}")
    if out_dir.exists() and not out_dir.is_dir():
        fail(f"--out {out_dir} is a file, not a folder")
    # Imported once the arguments are checked: a mistake's one line need not wait for them.
    from ..report import OutError, write_report
    from ..tournament.store import Store, StoreError

    try:
        store = Store.for_reading(db_path)
        if store.count() == 0:
            store.close()
            fail(f"{db_path} holds no games yet")
        summary = write_report(store, out_dir, stderr_dir=stderr_dir,
                               games_sample=games_sample, all_games=all_games)
        store.close()
    except StoreError as exc:
        fail(str(exc))
    except OutError as exc:
        fail(f"--out {exc}")
    except OSError as exc:
        fail(f"cannot write the report to {out_dir}: {exc.strerror or exc}")
    click.echo(f"{summary.files:,} files ({summary.bytes / 1e6:.1f} MB) in {out_dir}: the "
               f"leaderboard, {summary.bot_pages:,} bot pages and {summary.game_pages:,} of "
               f"{summary.games:,} games as game pages, in {summary.seconds:.1f} s. "
               f"Open {out_dir / 'index.html'}")
    note = unfinished_note(db_path)
    if note:
        click.echo(note, err=True)

