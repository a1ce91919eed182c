"""A bot as its spec says: its name and command, where it runs, its limits and sandbox; and
its process started under them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .limits import BotLimits
from .pids_cgroup import PidsCgroup
from .process import BotProcess, ProcessLimits, StartError, split_command, start_bot
from .sandbox import SandboxError, SandboxMode, resolve_program, wrap_command


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
        return cls((Path(named).stem or "bot")[:64], text)


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
