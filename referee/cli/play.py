"""`referee play`: one game between bots, its standings, log and transcripts."""

from __future__ import annotations

import json
import math
import shlex
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..bots.limits import DEFAULT_MAX_FAULTS, MAX_FAULTS
from ..game import MAX_SEED, EditionError, GameConfig
from ..game.config import VARIANTS
from ..game.edition import CMON
from ..text import visible
from . import short_help
from .common import (
    OutputPath,
    address_space_option,
    confine,
    fail,
    make_folder,
    parse_bots,
    sandbox_option,
    time_limit_options,
    transcript_line,
)

# The match layer, trio, orjson and tabulate are imported in the functions that use them:
# a mistake in the arguments (a missing bot, a bad option) is one line that need not wait
# for them.
if TYPE_CHECKING:
    from ..bots.launch import BotSpec
    from ..match.bot_player import BotPlayer
    from ..match.record import GameRecord
    from ..match.result import SeatResult


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
@click.option("--json", "as_json", is_flag=True,
              help="Print the result as one JSON object on one line (games played in a loop "
                   "append to one JSON Lines file).")
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

    BOT is a command line ("python3 my_bot.py"), a bot folder (its bot.toml, or a bot.py,
    Makefile... found by convention; built first; named as its bot.toml says, else after the
    folder), or NAME=either; a command given no NAME is named by its hello.

    Exit status: 0 when the game was played, a bot's faults and crashes in it included (the
    standings show them); 1 when a bot could not start
    (the game is played with its seat retired, and a line on stderr names the seat and why);
    2 when no game was played (a mistake in the command, an interruption, the referee's own
    failure), with an error message.
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
    orders = math.factorial(len(specs))
    if seat_order >= orders:
        fail(f"--seat-order {seat_order}: a game of {len(specs)} bots has {orders} seat orders, "
             f"0 to {orders - 1}")
    specs = confine(specs, sandbox, address_space)
    game = GameSpec.make(f"play-{seed}", seed, [s.name for s in specs], ed, variants,
                         order=seat_order, move_time=move_time, time_bank=time_bank,
                         max_faults=max_faults)
    for option, folder in (("--transcript-dir", transcript_dir), ("--stderr-dir", stderr_dir)):
        if folder is not None:
            make_folder(option, folder)
    for option, file in (("--log", log_path), ("--html", html_path)):
        if file is not None:  # made before the game, which a missing folder would lose
            make_folder(option, file.parent, file)
    players: dict[str, BotPlayer] = {}
    try:
        record = run_trio(partial(play_bots, game, specs, startup_time=startup_time,
                                  stderr_dir=stderr_dir, transcript_dir=transcript_dir,
                                  players_out=players))
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
            click.echo(transcript_line(text))
        click.echo()
    click.echo(game_json(record) if as_json else standings_table(
        record.result.seats(), record,
        {name: replay_bot(p.spec) for name, p in players.items()}, log_path,
        replay_limits(sandbox, address_space)))
    if not as_json:
        from ..match.timing import slow_lines

        for line in [*slow_lines(record), *caught_lines(record, players, stderr_dir),
                     *unasked_lines(record, players)]:
            click.echo(visible(line))
    unstarted = not_started(record.result.seats())
    for line in unstarted:
        click.echo(f"error: {visible(line)}", err=True)
    if unstarted:
        sys.exit(1)


def caught_lines(record: GameRecord, players: dict[str, BotPlayer],
                 stderr_dir: Path | None) -> list[str]:
    """A note for each bot whose stderr holds lines that look like errors it lived through
    (a seat that crashed, or never started, has its stderr quoted in its fault)."""
    from ..bots.caught import caught_note
    from ..protocol.messages import FaultKind

    crashed = {s.seat for s in record.result.seats()  # or never started
               if any(f.kind in (FaultKind.CRASH, FaultKind.START) for f in s.faults)}
    notes = []
    for seat, name in enumerate(record.spec.names):
        where = ("--stderr-dir DIR keeps its stderr" if stderr_dir is None else
                 f"its stderr is in {stderr_dir / f'{name}.stderr.log'}")
        note = None if seat in crashed or name not in players else caught_note(
            players[name].errors, where, name)
        if note is not None:
            notes.append(note)
    return notes


def unasked_lines(record: GameRecord, players: dict[str, BotPlayer]) -> list[str]:
    """A note for each bot that wrote lines answering no request: replies the referee skipped,
    beyond the one late answer a timeout allows.  A bot with malformed replies too is told
    the likely cause: a line that is not a reply (debug output on stdout) is taken as the
    request's answer, and the real answer after it answers none (it was told only of second
    replies and replies to events, which it did not write)."""
    from ..protocol.codec import STDOUT_ONLY
    from ..protocol.messages import FaultKind
    from ..protocol.seat import STALE_AT_MOST

    notes = []
    for s in record.result.seats():
        player = players.get(s.name)
        late = sum(1 for f in s.faults if f.kind is FaultKind.TIMEOUT)
        unasked = 0 if player is None else player.seat.skipped - late
        if unasked <= 0:
            continue
        lines, them = (f"{unasked} lines", "them") if unasked > 1 else ("1 line", "it")
        malformed = sum(1 for f in s.faults if f.kind is FaultKind.MALFORMED)
        if malformed:
            bad = f"{malformed} malformed line{'s' if malformed > 1 else ''}"
            notes.append(f"note: {s.name}: {lines} it wrote answered no request: most likely "
                         f"{'its real answers' if unasked > 1 else 'a real answer'}, pushed out "
                         f"of step by its {bad} above (each taken as its request's answer, the "
                         f"real one coming after it): the referee skipped {them} "
                         f"({STDOUT_ONLY})")
        else:
            notes.append(f"note: {s.name}: {lines} it wrote answered no request (a second "
                         "reply to one request, or replies to new_game, events or game_end, "
                         f"which want none): the referee skipped {them}, but more than "
                         f"{STALE_AT_MOST} while a request waits are a wrong_id fault")
    return notes


def not_started(seats: Sequence[SeatResult]) -> list[str]:
    """A line for each seat whose bot could not start (the game was played with the seat
    retired from the start): which seat, and why."""
    from ..protocol.messages import FaultKind

    return [f"seat {s.seat} ({s.name}) could not start: {f.one_line()}; the game was played "
            "without it" for s in seats for f in s.faults if f.kind is FaultKind.START]




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
    })


def replay_bot(spec: BotSpec) -> str:
    """How `referee replay --bot` is given the bot again: its folder, for one given as a
    folder (its command runs there), else its command."""
    if spec.cwd is not None and spec.cwd.resolve() != Path.cwd().resolve():
        return str(spec.cwd)
    return spec.command


def replay_limits(sandbox: str, address_space: str) -> list[str]:
    """The options of `play` that `referee replay --bot` takes too, as given where they are
    not the defaults: the bot sent a request again runs under the limits it played under (a
    bot that ran out of a 512M address space must run out of it again)."""
    from ..bots.limits import AUTO, parse_address_space

    options = [] if sandbox == "none" else ["--sandbox", sandbox]
    if parse_address_space(address_space) != AUTO:  # `confine` has checked it
        options += ["--address-space", address_space.strip()]
    return options


def standings_table(seats: Sequence[SeatResult], record: GameRecord | None = None,
                    commands: dict[str, str] | None = None,
                    log_path: Path | None = None, limits: Sequence[str] = ()) -> str:
    """What `referee play` prints: the seats by rank, then each fault's reason, with the
    request it answered where the `record` is given, and how to send that request to the bot
    again (a Python entrant could not tell which request a fault was to replay it), under
    the play's `limits` (`replay_limits`), and for a timeout how to see where the bot is
    stuck (an endless loop said nothing of it); a crash found at a request says what the bot was
    sent before it, on which it may have crashed instead (`match.ended.told`)."""
    from tabulate import tabulate

    from ..match.ended import told as told_reason
    from ..match.steps import fault_requests
    from ..match.timing import DECISION_WORDS
    from ..protocol.messages import FaultKind

    ranked = sorted(seats, key=lambda s: (s.rank, s.seat))
    headers = ["rank", "bot", "seat", "money", "faults"]
    rows: list[list[object]] = [[s.rank, visible(s.name), s.seat, s.money, len(s.faults)]
                                for s in ranked]
    if any(s.retired for s in ranked):  # a column of its own only when it says something
        headers.append("retired")
        for row, s in zip(rows, ranked, strict=True):
            row.append("retired" if s.retired else "")
    text = tabulate(rows, headers=headers)
    numbered = [] if record is None else fault_requests(record)
    notes = []
    first: tuple[str, int] | None = None  # a bot and a request to replay, for the hint
    first_kind: FaultKind | None = None
    for s in seats:
        for f in s.faults:
            at = next((i for i, (ln, _, _) in enumerate(numbered) if ln.seat == s.seat
                       and ln.kind is f.kind and ln.reason == f.reason), None)
            _, number, kind = (None, None, None) if at is None else numbered.pop(at)
            where = "" if number is None else (
                f" (request {number}" + ("" if kind is None else f": {DECISION_WORDS[kind]}")
                + ")")
            if number is not None and first is None:
                first, first_kind = (s.name, number), f.kind
            # a crash found at a request, with the events it may have crashed on instead
            told = f.reason if record is None else told_reason(record, s.seat, number, f)
            reason = visible(told, indent="      ")  # a stderr tail, as a block
            notes.append(f"  {visible(s.name)}: {f.kind}{where}: {reason}")
    if notes:
        text += "\n\nFaults:\n" + "\n".join(notes)
    if first is not None and commands and first[0] in commands:
        name, number = first
        again = (f"referee replay {shlex.quote(str(log_path or 'GAME.jsonl'))} --bot "
                 f"{shlex.quote(commands[name])} --seat {shlex.quote(name)} --request {number}"
                 + "".join(f" {shlex.quote(option)}" for option in limits))
        text += ("\n\nTo send a bot a request of this game again and see its answer: "
                 + (visible(again) if log_path is not None else
                    f"give --log GAME.jsonl, then {visible(again)}"))
        if first_kind is FaultKind.TIMEOUT:
            text += ("\nIt timed out there: add --pause to wait for it with no time limit and "
                     "see where it is stuck (docs/play.md, `referee replay`)")
    return text
