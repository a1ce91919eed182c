"""A bot as its spec says: its name and command, where it runs, its limits and sandbox; a spec
read from a command-line argument and checked before any bot starts; and its process started
under its spec."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import StartError
from .limits import BotLimits
from .pids_cgroup import PidsCgroup
from .process import BotProcess, ProcessLimits
from .sandbox import SandboxError, SandboxMode, resolve_program, wrap_command
from .start import split_command, start_bot

MAX_NAME = 64  # characters in a bot's name, which names its files and a row of the standings


@dataclass(frozen=True)
class BotSpec:
    """How to run a bot: a display name, a command line, where to run it, its limits and
    sandbox (see `sandbox.py`).

    `home` is the folder the sandbox shows (read-only); by default the one its command names
    (`sandbox.bot_home`).  `read_only` are more host paths the sandbox shows."""

    name: str
    command: str
    cwd: Path | None = None
    limits: BotLimits = field(default_factory=BotLimits)
    sandbox: SandboxMode = "none"
    home: Path | None = None
    read_only: tuple[Path, ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """`NAME=COMMAND`, or just `COMMAND` (then the bot is named after its program file)."""
        name, sep, command = text.partition("=")
        if sep and name.strip() and " " not in name.strip() and command.strip():
            return cls(name.strip(), command.strip())
        argv = split_command(text)
        # The first argument that names a file (my_bot.py, ./bot) names the bot.
        named = next((a for a in argv[1:] if not a.startswith("-") and Path(a).suffix), argv[0])
        return cls((Path(named).stem or "bot")[:MAX_NAME], text)


class BotArgumentError(ValueError):
    """A bot given as `COMMAND` or `NAME=COMMAND` that cannot play: its program is missing, or
    its name cannot name its files; the message says which bot."""


def given_bot(text: str, which: str) -> BotSpec:
    """The bot of one `COMMAND` or `NAME=COMMAND` argument, checked so that a typo fails before
    any bot starts: its program is on PATH or a file here, and its name can name its log and
    transcript files and a row of the standings.  `which` ("bot 2") begins each error."""
    try:
        spec = BotSpec.parse(text)
        program = split_command(spec.command)[0]
    except StartError as exc:
        raise BotArgumentError(f"{which}: {exc}") from None
    if shutil.which(program) is None:
        if "/" not in program and Path(program).is_file():
            raise BotArgumentError(f"{which} ({text!r}): {program!r} is not a command on PATH; "
                                   f"for the file {program} here, write ./{program}")
        if not Path(program).is_file():
            raise BotArgumentError(f"{which} ({text!r}): command {program!r} not found"
                                   + (" (not built yet?)" if "/" in program else ""))
    name = spec.name
    if "/" in name or name in (".", "..") or len(name) > MAX_NAME or \
            any(not c.isprintable() for c in name):
        raise BotArgumentError(
            f"{which}: name {name[:80]!r} must be at most {MAX_NAME} characters, without '/' "
            "or control characters, and not '.' or '..' (it names the bot's log and "
            "transcript files, and a row of the standings)")
    return spec


def number_namesakes(specs: Sequence[BotSpec]) -> list[BotSpec]:
    """The bots, those that share a name (one program given twice) numbered by seat
    (`first_legal-2`) so that their files and standings rows stay apart; BotArgumentError if
    the numbers make two names alike."""
    names = [s.name for s in specs]
    numbered = [replace(s, name=f"{s.name}-{i + 1}") if names.count(s.name) > 1 else s
                for i, s in enumerate(specs)]
    final = [s.name for s in numbered]
    for i, name in enumerate(final):
        if final.count(name) > 1:
            j = final.index(name, i + 1)
            raise BotArgumentError(
                f"bots {i + 1} and {j + 1} would both be named {name!r} (their files and "
                "standings rows would mix); name them with NAME=COMMAND")
    return numbered


async def launch(spec: BotSpec, *, stderr_path: Path | None = None,
                 limits: ProcessLimits = ProcessLimits()) -> BotProcess:  # noqa: B008
    """Start the bot's process under its limits and sandbox, in a pids cgroup of its own
    where one can be made; the caller owns it (see `start_bot`).  Raises StartError, saying
    why it cannot start (a sandbox that cannot take it too)."""
    argv = split_command(spec.command)
    cwd = spec.cwd or Path.cwd()
    if resolve_program(argv[0], cwd) is None:
        raise StartError(f"cannot start {argv[0]}: no such program, or it is not executable")
    try:
        wrapped = wrap_command(argv, cwd=cwd, limits=spec.limits, sandbox=spec.sandbox,
                               home=spec.home, read_only=spec.read_only)
    except SandboxError as exc:
        raise StartError(str(exc)) from None
    return await start_bot(wrapped, cwd=spec.cwd, stderr_path=stderr_path, limits=limits,
                           sandboxed=spec.sandbox != "none",
                           group=PidsCgroup.make(spec.limits.tasks))
