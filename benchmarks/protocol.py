"""One decision through the referee, with a minimal bot, against a raw pipe round trip.

Run: python benchmarks/protocol.py [--games N]
With a Python minimal bot against a Python echo child, and a C minimal bot against a C echo
child (built with cc).  A decision's cost is the time from the referee asking one decision to
asking the next: it holds the view, the encoding, the round trip, the decoding, the engine and
the events.  The floor is a raw write-then-read-one-line round trip (blocking reads, as plain
code does) to a minimal echo child that lives as long as the bots, measured after every tenth
game so that both figures come from the same stretches of machine state.

Where the processes run decides the floor, so each figure is taken three ways:
- free: nothing pinned, the kernel places every process (what a user gets);
- apart: the referee pinned to one core, the bots and the echo child to another, so that
  every round trip crosses cores (the setting DESIGN.md measured its 60-70 us pipe in);
- together: all pinned to one core.  A round trip there costs about 6 us, less than the
  referee's own work per decision, so no Python referee comes near 1.3x this floor: the line
  is printed to show it, not to be judged by the target.
Polling: "auto" is the referee's default (`ProcessLimits.spin`: poll for a reply while a bot's
replies come within 0.3 ms, on a machine with more than one core); pinned, the referee sees one
core, so those lines ask for the same 300us polling by name; "0us" never polls.
Last, the referee's own work per decision without any pipe: the same games with the minimal
bot's logic answering in memory.
Target: median <= 1.3 x the floor (free and apart).
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
from pathlib import Path
from typing import Any

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from minimal_bot import reply as minimal_reply  # noqa: E402
from pipe import EchoChild, compiled  # noqa: E402

from referee.bots.player import BotPlayer, BotSpec  # noqa: E402
from referee.bots.process import SPIN, ProcessLimits  # noqa: E402
from referee.game import Decision  # noqa: E402
from referee.match.runner import play_game  # noqa: E402
from referee.match.spec import GameSpec  # noqa: E402
from referee.player import Answer  # noqa: E402

# Games between two runs of the floor.  Running the echo child after every game moved the bots
# of an unpinned run onto the referee's core (cheap same-core round trips that flattered the
# figure); after every tenth game it no longer does.
BLOCK = 10
TRIPS_PER_GAME = 150


class Timed(BotPlayer):
    """Notes when each decision is asked, to time decision-to-decision."""

    stamps: list[float]

    async def decide(self, decision: Decision, view: dict[str, Any]) -> Answer:
        self.stamps.append(time.perf_counter())
        return await super().decide(decision, view)


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


async def measure(
    games: int, language: str, spin: float | None, placement: str
) -> tuple[list[float], list[float]]:
    """Decision-to-decision gaps, and pipe round trips measured between blocks of games."""
    own_cores, prefix = placements()[placement]
    everywhere = os.sched_getaffinity(0)
    stamps: list[float] = []
    binary = compiled("minimal_bot") if language == "c" else None
    command = shlex.join([*prefix, *(shlex.split(binary) if binary else
                                     [sys.executable, str(HERE / "minimal_bot.py")])])
    limits = ProcessLimits(spin=spin)
    players = [Timed(BotSpec(f"minimal{i}", command), process_limits=limits) for i in range(4)]
    for p in players:
        p.stamps = stamps
    gaps: list[float] = []
    floor: list[float] = []
    echo = EchoChild(language, prefix)
    try:
        if own_cores:
            os.sched_setaffinity(0, own_cores)
        for g in range(games):
            stamps.clear()
            spec = GameSpec.make(f"bench-{g}", g, [p.name for p in players])
            await play_game(spec, players)
            gaps += [b - a for a, b in itertools.pairwise(stamps)]
            if g % BLOCK == BLOCK - 1 or g == games - 1:
                floor += echo.round_trips(TRIPS_PER_GAME * (g % BLOCK + 1))
    finally:
        os.sched_setaffinity(0, everywhere)
        echo.close()
        for p in players:
            await p.aclose()
    return gaps, floor


class InMemoryBot:
    """The parts of a `BotProcess` a `BotPlayer` uses, answering like minimal_bot.py at once."""

    pid = -1  # no process: the watched limits see nothing
    tee = None
    sandboxed = False

    def __init__(self) -> None:
        self.stderr = self
        self.reply: bytes | None = None
        self.bot_seconds = 0.0  # spent in the bot's logic, left out of the referee's figure

    def check(self) -> int:
        return 0

    def start_game(self, game_id: str) -> None:
        pass

    def write_now(self, data: bytes) -> int:
        t = time.perf_counter()
        last = data[data.rfind(b"\n", 0, -1) + 1 : -1]
        if last.startswith(b'{"type":"request"'):
            self.reply = minimal_reply(last)[:-1]
        self.bot_seconds += time.perf_counter() - t
        return len(data)

    async def send(self, data: bytes, deadline: float = 0.0, *, sent: int = -1) -> None:
        self.write_now(data)

    def line_now(self, *, spin: bool = True) -> bytes | None:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    print(f"{args.games} 4-player games per line; decision = time from one request to the next")
    print(f"{'placement':10} {'bot and echo':12} {'polling':>7} {'decision median':>16} "
          f"{'p99':>9} {'floor median':>13} {'p99':>9} {'ratio':>6}")
    where = placements()
    for name in ("free", "apart", "together"):
        if name not in where:
            print(f"{name}: skipped (needs taskset{' and two cores' if name == 'apart' else ''})")
    for name in where:
        for language in ("python", "c"):
            if language == "c" and compiled("echo") is None:
                print("c: no C compiler, skipped")
                continue
            for spin in (None if name == "free" else SPIN, 0.0):
                gaps, floor = trio.run(measure, args.games, language, spin, name)
                gaps.sort()
                floor.sort()
                med, p99 = statistics.median(gaps), gaps[int(len(gaps) * 0.99)]
                fmed, fp99 = statistics.median(floor), floor[int(len(floor) * 0.99)]
                polling = "auto" if spin is None else f"{spin * 1e6:.0f}us"
                print(f"{name:10} {language:12} {polling:>7} {med * 1e6:14.1f}us "
                      f"{p99 * 1e6:7.1f}us {fmed * 1e6:11.1f}us {fp99 * 1e6:7.1f}us "
                      f"{med / fmed:5.2f}x")
    alone = trio.run(referee_alone, max(10, args.games // 4))
    print(f"referee alone (minimal bots answering in memory, best of 5): {alone * 1e6:.1f}us "
          "per decision, game starts and ends included")
    print("target: decision median <= 1.3 x the floor median, free and apart "
          "(together: the floor is below the referee's own work, see the docstring)")


if __name__ == "__main__":
    main()
