"""How the referee waits for a bot's reply (`polling.Polling`, `polling.Machine`): it polls only
for a bot that answers within the window and only while a core is idle for it, and sleeps in
poll(2) no longer than the first deadline."""

from __future__ import annotations

import math

import pytest

from referee.bots import polling
from referee.bots.polling import (
    HOLD_AT_MOST,
    PROBE_EVERY,
    RECENT,
    SPIN,
    Machine,
    Polling,
    hold_ms,
    spin_beside,
)


class Load:
    """A load average that tests set, and a clock they move."""

    def __init__(self, load: float) -> None:
        self.load = load
        self.now = 0.0

    def machine(self, cores: float) -> Machine:
        return Machine(cores, load=lambda: self.load, clock=lambda: self.now)


def spins(polling: Polling, waits: int) -> int:
    return sum(polling.spin_now() for _ in range(waits))


def test_a_bot_whose_replies_take_longer_than_the_window_is_not_polled_for() -> None:
    """A slow bot (its replies, polled for, came after the window) is polled for only at one
    wait in PROBE_EVERY, to see whether it became quick; once most replies come within the
    window again it is polled for at every wait.  A quick bot is polled for at every wait."""
    idle = Load(0.0).machine(cores=2)
    slow = Polling(SPIN, idle)
    for _ in range(RECENT):
        slow.replied(3 * SPIN, polled=True)
    assert not slow.quick
    assert spins(slow, 4 * PROBE_EVERY) == 4
    for _ in range(RECENT // 2):
        slow.replied(SPIN / 2, polled=True)
    assert slow.quick and spins(slow, 10) == 10

    quick = Polling(SPIN, idle)
    for _ in range(3 * RECENT):
        quick.replied(SPIN / 4, polled=True)
    assert quick.pays and spins(quick, 10) == 10


def test_a_reply_waited_for_otherwise_tells_only_if_it_came_within_the_window() -> None:
    """A reply not polled for is late by a wake-up: it makes no bot slow; one that came within
    the window all the same counts as quick."""
    polling = Polling(SPIN, None)
    for _ in range(RECENT):
        polling.replied(10 * SPIN, polled=False)
    assert polling.quick
    for _ in range(RECENT):
        polling.replied(10 * SPIN, polled=True)
    assert not polling.quick
    for _ in range(RECENT):
        polling.replied(SPIN / 2, polled=False)
    assert polling.quick


def test_no_polling_on_a_busy_machine_one_core_or_when_switched_off() -> None:
    """By default the referee polls only with two usable cores or more and a load average
    below them, looked at again after a second; a window of 0 never polls, even to probe."""
    load = Load(0.5)
    machine = load.machine(cores=2)
    polling = Polling(SPIN, machine)
    assert polling.pays
    load.load = 2.5
    assert polling.pays  # the load is looked at once a second
    load.now += 1.0
    assert not polling.pays and spins(polling, 2 * PROBE_EVERY) == 0
    load.load, load.now = 1.2, 2.0
    assert polling.pays
    assert not Polling(SPIN, Load(0.0).machine(cores=1)).pays
    off = Polling(0.0, None)
    assert not off.quick and spins(off, 2 * PROBE_EVERY) == 0


def test_a_sleep_for_a_reply_ends_at_the_first_deadline_and_in_whole_milliseconds() -> None:
    """The referee sleeps in poll(2) for a reply until the reply's own deadline or trio's next
    one, whichever comes first, rounded up to poll's milliseconds, and never longer than
    HOLD_AT_MOST; not at all once either is due."""
    assert hold_ms(until=10.0125, now=10.0, next_deadline=math.inf) == 13
    assert hold_ms(until=math.inf, now=10.0, next_deadline=0.0201) == 21
    assert hold_ms(until=10.02, now=10.0, next_deadline=0.005) == 5
    assert hold_ms(until=math.inf, now=10.0, next_deadline=math.inf) == HOLD_AT_MOST * 1000
    assert hold_ms(until=10.0, now=10.0, next_deadline=1.0) == 0
    assert hold_ms(until=-math.inf, now=10.0, next_deadline=1.0) == 0
    assert hold_ms(until=11.0, now=10.0, next_deadline=0.0) == 0



def test_local_workers_that_fill_the_cores_do_not_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each local worker's process keeps a core busy with its table: where they are as many
    as the usable cores (or more) none polls, as a poll would take a core another worker's
    bot wants; fewer keep the default."""
    monkeypatch.setattr(polling, "usable_cores", lambda: 2.0)
    assert spin_beside(2) == 0.0 and spin_beside(3) == 0.0
    assert spin_beside(1) is None
    monkeypatch.setattr(polling, "usable_cores", lambda: 1.5)  # a cgroup quota of 1.5 cores
    assert spin_beside(2) == 0.0
