"""The `referee` command line: thin wrappers over the library's layers.

Every mistake a user can make ends in one `error:` line and a non-zero exit, not a traceback.
Text a bot wrote (names, reasons, stderr tails, build output) goes through `visible` as it is
printed, so that no escape sequence of a bot's reaches the terminal.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import click
from tabulate import tabulate

from . import __version__
from .bots.launch import BotSpec
from .bots.limits import (
    AUTO_ADDRESS_SPACE,
    DEFAULT_ADDRESS_SPACE,
    DEFAULT_MAX_FAULTS,
    DEFAULT_MOVE_TIME,
    DEFAULT_STARTUP_TIME,
    DEFAULT_TIME_BANK,
    JVM_ADDRESS_SPACE,
    BotLimits,
    format_size,
    parse_address_space,
)
from .bots.process import StartError, split_command
from .bots.sandbox import SANDBOX_MODES, SandboxError, SandboxMode, check_sandbox_available
from .editions import load_edition
from .game import EditionError, GameConfig
from .game.config import VARIANTS
from .interrupts import run_trio, signals_interrupt
from .match.bot_session import BotPlayer
from .match.record import GameRecord, RecordError, read_record
from .match.replay import replay
from .match.runner import RefereeError, play_game
from .match.spec import GameSpec
from .match.transcript import Transcript
from .text import visible


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


def fail(message: str) -> NoReturn:
    """One clear line on stderr and exit status 2 (a bot's text in it made visible)."""
    click.echo(f"error: {visible(message)}", err=True)
    sys.exit(2)


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """Run games and tournaments between Modern Art bots.

    A bot is a program that speaks the line-delimited JSON protocol in protocol/README.md.
    Start with `referee play` to watch one game.
    """


def parse_bots(bots: tuple[str, ...], one: bool = False) -> list[BotSpec]:
    """BOT arguments (`COMMAND` or `NAME=COMMAND`), checked so a typo fails before play;
    `one`: the same bot thrice (`check`), named "the bot" in errors."""
    if not 3 <= len(bots) <= 5:
        fail(f"Modern Art needs 3 to 5 bots, got {len(bots)}")
    specs = []
    for i, text in enumerate(bots, 1):
        which = "the bot" if one else f"bot {i}"
        try:
            spec = BotSpec.parse(text)
            program = split_command(spec.command)[0]
        except StartError as exc:
            fail(f"{which}: {exc}")
        if shutil.which(program) is None:
            if "/" not in program and Path(program).is_file():
                fail(f"{which} ({text!r}): {program!r} is not a command on PATH; for the file "
                     f"{program} here, write ./{program}")
            if not Path(program).is_file():
                fail(f"{which} ({text!r}): command {program!r} not found"
                     + (" (not built yet?)" if "/" in program else ""))
        specs.append(spec)
        if "/" in spec.name or spec.name in (".", "..") or len(spec.name) > 64 or \
                any(not c.isprintable() for c in spec.name):
            fail(f"bot {i}: name {spec.name[:80]!r} must be at most 64 characters, without '/' "
                 "or control characters, and not '.' or '..' (it names the bot's log and "
                 "transcript files, and a row of the standings)")
    names = [s.name for s in specs]
    for i, spec in enumerate(specs):  # same program twice: number them so standings can tell
        if names.count(spec.name) > 1:
            specs[i] = replace(spec, name=f"{spec.name}-{i + 1}")
    final = [s.name for s in specs]
    for i, name in enumerate(final):
        if final.count(name) > 1:
            j = final.index(name, i + 1)
            fail(f"bots {i + 1} and {j + 1} would both be named {name!r} (their files and "
                 "standings rows would mix); name them with NAME=COMMAND")
    return specs


SANDBOX_HELP = ("bwrap: run each bot in bubblewrap, without network, seeing only the system "
                "folders and its own, read-only (README: Untrusted bots).")
sandbox_option = click.option("--sandbox", type=click.Choice(SANDBOX_MODES), default="none",
                              show_default=True, help=SANDBOX_HELP)
address_space_option = click.option(
    "--address-space", default=DEFAULT_ADDRESS_SPACE, show_default=True,
    help=f"Virtual memory per bot process: a size (4G, 512M), off, or auto "
         f"({format_size(AUTO_ADDRESS_SPACE)}; {format_size(JVM_ADDRESS_SPACE)} for java).")


def confine(specs: list[BotSpec], sandbox: str, address_space: str) -> list[BotSpec]:
    """The bots with their limits and sandbox, once the sandbox is known to work here."""
    try:
        size = parse_address_space(address_space)
    except ValueError as exc:
        fail(f"--address-space: {exc}")
    try:
        check_sandbox_available(sandbox)
    except SandboxError as exc:
        fail(str(exc))
    mode: SandboxMode = "bwrap" if sandbox == "bwrap" else "none"
    return [replace(s, limits=BotLimits(address_space=size), sandbox=mode) for s in specs]


@main.command()
@click.argument("bots", nargs=-1, required=True, metavar="BOT BOT BOT [BOT [BOT]]")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True,
              help="Shuffle seed, 0 to 2**63-1 (as game records store it; a seed's sign "
                   "would not change the deal).")
@click.option("--edition", default="cmon", show_default=True,
              help="cmon, classic, or an edition file (.toml/.json).")
@click.option("--variant", "variants", multiple=True, type=click.Choice(VARIANTS),
              help="A rules variant; repeat for several.")
@time_limit_options
@click.option("--max-faults", type=click.IntRange(1, 10**9), default=DEFAULT_MAX_FAULTS,
              show_default=True,
              help="Faults in one game before a seat is retired.")
@click.option("--log", "log_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Write the game record (JSON lines) here.")
@click.option("--stderr-dir", type=OutputPath(file_okay=False, path_type=Path),
              help="Keep each bot's stderr in NAME.stderr.log here.")
@click.option("--transcript", "transcript_dir", type=OutputPath(file_okay=False, path_type=Path),
              help="Write every line each bot sent and received to NAME.transcript.jsonl here.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("-v", "--verbose", is_flag=True, help="Print the game's transcript.")
@sandbox_option
@address_space_option
def play(
    bots: tuple[str, ...], seed: int, edition: str, variants: tuple[str, ...], move_time: float,
    time_bank: float, startup_time: float, max_faults: int, log_path: Path | None,
    stderr_dir: Path | None, transcript_dir: Path | None, as_json: bool, verbose: bool,
    sandbox: str, address_space: str,
) -> None:
    """Play one game between BOTs and print the standings.

    BOT is a command line ("python3 my_bot.py") or NAME=COMMAND.
    """
    specs = parse_bots(bots)
    variants = tuple(dict.fromkeys(variants))  # one given twice is still one variant
    try:
        ed = load_edition(edition)
        GameConfig.from_variants(len(specs), ed, variants)
    except (EditionError, ValueError) as exc:
        fail(str(exc))
    specs = confine(specs, sandbox, address_space)
    game = GameSpec.make(f"play-{seed}", seed, [s.name for s in specs], ed, variants,
                         move_time=move_time, time_bank=time_bank, max_faults=max_faults)
    for option, folder in (("--transcript", transcript_dir), ("--stderr-dir", stderr_dir)):
        if folder is not None:
            make_folder(option, folder)
    if transcript_dir is not None:
        for s in specs:
            (transcript_dir / f"{s.name}.transcript.jsonl").unlink(missing_ok=True)
    players = [
        BotPlayer(s, startup_time=startup_time,
                  stderr_path=stderr_dir / f"{s.name}.stderr.log" if stderr_dir else None,
                  transcript_path=(transcript_dir / f"{s.name}.transcript.jsonl"
                                   if transcript_dir else None))
        for s in specs
    ]

    async def run() -> GameRecord:
        try:
            return await play_game(game, players)
        finally:
            for p in players:
                await p.aclose()

    try:
        record = run_trio(run)
    except RefereeError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted; every bot process was stopped")
    if log_path is not None:
        try:
            log_path.write_bytes(record.to_jsonl())
        except OSError as exc:
            fail(f"cannot write the log {log_path}: {exc.strerror}")
    if verbose and not as_json:
        for text in Transcript(game.names, ed).record(record.lines):
            click.echo(visible(text))
        click.echo()
    summary = play_summary(record)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(standings_table(summary))


def play_summary(record: GameRecord) -> dict[str, Any]:
    """What `referee play` prints (as JSON with --json)."""
    spec = record.spec
    return {
        "game_id": spec.game_id,
        "seed": spec.seed,
        "edition": spec.edition["name"],
        "variants": spec.variants,
        "seats": [
            {"seat": s.seat, "name": s.name, "money": s.money, "rank": s.rank,
             "retired": s.retired, "faults": [f.to_dict() for f in s.faults]}
            for s in record.result.seats()
        ],
    }


def standings_table(summary: dict[str, Any]) -> str:
    seats = sorted(summary["seats"], key=lambda s: (s["rank"], s["seat"]))
    headers = ["rank", "bot", "seat", "money", "faults"]
    rows = [[s["rank"], visible(s["name"]), s["seat"], s["money"], len(s["faults"])]
            for s in seats]
    if any(s["retired"] for s in seats):  # a column of its own only when it says something
        headers.append("retired")
        for row, s in zip(rows, seats, strict=True):
            row.append("retired" if s["retired"] else "")
    text = tabulate(rows, headers=headers)
    notes = []
    for s in summary["seats"]:
        for f in s["faults"]:
            reason = visible(f["reason"], indent="      ")  # a stderr tail, as a block
            notes.append(f"  {visible(s['name'])}: {f['kind']}: {reason}")
    if notes:
        text += "\n\nFaults:\n" + "\n".join(notes)
    return text


@main.command(name="replay")
@click.argument("source", metavar="GAME.jsonl | GAME_ID")
@click.option("--db", "db_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Replay game GAME_ID from this tournament's results store.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the verdict.")
def replay_cmd(source: str, db_path: Path | None, quiet: bool) -> None:
    """Re-check a recorded game against the rules; exit 1 on any mismatch.

    Either a game log written by `referee play --log`, or `--db DB GAME_ID`.
    """
    record_path = Path(source)
    try:
        if db_path is not None:
            record = stored_record(db_path, source)
        else:
            if not record_path.is_file():
                fail(f"{source}: no such game log (to replay a stored game, add --db DB)")
            record = read_record(record_path.read_bytes())
        result = replay(record)
    except (RecordError, OSError) as exc:
        fail(f"{source}: {exc}")
    if not quiet:
        names = result.spec.names
        for text in Transcript(names, result.spec.edition_obj()).lines(result.events):
            click.echo(visible(text))
    if result.ok:
        click.echo(f"{source}: the record agrees with the rules")
        return
    for m in result.mismatches:
        click.echo(f"mismatch: {visible(m)}", err=True)
    sys.exit(1)


@main.command(name="check")
@click.argument("bot", metavar="BOT")
@time_limit_options
@click.option("--transcript", "transcript_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Write every line exchanged with the bot here (JSON lines).")
@sandbox_option
@address_space_option
def check_cmd(bot: str, move_time: float, time_bank: float, startup_time: float,
              transcript_path: Path | None, sandbox: str, address_space: str) -> None:
    """Run BOT through scripted situations covering every decision kind; exit 0 only when
    every check passes."""
    from .check import run_check, summary

    spec = parse_bots((bot, bot, bot), one=True)[0]
    spec = replace(spec, name=spec.name.removesuffix("-1"))
    [spec] = confine([spec], sandbox, address_space)
    if transcript_path is not None:
        make_folder("--transcript", transcript_path.parent, transcript_path)
        try:
            transcript_path.write_bytes(b"")  # written as the checks go
        except OSError as exc:
            fail(f"--transcript {transcript_path}: cannot write it: {exc.strerror or exc}")
    try:
        results, times = run_trio(lambda: run_check(
            spec, move_time=move_time, time_bank=time_bank, startup_time=startup_time,
            transcript=transcript_path))
    except RefereeError as exc:  # the referee's own failure (a full disk), not the bot's
        fail(f"the referee failed, not the bot: {exc}")
    except KeyboardInterrupt:
        fail("interrupted; the bot was stopped")
    for r in results:
        mark = "PASS" if r.passed else "FAIL"
        click.echo(f"{mark}  {r.name}: {visible(r.reason, indent='      ')}")
        for line in r.lines:  # the exchange: what the referee sent, and what the bot said
            click.echo(f"      {visible(line)}")
    click.echo(summary(times))
    failed = sum(1 for r in results if not r.passed)
    click.echo(f"{len(results) - failed} passed, {failed} failed")
    if failed:
        if transcript_path is None:
            click.echo("rerun with --transcript FILE to see every line exchanged")
        sys.exit(1)


def stored_record(db_path: Path, game_id: str) -> GameRecord:
    from .tournament.store import StoreError, open_store

    if not db_path.exists():  # anything else there: open_store says what it is
        fail(f"no results store at {db_path}")
    try:
        store = open_store(db_path, read_only=True)
        record = store.record(game_id)
        store.close()
    except StoreError as exc:
        fail(str(exc))
    if record is None:
        fail(f"game {game_id!r} is not in {db_path}")
    return record


@main.group()
def tournament() -> None:
    """Run tournaments described by a tournament file (see tournaments/demo.toml)."""


@tournament.command(name="run")
@click.argument("config_path", metavar="FILE",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Games at a time  [default: one per core]")
@click.option("--db", "db_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Results store  [default: FILE's name with .db, in this folder]")
@click.option("--stderr-dir", type=OutputPath(file_okay=False, path_type=Path),
              help="Keep each bot's stderr here (1 MiB per game).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Where games run: here, or on Dask workers.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Dask scheduler (tcp://HOST:8786); without it a LocalCluster is started.")
@click.option("--shard", metavar="I/N",
              help="Play only shard I of N (N at most 10000) of the schedule (for job arrays), "
                   "into its own --db.")
@click.option("-q", "--quiet", is_flag=True,
              help="Print nothing but errors, and warnings of bots left out.")
@click.option("--sandbox", type=click.Choice(SANDBOX_MODES), default=None,
              help=SANDBOX_HELP + "  [default: the file's `sandbox`, else none]")
@click.option("--until-separated", is_flag=True,
              help="Stop once the leader is separated from every other entrant, looking after "
                   "8, 16, 32... deals; the file's deals are the most (as until = "
                   "\"separated\" in the file).")
def tournament_run(config_path: Path, workers: int | None, db_path: Path | None,
                   stderr_dir: Path | None, executor: str, scheduler: str | None,
                   shard: str | None, quiet: bool, sandbox: str | None,
                   until_separated: bool) -> None:
    """Play every game of the tournament in FILE that is not stored yet, then print the
    leaderboard.  Running it again after a crash or Ctrl-C resumes where it stopped."""
    import os

    from .leaderboard import board
    from .tournament.config import TournamentError, load_tournament
    from .tournament.progress import ProgressDisplay
    from .tournament.runner import run_tournament, tournament_edition
    from .tournament.schedule import schedule
    from .tournament.store import StoreError, StoreFailed, open_store

    try:
        config = load_tournament(config_path)
        try:
            tournament_edition(config, config_path)
        except EditionError as exc:
            raise EditionError(f"{config_path}: edition: {exc}") from None
        if sandbox is not None:
            config = config.model_copy(update={"sandbox": sandbox})
        if until_separated:
            config = config.model_copy(update={"until": "separated"})
        check_sandbox_available(config.sandbox)
    except (TournamentError, EditionError, SandboxError) as exc:
        fail(str(exc))
    # Before any store.  Only a gauntlet can have no games (of its baselines alone): a round
    # robin has table_size bots or more (checked on load), and a sampled one is slow to draw.
    if config.format == "gauntlet" and not schedule(config):
        fail(f"{config_path}: the schedule has no games (a gauntlet's games are its bots "
             "other than the baselines against them)")
    shard_of = parse_shard(shard) if shard is not None else None
    if shard_of is not None and config.until is not None:
        from .tournament.until import SHARDED
        fail(SHARDED)
    if scheduler is not None and executor != "dask":
        fail("--scheduler goes with --executor dask")
    suffix = f".shard{shard_of[0]}of{shard_of[1]}" if shard_of else ""
    db_path = db_path or Path(config_path.stem + suffix + ".db")
    if stderr_dir is not None:
        make_folder("--stderr-dir", stderr_dir)
    created = not db_path.exists()  # (through a link: its target; the link is kept)
    try:
        store = open_store(db_path)
    except StoreError as exc:
        fail(str(exc))

    def refuse(message: str) -> NoReturn:
        """Fail; a store this run made is removed if it holds nothing (no game, no void)
        and no other run has it open."""
        if created:
            store.close_and_remove_if_empty()
        else:
            store.close()
        fail(message)

    display = ProgressDisplay(quiet=quiet)
    from .tournament.dask_executor import SchedulerError, run_on_dask

    try:
        if executor == "dask":
            with signals_interrupt():
                summary = run_on_dask(config, config_path, store, display.say, display.update,
                                      scheduler, workers or os.cpu_count() or 1,
                                      shard=shard_of)
        else:
            summary = run_trio(run_tournament, config, config_path, store,
                               workers or os.cpu_count() or 1, display.say, display.update,
                               stderr_dir, None, False, shard_of)
    except SchedulerError as exc:
        refuse(f"--scheduler {scheduler}: {exc}")
    except StoreFailed as exc:
        refuse(f"the results store failed: {exc}; the games stored before it are kept: "
               "run again to resume")
    except (StoreError, RuntimeError, SandboxError) as exc:
        refuse(str(exc))
    except KeyboardInterrupt:
        store.close()
        fail(f"interrupted; finished games are kept in {db_path}; run again to resume")
    if summary.skipped and not summary.played:  # a shard past the last game plays none: fine
        left = "; ".join(f"{name}: {why}" for name, why in summary.left_out.items())
        refuse(f"no game could be played: the {summary.skipped} games left need a bot that "
               f"was left out ({left})")
    try:
        text = board(store)
    except StoreError as exc:
        refuse(f"the games are stored, but the leaderboard cannot be read: {exc}")
    store.close()
    if quiet:  # a left-out bot is said all the same: its games are missing from the results
        for name, why in summary.left_out.items():
            click.echo(f"warning: left out {name}: {visible(why, indent='    ')}", err=True)
        if summary.skipped:
            click.echo(f"warning: {summary.skipped} games skipped (left-out bots); run again "
                       "once they are fixed to play them", err=True)
        return
    display.say(f"{summary.played} games played, {summary.already} were already stored, "
                f"{summary.skipped} skipped (left-out bots), {len(summary.voids)} void; "
                f"results in {db_path}")
    click.echo(text)


@main.command(name="leaderboard")
@click.argument("db_path", metavar="DB", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "csv", "json"]),
              default="table", show_default=True)
@click.option("--head-to-head", is_flag=True,
              help="Also: for each pair, how often each finished above the other.")
@click.option("--seats", is_flag=True, help="Also: results by seat position (seat bias).")
@click.option("--pairs", is_flag=True,
              help="Also: each pair's difference, LOS and whether it is separated (JSON "
                   "always has them).")
def leaderboard_cmd(db_path: Path, fmt: str, head_to_head: bool, seats: bool,
                    pairs: bool) -> None:
    """The standings of the games stored in DB, with 95% intervals and ratings."""
    from .leaderboard import board
    from .tournament.store import StoreError, open_store

    if fmt == "csv" and (head_to_head or seats or pairs):
        fail("--pairs, --head-to-head and --seats do not fit --format csv (one table of "
             "entrants); use json, table or markdown for them")
    if not db_path.exists():  # anything else there: open_store says what it is
        fail(f"no results store at {db_path}")
    try:
        store = open_store(db_path, read_only=True)
        text = board(store, fmt, head_to_head, seats, pairs)
        store.close()
    except StoreError as exc:
        fail(str(exc))
    click.echo(text.rstrip("\n"))


@main.command(name="grade")
@click.argument("submissions", metavar="SUBMISSIONS_DIR",
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("tournaments/classroom.toml"), show_default=True,
              help="A gauntlet tournament file: baselines, deals, limits, [grading] rules.")
@click.option("--out", "out_dir", type=OutputPath(file_okay=False, path_type=Path),
              required=True, help="Where grades.csv and feedback/STUDENT.md are written.")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Games at a time  [default: one per core]")
@click.option("--sandbox", type=click.Choice(["none", "bwrap"]), default=None,
              help="Build, check and play every submission in this sandbox  "
                   "[default: the config's `sandbox`]")
@click.option("-q", "--quiet", is_flag=True)
def grade_cmd(submissions: Path, config_path: Path, out_dir: Path, workers: int | None,
              sandbox: str | None, quiet: bool) -> None:
    """Grade each subfolder of SUBMISSIONS_DIR (one student's bot) against the baselines.

    A bot is described by its bot.toml (command, build) or found by convention: Makefile
    (./bot), bot.py, main.py, bot.js, main.js, bot.pl, Bot.java.  Writes DIR/grades.csv and
    DIR/feedback/STUDENT.md; re-running skips submissions whose files did not change.  DIR
    must lie outside SUBMISSIONS_DIR.  A submission's broken links, pipes and links out of
    its folder are left out of the copy its bot runs in; its feedback lists them.
    """
    import os

    from .grade import grade_all
    from .grade.run import BaselineFailed, FolderError
    from .grade.submissions import WorkFolderFull
    from .tournament.config import TournamentError, load_tournament
    from .tournament.runner import tournament_edition
    from .tournament.store import StoreError

    if not config_path.is_file():
        fail(f"no grading config at {config_path} (give one with --config)")
    try:
        config = load_tournament(config_path)
        tournament_edition(config, config_path)
    except TournamentError as exc:
        fail(str(exc))
    except EditionError as exc:  # before any build
        fail(f"{config_path}: edition: {exc}")
    if config.format != "gauntlet":
        fail(f"{config_path}: format: grading needs a gauntlet (with baselines)")
    if config.until is not None:
        fail(f"{config_path}: until: a grade is given on every deal of the file, so that every "
             "student plays the same games; remove `until` (its `deals` are played)")
    if sandbox is not None:
        config = config.model_copy(update={"sandbox": sandbox})
    from .bots.sandbox import SandboxError, check_sandbox_available

    try:
        check_sandbox_available(config.sandbox)  # before any build: never a silent fallback
    except SandboxError as exc:
        fail(str(exc))
    say = (lambda m: None) if quiet else (
        lambda m: click.echo(visible(m, indent="    "), err=True))
    out_dir, submissions, config_path = (out_dir.resolve(), submissions.resolve(),
                                         config_path.resolve())
    try:
        outcomes = run_trio(grade_all, submissions, config, config_path, out_dir,
                            workers or os.cpu_count() or 1, say)
    except FolderError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read or write {exc.filename or out_dir}: {exc.strerror or exc}")
    except (StoreError, RefereeError, WorkFolderFull) as exc:  # the referee's (a full disk)
        fail(f"the referee failed: {exc}; graded submissions are kept and skipped next time")
    except BaselineFailed as exc:
        fail(f"{exc}; fix it and run again (graded submissions are kept and skipped)")
    except KeyboardInterrupt:
        fail("interrupted; graded submissions are kept and skipped next time")
    if not quiet:
        rows = [[visible(o.student), o.status, o.grade, o.games,
                 "" if o.placement is None else f"{o.placement['mean']:.3f}"] for o in outcomes]
        click.echo(tabulate(rows, headers=["student", "status", "grade", "games",
                                           "placement"]))
        click.echo(f"\n{out_dir / 'grades.csv'}, feedback in {out_dir / 'feedback'}")


@main.command(name="report")
@click.argument("db_path", metavar="DB", type=click.Path(path_type=Path))
@click.option("--out", "out_name", required=True, type=click.Path(),
              help="Folder to write the site into: a new or empty one, or an earlier report's.")
@click.option("--stderr-dir", type=OutputPath(path_type=Path),
              help="The folder given to `tournament run --stderr-dir`: include the last lines "
                   "of each bot's stderr.")
@click.option("--games-sample", type=click.IntRange(0), default=50, show_default=True,
              help="Replay pages for this many games spread over the tournament (plus every "
                   "game with a fault).")
@click.option("--all-games", is_flag=True, help="A replay page for every game.")
def report_cmd(db_path: Path, out_name: str, stderr_dir: Path | None, games_sample: int,
               all_games: bool) -> None:
    """Write the games stored in DB as a static site in OUT: the leaderboard, a page per bot
    and replays of games.  It works from file://, with nothing fetched from the network."""
    from .report import OutError, write_report
    from .tournament.store import StoreError, open_store

    if not out_name:  # Path("") is the current folder
        fail("--out: give a folder name")
    out_dir = Path(out_name)
    if not db_path.exists():  # anything else there: open_store says what it is
        fail(f"no results store at {db_path}")
    if stderr_dir is not None and not stderr_dir.is_dir():
        fail(f"--stderr-dir {stderr_dir}: "
             f"{'a file, not a folder' if stderr_dir.exists() else 'no such folder'}")
    if out_dir.exists() and not out_dir.is_dir():
        fail(f"--out {out_dir} is a file, not a folder")
    try:
        store = open_store(db_path, read_only=True)
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
    click.echo(f"{summary.files} files ({summary.bytes / 1e6:.1f} MB) in {out_dir}: the "
               f"leaderboard, {summary.bot_pages} bot pages and {summary.game_pages} of "
               f"{summary.games} games as replays, in {summary.seconds:.1f} s. "
               f"Open {out_dir / 'index.html'}")


def parse_shard(text: str) -> tuple[int, int]:
    """I/N, with N bounded so that `tournament merge` need not count to a huge N."""
    from .tournament.runner import MAX_SHARDS

    index, _, count = text.partition("/")
    try:
        i, n = int(index), int(count)
    except ValueError:
        fail(f"--shard {text!r}: write it as I/N, e.g. 2/8")
    if not 1 <= n <= MAX_SHARDS:
        fail(f"--shard {text!r}: N must be between 1 and {MAX_SHARDS}")
    if not 1 <= i <= n:
        fail(f"--shard {text!r}: I must be between 1 and N")
    return i, n


@tournament.command(name="merge")
@click.argument("shards", nargs=-1, required=True, metavar="SHARD.db...",
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_path", required=True,
              type=click.Path(dir_okay=False, path_type=Path), help="The merged store.")
def tournament_merge(shards: tuple[Path, ...], out_path: Path) -> None:
    """Merge the stores of a sharded run into one, refusing mixed files, duplicates and gaps."""
    from .tournament.merge import merge
    from .tournament.store import StoreError

    if out_path.exists():
        fail(f"{out_path} exists already; merge into a new file")
    try:
        with signals_interrupt():  # a job's time limit (SIGTERM) too: the partial file goes
            games = merge(out_path, list(shards))
    except StoreError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail(f"interrupted; nothing was merged ({out_path} was not made)")
    click.echo(f"{games} games from {len(shards)} shards in {out_path}")
