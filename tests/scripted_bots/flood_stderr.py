#!/usr/bin/env python3
"""flood_stderr: WRONG: plays correctly but writes 120 MB to stderr over its games.

Before each reply it writes --per-request MB (default 4) of log lines to stderr until 120 MB
in all, then keeps playing quietly.  (A game gives a seat some 30-60 requests, so 1 MB each
might not reach 100 MB in one game.)  Expected: no timeout (a bot blocked on a full stderr pipe
would time out), the referee's log capped, and only a `stderr` fault, which does not count
towards retirement.
"""

import argparse
import json
import sys

MB = 1024 * 1024
TOTAL = 120 * MB
LOG_LINE = "flood_stderr: " + "x" * 1009 + "\n"  # 1 KiB


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def first_legal(request):
    decision, legal = request["decision"], request["legal"]
    if decision == "play":
        return {"action": "play", "card": legal["cards"][0]}
    if decision == "hidden_bid":
        return {"action": "bid", "amount": 0}
    if decision == "price":
        return {"action": "price", "amount": legal["min"]}
    return {"action": "pass"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-request", type=int, default=4, help="MB of stderr per request")
    chunk = LOG_LINE * (parser.parse_args().per_request * MB // len(LOG_LINE))
    written = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "flood_stderr", "protocol": 1})
        elif kind == "request":
            if written < TOTAL:  # the bad thing
                sys.stderr.write(chunk)
                sys.stderr.flush()
                written += len(chunk)
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
