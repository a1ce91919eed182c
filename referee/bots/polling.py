"""How the referee waits for a bot's reply: polling for it, sleeping in poll(2), or in trio;
and how often a reader that holds the event loop gives it back to its other tasks.

Parking a task in trio and waking it through its scheduler costs the referee tens of
microseconds of CPU a reply, several times its own work on a decision.  Where no other task is
ready to run and no other table shares the event loop, a reader waits outside trio instead:
- polling (non-blocking reads retried, the core yielded between them) also saves the wake-up
  of a sleep, and costs the referee's CPU for as long as it polls, taken from whoever else
  needs the core.  It pays only for a bot that answers within about what a wake-up costs, and
  only while a core is idle for that bot: the referee polls at most SPIN seconds for one reply,
  for a bot at least half of whose recent replies came within that (`Polling`), and by default
  only with two usable cores or more and a load average below them (`Machine`), and never
  where the local workers' processes fill the cores (`spin_beside`);
- sleeping in poll(2) on the bot's pipe and on trio's own epoll descriptor (so that any other
  task's I/O ends it) until trio's next deadline or the reader's own, as trio itself would
  sleep, HOLD_AT_MOST at most (`hold_ms`).  A timeout of a millisecond or two costs the
  referee up to 8 us more CPU a sleep on a virtual machine than a longer one
  (`benchmarks/wait_cost.py`), so the sleep is not cut short for nothing.
Tables that share one event loop wait in trio only (`ProcessLimits.shared_loop`): a reader
that holds the loop would delay the others.  Every default is here.
"""

from __future__ import annotations

import math
import os
import select
import time
from collections.abc import Callable

from trio.lowlevel import RunVar

from .cores import usable_cores

# The longest the referee polls for one reply (seconds), and the reply time that makes a bot
# quick: about a wake-up's cost, so that polling costs no more CPU than the sleep it saves.
SPIN = 0.00004
# A bot is quick while at least half of its last RECENT replies came within the window.
RECENT = 8
# A bot that is not quick is polled for at one request in PROBE_EVERY all the same: replies
# waited for in trio come late by a wake-up, so only a poll tells that it has become quick.
PROBE_EVERY = 16
# Seconds between looks at the load average.
LOAD_EVERY = 1.0
# Replies read at once (`BotProcess.line_now`) do not pass through trio's scheduler; the event
# loop is given back at least this often all the same, so that other tables and timers are not
# kept waiting (`LoopTurns`).
TURN_EVERY = 0.001
# The longest a reader sleeps in poll(2) for one reply before it waits in trio: a safety net,
# as trio's own deadlines and descriptors already end the sleep (`hold_ms`).
HOLD_AT_MOST = 0.1


def hold_ms(until: float, now: float, next_deadline: float) -> int:
    """How long to sleep in poll(2) for a reply, in whole milliseconds (poll's unit, rounded
    up as trio rounds its own sleeps): until the reader's deadline `until` or trio's next
    one (`next_deadline` seconds from `now`, on trio's clock), HOLD_AT_MOST at most; 0 when
    one of them is due."""
    seconds = min(until - now, next_deadline, HOLD_AT_MOST)
    return 0 if seconds <= 0 else math.ceil(seconds * 1000)


def default_spin() -> float:
    """`ProcessLimits.spin` when not given: poll only where a bot can run on another core
    meanwhile."""
    return SPIN if usable_cores() >= 2 else 0.0


def spin_beside(processes: int) -> float | None:
    """`ProcessLimits.spin` for a referee beside `processes - 1` others like it (the local
    workers' processes, each with its bots): 0 where they fill the usable cores, as each
    then keeps one busy and a poll takes a core some other worker's bot wants; else None,
    the default."""
    return 0.0 if processes >= usable_cores() else None


def load_average() -> float:
    """The machine's load average over the last minute."""
    return os.getloadavg()[0]


class Machine:
    """Whether a core is idle for a bot while the referee polls: two usable cores or more and
    a load average below them (runnable processes, the referee's own and its bots' included),
    looked at once every LOAD_EVERY seconds.  `load` and `clock` are for tests."""

    def __init__(self, cores: float, load: Callable[[], float] = load_average,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.cores = cores
        self._load = load
        self._clock = clock
        self._next = -float("inf")
        self._idle = False

    def idle_core(self) -> bool:
        now = self._clock()
        if now >= self._next:
            self._next = now + LOAD_EVERY
            try:
                self._idle = self.cores >= 2 and self._load() < self.cores
            except OSError:  # no load average: the cores alone decide
                self._idle = self.cores >= 2
        return self._idle


_machine: Machine | None = None


def this_machine() -> Machine:
    """This process's `Machine` (its usable cores are read once)."""
    global _machine
    if _machine is None:
        _machine = Machine(usable_cores())
    return _machine


class Recent:
    """Of the last RECENT replies noted, whether most came in time (at least half)."""

    __slots__ = ("_late", "_seen")

    def __init__(self) -> None:
        self._seen: list[bool] = []  # late, for each
        self._late = 0

    @property
    def mostly_in_time(self) -> bool:
        """At least half of them came in time; True while none is noted."""
        return 2 * self._late <= len(self._seen)

    def note(self, late: bool) -> None:
        seen = self._seen
        seen.append(late)
        self._late += late
        if len(seen) > RECENT:
            self._late -= seen.pop(0)


class Polling:
    """Whether the referee polls for one bot's next reply where it may hold its event loop
    (no other task ready to run), before it sleeps in poll(2).  `window`: the most it
    polls (0: never); `machine`: consulted before every poll where polling is the default,
    None where it was asked for by name.  The bot's replies are noted as they come
    (`replied`): a reply polled for tells whether it came within the window, and so does
    one that came within it anyhow; one waited for otherwise, and later than that, does not,
    as it is late by the wake-up."""

    __slots__ = ("_quick", "_waits", "machine", "window")

    def __init__(self, window: float, machine: Machine | None = None) -> None:
        self.window = window
        self.machine = machine
        self._quick = Recent()  # replies within the window
        self._waits = 0  # waits for the replies of a bot that is not quick

    @property
    def quick(self) -> bool:
        """Polling is on and at least half of the bot's recent replies came within the
        window (a bot with none noted yet is taken to be quick: its first replies tell)."""
        return self.window > 0 and self._quick.mostly_in_time

    @property
    def pays(self) -> bool:
        """Polling for the bot's next reply pays: it is quick, and a core is idle for it."""
        return self.quick and (self.machine is None or self.machine.idle_core())

    def spin_now(self) -> bool:
        """Whether to poll while waiting for the reply now asked: where it pays, and for a
        bot that is not quick at one wait in PROBE_EVERY, to see whether it has become so."""
        if self.pays:
            return True
        if self.window <= 0 or (self.machine is not None and not self.machine.idle_core()):
            return False
        self._waits += 1
        return self._waits % PROBE_EVERY == 0

    def replied(self, seconds: float, polled: bool) -> None:
        """A reply came `seconds` after its request, polled for or not."""
        within = seconds < self.window
        if polled or within:
            self._quick.note(not within)


def loop_wakeup_fd() -> int | None:
    """The trio run's epoll descriptor, readable whenever the run has something for a task
    that waits: it holds every descriptor a task waits on, and the socket that signals and
    threads wake the run with.  None where trio's I/O is not epoll (not Linux), or its inner
    parts have moved: then nothing sleeps outside trio.  One look a run (`_wakeup_fd`)."""
    try:
        return _wakeup_fd.get()
    except LookupError:
        pass
    fd: int | None = None
    try:
        from trio._core._run import GLOBAL_RUN_CONTEXT

        epoll = GLOBAL_RUN_CONTEXT.runner.io_manager._epoll
        if isinstance(epoll, select.epoll):
            fd = epoll.fileno()
    except (ImportError, AttributeError):
        fd = None
    _wakeup_fd.set(fd)
    return fd


_wakeup_fd: RunVar[int | None] = RunVar("bot_wakeup_fd")


class LoopTurns:
    """When a reader of bots' replies last let the event loop's other tasks run
    (`time.perf_counter`): one for every bot of a trio run (`loop_turns`), as they share its
    loop, and each reader gives it back once TURN_EVERY has passed since."""

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
