#!/usr/bin/env python3
"""held: first_legal held at a gate: from its --after'th request on (counted over all its
games), it waits before each reply while the file --while exists, then answers as first_legal
does.  A test's way to keep a run busy, with some games stored, until it has acted on it
(interrupted it, started another), whatever the machine's speed.
Run: python3 tests/scripted_bots/held.py --while FILE [--after N]
"""

import argparse
import json
import os
import sys
import time

from first_legal import first_legal, send


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--while", dest="gate", required=True, help="held while this exists")
    parser.add_argument("--after", type=int, default=1, help="held from request N on")
    args = parser.parse_args()
    requests = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "held", "protocol": 1})
        elif kind == "request":
            requests += 1
            while requests >= args.after and os.path.exists(args.gate):
                time.sleep(0.01)
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
