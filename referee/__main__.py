"""The `referee` command (`referee`, or `python -m referee`): the command line of `referee.cli`,
with a Ctrl-C, SIGTERM or SIGHUP at any moment, from the first import to the exit, ending it
with one line on stderr and exit status 2.

Inside a command's trio code the signals are trio's (`referee.interrupts`): the bots are
stopped and the command says what it kept.  Outside it (importing, parsing the options, the
moments before and after), nothing runs that needs stopping, so the handler installed here,
before anything else is imported, writes the line and ends the process at once.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import signal

INTERRUPTED = b"error: interrupted\n"


def _interrupted(signum: int, frame: object) -> None:
    os.write(2, INTERRUPTED)
    os._exit(2)


def main() -> None:
    """Run the command line; click's own handling of Ctrl-C ("Aborted!") is never reached.
    Importing `signal` runs Python code (its enums): a Ctrl-C landing there, or before the
    handler is set, raises Python's KeyboardInterrupt, taken here as the handler would."""
    stopping: list[signal.Signals] = []
    try:
        import signal

        stopping = [s for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
                    if signal.getsignal(s) is not signal.SIG_IGN]  # `nohup`: stays ignored
        for s in stopping:
            signal.signal(s, _interrupted)
    except KeyboardInterrupt:
        _interrupted(2, None)
    from referee.cli import main as command_line

    try:
        command_line()
    finally:
        _ending(stopping)
    sys.exit(0)


def _ending(stopping: list[signal.Signals]) -> None:
    """The command is done and has said so: a Ctrl-C, SIGTERM or SIGHUP from here to the
    process's end has nothing left to stop, and must change neither what it said nor its exit
    status (Python's own exit resets handlers to the default, which would kill it by the
    signal).  So they are ignored from here, unless a thread that is not a daemon still runs:
    Python waits for it as it exits, and a signal may then need to cut that short.  A daemon
    thread (trio's idle worker threads, kept a while after `grade` or `replay` used one) is
    not waited for, and keeps nothing from being ignored.

    CPython also notes a KeyboardInterrupt that leaves code it ran from a string (`exec` and
    `eval` of text, as dataclasses and namedtuple do while the referee imports), and kills the
    process with SIGINT at its end if the note is set, even when the command caught the
    interrupt and exits 2 with its line.  Running text once more clears the note; one left
    unhandled still kills as Python does, as that note is taken where the module returns."""
    import signal

    exec("pass")
    threading = sys.modules.get("threading")
    if threading is None or not any(
            not t.daemon and t is not threading.main_thread() for t in threading.enumerate()):
        for s in stopping:
            signal.signal(s, signal.SIG_IGN)


if __name__ == "__main__":
    main()
