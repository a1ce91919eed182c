"""`referee play`, `referee replay` and `referee check`: one game, one record, one bot."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..bots.limits import DEFAULT_MAX_FAULTS, MAX_FAULTS, RERUN_TIMEOUT
from ..game import MAX_SEED, EditionError, GameConfig
from ..game.config import VARIANTS
from ..game.edition import CMON
from ..text import visible
from . import short_help
from .common import (
    SECONDS_OR_ZERO,
    OutputPath,
    address_space_option,
    confine,
    db_option,
    fail,
    make_folder,
    need_store,
    parse_bot,
    parse_bots,
    quiet_option,
    sandbox_option,
    stored_record,
    superseded_option,
    time_limit_options,
)

# The match layer, trio, orjson and tabulate are imported in the functions that use them:
# a mistake in the arguments (a missing bot, a bad option) is one line that need not wait
# for them, nor `check` and `replay` for `play`'s.
if TYPE_CHECKING:
    from ..match.record import GameRecord, SeatResult
    from ..match.rerun import Compared
    from ..match.seat_part import SeatPart, SentRequest


@click.command(short_help=short_help("play"))
@click.argument("bots", nargs=-1, required=True, metavar="BOT BOT BOT [BOT [BOT]]")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="Shuffle seed, 0 to 2**63-1 (as game records store it; a seed's sign "
                   "would not change the deal).")
@click.option("--seat-order", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True,
              help="The index of a tournament game's seat order (its id's oNN): with the same "
                   "--seed, each seat gets the seed for its randomness it got there.")
@click.option("--edition", default=CMON.name, show_default=True,
              help="cmon, classic, or an edition file (.toml/.json).")
@click.option("--variant", "variants", multiple=True, type=click.Choice(VARIANTS),
              help="A rules variant; repeat for several.")
@time_limit_options
@click.option("--max-faults", type=click.IntRange(1, MAX_FAULTS), default=DEFAULT_MAX_FAULTS,
              show_default=True,
              help="Faults in one game before a seat is retired.")
@click.option("--log", "log_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Write the game record (JSON lines) here.")
@click.option("--html", "html_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Write the game as one HTML page here (as `referee view` writes).")
@click.option("--stderr-dir", type=OutputPath(file_okay=False, path_type=Path),
              help="Keep each bot's stderr in NAME.stderr.log here.")
@click.option("--transcript-dir", "transcript_dir",
              type=OutputPath(file_okay=False, path_type=Path),
              help="Write every line each bot sent and received to NAME.transcript.jsonl here.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("-v", "--verbose", is_flag=True, help="Print the game's transcript.")
@sandbox_option()
@address_space_option
def play(
    bots: tuple[str, ...], seed: int, seat_order: int, edition: str,
    variants: tuple[str, ...], move_time: float, time_bank: float, startup_time: float,
    max_faults: int, log_path: Path | None,
    html_path: Path | None, stderr_dir: Path | None, transcript_dir: Path | None,
    as_json: bool, verbose: bool,
    sandbox: str, address_space: str,
) -> None:
    """Play one game between BOTs and print the standings.

    BOT is a command line ("python3 my_bot.py"), a folder with a bot.toml (built first,
    named after the folder), or NAME=either; a command given no NAME is named by its hello.

    Exit status: 0 when the game was played with every bot; 1 when a bot could not start
    (the game is played with its seat retired, and a line on stderr names the seat and why);
    2 when no game was played (a mistake in the command, an interruption, the referee's own
    failure), with one error line.
    """
    specs = parse_bots(bots)
    from ..edition_files import load_edition
    from ..interrupts import run_trio
    from ..match.bot_game import play_bots
    from ..match.game import RefereeError
    from ..match.spec import GameSpec
    from ..match.transcript import Transcript
    from .view import write_page

    variants = tuple(dict.fromkeys(variants))  # one given twice is still one variant
    try:
        ed = load_edition(edition)
        GameConfig.from_variants(len(specs), ed, variants)
    except (EditionError, ValueError) as exc:
        fail(str(exc))
    specs = confine(specs, sandbox, address_space)
    game = GameSpec.make(f"play-{seed}", seed, [s.name for s in specs], ed, variants,
                         order=seat_order, move_time=move_time, time_bank=time_bank,
                         max_faults=max_faults)
    for option, folder in (("--transcript-dir", transcript_dir), ("--stderr-dir", stderr_dir)):
        if folder is not None:
            make_folder(option, folder)
    try:
        record = run_trio(partial(play_bots, game, specs, startup_time=startup_time,
                                  stderr_dir=stderr_dir, transcript_dir=transcript_dir))
    except RefereeError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted; every bot process was stopped")
    if log_path is not None:
        try:
            log_path.write_bytes(record.to_jsonl())
        except OSError as exc:
            fail(f"cannot write the log {log_path}: {exc.strerror}")
    if html_path is not None:
        write_page(record, html_path, "the game")
    if verbose and not as_json:
        for text in Transcript(record.spec.names, ed).record(record.lines):
            click.echo(_transcript_line(text))
        click.echo()
    click.echo(game_json(record) if as_json else standings_table(record.result.seats()))
    unstarted = not_started(record.result.seats())
    for line in unstarted:
        click.echo(f"error: {visible(line)}", err=True)
    if unstarted:
        sys.exit(1)


def not_started(seats: Sequence[SeatResult]) -> list[str]:
    """A line for each seat whose bot could not start (the game was played with the seat
    retired from the start): which seat, and why."""
    from ..protocol.messages import FaultKind

    return [f"seat {s.seat} ({s.name}) could not start: {f.one_line()}; the game was played "
            "without it" for s in seats for f in s.faults if f.kind is FaultKind.START]


def _transcript_line(text: str) -> str:
    """A line of `play -v`, safe to print: one line, but for the stderr tail a crash's reason
    ends with, which follows as a block under it."""
    head, _, tail = text.partition("\n")
    if not tail:
        return visible(head)
    return f"{visible(head)}\n{_TAIL}{visible(tail, indent=_TAIL)}"


_TAIL = "       "  # a stderr tail under the fault line whose reason it ends


def game_json(record: GameRecord) -> str:
    """What `referee play --json` prints: the game, and how each seat ended it."""
    spec = record.spec
    return json.dumps({
        "game_id": spec.game_id,
        "seed": spec.seed,
        "edition": spec.edition["name"],
        "variants": spec.variants,
        "seats": [
            {"seat": s.seat, "name": s.name, "money": s.money, "rank": s.rank,
             "retired": s.retired, "faults": [f.to_dict() for f in s.faults]}
            for s in record.result.seats()
        ],
    }, indent=2)


def standings_table(seats: Sequence[SeatResult]) -> str:
    """What `referee play` prints: the seats by rank, then each fault's reason."""
    from tabulate import tabulate

    ranked = sorted(seats, key=lambda s: (s.rank, s.seat))
    headers = ["rank", "bot", "seat", "money", "faults"]
    rows: list[list[object]] = [[s.rank, visible(s.name), s.seat, s.money, len(s.faults)]
                                for s in ranked]
    if any(s.retired for s in ranked):  # a column of its own only when it says something
        headers.append("retired")
        for row, s in zip(rows, ranked, strict=True):
            row.append("retired" if s.retired else "")
    text = tabulate(rows, headers=headers)
    notes = []
    for s in seats:
        for f in s.faults:
            reason = visible(f.reason, indent="      ")  # a stderr tail, as a block
            notes.append(f"  {visible(s.name)}: {f.kind}: {reason}")
    if notes:
        text += "\n\nFaults:\n" + "\n".join(notes)
    return text


def _seconds_or_none(ctx: click.Context, param: click.Parameter,
                     value: float | None) -> float | None:
    return None if value is None else SECONDS_OR_ZERO(ctx, param, value)


@click.command(name="replay", short_help=short_help("replay"))
@click.argument("source", metavar="GAME.jsonl | GAME_ID | TRANSCRIPT.jsonl")
@db_option("Replay game GAME_ID from this tournament's results store.")
@superseded_option
@quiet_option("Print only the verdict (with --bot: and the answers that differ or were "
              "faults in the game).")
@click.option("--bot", metavar="BOT",
              help="Send seat --seat's part of the game again to this bot (a command line or "
                   "NAME=COMMAND) and show its answers beside the recorded ones.")
@click.option("--seat", type=int, metavar="S",
              help="With --bot: the seat whose part is sent (from 0).")
@click.option("--request", "upto", type=click.IntRange(min=1), metavar="N",
              help="With --bot: stop after the seat's request N (from 1) and stop the bot; "
                   "default: send all, game_end included.")
@click.option("--pause", is_flag=True,
              help="With --bot: wait for Enter before request N (without --request, before "
                   "the hello), to attach a debugger to the bot's pid.")
@click.option("--timeout", type=float, metavar="SECONDS", callback=_seconds_or_none,
              help=f"With --bot: seconds to wait for the bot's hello and each answer "
                   f"(default {RERUN_TIMEOUT:g}, or no limit with --pause); 0 lifts the "
                   f"limit, for a bot slowed or stopped by a debugger.")
@click.option("--show-request", is_flag=True,
              help="With --bot: print each request as it is sent: its legal choices, the "
                   "time left and the seat's view.")
@click.option("-v", "--verbose", is_flag=True, help="With --bot: --show-request.")
@address_space_option
def replay_cmd(source: str, db_path: Path | None, superseded: bool, quiet: bool,
               bot: str | None, seat: int | None, upto: int | None, pause: bool,
               timeout: float | None, show_request: bool, verbose: bool,
               address_space: str) -> None:
    """Re-check a recorded game against the rules; exit 1 on any mismatch.

    Either a game log written by `referee play --log`, or `--db DB GAME_ID`.

    With --bot, send BOT what seat --seat was sent in that game (hello, new_game, events,
    warnings, requests, exactly as then) and show each answer beside the recorded one, and
    what BOT writes to stderr; exit 1 if one differs.  An answer that was a fault in the game
    (an illegal bid) is marked so, even where BOT gives it again.  The game may then also be
    a bot's
    transcript (NAME.transcript.jsonl, written by `play --transcript-dir`).  The bot's pid is
    printed as it starts; to debug one decision, stop at it with --request N --pause.
    """
    from ..match.record import RecordError, read_record
    from ..match.replay import replay
    from ..match.seat_part import part_from_record, read_part
    from ..match.transcript import Transcript

    if superseded and db_path is None:
        fail("--superseded goes with --db")
    if bot is None:
        for option, given in (("--seat", seat is not None), ("--request", upto is not None),
                              ("--pause", pause), ("--timeout", timeout is not None),
                              ("--show-request", show_request), ("-v", verbose)):
            if given:
                fail(f"{option} goes with --bot")
    if db_path is not None:
        need_store(db_path)
    if bot is not None:
        if db_path is not None:
            part = _seat_part(lambda: part_from_record(
                stored_record(source, db_path, superseded), _seat_given(seat)), upto)
        else:
            part = _seat_part(lambda: read_part(_game_file(source).read_bytes(), seat), upto)
        if timeout is None:
            timeout = None if pause else RERUN_TIMEOUT
        _rerun(part, bot, upto, pause, timeout or None, address_space,
               _RerunPrinter(quiet, show_request or verbose))
        return
    try:
        if db_path is not None:
            record = stored_record(source, db_path, superseded)
        else:
            record = read_record(_game_file(source).read_bytes())
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


def _game_file(source: str) -> Path:
    path = Path(source)
    if not path.is_file():
        fail(f"{source}: no such game log (to replay a stored game, add --db DB)")
    return path


def _seat_given(seat: int | None) -> int:
    if seat is None:
        fail("give --seat S: whose part of the game to send to the bot")
    return seat


def _seat_part(read: Callable[[], SeatPart], upto: int | None) -> SeatPart:
    """The seat's part `read` gives, with a request `upto`, or `fail`."""
    from ..match.seat_part import RerunError

    try:
        part = read()
        part.up_to(upto)
        return part
    except RerunError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read it: {exc.strerror or exc}")


def _rerun(part: SeatPart, bot: str, upto: int | None, pause: bool, timeout: float | None,
           address_space: str, printer: _RerunPrinter) -> None:
    """`replay --bot`: run it, print the answers and the verdict; exit 1 if one differs."""
    from ..interrupts import run_trio
    from ..match.rerun import rerun
    from ..match.seat_part import RerunError

    [spec] = confine([parse_bot(bot)], "none", address_space)
    total = len(part.requests)
    click.echo(f"game {visible(part.game_id)}, seat {part.seat} ({visible(part.name)}): "
               f"{total} requests" + (f", sending up to request {upto}" if upto else ""))
    pause_before = (upto or 0) if pause else None
    try:
        result = run_trio(lambda: rerun(part, spec, printer, upto=upto,
                                        pause_before=pause_before, timeout=timeout))
    except RerunError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted; the bot was stopped")
    if result.ended is not None:
        click.echo(f"the bot ended at the game's end: {visible(result.ended)}")
    compared = result.compared
    differ = [c for c in compared if not c.same]
    stopped = f"; stopped after request {upto} of {total}" if upto else ""
    faults = sorted({str(c.request.recorded.fault) for c in compared if c.recorded_fault})
    if faults:
        stopped += (f"; {sum(c.recorded_fault for c in compared)} of the recorded ones were "
                    f"faults in the game ({', '.join(faults)})")
    if not differ:
        click.echo(f"the bot's {len(compared)} answers are the recorded ones{stopped}")
        return
    first = differ[0].request
    click.echo(f"{len(differ)} of the bot's {len(compared)} answers differ from the recorded "
               f"ones, the first at request {first.number} (id {first.request_id}){stopped}")
    sys.exit(1)


class _RerunPrinter:
    """Prints a rerun as it goes: the bot's pid, each answer beside the recorded one, and what
    the bot writes to stderr."""

    def __init__(self, quiet: bool, show_requests: bool = False) -> None:
        self.quiet = quiet
        self.show_requests = show_requests
        self.pid = 0

    def started(self, pid: int) -> None:
        self.pid = pid
        click.echo(f"bot started: pid {pid}")

    def hello(self, name: str, processes: list[str]) -> None:
        if not self.quiet:
            shown = visible(", ".join(processes))
            click.echo(f"hello from {visible(name)}; its processes: {shown}")

    def sending(self, request: SentRequest) -> None:
        if not self.show_requests:
            return
        import orjson

        head = f"request {request.number} (id {request.request_id}, {visible(request.decision)})"
        try:
            message = orjson.loads(request.line)
        except orjson.JSONDecodeError:
            message = None
        if not isinstance(message, dict):  # a transcript's line, whatever it holds
            click.echo(f"{head} sent: {visible(request.line.decode('utf-8', 'replace'))}")
            return
        asked = ", ".join(f"{key} {orjson.dumps(message[key]).decode()}"
                          for key in ("legal", "time") if key in message)
        click.echo(visible(f"{head} sent: {asked}"))
        click.echo(visible(f"  view {orjson.dumps(message.get('view')).decode()}"))

    def compared(self, compared: Compared) -> None:
        request = compared.request
        head = f"request {request.number} (id {request.request_id}, {visible(request.decision)})"
        if not compared.same:
            click.echo(f"{head}: differs: bot {visible(str(compared.answer))}, recorded "
                       f"{visible(str(request.recorded))}")
        elif compared.recorded_fault:  # the same fault again: marked, even under --quiet
            click.echo(f"{head}: same, a fault in the game: {visible(str(request.recorded))}")
        elif not self.quiet:
            click.echo(f"{head}: same: {visible(str(compared.answer))}")

    def stderr(self, text: str) -> None:
        if text and not self.quiet:
            click.echo("  stderr| " + visible(text.rstrip("\n"), indent="  stderr| "))

    async def pause(self, before: str) -> None:
        click.echo(f"paused before {before}: attach a debugger to the bot (gdb -p {self.pid}, "
                   "say), then press Enter")
        import trio

        await trio.to_thread.run_sync(sys.stdin.readline, abandon_on_cancel=True)


@click.command(name="check", short_help=short_help("check"))
@click.argument("bot", metavar="BOT")
@time_limit_options
@click.option("--transcript", "transcript_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Write every line exchanged with the bot here (JSON lines).")
@sandbox_option()
@address_space_option
def check_cmd(bot: str, move_time: float, time_bank: float, startup_time: float,
              transcript_path: Path | None, sandbox: str, address_space: str) -> None:
    """Run BOT through scripted situations covering every decision kind; exit 0 only when
    every check passes (a WARN passes, with a warning: answers close to the move time, lines
    that answer no request).

    BOT is a command line or a folder with a bot.toml (built first)."""
    [spec] = confine([parse_bot(bot)], sandbox, address_space)
    from ..check import run_check, summary
    from ..interrupts import run_trio
    from ..match.game import RefereeError

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
        click.echo(f"{r.mark}  {r.name}: {visible(r.reason, indent='      ')}")
        for line in r.lines:  # the exchange: what the referee sent, and what the bot said
            click.echo(f"      {visible(line)}")
    click.echo(summary(times))
    failed = sum(1 for r in results if not r.passed)
    warned = sum(1 for r in results if r.mark == "WARN")
    click.echo(f"{len(results) - failed} passed, {failed} failed"
               + (f", {warned} with a warning" if warned else ""))
    if failed:
        if transcript_path is None:
            click.echo("rerun with --transcript FILE to see every line exchanged")
        sys.exit(1)
