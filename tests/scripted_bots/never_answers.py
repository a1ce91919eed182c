#!/usr/bin/env python3
"""never_answers: WRONG: shakes hands, then reads every request but never replies.

Expected: a `timeout` fault per request until the seat is retired.  Exits on goodbye or EOF.
"""

import json
import sys

HELLO = '{"type": "hello", "name": "never_answers", "protocol": 1}\n'


def main():
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message.get("type") == "hello":
            sys.stdout.write(HELLO)
            sys.stdout.flush()
        elif message.get("type") == "goodbye":
            return
        # requests are read and ignored: the bad thing


if __name__ == "__main__":
    main()
