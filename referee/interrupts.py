"""Ctrl-C, SIGTERM and SIGHUP end a command alike: its bots stopped, what it finished kept.

By default SIGTERM (a job's time limit, `timeout`) and SIGHUP (a closed terminal) end Python
at once, leaving the bots running, and Ctrl-C raises KeyboardInterrupt wherever the code is
(between making a task's coroutine and starting it, say).  Here, while a command's trio code
runs, all three are received as trio signals: the work is cancelled at its next checkpoint,
its clean-up runs in full, and the caller sees a KeyboardInterrupt.  Before and after
(imports, parsing the options), `referee.__main__` ends the process with one line.  A signal
ignored when the referee starts (SIGHUP under `nohup`) stays ignored, and a second signal
while the bots are being stopped changes nothing.
"""

from __future__ import annotations

import signal
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import trio

T = TypeVar("T")


class Terminated(Exception):
    """SIGINT, SIGTERM or SIGHUP arrived."""


def _stopping_signals() -> list[signal.Signals]:
    return [s for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
            if signal.getsignal(s) is not signal.SIG_IGN]


async def _until_signalled(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Run `fn`; the first SIGINT, SIGTERM or SIGHUP cancels it (its clean-up runs in full:
    further signals are taken and ignored until it is done), then raises Terminated."""
    stopping = _stopping_signals()
    if not stopping:  # both ignored (nohup under a parent that ignores SIGTERM)
        return await fn(*args)
    done: list[T] = []
    failed: list[Exception] = []
    signalled: list[str] = []
    work = trio.CancelScope()

    async def main() -> None:
        with work:
            try:
                done.append(await fn(*args))
            except Exception as exc:  # raised as it is, not in this nursery's group
                failed.append(exc)
        nursery.cancel_scope.cancel()

    async def watch(signals: AsyncIterator[int]) -> None:
        async for signum in signals:
            if not signalled and not done and not failed:  # finished: nothing to stop
                signalled.append(signal.Signals(signum).name)
                work.cancel()

    # Ignored outside the receiver: once one has come, the referee is on its way out, and
    # a second one after the receiver closes must not end it with the default action.  The
    # receiver is open before the work starts, so that no signal falls between.
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in stopping}
    try:
        with trio.open_signal_receiver(*stopping) as signals:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(watch, signals)
                nursery.start_soon(main)
    finally:
        if not signalled:
            for s, handler in previous.items():
                signal.signal(s, handler)
    if signalled:
        raise Terminated(signalled[0])
    if failed:
        raise failed[0]
    return done[0]


def run_trio(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """`trio.run(fn, *args)`, ended by Ctrl-C, SIGTERM or SIGHUP with a plain
    KeyboardInterrupt (a Ctrl-C comes back inside trio's exception groups)."""
    try:
        return trio.run(_until_signalled, fn, *args)
    except (Terminated, KeyboardInterrupt):
        _quiet_cut_tasks()
        raise KeyboardInterrupt from None
    except BaseExceptionGroup as group:
        if group.subgroup((KeyboardInterrupt, Terminated)) is not None:
            _quiet_cut_tasks()
            raise KeyboardInterrupt from group
        raise


def _quiet_cut_tasks() -> None:
    """A Ctrl-C can land between making a task's coroutine and starting it; Python would then
    warn, after the one line the command prints, of a coroutine never awaited: expected here."""
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited",
                            category=RuntimeWarning)


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """For code that blocks outside trio's checkpoints (the Dask executor's waiting, a merge):
    Ctrl-C, SIGTERM and SIGHUP raise KeyboardInterrupt there, so its clean-up runs."""

    stopping = _stopping_signals()

    def interrupt(signum: int, frame: object) -> None:
        for s in stopping:  # a second signal must not cut the clean-up short
            signal.signal(s, signal.SIG_IGN)
        raise KeyboardInterrupt

    kept = {s: signal.signal(s, interrupt) for s in stopping}
    try:
        yield
    finally:
        for s, handler in kept.items():
            signal.signal(s, handler)
