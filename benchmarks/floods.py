"""What a flooding bot costs: one game's wall time, the referee's own CPU, and the files kept.

Seat 0 floods (tests/scripted_bots), seats 1-2 are first_legal.py, at move time 0.5 s and bank
0.5 s, with a transcript and a stderr log kept for every seat.  The referee runs in this process, so
`time.process_time()` is the referee's CPU alone (the bots are other processes).

    python benchmarks/floods.py            # stale replies for 60 s, stderr 400 MB
    python benchmarks/floods.py --seconds 10
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import trio

from referee.bots.launch import BotSpec
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.player import Fault
from referee.match.spec import GameSpec

BOTS = Path(__file__).resolve().parent.parent / "tests" / "scripted_bots"
NAMES = ["flood", "good1", "good2"]


def command(script: str) -> str:
    return f"{sys.executable} {BOTS / script}"


async def one_game(flooder: str, folder: Path) -> tuple[float, float, tuple[Fault, ...]]:
    players = [BotPlayer(BotSpec(n, command(s)), transcript_path=folder / f"{n}.jsonl",
                         stderr_path=folder / f"{n}.log")
               for n, s in zip(NAMES, [flooder, "first_legal.py", "first_legal.py"],
                               strict=True)]
    spec = GameSpec.make("flood", 1, NAMES, move_time=0.5, time_bank=0.5)
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        record = await play_game(spec, players)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        for p in players:
            await p.aclose()
    return wall, cpu, record.result.faults[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long the stale-reply flood goes on at each request")
    args = parser.parse_args()
    cases = [
        ("stale replies, as fast as it can", f"stale_flood.py --seconds {args.seconds:g}"),
        ("stale replies, one every 0.05 s", f"stale_flood.py --every 0.05 --seconds "
                                            f"{args.seconds:g}"),
        ("stderr, 40 MB before each reply", "flood_stderr.py --per-request 40"),
        ("stderr, 400 MB in one think", "stderr_while_thinking.py --report /dev/null "
                                        "--total 400 --seconds 60"),
    ]
    print(f"{'flood':36} {'game s':>7} {'referee CPU s':>14} {'transcript KiB':>15} "
          f"{'stderr log KiB':>15}  faults of the flooding seat")
    for title, flooder in cases:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            wall, cpu, faults = trio.run(one_game, flooder, folder)
            transcript = (folder / "flood.jsonl").stat().st_size / 1024
            log = (folder / "flood.log").stat().st_size / 1024
        kinds = ", ".join(f.kind for f in faults)
        print(f"{title:36} {wall:7.2f} {cpu:14.3f} {transcript:15.1f} {log:15.1f}  {kinds}")
        if faults:
            print(f"{'':36} first reason: {faults[0].reason[:110]}")


if __name__ == "__main__":
    main()
