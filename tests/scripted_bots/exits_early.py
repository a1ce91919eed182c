#!/usr/bin/env python3
"""exits_early: WRONG: shakes hands, then exits silently with status 0 on its first request.

Expected: a `crash` fault (stdout closed, exit status 0, empty stderr); the seat is retired.
"""

import json
import sys

HELLO = '{"type": "hello", "name": "exits_early", "protocol": 1}\n'


def main():
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message.get("type") == "hello":
            sys.stdout.write(HELLO)
            sys.stdout.flush()
        elif message.get("type") == "request":
            sys.exit(0)  # the bad thing
        elif message.get("type") == "goodbye":
            return


if __name__ == "__main__":
    main()
