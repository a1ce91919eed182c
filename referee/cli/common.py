"""What every command shares: `fail` (one `error:` line, exit status 2), the output-folder
and path checks, the time-limit, sandbox and address-space options, and the BOT arguments.

Text a bot wrote (names, reasons, stderr tails, build output) goes through `visible` as it is
printed, so that no escape sequence of a bot's reaches the terminal.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import click

from ..bots.launch import BotArgumentError, BotSpec, given_bot, number_namesakes
from ..bots.limits import (
    AUTO_ADDRESS_SPACE,
    DEFAULT_ADDRESS_SPACE,
    DEFAULT_MOVE_TIME,
    DEFAULT_STARTUP_TIME,
    DEFAULT_TIME_BANK,
    JVM_ADDRESS_SPACE,
    BotLimits,
    format_size,
    parse_address_space,
)
from ..bots.sandbox import SANDBOX_MODES, SandboxError, SandboxMode, check_sandbox_available
from ..game.config import DEAL_SCHEDULE
from ..text import visible


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


def need_store(db_path: Path) -> None:
    """`fail` unless a results store to read is there (anything else there: `open_store`
    says what it is)."""
    if not db_path.exists():
        fail(f"no results store at {db_path}")


def parse_bots(bots: tuple[str, ...]) -> list[BotSpec]:
    """BOT arguments (`COMMAND` or `NAME=COMMAND`), one per seat, checked before any starts."""
    if len(bots) not in DEAL_SCHEDULE:
        fail(f"Modern Art needs {min(DEAL_SCHEDULE)} to {max(DEAL_SCHEDULE)} bots, "
             f"got {len(bots)}")
    try:
        return number_namesakes([given_bot(text, f"bot {i}") for i, text in enumerate(bots, 1)])
    except BotArgumentError as exc:
        fail(str(exc))


def parse_bot(text: str) -> BotSpec:
    """The BOT argument of `referee check`, checked before it starts."""
    try:
        return given_bot(text, "the bot")
    except BotArgumentError as exc:
        fail(str(exc))


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

