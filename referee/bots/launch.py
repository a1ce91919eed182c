"""A bot as its spec says: its name and command, where it runs, how it is built, its limits and
sandbox; a spec read from a command-line argument (a command line, or a bot folder) and checked
before any bot starts; and its process started under its spec."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import StartError
from .limits import BotLimits
from .manifest import BotFolderError, read_bot_folder
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
    (`sandbox.bot_home`).  `read_only` are more host paths the sandbox shows.  `build` is the
    command that builds a bot folder's bot, to run once in `cwd` before it plays (whoever plays
    it runs it: `launch` does not).  `name_given` is false for a name made from the command's
    file: the name the bot says in its hello is then used instead, where it can be."""

    name: str
    command: str
    cwd: Path | None = None
    limits: BotLimits = field(default_factory=BotLimits)
    sandbox: SandboxMode = "none"
    home: Path | None = None
    read_only: tuple[Path, ...] = ()
    build: str | None = None
    name_given: bool = True

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """`NAME=COMMAND`, or just `COMMAND` (then the bot is named after its program file
        until its hello names it, see `name_given`)."""
        name, command = split_name(text)
        if name is not None:
            return cls(name, command)
        argv = split_command(text)
        # The first argument that names a file (my_bot.py, ./bot) names the bot.
        named = next((a for a in argv[1:] if not a.startswith("-") and Path(a).suffix), argv[0])
        return cls((Path(named).stem or "bot")[:MAX_NAME], text, name_given=False)


def split_name(text: str) -> tuple[str | None, str]:
    """(NAME, the rest) of `NAME=COMMAND` or `NAME=FOLDER`; (None, text) without a name."""
    name, sep, rest = text.partition("=")
    if sep and name.strip() and " " not in name.strip() and rest.strip():
        return name.strip(), rest.strip()
    return None, text


# A name written as a shell's environment variable: `PYTHONHASHSEED=0 python3 bot.py`.
ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


class BotArgumentError(ValueError):
    """A bot given as `COMMAND`, `FOLDER`, `NAME=COMMAND` or `NAME=FOLDER` that cannot play:
    its program is missing, its folder has no bot, or its name cannot name its files; the
    message says which bot."""


def given_bot(text: str, which: str) -> BotSpec:
    """The bot of one `COMMAND`, `FOLDER` or `NAME=...` argument, checked so that a typo fails
    before any bot starts: its program is on PATH or a file here (in its folder), and its name
    can name its log and transcript files and a row of the standings.  A folder's bot is
    described there (`manifest.py`), runs there, and is named after the folder unless NAME or
    its `bot.toml` names it; a program its build makes is looked for after the build
    (`missing_program`).  `which` ("bot 2") begins each error."""
    given_name, target = split_name(text)
    if Path(target).is_dir():
        spec = folder_bot(Path(target), given_name, f"{which} ({text!r})")
    else:
        try:
            spec = BotSpec.parse(text)
            split_command(spec.command)
        except StartError as exc:
            raise BotArgumentError(f"{which}: {exc}") from None
        missing = missing_program(spec)
        if missing is not None:
            if given_name is not None and ENV_NAME.fullmatch(given_name):  # `VAR=value cmd`
                missing += (f"; it was read as NAME=COMMAND, the bot {given_name!r} running "
                            f"{target!r} (to set a variable, write env {text})")
            raise BotArgumentError(f"{which} ({text!r}): {missing}")
    name = spec.name
    if not names_files(name):
        raise BotArgumentError(
            f"{which}: name {name[:80]!r} must be at most {MAX_NAME} characters, without '/' "
            "or control characters, and not '.' or '..' (it names the bot's log and "
            "transcript files, and a row of the standings)")
    return spec


def names_files(name: str) -> bool:
    """Whether `name` can name a bot's log and transcript files and a row of the standings."""
    return not ("/" in name or name in (".", "..") or len(name) > MAX_NAME
                or any(not c.isprintable() for c in name))


def folder_bot(folder: Path, name: str | None, which: str) -> BotSpec:
    """The bot of a bot folder, to run in it (and shown by the sandbox), named `name`, else as
    its `bot.toml` says, else after the folder.  Its program is checked now unless its build
    is what makes it (`./bot`): a program on PATH (`java`, `node`) must be there already."""
    home = folder.resolve()
    try:
        found = read_bot_folder(home)
    except BotFolderError as exc:
        raise BotArgumentError(f"{which}: {exc}") from None
    except OSError as exc:
        raise BotArgumentError(f"{which}: cannot read the folder: {exc.strerror or exc}") from None
    named = name or found.name or (home.name or "bot")[:MAX_NAME]
    spec = BotSpec(named, found.command, cwd=home, home=home, build=found.build)
    program = split_command(spec.command)[0]
    if spec.build is None or "/" not in program:
        missing = missing_program(spec, script=spec.build is None)
        if missing is not None:
            raise BotArgumentError(f"{which}: {missing}")
    return spec


def missing_program(spec: BotSpec, script: bool = True) -> str | None:
    """Why the program of a bot's command cannot run (None if it can): not on PATH, not a file
    of its folder, or not executable; with `script` (not before a build that may make it),
    the script an interpreter would run is not there (`missing_script`).  The one rule for
    "can this program run", for bots on the command line, bot folders and a tournament's
    entrants alike."""
    given = spec.cwd is None  # a command line: its program is looked for here
    cwd = spec.cwd or Path.cwd()
    program = split_command(spec.command)[0]
    if resolve_program(program, cwd) is not None:
        return missing_script(spec.command, cwd) if script else None
    if "/" not in program and (cwd / program).is_file():
        run = _interpreted(program) or f"./{program}"
        return (f"{program!r} is not a command on PATH; for the file {program} "
                + (f"here, write {run}" if given else f"of {cwd}, write {run} in its command"))
    if "/" not in program:
        variable, eq, _ = program.partition("=")
        hint = (f" (to set a variable, write env {spec.command})"
                if eq and ENV_NAME.fullmatch(variable) else "")
        return f"command {program!r} not found{hint}"
    where = Path(os.path.normpath(cwd / program))
    if where.is_file():
        interpreted = _interpreted(program)
        return f"{program} is not executable (" + \
            (f"write {interpreted}, or " if interpreted else "") + f"chmod +x {where})"
    if given:
        return f"command {program!r} not found ({_why_missing(program, where)})"
    return f"{program} not found in {cwd}" + (" after its build" if spec.build else "")


# How the script an interpreter runs is named (`missing_script`).
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".pl", ".rb", ".php", ".sh", ".lua", ".jar")


def missing_script(command: str, cwd: Path) -> str | None:
    """Why a command cannot run for want of the script it names (its first word after the
    program that is not an option, named as scripts are and not a shell's command line or a
    class path), or None.  The interpreter would start and fail at every game: a tournament's
    entrant would sit last in the standings as if it had played, where a missing program
    leaves it out."""
    script = script_named(command)
    if script is None or (cwd / script).exists():
        return None
    return f"{script} not found" + ("" if os.path.isabs(script) else f" in {cwd}")


def script_named(command: str, any_ending: bool = False) -> str | None:
    """The script an interpreter would run in `command` (its first word after the program
    that is not an option, named as scripts are and not a shell's command line or a class
    path), or None.  With `any_ending`, a word named as any file is (a `/` in it, or an
    ending of any kind: "strong_bot.pyy"), but a module after `-m` or an `a=b` setting: the
    reading of a baseline's command, where a misspelt ending must not pass
    (`grade.baseline_scripts`), but too wide for an entrant's, whose word may be no file."""
    for word in split_command(command)[1:]:
        if any_ending and word == "-m":  # a module follows, not a file
            return None
        if not word.startswith("-"):
            break
    else:
        return None
    if any_ending:
        if any(c in ":=" for c in word) or not ("/" in word or _FILE_ENDING.fullmatch(word)):
            return None
    elif not word.endswith(SCRIPT_SUFFIXES):
        return None
    if any(c.isspace() or c == ":" for c in word):  # `sh -c '...'`, a class path
        return None
    return word


# A word that names a file by its ending ("bot.py", "strong_bot.pyy"): a letter after the dot.
_FILE_ENDING = re.compile(r"[^/]+\.[A-Za-z]\w*")


# The interpreter of a script, by its suffix, for a command that names the script alone.
INTERPRETERS = {".py": "python3", ".js": "node", ".pl": "perl", ".rb": "ruby", ".sh": "sh"}


def _interpreted(program: str) -> str | None:
    """`program` run by its interpreter ("python3 my_bot.py"), if its suffix names one."""
    interpreter = INTERPRETERS.get(os.path.splitext(program)[1])
    return None if interpreter is None else f"{interpreter} {program}"


def give_folder(shown: str) -> str:
    """"give the folder ./c", and "give the folder (.)" for the one the command runs in, where
    a bare dot would read as the end of a sentence (`.: it is built ...`)."""
    return f"give the folder {'(.)' if shown == '.' else shown}"


def _why_missing(program: str, where: Path) -> str:
    """What a program path given on the command line that names nothing probably is: a
    program its folder builds (give the folder: it is built before it plays), a typo of a
    name there, or in a folder that is not there."""
    folder = where.parent
    if not folder.is_dir():
        return f"there is no folder {os.path.dirname(program) or folder}"
    try:
        build = read_bot_folder(folder).build
    except (BotFolderError, OSError):
        build = None
    if build is not None:
        return (f"not built yet? {give_folder(os.path.dirname(program) or '.')} instead: it "
                f"is built with `{build}` first")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    close = difflib.get_close_matches(where.name, names, n=1, cutoff=0.6)
    if close:
        return f"did you mean {os.path.join(os.path.dirname(program), close[0])}?"
    return "no such file or folder"


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


# Left out of a bot's environment: a bot must behave alike on every organiser's machine and
# in the sandbox (which clears the environment), and PYTHONUNBUFFERED=1 in the caller's shell
# would let a Python bot that never flushes pass `referee check` and fail elsewhere.
UNSET_FOR_BOTS = frozenset({"PYTHONUNBUFFERED"})


def bot_environment() -> dict[str, str]:
    """The environment a bot starts with: ours, less `UNSET_FOR_BOTS`."""
    return {k: v for k, v in os.environ.items() if k not in UNSET_FOR_BOTS}


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
                           env=bot_environment(), sandboxed=spec.sandbox != "none",
                           group=PidsCgroup.make(spec.limits.tasks))
