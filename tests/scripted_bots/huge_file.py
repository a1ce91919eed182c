#!/usr/bin/env python3
"""huge_file: WRONG: at its first request, writes a file without bound (1 MiB at a time) in its
own folder, or in the temporary directory where that is read-only (the sandbox).

Expected: the file-size limit stops it (SIGXFSZ, or "File too large" from Python, which
ignores SIGXFSZ), a `crash` fault naming the limit.  A safety stop at 512 MiB spares the disk
of a referee without limits.
"""

import json
import os
import sys
import tempfile

CHUNK = b"x" * (1 << 20)
SAFETY = 512


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def open_file():
    try:
        return open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "huge_file.out"),
                    "wb")
    except OSError:
        return open(os.path.join(tempfile.gettempdir(), "huge_file.out"), "wb")


def main():
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "huge_file", "protocol": 1})
        elif kind == "request":
            with open_file() as f:
                for _ in range(SAFETY):
                    f.write(CHUNK)
                    f.flush()
            sys.exit("huge_file: reached the safety stop without meeting a limit")
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
