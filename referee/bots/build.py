"""A bot's build command, run once before it plays: a tournament's entrants, a student's bot.

The build runs in the bot's folder, for at most its time limit, its output captured (standard
output and error in one pipe, in the order written, as a terminal shows them), and in the
bot's sandbox when there is one (with the folder writable and no network).  Whatever stops
it, the whole process group it started goes with it.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import trio

from referee.text import counted

from .limits import BotLimits
from .process import ProcessLimits
from .sandbox import SandboxError, SandboxMode, wrap_command

# What a compiler says, and what it means for a bot.  The TypeScript kit declares no
# `console` on purpose (console.log writes to stdout, the protocol's), and tsc's own advice,
# to add the "dom" library, builds a bot whose every debug line is a malformed reply.
BUILD_HINTS = (
    ("Cannot find name 'console'",
     "console is not declared, as console.log would write to stdout, where only protocol "
     "messages go: log with the kit's log() (`import { log } from \"./log\";`), which "
     "writes to stderr (do not add \"dom\" to the compiler's lib)"),
)

# A compiler's first error line: gcc, clang, javac, rustc, go, tsc, csc, make, cargo, Maven.
# "error" followed by its colon (rustc's code or tsc's and csc's between), not as a word:
# a Rust module src/error.rs in a warning's `-->`, make echoing -Wno-error=..., error.h.
FIRST_ERROR = re.compile(r"\berror(?:\[\w+\]| [A-Z]+\d+)?:|: undefined\b|"
                         r"^make(?:\[\d+\])?: \*\*\*|^\[ERROR\]", re.IGNORECASE)


def first_error(lines: Sequence[str]) -> int | None:
    """The index of a build's first error line (`FIRST_ERROR`), or None."""
    return next((i for i, line in enumerate(lines) if FIRST_ERROR.search(line)), None)


@dataclass(frozen=True)
class BuildResult:
    """How a build ended: `failure` says why it did not run to its end, in words that follow
    "the build " ("did not finish within 60 s"); else its exit status and output.

    The output is one stream, standard error merged into standard output, in the order
    written: two streams joined in either order put some compiler's lines out of it.  mcs
    writes its error to stderr, then its summary ("Compilation failed: 1 error(s)") to
    stdout; make echoes its command to stdout, then the compiler's errors go to stderr."""

    failure: str | None = None
    returncode: int = 0
    printed: bytes = b""  # standard output and error, as written

    @property
    def ok(self) -> bool:
        return self.failure is None and self.returncode == 0

    @property
    def problem(self) -> str | None:
        """What went wrong, in words that follow "its build " ("failed (exit status 2)"), or
        None when it built: the one verdict `play`, tournaments and grading all give, with a
        hint where its output shows a known cause (`BUILD_HINTS`)."""
        if self.failure is not None:
            return self.failure
        if self.returncode == 0:
            return None
        output = self.output
        hint = next((h for said, h in BUILD_HINTS if said in output), None)
        return f"failed (exit status {self.returncode})" + (f": {hint}" if hint else "")

    @property
    def output(self) -> str:
        """What it printed, as text."""
        return self.printed.decode("utf-8", "replace").strip("\n")

    def headline(self) -> str:
        """One line of its output that says most: the compiler's first error, else the last
        line (what a board, a CSV cell or a plan note, one line each, keeps of a failed
        build; the run itself prints the `excerpt`).  rustc names the error's place on the
        line after it (`--> src/strategy.rs:174:71`): that place is kept too."""
        text = [line.strip() for line in self.output.splitlines() if line.strip()]
        first = first_error(text)
        if first is None:
            return text[-1] if text else ""
        after = text[first + 1] if first + 1 < len(text) else ""
        return text[first] + (f" ({after[4:]})" if after.startswith("--> ") else "")

    def tail(self, lines: int) -> str:
        """The last `lines` lines of its output."""
        return "\n".join(self.output.splitlines()[-lines:])

    def excerpt(self, lines: int) -> str:
        """About `lines` lines of its output: all of it if it is no longer; else from the
        compiler's first error (a teacher found javac's `Bot.java:106: error: cannot find
        symbol`, the line with the line number, cut off the top of 31 lines), or its last
        lines, with what is left out said ("... (12 lines)")."""
        text = self.output.splitlines()
        if len(text) <= lines:
            return "\n".join(text)
        first = first_error(text)
        if first is None or first > len(text) - lines:  # within the last lines - 1 shown
            left = counted(len(text) - lines + 1, "line")
            return "\n".join([f"... ({left})", *text[-(lines - 1):]])
        head = text[first:first + lines - 4]
        skipped = len(text) - first - len(head) - 2
        before, after = counted(first, "line"), counted(skipped, "line")
        return "\n".join([*([f"... ({before})"] if first else []), *head,
                          *([f"... ({after})"] if skipped else []), *text[-2:]])


async def build_bot(command: str, folder: Path, seconds: float, sandbox: SandboxMode = "none",
                    read_only: Sequence[Path] = ()) -> BuildResult:
    """Run `command` in `folder` for at most `seconds`, in the sandbox unless it is "none"
    (showing `read_only` too)."""
    argv = shlex.split(command)
    if sandbox != "none":
        try:
            argv = wrap_command(argv, cwd=folder, limits=BotLimits.off(), sandbox=sandbox,
                                home=folder, writable_home=True, read_only=read_only)
        except SandboxError as exc:
            return BuildResult(failure=f"cannot run in the sandbox: {exc}")
    try:
        done = await run_build(argv, folder, seconds)
    except trio.TooSlowError:
        return BuildResult(failure=f"did not finish within {seconds:g} s")
    except OSError as exc:
        return BuildResult(failure=f"cannot start: {_why_not(command, exc)}")
    return BuildResult(returncode=done.returncode, printed=done.stdout)


def _why_not(command: str, exc: OSError) -> str:
    """Why a build command did not start, naming its program and, where it helps, the fix."""
    program = str(exc.filename or shlex.split(command)[0])
    if isinstance(exc, FileNotFoundError):
        return f"{program}: no such program or file"
    if isinstance(exc, PermissionError):
        return f"{program}: permission denied (not executable? chmod +x it)"
    return f"{program}: {exc.strerror or exc}"


def _kill_group(pid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def run_build(argv: list[str], cwd: Path,
                    seconds: float) -> subprocess.CompletedProcess[bytes]:
    """Run a build command in a session of its own, its output captured (standard error
    into the same pipe as standard output, `stdout`, in the order written), for at most
    `seconds` (then trio.TooSlowError).  However it ends, its whole process group is killed:
    trio alone stops only its first process, and only while that runs, which left a
    sandbox's inner processes (bwrap's own child) or the build's own children running."""

    async def kill_group(process: trio.Process) -> None:
        _kill_group(process.pid)
        with trio.move_on_after(ProcessLimits.reap_within):
            await process.wait()

    done: list[subprocess.CompletedProcess[bytes]] = []

    async def build(task_status: trio.TaskStatus[trio.Process]) -> None:
        done.append(await trio.run_process(
            argv, cwd=cwd, check=False, capture_stdout=True, stderr=subprocess.STDOUT,
            start_new_session=True, deliver_cancel=kill_group, task_status=task_status))

    process = None
    try:
        with trio.fail_after(seconds):
            async with trio.open_nursery() as nursery:
                process = await nursery.start(build)
    except* OSError as group:  # the command cannot start: that error alone, not a group
        raise group.exceptions[0] from None
    finally:  # a child left running (holding the output open, or not) goes with it
        if process is not None:
            _kill_group(process.pid)
    return done[0]
