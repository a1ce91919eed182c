"""What waking a sleeping child ahead of time buys: a one-byte write, then the line some
microseconds later, against the line alone.

Run: python benchmarks/wake.py [--trips N] [--language python|c]
Each trip is spaced by 20 us of untimed busy work, then the parent either writes the line to its
sleeping echo child at once, or first writes one space (the wake-up), busy-waits `ahead`
microseconds after that write (standing for work it has to do anyway) and then writes the
line; it polls for the echo as the referee does.  Columns: "total", from the first write to
the echo; "from the line", from the line's write; "wake write", the time inside the wake-up
byte's `write` (waking a sleeping process is paid by the writer); "hidden", the plain trip
plus `ahead` minus "total": how much of the work ahead was done while the child woke up
(negative: the wake-up cost more than it hid, as when the child is back asleep before the
line comes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pipe import PAYLOAD, EchoChild, busy, compiled

SPACING = 20e-6
AHEAD_US = (0, 5, 10, 15, 20, 25, 30)


def trip(child: EchoChild, ahead: float | None) -> tuple[float, float, float]:
    """Seconds from the first write to the echo, from the line's write to the echo, and
    inside the wake-up byte's write (0 without one)."""
    busy(SPACING)
    t0 = time.perf_counter()
    waking = 0.0
    if ahead is not None:
        os.write(child.wfd, b" ")  # leading space: the echoed line is still valid JSON
        waking = time.perf_counter() - t0
        busy(ahead)
    t1 = time.perf_counter()
    os.write(child.wfd, PAYLOAD)
    child.read_line()
    t2 = time.perf_counter()
    return t2 - t0, t2 - t1, waking


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
    print(f"{'wake-up byte':>16} {'total':>7} {'from the line':>14} {'wake write':>11} "
          f"{'hidden':>7}")
    try:
        plain = 0.0
        for ahead_us in (None, *AHEAD_US):
            ahead = None if ahead_us is None else ahead_us * 1e-6
            times = [trip(child, ahead) for _ in range(args.trips)]
            total, from_line, waking = (statistics.median(t[i] for t in times) * 1e6
                                        for i in range(3))
            if ahead_us is None:
                plain = total
                print(f"{'none':>16} {total:7.1f} {from_line:14.1f}")
            else:
                print(f"{f'{ahead_us} us ahead':>16} {total:7.1f} {from_line:14.1f} "
                      f"{waking:11.1f} {plain + ahead_us - total:7.1f}")
    finally:
        child.close()


if __name__ == "__main__":
    main()
