"""One decision through the referee, with a minimal bot, against a raw pipe round trip.

Run: python benchmarks/protocol.py [--games N]
With a Python minimal bot against a Python echo child, and a C minimal bot against a C echo
child (built with cc).  "auto" is the referee's default: it polls the pipe for a reply
(`ProcessLimits.spin`) while a bot's replies come within 0.3 ms; "0us" never polls.
A decision's cost is the time from the referee asking one decision to asking the next: it
holds the view, the encoding, the round trip, the decoding, the engine and the events.
The floor is a raw write-then-read-one-line round trip to a minimal echo child, measured
between the games so that both figures come from the same stretches of machine state.
Last, the referee's own work per decision without any pipe: the same games with the
minimal bot's logic answering in memory.
Target: median <= 1.3 x the floor.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from minimal_bot import reply as minimal_reply  # noqa: E402
from pipe import compiled, pipe_round_trips  # noqa: E402

from referee.bots.player import BotPlayer, BotSpec  # noqa: E402
from referee.bots.process import ProcessLimits  # noqa: E402
from referee.game import Decision  # noqa: E402
from referee.match.runner import play_game  # noqa: E402
from referee.match.spec import GameSpec  # noqa: E402
from referee.player import Answer  # noqa: E402


class Timed(BotPlayer):
    """Notes when each decision is asked, to time decision-to-decision."""

    stamps: list[float]

    async def decide(self, decision: Decision, view: dict[str, Any]) -> Answer:
        self.stamps.append(time.perf_counter())
        return await super().decide(decision, view)


async def measure(games: int, language: str, spin: float | None) -> tuple[list[float], list[float]]:
    """Decision-to-decision gaps, and pipe round trips measured between the games so that
    both figures come from the same stretches of machine state."""
    stamps: list[float] = []
    binary = compiled("minimal_bot") if language == "c" else None
    command = binary or f"{sys.executable} {HERE / 'minimal_bot.py'}"
    limits = ProcessLimits(spin=spin)
    players = [Timed(BotSpec(f"minimal{i}", command), process_limits=limits) for i in range(4)]
    for p in players:
        p.stamps = stamps
    gaps: list[float] = []
    floor: list[float] = []
    try:
        for g in range(games):
            stamps.clear()
            spec = GameSpec.make(f"bench-{g}", g, [p.name for p in players])
            await play_game(spec, players)
            gaps += [b - a for a, b in itertools.pairwise(stamps)]
            floor += pipe_round_trips(150, language=language)
    finally:
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
    print(f"{'bot and echo child':22} {'spin':>6} {'decision median':>16} {'p99':>9} "
          f"{'floor median':>13} {'p99':>9} {'ratio':>6}")
    for language in ("python", "c"):
        if language == "c" and compiled("echo") is None:
            print("c: no C compiler, skipped")
            continue
        for spin in (None, 0.0):
            gaps, floor = trio.run(measure, args.games, language, spin)
            gaps.sort()
            floor.sort()
            med, p99 = statistics.median(gaps), gaps[int(len(gaps) * 0.99)]
            fmed, fp99 = statistics.median(floor), floor[int(len(floor) * 0.99)]
            polling = "auto" if spin is None else f"{spin * 1e6:.0f}us"
            print(f"{language:22} {polling:>6} {med * 1e6:14.1f}us {p99 * 1e6:7.1f}us "
                  f"{fmed * 1e6:11.1f}us {fp99 * 1e6:7.1f}us {med / fmed:5.2f}x")
    alone = trio.run(referee_alone, max(10, args.games // 4))
    print(f"referee alone (minimal bots answering in memory, best of 5): {alone * 1e6:.1f}us "
          "per decision, game starts and ends included")
    print("target: decision median <= 1.3 x the floor median")


if __name__ == "__main__":
    main()
