"""Why a bot's process ended, in words: how it ended, the limit or sandbox rule it shows it ran
into, and the end of its stderr."""

from __future__ import annotations

import re
from collections.abc import Sequence

import trio

from .caught import HEADLINE
from .launch import BotSpec
from .limits import BotLimits, format_size
from .process import BotProcess
from .start import split_command

_MEMORY = re.compile(r"MemoryError|std::bad_alloc|Cannot allocate memory|[Oo]ut of memory|"
                     r"Could not reserve|Could not allocate|OutOfMemoryError|allocation failed")
_NO_FORK = re.compile(r"Resource temporarily unavailable|unable to create native thread|"
                      r"fork: retry|BlockingIOError")
_NETWORK = re.compile(r"ConnectionRefused|Network is unreachable|Connection refused|"
                      r"Temporary failure in name resolution|Name or service not known|"
                      r"ECONNREFUSED|ENETUNREACH|EAI_AGAIN")
STDERR_ENDS = "; its stderr ends:"  # where a crash's reason quotes the bot's stderr
# Seconds to wait for bwrap's exit once the bot's own process has ended: its pid 1 has to
# run first, which on a loaded machine can take a while.
ENDED_WAIT = 10.0
# A package the bot imports that its interpreter cannot find: Python, Node, Perl.
_MODULE = re.compile(r"ModuleNotFoundError|No module named|Cannot find module|Can't locate \S+ "
                     r"in @INC")
# A shared library the dynamic loader cannot find as the program starts (exit status 127):
# glibc's, musl's and macOS dyld's words; the library's name is the group that matched.
_LIBRARY = re.compile(r"error while loading shared libraries: (\S+?): cannot open shared object|"
                      r"Error loading shared library (\S+?): No such file|"
                      r"Library not loaded: (\S+)")
_FILES = re.compile(r"No such file or directory|Read-only file system|ENOENT|EROFS")
# A sanitizer (-fsanitize=address) that cannot reserve its shadow memory under `ulimit -v`.
_SANITIZER = re.compile(r"Sanitizer failed to allocate|ReserveShadowMemoryRange failed|"
                        r"Perhaps you're using ulimit -v")


async def crash_reason(bot: BotProcess, what: str, spec: BotSpec, *,
                       between_games: bool = False) -> str:
    """`what`, how the process ended (waiting a second at most for it to, or in the sandbox
    up to ENDED_WAIT once the bot's own process is known to have ended, as bwrap's exit then
    comes with the status), a hint at the limit it ran into, and the end of its stderr.
    `between_games`: it had played a game and had not answered in this one, so a clean exit
    is the classic mistake of a bot that plays one game only."""
    with trio.move_on_after(ENDED_WAIT if bot.own_process_ended else 1.0):
        await bot.process.wait()
    ending = bot.exit_description()
    tail = excerpt(bot.stderr.last_lines(0).splitlines())
    text = f"{what}; {ending}"
    hint = limit_hint(ending, tail, split_command(spec.command), spec.limits, bot.sandboxed)
    if hint is None and ending == "exit status 0" and between_games:
        hint = ("it ended after its last game: one process plays every game, until "
                "goodbye or the end of its input")
    if hint:
        text += f" ({hint})"
    if tail:
        text += f"{STDERR_ENDS}\n{tail}"
    return text


QUOTED = 8  # lines of a bot's stderr quoted in a crash's reason
# Lines back from the end in which an error's first line is looked for: a stack trace is
# shorter; an error further back was logged and lived through, not what ended the bot.
TRACE = 40


# A sanitizer's report (AddressSanitizer, LeakSanitizer) ends with its shadow memory's
# legend, some 35 lines under the error it reports: looked for further back.
SANITIZER_END = re.compile(r"^==\d+==ABORTING")
SANITIZER_TRACE = 200


def excerpt(lines: Sequence[str], count: int = QUOTED) -> str:
    """About `count` lines of a crashed bot's stderr `lines`: its last, but where the last
    error's first line (`HEADLINE`) comes before them, that line and those right after it
    (where the error happened), "...", and the last two.  Blank lines from the error on are
    left out of those: Go's panic puts one (and a `[signal ...]` line) before its first
    frame, whose file and line would otherwise be cut; and a run of them before the last
    lines must not make the quote that long."""
    back = SANITIZER_TRACE if lines and SANITIZER_END.match(lines[-1]) else TRACE
    at = next((i for i in range(len(lines) - 1, max(-1, len(lines) - 1 - back), -1)
               if HEADLINE.match(lines[i])), None)
    if at is None or at >= len(lines) - count:
        return "\n".join(lines[-count:])
    shown = [i for i in range(at, len(lines)) if lines[i].strip()]
    first = shown[:count - 3]
    skipped = len(lines) - first[-1] - 1 - 2
    if skipped <= 1:  # what is left fits: at most `count` lines, the blank ones left out
        return "\n".join(lines[i] for i in shown)
    return "\n".join([*(lines[i] for i in first), f"... ({skipped} lines)", *lines[-2:]])


def limit_hint(ending: str, stderr_tail: str, argv: Sequence[str], limits: BotLimits,
               sandboxed: bool) -> str | None:
    """Which limit the end of a bot's process shows it ran into, in words, or None."""
    if "SIGXCPU" in ending and limits.cpu_time is not None:
        return f"over the CPU-time limit of {limits.cpu_time} s per process"
    if ("SIGXFSZ" in ending or "File too large" in stderr_tail) and limits.file_size:
        return f"over the file-size limit of {format_size(limits.file_size)}"
    if "Too many open files" in stderr_tail and limits.open_files is not None:
        return f"over the open-files limit of {limits.open_files}"
    address_space = limits.address_space_for(argv) if argv else None
    if _SANITIZER.search(stderr_tail) and address_space is not None:
        return (f"a sanitizer's build reserves far more address space than the limit of "
                f"{format_size(address_space)} for its shadow memory: check it with "
                "--address-space off (address_space = \"off\" in a tournament file), or play "
                "a build without the sanitizer")
    if "OutOfMemoryError: Java heap space" in stderr_tail:  # the JVM's own cap, first
        return ("the JVM's heap is full: its -Xmx, a quarter of the machine's memory unless "
                "given" + (f", or the address-space limit of {format_size(address_space)}"
                           if address_space is not None else "") + "; raise -Xmx in the "
                "command, or use less")
    if _MEMORY.search(stderr_tail) and address_space is not None:
        return (f"probably over the address-space limit of {format_size(address_space)} "
                "(raise it with address_space in the tournament file, or --address-space)")
    if _NO_FORK.search(stderr_tail) and limits.processes is not None:
        return f"probably over the limit of {limits.processes} processes"
    library = _LIBRARY.search(stderr_tail)
    if library:  # before the sandbox's files: the loader says "No such file or directory" too
        name = next(g for g in library.groups() if g)
        return (f"the shared library {name} was not found" + (
            " in the sandbox, which shows the system folders and the bot's own" if sandboxed
            else "") + ": it must be installed on the machine that runs the bot, or linked "
            "into the bot statically")
    if _MODULE.search(stderr_tail):
        return ("the sandbox shows the system folders and the bot's own: a package must be "
                "installed for the system's python3, node or perl, which a bare command runs, "
                "or come with the bot in its folder" if sandboxed else
                "a module it imports was not found by the interpreter that ran it, on the "
                "machine that ran it: install it for that interpreter, name one that has it "
                "in the command, or bring it in the bot's folder")
    if sandboxed and _NETWORK.search(stderr_tail):
        return "the sandbox has no network"
    if sandboxed and _FILES.search(stderr_tail):
        return ("the sandbox shows only the system folders, the bot's own folder (read-only) "
                "and a scratch /tmp")
    return None
