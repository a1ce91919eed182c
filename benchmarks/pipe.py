"""The floor every referee figure is compared with: a raw request/response over a pipe."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
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


def pipe_round_trips(
    count: int = 20_000, payload: bytes = PAYLOAD, language: str = "python"
) -> list[float]:
    """Seconds per write-then-read-one-line round trip to a minimal echo child."""
    child = subprocess.Popen(
        echo_command(language), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
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
