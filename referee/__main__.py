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

INTERRUPTED = b"error: interrupted\n"


def _interrupted(signum: int, frame: object) -> None:
    os.write(2, INTERRUPTED)
    os._exit(2)


def main() -> None:
    """Run the command line; click's own handling of Ctrl-C ("Aborted!") is never reached.
    Importing `signal` runs Python code (its enums): a Ctrl-C landing there, or before the
    handler is set, raises Python's KeyboardInterrupt, taken here as the handler would."""
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
        _forget_caught_interrupts()
    sys.exit(0)


def _forget_caught_interrupts() -> None:
    """CPython notes a KeyboardInterrupt that leaves code it ran from a string (`exec` and
    `eval` of text, as dataclasses and namedtuple do while the referee imports), and at exit
    kills the process with SIGINT if the note is set, even when the command caught the
    interrupt and exits 2 with its line.  Running text once more clears the note; one left
    unhandled still kills as Python does, as that note is taken where the module returns."""
    exec("pass")


if __name__ == "__main__":
    main()
