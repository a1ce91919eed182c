"""A run's progress and its display: a bar on a terminal, plain lines otherwise, nothing with
--quiet.

Its messages carry bots' text (build output, void and left-out reasons): shown `visible`."""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from typing import TextIO

from referee.text import visible


@dataclass
class Progress:
    """How far a run is: what a display needs after every stored game."""

    total: int
    done: int = 0
    played: int = 0
    faults: int = 0
    voids: int = 0
    first: float | None = None  # when this run stored its first game

    def stored(self, faults: int) -> None:
        """Count a game this run played and stored, with its faults."""
        if self.first is None:
            self.first = time.monotonic()
        self.done += 1
        self.played += 1
        self.faults += faults

    @property
    def rate(self) -> float:
        """Games a second since this run's first game was stored; 0 (not known) until a
        second one is.  The first game waits for every bot's start-up (a JVM, a worker
        process): counted in, it made the first minutes' estimate of the time left several
        times too long."""
        if self.first is None or self.played < 2:
            return 0.0
        elapsed = time.monotonic() - self.first
        return (self.played - 1) / elapsed if elapsed > 0 else 0.0

    @property
    def eta(self) -> float:
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else math.inf


def _rate(p: Progress) -> str:
    rate = p.rate
    return f"{rate:.1f} games/s" if rate > 0 else "-- games/s"


def _clock(seconds: float) -> str:
    if math.isinf(seconds):
        return "--:--"
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


class ProgressDisplay:
    def __init__(self, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.stream = sys.stderr if stream is None else stream  # as it is now, not at import
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self.last = 0.0
        self.open = False  # a bar written on a terminal, its line not ended yet

    def end(self) -> None:
        """End the bar's line, keeping it (how far a stopped run got), so that what is said
        next (`error: interrupted; ...`) starts a line of its own, not the bar's tail."""
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False

    def say(self, message: str) -> None:
        if not self.quiet:
            if self.tty:
                self.stream.write("\r\033[K")
                self.open = False
            print(visible(message, indent="    "), file=self.stream, flush=True)

    def update(self, p: Progress) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        finished = p.done >= p.total
        if self.tty:
            width = 30
            filled = int(width * p.done / p.total) if p.total else width
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r[{bar}] {p.done:,}/{p.total:,} games  {_rate(p)}  "
                              f"left {_clock(p.eta)}  faults {p.faults:,}")
            if finished:
                self.stream.write("\n")
            self.open = not finished
            self.stream.flush()
        elif finished or now - self.last >= 10:
            self.last = now
            print(f"{p.done:,}/{p.total:,} games, {_rate(p)}, left {_clock(p.eta)}, "
                  f"faults {p.faults:,}", file=self.stream, flush=True)
