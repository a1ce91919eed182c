"""The floor every referee figure is compared with: a raw request/response over a pipe."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ECHO_CHILD = (
    "import sys\n"
    "r, w = sys.stdin.buffer, sys.stdout.buffer\n"
    "for line in r:\n"
    "    w.write(line)\n"
    "    w.flush()\n"
)


PAYLOAD = b'{"id":1,"action":"pass"}\n'


def compiled(name: str) -> str | None:
    """Build benchmarks/NAME.c once into a temporary folder; None without a C compiler."""
    source = Path(__file__).resolve().parent / f"{name}.c"
    binary = Path(tempfile.gettempdir()) / f"modern-art-bench-{name}"
    if binary.exists() and binary.stat().st_mtime >= source.stat().st_mtime:
        return str(binary)
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    subprocess.run([cc, "-O2", "-o", str(binary), str(source)], check=True)
    return str(binary)


def echo_command(language: str = "python") -> list[str]:
    """The minimal child: a Python echo, or the C one ("c", where a compiler exists)."""
    binary = compiled("echo") if language == "c" else None
    return [binary] if binary else [sys.executable, "-c", ECHO_CHILD]


def busy(seconds: float) -> None:
    """Work (spin) for `seconds`, as a referee works between a reply and its next request."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        pass


class EchoChild:
    """A minimal echo child kept for many round trips; `prefix` goes before its command
    (`taskset -c 1` to place it on a core)."""

    def __init__(self, language: str = "python", prefix: Sequence[str] = ()) -> None:
        self.child = subprocess.Popen(
            [*prefix, *echo_command(language)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
        )
        assert self.child.stdin is not None and self.child.stdout is not None
        self.wfd, self.rfd = self.child.stdin.fileno(), self.child.stdout.fileno()

    def round_trips(self, count: int, payload: bytes = PAYLOAD, *, poll: bool = False,
                    spacing: float = 0.0) -> list[float]:
        """Seconds per write-then-read-one-line round trip.  Blocking reads, as plain code
        does; or, with `poll`, non-blocking reads retried after `os.sched_yield()` until the
        line is in, as the referee polls for a quick bot's reply.  `spacing` seconds of
        untimed busy work go before each trip, as a referee works between a reply and its next
        request: back to back, the child is written to before it has gone to sleep, which
        makes the round trip cheaper than any a referee meets."""
        os.set_blocking(self.rfd, not poll)
        times = []
        try:
            for _ in range(count):
                busy(spacing)
                t0 = time.perf_counter()
                os.write(self.wfd, payload)
                self.read_line()
                times.append(time.perf_counter() - t0)
        finally:
            os.set_blocking(self.rfd, True)
        return times

    def read_line(self) -> bytes:
        """Read until a newline: blocking, or, if the pipe is non-blocking, retrying after
        `os.sched_yield()` as the referee polls."""
        got = b""
        while not got.endswith(b"\n"):
            try:
                data = os.read(self.rfd, 65536)
            except BlockingIOError:
                os.sched_yield()
                continue
            if not data:
                raise RuntimeError("the echo child closed its output")
            got += data
        return got

    def close(self) -> None:
        assert self.child.stdin is not None
        self.child.stdin.close()
        self.child.wait()


def pipe_round_trips(
    count: int = 20_000, payload: bytes = PAYLOAD, language: str = "python"
) -> list[float]:
    """Seconds per write-then-read-one-line round trip to a new minimal echo child."""
    child = EchoChild(language)
    try:
        return child.round_trips(count, payload)
    finally:
        child.close()


if __name__ == "__main__":
    rt = pipe_round_trips()
    print(f"pipe round trip: median {statistics.median(rt) * 1e6:.1f} us")
