"""What waking a sleeping child ahead of time buys: a one-byte write, then the line some
microseconds later, against the line alone.

Run: python benchmarks/wake.py [--trips N] [--language python|c]
Each trip is spaced by 20 us of untimed busy work (a referee's work between two decisions), then
the parent either writes the line to a sleeping echo child at once, or first writes one space
(the wake-up), busy-waits `ahead` microseconds and then writes the line; it polls for the echo
as the referee does.  "total" runs from the first write, "from the line" from the line's.  If
"total" never drops below the plain trip, a wake-up byte only moves the cost of waking the
child (paid by the writer, inside `write`) ahead of the work it was meant to overlap.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pipe import PAYLOAD, EchoChild, compiled

SPACING = 20e-6
AHEAD_US = (0, 5, 10, 15, 20, 25, 30)


def busy(seconds: float) -> None:
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        pass


def trip(child: EchoChild, ahead: float | None) -> tuple[float, float]:
    """Seconds from the first write to the echo, and from the line's write to the echo."""
    busy(SPACING)
    t0 = time.perf_counter()
    if ahead is not None:
        os.write(child.wfd, b" ")  # leading space: the echoed line is still valid JSON
        busy(ahead)
    t1 = time.perf_counter()
    os.write(child.wfd, PAYLOAD)
    got = b""
    while not got.endswith(b"\n"):
        try:
            got += os.read(child.rfd, 65536)
        except BlockingIOError:
            os.sched_yield()
    t2 = time.perf_counter()
    return t2 - t0, t2 - t1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trips", type=int, default=3000, help="trips per line (default 3000)")
    parser.add_argument("--language", choices=("python", "c"), default="c",
                        help="the echo child's language (default c, where a compiler exists)")
    args = parser.parse_args()
    if args.trips < 1:
        parser.error("--trips must be at least 1")
    language = args.language if args.language == "python" or compiled("echo") else "python"
    child = EchoChild(language)
    os.set_blocking(child.rfd, False)
    print(f"{language} echo child, {args.trips} trips a line, medians in microseconds")
    print(f"{'wake-up byte':>16} {'total':>7} {'from the line':>14}")
    try:
        for ahead_us in (None, *AHEAD_US):
            ahead = None if ahead_us is None else ahead_us * 1e-6
            times = [trip(child, ahead) for _ in range(args.trips)]
            label = "none" if ahead_us is None else f"{ahead_us} us ahead"
            print(f"{label:>16} {statistics.median(t for t, _ in times) * 1e6:7.1f} "
                  f"{statistics.median(t for _, t in times) * 1e6:14.1f}")
    finally:
        child.close()


if __name__ == "__main__":
    main()
