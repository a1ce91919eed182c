"""The floor every referee figure is compared with: a raw request/response over a pipe."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

ECHO_CHILD = (
    "import sys\n"
    "r, w = sys.stdin.buffer, sys.stdout.buffer\n"
    "for line in r:\n"
    "    w.write(line)\n"
    "    w.flush()\n"
)


PAYLOAD = b'{"id":1,"action":"pass"}\n'


def pipe_round_trips(count: int = 20_000, payload: bytes = PAYLOAD) -> list[float]:
    """Seconds per write-then-read-one-line round trip to a minimal Python echo child."""
    child = subprocess.Popen(
        [sys.executable, "-c", ECHO_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert child.stdin is not None and child.stdout is not None
    wfd, rfd = child.stdin.fileno(), child.stdout.fileno()
    times = []
    try:
        for _ in range(count):
            t0 = time.perf_counter()
            os.write(wfd, payload)
            got = b""
            while not got.endswith(b"\n"):
                got += os.read(rfd, 65536)
            times.append(time.perf_counter() - t0)
    finally:
        child.stdin.close()
        child.wait()
    return times


if __name__ == "__main__":
    rt = pipe_round_trips()
    print(f"pipe round trip: median {statistics.median(rt) * 1e6:.1f} us")
