"""When the referee polls for a bot's reply instead of sleeping in trio, and how often a reader
that does gives the event loop back to its other tasks."""

from __future__ import annotations

from trio.lowlevel import RunVar

from .cores import usable_cores

SPIN = 0.0003
# Replies read at once (`BotProcess.line_now`) do not pass through trio's scheduler; the event
# loop is given back at least this often all the same, so that other tables and timers are not
# kept waiting (`LoopTurns`).
HOLD_AT_MOST = 0.001


def default_spin() -> float:
    """`ProcessLimits.spin` when not given: poll only where a bot can run on another core
    meanwhile."""
    return SPIN if usable_cores() >= 2 else 0.0


class LoopTurns:
    """When a reader of bots' replies last let the event loop's other tasks run
    (`time.perf_counter`): one for every bot of a trio run (`loop_turns`), as they share its
    loop, and each reader gives it back once HOLD_AT_MOST has passed since."""

    __slots__ = ("given",)

    def __init__(self) -> None:
        self.given = 0.0


_loop_turns: RunVar[LoopTurns] = RunVar("bot_loop_turns")


def loop_turns() -> LoopTurns:
    """This trio run's `LoopTurns`."""
    try:
        return _loop_turns.get()
    except LookupError:
        turns = LoopTurns()
        _loop_turns.set(turns)
        return turns
