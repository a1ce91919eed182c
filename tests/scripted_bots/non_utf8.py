#!/usr/bin/env python3
"""non_utf8: WRONG: answers every request with the bytes ff fe fd and a newline (not UTF-8).

Expected: a `malformed` fault per request until the seat is retired.
"""

import json
import sys


def main():
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            out.write(b'{"type": "hello", "name": "non_utf8", "protocol": 1}\n')
        elif kind == "request":
            out.write(b"\xff\xfe\xfd\n")  # the bad thing
        elif kind == "goodbye":
            return
        out.flush()


if __name__ == "__main__":
    main()
