#!/usr/bin/env python3
"""deep_json: WRONG: answers every request with '[' * 100000 + ']' * 100000 (deeply nested JSON).

Expected: a `malformed` fault per request, and no crash or stack overflow in the referee.
Note: the default line is 200,000 bytes, over the 64 KiB line limit; --depth 32000 (64,000
bytes) gets under the limit, so that the JSON parser's nesting limit is what rejects it.
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=100_000, help="nesting depth")
    depth = parser.parse_args().depth
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            sys.stdout.write(json.dumps({"type": "hello", "name": "deep_json", "protocol": 1}))
            sys.stdout.write("\n")
        elif kind == "request":
            sys.stdout.write("[" * depth + "]" * depth + "\n")  # the bad thing
        elif kind == "goodbye":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
