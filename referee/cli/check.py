"""`referee check`: a bot run through scripted situations, each passed, warned or failed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from ..text import visible
from . import short_help
from .common import (
    OutputPath,
    address_space_option,
    confine,
    fail,
    make_folder,
    parse_bot,
    sandbox_option,
    time_limit_options,
)

STDERR_ENDS = "; its stderr ends:\n"  # how a crash's reason quotes the bot's stderr
LINGERED = ("note: told goodbye, the bot had not ended half a second later and was stopped: "
            "a thread or child process still running? Exit at goodbye, or at the end of input")
# The same after timeouts: a bot stuck in a decision (a loop that never ends) reads no more.
LINGERED_BUSY = ("note: told goodbye, the bot had not ended half a second later and was "
                 "stopped: after its timeouts, most likely still busy with a request it never "
                 "answered (a loop that does not end?)")


@click.command(name="check", short_help=short_help("check"))
@click.argument("bot", metavar="BOT")
@time_limit_options
@click.option("--transcript", "transcript_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Write every line exchanged with the bot here (JSON lines).")
@click.option("--stderr", "stderr_path", type=OutputPath(dir_okay=False, path_type=Path),
              help="Keep the bot's stderr here (1 MiB a game; else only a crash's reason "
                   "quotes its end).")
@sandbox_option()
@address_space_option
def check_cmd(bot: str, move_time: float, time_bank: float, startup_time: float,
              transcript_path: Path | None, stderr_path: Path | None, sandbox: str,
              address_space: str) -> None:
    """Run BOT through scripted situations covering every decision kind; exit 0 only when
    every check passes (a WARN passes, with a warning: answers close to the move time, lines
    that answer no request).

    BOT is a command line or a bot folder (its bot.toml, or a bot.py, Makefile... found by
    convention; built first)."""
    [spec] = confine([parse_bot(bot)], sandbox, address_space)
    from ..check import run_check, summary
    from ..check.situations import SCENARIOS
    from ..interrupts import run_trio
    from ..match.game import RefereeError

    if transcript_path is not None:
        make_folder("--transcript", transcript_path.parent, transcript_path)
        try:
            transcript_path.write_bytes(b"")  # written as the checks go
        except OSError as exc:
            fail(f"--transcript {transcript_path}: cannot write it: {exc.strerror or exc}")
    if stderr_path is not None:
        make_folder("--stderr", stderr_path.parent, stderr_path)
    shown = sys.stderr.isatty()  # a slow bot's check takes minutes: say which game is on

    def progress(number: int, scenario: str) -> None:
        if shown:
            sys.stderr.write(f"\r\033[Kchecking: game {number + 1} of {len(SCENARIOS)} "
                             f"({scenario})")
            sys.stderr.flush()

    from ..bots.caught import caught_note
    from ..match.bot_player import BotPlayer

    kept: list[BotPlayer] = []
    try:
        try:
            results, times = run_trio(lambda: run_check(
                spec, move_time=move_time, time_bank=time_bank, startup_time=startup_time,
                transcript=transcript_path, progress=progress, stderr=stderr_path,
                kept=kept))
        finally:
            if shown:  # the line goes before whatever follows it, an error too
                sys.stderr.write("\r\033[K")
                sys.stderr.flush()
    except RefereeError as exc:  # the referee's own failure (a full disk), not the bot's
        fail(f"the referee failed, not the bot: {exc}")
    except KeyboardInterrupt:
        fail("interrupted; the bot was stopped")
    quoted: dict[str, str] = {}  # the end of a crash's stderr, and the check that quoted it
    faults: dict[str, str] = {}  # a failed check's first fault, and the check it failed first
    for r in results:
        reason, ends, tail = r.reason.partition(STDERR_ENDS)
        end = "\n".join(tail.splitlines()[-3:])  # the error and where: one crash, many games
        if ends and end in quoted:
            reason += f"; its stderr ends as in {quoted[end]!r} above"
        else:
            reason = r.reason
            if ends:
                quoted[end] = r.name
        # one cause, many checks: say so, its numbers aside (a bid of 0 under a high bid of
        # 25, then of 30, is one mistake)
        fault = re.sub(r"\d+", "N", r.reason.partition("; first: ")[2])
        if r.mark == "FAIL" and fault and not ends:
            if fault in faults:
                reason += f" (as in {faults[fault]!r} above)"
            else:
                faults[fault] = r.name
        click.echo(f"{r.mark}  {r.name}: {visible(reason, indent='      ')}")
        for line in r.lines:  # the exchange: what the referee sent, and what the bot said
            click.echo(f"      {visible(line)}")
    click.echo(summary(times))
    failed = sum(1 for r in results if r.mark == "FAIL")
    from ..protocol.messages import FaultKind

    crashed = any(r.kinds & {FaultKind.CRASH, FaultKind.START} for r in results)
    if kept and not crashed:  # a bug its kit caught: what its stderr holds (a crash quotes it)
        caught = caught_note(kept[0].errors, f"its stderr is in {stderr_path}"
                             if stderr_path is not None else "--stderr FILE keeps its stderr",
                             answers=len(times))
        if caught is not None:
            click.echo(visible(caught))
    if kept and kept[0].lingered:
        # timeouts enough to stop the check: it was most likely stuck in a decision then
        busy = any(r.name == "answers in time" and not r.passed for r in results)
        click.echo(LINGERED_BUSY if busy else LINGERED)
    skipped = sum(1 for r in results if r.mark == "SKIP")
    warned = sum(1 for r in results if r.mark == "WARN")
    from ..check import CHECK_COUNT

    unstarted = CHECK_COUNT - sum(r.counted for r in results)  # a bot that never started
    click.echo(f"{len(results) - failed - skipped} passed, {failed} failed"
               + (f", {skipped} not run (other failures kept them from being told)"
                  if skipped else "")
               + (f", {unstarted} not run (it did not start)" if unstarted > 0 else "")
               + (f", {warned} with a warning" if warned else ""))
    if failed or skipped:
        if transcript_path is None:
            click.echo("rerun with --transcript FILE to see every line exchanged")
        sys.exit(1)
