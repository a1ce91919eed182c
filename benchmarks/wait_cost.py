"""What one wait for a child's reply costs the waiting process in CPU, by how it waits.

Run: python benchmarks/wait_cost.py [--trips N]
The parent writes a line to a Python echo child that busy-waits 100 us (about a Python sample's
think time) before echoing it, and waits for the echo: in a blocking read, or in poll(2) with
a timeout of 1, 2, 5 or 20 ms or none, the reply always coming first.  For each it prints the
parent's CPU (`time.process_time`) inside the write and inside the wait, as medians of means
over 5 rounds, with the two processes free to run on any core and then both on one core.  On
a virtual machine a short timeout arms and cancels the clock event each time, which the
guest pays for; waking a process on an idle core is paid by the writer.
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import subprocess
import sys
import time

CHILD = r"""
import os, time
while True:
    line = os.read(0, 4096)
    if not line:
        break
    until = time.perf_counter() + 0.0001
    while time.perf_counter() < until:
        pass
    os.write(1, line)
"""
WAITS: list[tuple[str, int | None]] = [("blocking read", None), ("poll, 1 ms", 1),
                                       ("poll, 2 ms", 2), ("poll, 5 ms", 5),
                                       ("poll, 20 ms", 20), ("poll, no timeout", -1)]


def trips(child: subprocess.Popen[bytes], timeout: int | None, n: int) -> tuple[float, float]:
    """Mean CPU seconds inside the write and inside the wait, over `n` trips."""
    assert child.stdin is not None and child.stdout is not None
    w, r = child.stdin.fileno(), child.stdout.fileno()
    poller = select.poll()
    poller.register(r, select.POLLIN)
    in_write = in_wait = 0.0
    for _ in range(n):
        a = time.process_time()
        os.write(w, b"x\n")
        b = time.process_time()
        if timeout is not None:
            poller.poll(timeout)
        os.read(r, 100)
        in_write += b - a
        in_wait += time.process_time() - b
    return in_write / n, in_wait / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trips", type=int, default=2000)
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    for placement in ("any core", "one core"):
        child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE)
        if placement == "one core":
            os.sched_setaffinity(0, {cores[0]})
            os.sched_setaffinity(child.pid, {cores[0]})
        print(f"{placement}: us of the parent's CPU a trip (write; wait)")
        for label, timeout in WAITS:
            rounds = [trips(child, timeout, args.trips) for _ in range(5)]
            write = statistics.median(x for x, _ in rounds) * 1e6
            wait = statistics.median(y for _, y in rounds) * 1e6
            print(f"  {label:18} {write:6.1f} {wait:6.1f}", flush=True)
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
        os.sched_setaffinity(0, set(cores))


if __name__ == "__main__":
    main()
