"""The `referee` command (`referee`, or `python -m referee`): the command line of `referee.cli`,
with a Ctrl-C, SIGTERM or SIGHUP at any moment, from the first import to the exit, ending it
with one line on stderr and exit status 2.

Inside a command's trio code the signals are trio's (`referee.interrupts`): the bots are
stopped and the command says what it kept.  Outside it (importing, parsing the options, the
moments before and after), nothing runs that needs stopping, so the handler installed here,
before anything else is imported, writes the line and ends the process at once.
"""

from __future__ import annotations

# `_signal`: the C half of `signal`, loaded as Python starts.  Importing `signal` itself runs
# Python code (its enums), and a Ctrl-C landing there, before the handler below is set, was a
# traceback.
import _signal  # type: ignore[import-not-found]
import os
import sys

INTERRUPTED = b"error: interrupted\n"


def _interrupted(signum: int, frame: object) -> None:
    os.write(2, INTERRUPTED)
    os._exit(2)


def main() -> None:
    """Run the command line; click's own handling of Ctrl-C ("Aborted!") is never reached."""
    stopping = [s for s in (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
                if _signal.getsignal(s) != _signal.SIG_IGN]  # `nohup`: stays ignored
    for s in stopping:
        _signal.signal(s, _interrupted)
    from referee.cli import main as command_line

    command_line()
    sys.exit(0)


if __name__ == "__main__":
    main()
