#!/usr/bin/env python3
"""hog_memory: WRONG: at its first request, allocates memory without bound (16 MiB at a time,
every page touched) instead of answering.

Expected: the address-space limit stops it (MemoryError), a `crash` fault whose reason names
the limit.  A safety stop at 8 GiB keeps a referee without limits from losing the machine.
"""

import json
import sys

CHUNK = 16 << 20
SAFETY = 8 << 30


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    hoard = []
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "hog_memory", "protocol": 1})
        elif kind == "request":
            while len(hoard) * CHUNK < SAFETY:
                hoard.append(bytearray(b"x" * CHUNK))
            sys.exit("hog_memory: reached the safety stop without meeting a limit")
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
