"""Set-up for every test process (each pytest-xdist worker too)."""

from __future__ import annotations

import signal

import pytest


def _ignore_here_only(signum: int) -> None:
    """Tests send SIGINT and SIGHUP to the commands they start and expect them taken as a
    user's Ctrl-C or closed terminal.  A run in a shell's background (`&`: SIGINT ignored) or
    under nohup (SIGHUP ignored) would pass on the ignoring to those commands, which keep it
    (as the referee does, by design).  A handler that does nothing still ignores the signal in
    this process, and the commands it starts get the default action (exec resets handlers)."""
    if signal.getsignal(signum) is signal.SIG_IGN:
        signal.signal(signum, lambda *_: None)


def pytest_configure(config: pytest.Config) -> None:
    for signum in (signal.SIGINT, signal.SIGHUP):
        _ignore_here_only(signum)
