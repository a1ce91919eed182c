#!/usr/bin/env python3
"""garbage: WRONG: answers every request with the line `this is not json`.

Expected: a `malformed` fault per request until the seat is retired.
"""

import json
import sys


def main():
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            sys.stdout.write(json.dumps({"type": "hello", "name": "garbage", "protocol": 1}))
            sys.stdout.write("\n")
        elif kind == "request":
            sys.stdout.write("this is not json\n")  # the bad thing
        elif kind == "goodbye":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
