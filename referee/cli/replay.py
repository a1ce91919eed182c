"""`referee replay`: a recorded game re-checked against the rules, or one seat's part of it
sent again to a bot (`--bot`), its answers beside the recorded ones."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..bots.limits import RERUN_TIMEOUT
from ..text import visible
from . import short_help
from .common import (
    SECONDS_OR_ZERO,
    address_space_option,
    confine,
    db_option,
    fail,
    need_store,
    parse_bot,
    quiet_option,
    sandbox_option,
    stored_record,
    superseded_option,
    transcript_line,
)

# The match layer, trio and orjson are imported in the functions that use them: a mistake in
# the arguments is one line that need not wait for them.
if TYPE_CHECKING:
    from ..match.rerun import Compared
    from ..match.seat_part import SeatPart, SentRequest


def _seconds_or_none(ctx: click.Context, param: click.Parameter,
                     value: float | None) -> float | None:
    return None if value is None else SECONDS_OR_ZERO(ctx, param, value)


@click.command(name="replay", short_help=short_help("replay"))
@click.argument("source", metavar="GAME.jsonl | GAME_ID | TRANSCRIPT.jsonl", required=False)
@db_option("Replay game GAME_ID from this tournament's results store.")
@superseded_option
@quiet_option("Print only the verdict (with --bot: and the answers that differ or were "
              "faults in the game).")
@click.option("--bot", metavar="BOT",
              help="Send seat --seat's part of the game again to this bot (a command line, a "
                   "bot folder, or NAME=either) and show its answers beside the recorded ones.")
@click.option("--seat", metavar="S",
              help="With --bot: the seat whose part is sent: its number (from 0) or its bot's "
                   "name.")
@click.option("--request", "upto", type=click.IntRange(min=1), metavar="N",
              help="With --bot: stop after the seat's request N (from 1) and stop the bot; "
                   "default: send all, game_end included.")
@click.option("--pause", is_flag=True,
              help="With --bot: wait for Enter before request N (without --request, before "
                   "the hello), to attach a debugger to the bot's pid.")
@click.option("--timeout", type=float, metavar="SECONDS", callback=_seconds_or_none,
              help=f"With --bot: seconds to wait for the bot's hello and each answer "
                   f"(default {RERUN_TIMEOUT:g}, or no limit with --pause); 0 lifts the "
                   f"limit, for a bot slowed or stopped by a debugger.  Without it (and "
                   f"--pause), a request that timed out in the game is given the time it had "
                   f"there (its move time and what was left of its time bank), so that the "
                   f"bot times out again where it did; given, that long as every other.")
@click.option("--show-request", is_flag=True,
              help="With --bot: print each request as it is sent: its legal choices, the "
                   "time left and the seat's view.")
@click.option("-v", "--verbose", is_flag=True, help="With --bot: --show-request.")
@sandbox_option(help="With --bot: bwrap: run the bot in bubblewrap, without network, seeing "
                     "only the system folders and its own, read-only, as `play --sandbox "
                     "bwrap` ran it.")
@address_space_option
def replay_cmd(source: str | None, db_path: Path | None, superseded: bool, quiet: bool,
               bot: str | None, seat: str | None, upto: int | None, pause: bool,
               timeout: float | None, show_request: bool, verbose: bool,
               sandbox: str, address_space: str) -> None:
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
    from ..match.seat_part import part_from_record, read_part, seat_in
    from ..match.transcript import Transcript

    if source is None:
        if db_path is not None:
            need_store(db_path)  # a store that is not one says so first
        fail(f"give the GAME_ID of a game in the store{_some_games(db_path)}: the pages "
             "`referee report` writes list them all, each bot's page its own"
             if db_path is not None else
             "give a game's log (`referee play --log`), a bot's transcript with --bot, or "
             "--db DB GAME_ID")
    if superseded and db_path is None:
        fail("--superseded goes with --db")
    if bot is None:
        for option, given in (("--seat", seat is not None), ("--request", upto is not None),
                              ("--pause", pause), ("--timeout", timeout is not None),
                              ("--show-request", show_request), ("-v", verbose),
                              ("--sandbox", sandbox != "none")):
            if given:
                fail(f"{option} goes with --bot")
    if db_path is not None:
        need_store(db_path)
    if bot is not None:
        if db_path is not None:
            stored = stored_record(source, db_path, superseded)
            part = _seat_part(lambda: part_from_record(stored, seat_in(stored, seat)), upto)
        else:
            part = _seat_part(lambda: read_part(_game_file(source).read_bytes(), seat), upto)
        as_in_game = timeout is None and not pause  # the game's time at its timeouts
        if timeout is None:
            timeout = None if pause else RERUN_TIMEOUT
        _rerun(part, bot, upto, pause, timeout or None, as_in_game, sandbox, address_space,
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
        # the recorded lines: its faults and retirements where they happened, as `play -v`
        names = result.spec.names
        for text in Transcript(names, result.spec.edition_obj()).record(record.lines):
            click.echo(transcript_line(text))
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
           as_in_game: bool, sandbox: str, address_space: str,
           printer: _RerunPrinter) -> None:
    """`replay --bot`: run it, print the answers and the verdict; exit 1 if one differs."""
    from ..interrupts import run_trio
    from ..match.rerun import rerun
    from ..match.seat_part import RerunError

    [spec] = confine([parse_bot(bot)], sandbox, address_space)
    total = len(part.requests)
    click.echo(f"game {visible(part.game_id)}, seat {part.seat} ({visible(part.name)}): "
               f"{total} requests" + (f", sending up to request {upto}" if upto else ""))
    pause_before = (upto or 0) if pause else None
    try:
        result = run_trio(lambda: rerun(part, spec, printer, upto=upto,
                                        pause_before=pause_before, timeout=timeout,
                                        timeouts_as_in_game=as_in_game))
    except RerunError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted; the bot was stopped")
    if result.ended is not None:
        click.echo(f"the bot ended at the game's end: {visible(result.ended)}")
    compared = result.compared
    differ = [c for c in compared if not c.same]
    stopped = f"; stopped after request {upto} of {total}" if upto else ""
    one = len(compared) == 1  # --request 1, or a seat asked once: said in the singular
    faults = sorted({str(c.request.recorded.fault) for c in compared if c.recorded_fault})
    if faults:
        count = sum(c.recorded_fault for c in compared)
        were = ("the recorded one was a fault" if one else
                f"{count} of the recorded ones {'was a fault' if count == 1 else 'were faults'}")
        stopped += f"; {were} in the game ({', '.join(faults)})"
    if not differ:
        said = ("the bot's answer is the recorded one" if one else
                f"the bot's {len(compared)} answers are the recorded ones")
        click.echo(said + stopped)
        return
    first = differ[0].request
    at = f"request {first.number} (id {first.request_id})"
    click.echo((f"the bot's answer differs from the recorded one, at {at}" if one else
                f"{len(differ)} of the bot's {len(compared)} answers "
                f"{'differs' if len(differ) == 1 else 'differ'} from the recorded ones, the "
                f"first at {at}") + stopped)
    click.echo(RERUN_DIFFERS)
    sys.exit(1)


# Why a bot's answers may differ from its recorded ones: a C++ entrant's static vector, never
# reset between games, gave other answers in a fresh process, and nothing said to look there.
RERUN_DIFFERS = ("note: the bot ran here in a fresh process, on this game alone: a bot that "
                 "keeps state across games (a global or static not reset at new_game), reads "
                 "the clock or draws from an unseeded random generator answers otherwise than "
                 "in the game, as does one that changed since")


class _RerunPrinter:
    """Prints a rerun as it goes: the bot's pid, each answer beside the recorded one, and what
    the bot writes to stderr."""

    def __init__(self, quiet: bool, show_requests: bool = False) -> None:
        self.quiet = quiet
        self.show_requests = show_requests
        self.pid = 0

    def started(self, pid: int | None, sandbox: int | None) -> None:
        under = f" (under bwrap, pid {sandbox})" if sandbox is not None else ""
        if pid is None:  # a debugger can attach to bwrap alone
            self.pid = sandbox or 0
            click.echo(f"bot started under bwrap, pid {sandbox}; the bot's own process was "
                       "not found under it")
        else:
            self.pid = pid
            click.echo(f"bot started: pid {pid}{under}")

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
            return
        quoted = request.recorded.reason.split("\n", 1)[1:]  # a crash's stderr, recorded
        if compared.recorded_fault and quoted and quoted[0].strip():
            click.echo("    " + visible(quoted[0].rstrip("\n"), indent="    "))

    def waiting(self, request: SentRequest, seconds: float | None, as_in_game: bool) -> None:
        # said even under --quiet: the wait may be long, and nothing else shows during it
        head = f"request {request.number} (id {request.request_id}) timed out in the game: "
        if seconds is None:
            click.echo(head + "waiting for the bot's answer with no time limit (Ctrl-C stops)"
                       + (f"; to see where it is stuck: {stack_commands(self.pid)}"
                          if self.pid else ""))
        elif as_in_game:
            click.echo(head + f"waiting up to {seconds:g} s for the bot's answer, the time it "
                       "had there, as at each request that timed out (--timeout SECONDS waits "
                       "longer)")
        else:
            click.echo(head + f"waiting up to {seconds:g} s for the bot's answer (--timeout)")

    def stderr(self, text: str) -> None:
        if text and not self.quiet:
            click.echo("  stderr| " + visible(text.rstrip("\n"), indent="  stderr| "))

    async def pause(self, before: str) -> None:
        click.echo(f"paused before {before}: attach a debugger to the bot (gdb -p {self.pid}, "
                   "say), then press Enter")
        import trio

        await trio.to_thread.run_sync(sys.stdin.readline, abandon_on_cancel=True)


def stack_commands(pid: int) -> str:
    """How to see where a bot's process `pid` is, in the common runtimes (docs/play.md,
    `referee replay`, says more: what to install, when sudo is needed)."""
    return (f"py-spy dump --pid {pid} (Python), jstack {pid} (Java), kill -QUIT {pid} (Go), "
            f"gdb -p {pid} (native)")


def _some_games(db_path: Path, most: int = 3) -> str:
    """A few of the store's game ids, for the line that asks for one: games with a fault first
    (those one replays), else its first games; nothing if it cannot be read (as `need_store`
    will then say)."""
    from ..tournament.store import Store, StoreError

    try:
        store = Store.for_reading(db_path)
    except (StoreError, OSError):
        return ""
    first: list[str] = []
    faulted: list[str] = []
    try:
        for result in store.results():
            if len(first) < most:
                first.append(result.game_id)
            if any(result.faults):
                faulted.append(result.game_id)
                if len(faulted) == most:
                    break
    except (StoreError, OSError):
        return ""
    finally:
        store.close()
    if faulted:
        return f", such as these with faults: {', '.join(faulted)}"
    return f", such as {', '.join(first)}" if first else " (it holds none yet)"

