#!/usr/bin/env python3
"""fork_loop: WRONG: at its first request, forks children in a loop (each sleeps forever,
ignoring SIGTERM) instead of answering.

Expected: stopped at the referee's process limit (or by RLIMIT_NPROC where the kernel enforces
it), a `crash` fault naming the limit, and not one of its processes left.  A safety stop at
3000 children keeps a referee without limits from filling the process table.
"""

import json
import os
import signal
import sys
import time

SAFETY = 3000


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "fork_loop", "protocol": 1})
        elif kind == "request":
            sys.stdout.flush()
            sys.stderr.flush()
            for _ in range(SAFETY):
                if os.fork() == 0:
                    signal.signal(signal.SIGTERM, signal.SIG_IGN)
                    while True:
                        time.sleep(3600)
            time.sleep(3600)
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
