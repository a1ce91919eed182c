"""What every command shares: `fail` (one `error:` line, exit status 2), the output-folder
and path checks, the time-limit, sandbox and address-space options, and the BOT arguments
(a command line or a bot folder, whose build runs once before the game).

Text a bot wrote (names, reasons, stderr tails, build output) goes through `visible` as it is
printed, so that no escape sequence of a bot's reaches the terminal.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

import click

from ..bots.limits import (
    AUTO_ADDRESS_SPACE,
    DEFAULT_ADDRESS_SPACE,
    DEFAULT_BUILD_TIME,
    DEFAULT_MOVE_TIME,
    DEFAULT_STARTUP_TIME,
    DEFAULT_TIME_BANK,
    JVM_ADDRESS_SPACE,
    BotLimits,
    format_size,
    parse_address_space,
)
from ..bots.sandbox import SANDBOX_MODES, SandboxError, SandboxMode, check_sandbox_available
from ..text import visible

# Imported where used, not here: every command imports this module, and bots.launch and
# bots.build (trio, pydantic), the game rules and the game record cost a one-line error or a
# `referee leaderboard` about a third of its start-up.
if TYPE_CHECKING:
    from ..bots.launch import BotSpec
    from ..leaderboard import Games
    from ..match.record import GameRecord

BUILD_TAIL = 15  # lines of a failed build's output shown under its error


def _seconds(zero_ok: bool) -> Callable[[click.Context, click.Parameter, float], float]:
    """A check for a time-limit option: a finite number above 0 (or, with `zero_ok`, at
    least 0).  NaN would otherwise pass every comparison and void each game at its first
    deadline."""

    def check(ctx: click.Context, param: click.Parameter, value: float) -> float:
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
            least = "0 or more" if zero_ok else "more than 0"
            raise click.BadParameter(f"{value:g} is not a number of seconds ({least})")
        return value

    return check


SECONDS = _seconds(zero_ok=False)
SECONDS_OR_ZERO = _seconds(zero_ok=True)


def time_limit_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--move-time, --time-bank and --startup-time, as `play` and `check` both take them."""
    for option in reversed([
        click.option("--move-time", type=float, callback=SECONDS, default=DEFAULT_MOVE_TIME,
                     show_default=True, help="Seconds per decision."),
        click.option("--time-bank", type=float, callback=SECONDS_OR_ZERO,
                     default=DEFAULT_TIME_BANK,
                     show_default=True, help="Seconds per game that absorb overruns."),
        click.option("--startup-time", type=float, callback=SECONDS,
                     default=DEFAULT_STARTUP_TIME,
                     show_default=True, help="Seconds for a bot to say hello."),
    ]):
        command = option(command)
    return command


class OutputPath(click.Path):
    """`click.Path` that refuses an empty value, which would otherwise mean the current
    folder (`Path("")` is `.`) and write there unasked."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("give a path, not an empty value", param, ctx)
        return super().convert(value, param, ctx)


def fail(message: str, details: str = "") -> NoReturn:
    """One clear line on stderr and exit status 2 (a bot's text in it made visible), and under
    it, indented, the `details` that line points to (a build's output)."""
    click.echo(f"error: {visible(message)}", err=True)
    if details:
        click.echo("  " + visible(details, indent="  "), err=True)
    sys.exit(2)


def transcript_line(text: str) -> str:
    """A line of a game's transcript (`play -v`, `replay`), safe to print: one line, but for
    the stderr tail a crash's reason ends with, which follows as a block under it."""
    head, _, tail = text.partition("\n")
    if not tail:
        return visible(head)
    return f"{visible(head)}\n{_TAIL}{visible(tail, indent=_TAIL)}"


_TAIL = "       "  # a stderr tail under the fault line whose reason it ends


def make_folder(option: str, folder: Path, given: Path | None = None) -> None:
    """Create the output folder of `option` (the folder of the file `given`, if any) before
    any bot starts, or `fail`."""
    what = f"{option} {given or folder}"
    if folder.exists() and not folder.is_dir():
        fail(f"{what}: {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{what}: cannot create the folder {folder}: {exc.strerror or exc}")


def _sqlite(path: Path) -> bool:
    """Whether `path` begins as an SQLite database does."""
    try:
        with path.open("rb") as file:
            return file.read(16) == b"SQLite format 3\0"
    except OSError:
        return True  # not ours to say: the store's own reading says what is wrong


def need_store(db_path: Path) -> None:
    """`fail` unless a results store to read is there (anything else there:
    `Store.for_reading` says what it is)."""
    if not db_path.exists():
        fail(f"no results store at {db_path}")
    if db_path.suffix == ".toml" and not _sqlite(db_path):  # its store is beside it
        fail(f"{db_path} is a tournament file, not its results store: give the store, "
             f"{db_path.with_suffix('.db')} unless its run was given --db")


def stored_standings_text(db_path: Path, fmt: str = "table", with_head_to_head: bool = False,
                          with_seats: bool = False, with_pairs: bool = False,
                          wide: bool = False, stored: Stored | None = None) -> str:
    """The leaderboard of the games stored at `db_path` (read-only), ordered by its
    tournament file's primary metric, with the entrants its last run left out; a StoreError
    if it cannot be read.  `stored`: what `read_stored` gave for it already, not read again."""
    from ..leaderboard import standings_text

    s = read_stored(db_path) if stored is None else stored
    unfinished = unfinished_note(db_path) if fmt in PUBLISHED_WITH_NOTE else None
    decision = until_decision(db_path) if fmt != "csv" else None
    return standings_text(s.games, s.primary, fmt, with_head_to_head, with_seats, with_pairs,
                          s.left_out, wide, s.baselines, unfinished, s.held, decision,
                          *s.joined, s.field, s.grow)


# The leaderboard formats that carry the unfinished note themselves (an organiser published
# a half-played stage's Markdown, the note on stderr only); the table and CSV have it on stderr.
PUBLISHED_WITH_NOTE = ("markdown", "json")


class Stored(NamedTuple):
    """What a leaderboard of a store shows (`read_stored`)."""

    games: Games
    primary: str  # its tournament file's primary metric
    left_out: dict[str, str]  # the entrants its last run left out or withdrew, with why
    baselines: list[str]  # a gauntlet's
    held: dict[str, int]  # the games stored of each withdrawn entrant (out of the board)
    joined: tuple[dict[str, int], int]  # each entrant's first run, of the store's runs
    field: list[str]  # the entrants its last run played: those at no table are named
    grow: str | None  # how its design plays more (`rounds.more_rounds`), for the note


def read_stored(db_path: Path) -> Stored:
    """What a leaderboard of the store at `db_path` shows (read-only); a StoreError if it
    cannot be read."""
    from ..leaderboard import Games
    from ..tournament.field import shown_left_out, stored_games
    from ..tournament.rounds import more_rounds
    from ..tournament.store import PLAYING, WITHDRAWN, Store

    store = Store.for_reading(db_path)
    try:
        left_out = shown_left_out(store)
        config = store.tournament_config()
        return Stored(Games.from_store(store), store.primary_metric(), left_out,
                      store.baselines(), stored_games(store, store.entrants(WITHDRAWN)),
                      store.joined(), list(store.entrants(PLAYING)),
                      None if config is None else more_rounds(config))
    finally:
        store.close()


def faults_note(games: Games, db_path: Path, stderr_dir: Path | None = None) -> str | None:
    """Where the reasons of the faults the leaderboard counts are (None when it counts none):
    the leaderboard says only how many, and an entrant was left to find that each bot's
    report page lists them.  `stderr_dir`: the run's, which the report then quotes too (a
    store does not keep it, so `referee leaderboard` leaves it out)."""
    import shlex

    faults = sum(sum(kinds.values()) for kinds in games.faults)
    if not faults:
        return None
    out = db_path.with_name(f"{db_path.stem}-report")
    command = ["referee", "report", str(db_path), "--out", str(out)]
    if stderr_dir is not None:
        command += ["--stderr-dir", str(stderr_dir)]
    return (f"note: to see why each of the {faults:,} fault{'s' if faults > 1 else ''} came: "
            f"{shlex.join(command)} (each bot's page, bots/NAME.html, lists its faults with "
            "their reasons)")


def unfinished_note(db_path: Path) -> str | None:
    """The line that says a store holds only part of its tournament's schedule (a run
    stopped by Ctrl-C, a time budget or `max_games` raised since, or one shard of it), so
    places may change; None when it holds all a run would play, or that cannot be said."""
    from ..tournament.store import Store, StoreError
    from ..tournament.tally import unfinished_line

    try:
        store = Store.for_reading(db_path)
    except StoreError:
        return None
    try:
        return unfinished_line(store, str(db_path))
    finally:
        store.close()


def until_decision(db_path: Path) -> str | None:
    """What the run of a tournament with `until` stored at `db_path` decided: the look it
    stopped at and why (`tally.until_decision`); None without `until`, or where the run
    would play on, or that cannot be said."""
    from ..tournament.store import Store, StoreError
    from ..tournament.tally import until_decision as decided

    try:
        store = Store.for_reading(db_path)
    except StoreError:
        return None
    try:
        return decided(store)
    finally:
        store.close()


def parse_bots(bots: tuple[str, ...]) -> list[BotSpec]:
    """BOT arguments (`COMMAND`, `FOLDER`, `NAME=COMMAND` or `NAME=FOLDER`), one per seat,
    checked before any starts (a folder's build runs in `confine`)."""
    from ..bots.launch import BotArgumentError, given_bot, number_namesakes
    from ..game.config import DEAL_SCHEDULE

    if len(bots) not in DEAL_SCHEDULE:
        fail(f"Modern Art needs {min(DEAL_SCHEDULE)} to {max(DEAL_SCHEDULE)} bots, "
             f"got {len(bots)}")
    try:
        return number_namesakes([given_bot(text, f"bot {i}") for i, text in enumerate(bots, 1)])
    except BotArgumentError as exc:
        fail(str(exc))


def parse_bot(text: str) -> BotSpec:
    """The BOT argument of `referee check` (a command line or a folder), checked before it
    starts."""
    from ..bots.launch import BotArgumentError, given_bot

    try:
        return given_bot(text, "the bot")
    except BotArgumentError as exc:
        fail(str(exc))


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

SANDBOX_HELP = ("bwrap: run each bot in bubblewrap, without network, seeing only the system "
                "folders and its own, read-only (README: Untrusted bots).")


def sandbox_option(default_from: str | None = None, help: str = SANDBOX_HELP) -> Decorator:
    """--sandbox: "none" by default, or (given `default_from`) what that file says, which the
    command reads when the option is not given (None)."""
    if default_from is None:
        return click.option("--sandbox", type=click.Choice(SANDBOX_MODES), default="none",
                            show_default=True, help=help)
    return click.option("--sandbox", type=click.Choice(SANDBOX_MODES), default=None,
                        help=f"{help}  [default: {default_from}]")


def workers_option(what: str) -> Decorator:
    """--workers: `what` at a time; None when not given, for `resolve_workers`."""
    return click.option("--workers", type=click.IntRange(1, 256), default=None,
                        help=f"{what} at a time  [default: one per core]")


def resolve_workers(workers: int | None) -> int:
    """The --workers given, or one per core: the one default of every command."""
    return workers or os.cpu_count() or 1


def db_option(help: str, output: bool = True) -> Decorator:
    """--db: a results store; `output` refuses an empty value (`OutputPath`), for a store
    the command may write or must find."""
    kind = OutputPath if output else click.Path
    return click.option("--db", "db_path", type=kind(dir_okay=False, path_type=Path), help=help)


max_bot_processes_option = click.option(
    "--max-bot-processes", type=click.IntRange(1), default=None, metavar="N",
    help="Bot processes each worker keeps alive at most; the least recently used is stopped "
         "between games and started again when needed.  [default: the file's "
         "max_bot_processes, else sized to the descriptor limit and memory]")


superseded_option = click.option(
    "--superseded", is_flag=True,
    help="With --db: the game as it was last played before a bot in it changed.")


def quiet_option(help: str) -> Decorator:
    """-q/--quiet, saying what is still printed."""
    return click.option("-q", "--quiet", is_flag=True, help=help)
address_space_option = click.option(
    "--address-space", default=DEFAULT_ADDRESS_SPACE, show_default=True,
    help=f"Virtual memory per bot process: a size (4G, 512M), off, or auto "
         f"({format_size(AUTO_ADDRESS_SPACE)}; {format_size(JVM_ADDRESS_SPACE)} for java).")


def confine(specs: list[BotSpec], sandbox: str, address_space: str) -> list[BotSpec]:
    """The bots with their limits and sandbox, once the sandbox is known to work here, ready to
    play: each bot folder built (`build_folders`)."""
    try:
        size = parse_address_space(address_space)
    except ValueError as exc:
        fail(f"--address-space: {exc}")
    try:
        check_sandbox_available(sandbox)
    except SandboxError as exc:
        fail(str(exc))
    mode: SandboxMode = "bwrap" if sandbox == "bwrap" else "none"
    confined = [replace(s, limits=BotLimits(address_space=size), sandbox=mode) for s in specs]
    build_folders(confined)
    from ..bots.stale import stale_program

    noted = set()  # a bot given for several seats is noted once
    for spec in confined:
        note = stale_program(spec)
        if note is not None and note not in noted:
            noted.add(note)
            click.echo(visible(note), err=True)
    return confined


def build_folders(specs: list[BotSpec]) -> None:
    """Run each bot folder's build once (a folder given twice is built once), in its folder
    and its sandbox, for at most the tournament's default build time; show what it printed.
    `fail` if a build fails, with the end of its output, or leaves no program to run."""
    from ..bots.build import BuildResult, build_bot
    from ..bots.build_lock import build_turn
    from ..bots.launch import missing_program
    from ..interrupts import run_trio

    waiting: list[bool] = [False]  # whether the build under way waits for its turn

    def say(line: str) -> None:
        waiting[0] = True  # its one line: it waits for another referee's build
        click.echo(visible(line), err=True)

    async def build_in_turn(spec: BotSpec, build: str) -> BuildResult:
        """The build, in its turn with other referees' builds of its folder, said as it
        begins: after the line saying it waits for that turn, if it does."""
        cwd = spec.cwd or Path.cwd()
        async with build_turn(cwd, spec.name, say):
            waiting[0] = False
            click.echo(f"building {visible(spec.name)}: {visible(build)}", err=True)
            return await build_bot(build, cwd, DEFAULT_BUILD_TIME, spec.sandbox, spec.read_only)

    built: set[tuple[Path | None, str]] = set()
    for spec in specs:
        if spec.build is None or (spec.cwd, spec.build) in built:
            continue
        built.add((spec.cwd, spec.build))
        where = f"bot {spec.name} ({spec.cwd})"
        try:
            result = run_trio(build_in_turn, spec, spec.build)
        except KeyboardInterrupt:
            fail(f"interrupted while waiting for another referee's build of {visible(spec.name)}"
                 if waiting[0] else "interrupted; the build was stopped")
        if result.problem is not None:
            tail = result.excerpt(BUILD_TAIL)
            ends = ("; its output:" if tail else ", printing nothing"
                    ) if result.failure is None else ""
            fail(f"{where}: its build `{spec.build}` {result.problem}{ends}", tail)
        if result.output:
            click.echo("  " + visible(result.output, indent="  "), err=True)
    for spec in specs:
        missing = missing_program(spec) if spec.build is not None else None
        if missing is not None:
            fail(f"bot {spec.name} ({spec.cwd}): {missing}")


def stored_record(game_id: str, db_path: Path, superseded: bool) -> GameRecord:
    """Game `game_id` of the store, or `fail`; a note on stderr if it was superseded."""
    from ..tournament.store import StoreError, read_stored_record

    try:
        found, was_superseded = read_stored_record(db_path, game_id, superseded)
    except StoreError as exc:
        fail(str(exc))
    if found is None:
        fail(f"game {game_id!r} is not in {db_path}"
             + (" as a superseded game" if superseded else ""))
    if was_superseded:
        click.echo(f"note: game {game_id} was superseded (a bot in it changed since); "
                   "this is its last superseded record", err=True)
    return found
