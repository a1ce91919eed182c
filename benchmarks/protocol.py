"""One decision through the referee, with a minimal bot, against a raw pipe round trip.

Run: python benchmarks/protocol.py [--games N] [--repeat N]
With a Python minimal bot against a Python echo child, and a C minimal bot against a C echo
child (built with cc).  A decision's cost is the time from the referee asking one decision to
asking the next: it holds the view, the encoding, the round trip, the minimal bot's own
parsing, the decoding, the engine and the events.  Hidden bids are asked of every seat at once,
so the gaps next to them are left out.  The floor is a write-then-read-one-line round trip to a
minimal echo child that lives as long as the bots, measured after every tenth game so that both
figures come from the same stretches of machine state.  Its trips are spaced, untimed, by the
referee's own work per decision (measured first, see below), as a referee's requests are: back
to back, the child is written to before it has gone to sleep, a floor no referee meets.

The floor is taken two ways, and each decision figure is judged against its like:
- blocking: the parent sleeps in `read` until the line is in, as plain code does (the 60-70 us
  pipe of the project's design notes); the like of a referee that does not poll;
- polling: non-blocking reads retried after `sched_yield` until the line is in; the like of a
  referee that polls for a quick bot's reply (its default on two cores or more).
The next columns compare every row with the blocking floor: what a user gains or loses
against plain code.  The last, "to next", is the median time from a bot's answer being back
(read and checked) to the seat asked next being given its events: the part of the referee's
work that the next bot's wake-up waits for (where the referee polls, those events are written
at once and the rest of the step is done while that bot wakes up).

Where the processes run decides the floor, so each figure is taken three ways:
- free: nothing pinned, the kernel places every process (what a user gets);
- apart: the referee pinned to one core, the bots and the echo child to another, so that
  every round trip crosses cores;
- together: all pinned to one core.  A round trip there costs 3-6 us, less than the
  referee's own work per decision.
Polling: "auto" is the referee's default (`referee/bots/polling.py`: poll for a reply while
most of a bot's recent replies come within 40 us, on a machine with more than one usable core
and a load average below them; else sleep); pinned, the referee sees one core, so those lines
ask for the same polling by name ("yes"); "no" never polls.  The "auto" line is judged against
the polling floor where most of its replies were polled for, else against the blocking floor.
Last, the referee's own work per decision without any pipe: the same games with the minimal
bot's logic answering in memory.
Target (issue 3): decision median <= 1.3 x the floor median.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import shlex
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from minimal_bot import reply as minimal_reply  # noqa: E402
from pipe import EchoChild, compiled  # noqa: E402

from referee.bots.launch import BotSpec  # noqa: E402
from referee.bots.polling import SPIN  # noqa: E402
from referee.bots.process import ProcessLimits  # noqa: E402
from referee.game import Decision, Event  # noqa: E402
from referee.game.actions import DecisionKind  # noqa: E402
from referee.match.bot_player import BotPlayer  # noqa: E402
from referee.match.game import play_game  # noqa: E402
from referee.match.player import Answer  # noqa: E402
from referee.match.spec import GameSpec  # noqa: E402

# Games between two runs of the floor.  Running the echo child after every game moved the bots
# of an unpinned run onto the referee's core (cheap same-core round trips that flattered the
# figure); after every tenth game it no longer does.
BLOCK = 10
TRIPS_PER_GAME = 150


class Timed(BotPlayer):
    """Notes when each decision is asked, and whether it is a hidden bid (asked of every seat
    at once, so its asks are not one after another); and the time from a single answer being
    back to the seat asked next being given its events (`notify(next_up=True)`), the
    referee's work before that bot may wake up."""

    stamps: list[tuple[float, bool]]
    answered: list[float]  # shared by the seats: when the last single answer came back, or 0
    to_next: list[float]
    polled: list[int]  # shared by the seats: single answers polled for, and all of them

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        hidden = decision.kind is DecisionKind.HIDDEN_BID
        self.stamps.append((time.perf_counter(), hidden))
        answer = await super().decide(decision, view, alone)
        self.answered[0] = 0.0 if hidden else time.perf_counter()
        if not hidden and self.bot is not None:
            self.polled[0] += self.bot.polled
            self.polled[1] += 1
        return answer

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        if next_up and self.answered[0]:
            self.to_next.append(time.perf_counter() - self.answered[0])
            self.answered[0] = 0.0
        super().notify(events, lines, next_up)


def placements() -> dict[str, tuple[set[int] | None, list[str]]]:
    """Placement name -> (the referee's cores or None, the children's command prefix)."""
    cores = sorted(os.sched_getaffinity(0))
    found: dict[str, tuple[set[int] | None, list[str]]] = {"free": (None, [])}
    taskset = shutil.which("taskset")
    if taskset and len(cores) > 1:
        found["apart"] = ({cores[0]}, [taskset, "-c", str(cores[1])])
    if taskset:
        found["together"] = ({cores[0]}, [taskset, "-c", str(cores[0])])
    return found


class Figures(NamedTuple):
    """Decision-to-decision gaps, the blocking and polling floors, in seconds, whether the
    referee polled (for most replies), and answer-to-next-seat times."""

    gaps: list[float]
    blocking: list[float]
    polling: list[float]
    polls: bool
    to_next: list[float]


async def measure(games: int, language: str, spin: float | None, placement: str,
                  spacing: float) -> Figures:
    """Gaps from one decision's ask to the next, where neither is a hidden bid, and pipe round
    trips `spacing` apart measured between blocks of games."""
    own_cores, prefix = placements()[placement]
    everywhere = os.sched_getaffinity(0)
    stamps: list[tuple[float, bool]] = []
    binary = compiled("minimal_bot") if language == "c" else None
    command = shlex.join([*prefix, *(shlex.split(binary) if binary else
                                     [sys.executable, str(HERE / "minimal_bot.py")])])
    limits = ProcessLimits(spin=spin)
    players = [Timed(BotSpec(f"minimal{i}", command), process_limits=limits) for i in range(4)]
    answered = [0.0]
    to_next: list[float] = []
    polled = [0, 0]
    for p in players:
        p.stamps, p.answered, p.to_next, p.polled = stamps, answered, to_next, polled
    gaps: list[float] = []
    blocking: list[float] = []
    polling: list[float] = []
    polls = False
    echo = EchoChild(language, prefix)
    try:
        if own_cores:
            os.sched_setaffinity(0, own_cores)
        for g in range(games):
            stamps.clear()
            answered[0] = 0.0  # a game's first events follow no answer of this game
            spec = GameSpec.make(f"bench-{g}", g, [p.name for p in players])
            await play_game(spec, players)
            gaps.extend(b - a for (a, hidden_a), (b, hidden_b)
                                in itertools.pairwise(stamps) if not hidden_a and not hidden_b)
            if g % BLOCK == BLOCK - 1 or g == games - 1:
                for _ in range(g % BLOCK + 1):  # the two floors in turns, 150 trips a game
                    blocking.extend(echo.round_trips(TRIPS_PER_GAME // 2, spacing=spacing))
                    polling.extend(echo.round_trips(TRIPS_PER_GAME // 2, poll=True,
                                                    spacing=spacing))
        # Asked for by name, or by default where most replies were polled for (by default
        # not on a busy machine).
        polls = bool(spin) or (spin is None and 2 * polled[0] > polled[1])
    finally:
        os.sched_setaffinity(0, everywhere)
        echo.close()
        for p in players:
            await p.aclose()
    return Figures(gaps, blocking, polling, polls, to_next)


class InMemoryBot:
    """The parts of a `BotProcess` a `BotPlayer` uses, answering like minimal_bot.py at once."""

    pid = -1  # no process: the watched limits see nothing
    tee = None
    sandboxed = False
    answers_quickly = False  # events wait for the request: one write per decision
    exited = False  # its "process" lives as long as the game

    def __init__(self) -> None:
        self.stderr = self
        self.reply: bytes | None = None
        self.bot_seconds = 0.0  # spent in the bot's logic, left out of the referee's figure

    def check(self) -> int:
        return 0

    def processes(self) -> list[Any]:
        return []

    def unread(self) -> int:
        return 0  # it reads everything at once

    def start_game(self, game_id: str) -> None:
        pass

    def write_now(self, data: bytes, *, request: bool = True) -> int:
        t = time.perf_counter()
        last = data[data.rfind(b"\n", 0, -1) + 1 : -1]
        if last.startswith(b'{"type":"request"'):
            self.reply = minimal_reply(last)[:-1]
        self.bot_seconds += time.perf_counter() - t
        return len(data)

    async def send(self, data: bytes, deadline: float = 0.0, *, sent: int = -1) -> None:
        self.write_now(data)

    def line_now(self, *, spin: bool = True, until: float = 0.0) -> bytes | None:
        reply, self.reply = self.reply, None
        return reply

    async def read_line(self, deadline: float) -> bytes:
        raise AssertionError("the in-memory bot always has its reply ready")


async def referee_alone(games: int) -> float:
    """Seconds of referee work per decision, with in-memory minimal bots (no pipes)."""
    players = [BotPlayer(BotSpec(f"minimal{i}", "in-memory")) for i in range(4)]
    bots = [InMemoryBot() for _ in players]
    for player, bot in zip(players, bots, strict=True):
        player.bot = bot  # type: ignore[assignment]
    best = math.inf
    for rep in range(5):
        start, asked = time.perf_counter(), sum(p._id for p in players)
        in_bots = sum(b.bot_seconds for b in bots)
        for g in range(games):
            spec = GameSpec.make(f"alone-{rep}-{g}", g, [p.name for p in players])
            await play_game(spec, players)
        spent = time.perf_counter() - start - (sum(b.bot_seconds for b in bots) - in_bots)
        best = min(best, spent / (sum(p._id for p in players) - asked))
    return best


def median_p99(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[int(len(times) * 0.99)]


class Row(NamedTuple):
    """One line of the table: medians and p99s in seconds."""

    placement: str
    language: str
    polls: str  # "auto" (the default), "yes" or "no"
    kind: str  # the like floor: "polling" or "blocking"
    med: float
    p99: float
    like_med: float
    like_p99: float
    blocking_med: float
    blocking_p99: float
    to_next: float

    @property
    def name(self) -> str:
        return f"{self.placement} {self.language} polls={self.polls}"

    @property
    def ratio(self) -> float:
        return self.med / self.like_med


HEADER = (f"{'placement':9} {'bot':6} {'polls':>5} {'decision':>14}  {'like floor':>22} "
          f"{'ratio':>6}  {'blocking floor':>14} {'ratio':>6}  {'to next':>7}")


def measure_lines(games: int, alone: float) -> list[Row]:
    """Every line of the table, printed as it is measured."""
    where = placements()
    languages = ["python", "c"] if compiled("echo") is not None else ["python"]
    rows = []
    for name in where:
        for language in languages:
            for spin in (None if name == "free" else SPIN, 0.0):
                gaps, blocking, polling, polls, to_next = trio.run(
                    measure, games, language, spin, name, alone)
                (med, p99), (bmed, bp99) = median_p99(gaps), median_p99(blocking)
                lmed, lp99 = median_p99(polling) if polls else (bmed, bp99)
                row = Row(name, language, "auto" if spin is None else "yes" if polls else "no",
                          "polling" if polls else "blocking", med, p99, lmed, lp99, bmed, bp99,
                          statistics.median(to_next))
                rows.append(row)
                us = 1e6
                print(f"{name:9} {language:6} {row.polls:>5} {med * us:6.1f} /{p99 * us:6.1f}  "
                      f"{row.kind:8} {lmed * us:5.1f} /{lp99 * us:6.1f} "
                      f"{row.ratio:5.2f}x  {bmed * us:6.1f} /{bp99 * us:6.1f} "
                      f"{med / bmed:5.2f}x  {row.to_next * us:7.1f}", flush=True)
    return rows


def print_verdict(rows: list[Row]) -> None:
    met = [r.name for r in rows if r.ratio <= 1.3]
    missed = [f"{r.name} ({r.ratio:.2f}x)" for r in rows if r.ratio > 1.3]
    print("target: decision median <= 1.3 x the like floor's median")
    print(f"  met by: {', '.join(met) or 'none'}")
    print(f"  missed by: {', '.join(missed) or 'none'}")


def span(values: Sequence[float], scale: float = 1e6, digits: int = 1) -> str:
    """`lowest-highest`, scaled (to microseconds by default)."""
    return f"{min(values) * scale:.{digits}f}-{max(values) * scale:.{digits}f}"


def print_ranges(runs: list[list[Row]]) -> None:
    """Each line's lowest and highest medians, p99s and ratios over the runs, and how many
    runs met the target: on a shared machine one run's figures move by more than the target's
    margin."""
    print(f"over {len(runs)} runs: lowest-highest, in microseconds")
    print(f"{'placement':9} {'bot':6} {'polls':>5}  {'decision':>13} {'p99':>13}  "
          f"{'like floor':>22} {'p99':>13}  {'ratio':>12}  {'blocking':>13} {'ratio':>12}  "
          "runs met")
    for same in zip(*runs, strict=True):
        first = same[0]
        ratios = [r.ratio for r in same]
        print(f"{first.placement:9} {first.language:6} {first.polls:>5}  "
              f"{span([r.med for r in same]):>13} {span([r.p99 for r in same]):>13}  "
              f"{first.kind:8} {span([r.like_med for r in same]):>13} "
              f"{span([r.like_p99 for r in same]):>13}  {span(ratios, 1, 2) + 'x':>12}  "
              f"{span([r.blocking_med for r in same]):>13} "
              f"{span([r.med / r.blocking_med for r in same], 1, 2) + 'x':>12}  "
              f"{sum(r <= 1.3 for r in ratios)} of {len(same)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per line (default 100)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of the whole table; with more than one, a last table gives "
                             "each line's range over the runs (default 1)")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    alone = trio.run(referee_alone, max(10, args.games // 4))
    print(f"{args.games} 4-player games per line; decision = time from one request to the next "
          "(hidden bids, asked of all seats at once, left out); floor round trips are "
          f"{alone * 1e6:.1f}us apart (the referee's own work); median / p99 in microseconds")
    where = placements()
    for name in ("free", "apart", "together"):
        if name not in where:
            print(f"{name}: skipped (needs taskset{' and two cores' if name == 'apart' else ''})")
    if compiled("echo") is None:
        print("c: skipped (no C compiler)")
    runs = []
    for run in range(args.repeat):
        if args.repeat > 1:
            print(f"run {run + 1} of {args.repeat}")
        print(HEADER)
        runs.append(measure_lines(args.games, alone))
        print_verdict(runs[-1])
    print(f"referee alone (minimal bots answering in memory, best of 5): {alone * 1e6:.1f}us "
          "per decision, game starts and ends included")
    print("to next: median time from a bot's answer being back (read and checked) to the seat "
          "asked next being given its events (the engine, the events' encoding): the "
          "referee's work before that bot can wake up")
    if args.repeat > 1:
        print_ranges(runs)


if __name__ == "__main__":
    main()
