#!/usr/bin/env python3
"""stderr_while_thinking: WRONG: at its first request, floods stderr for a long think before
answering (1 MiB writes, up to --total MB or --seconds), then plays quietly.

It writes how much it wrote and in how long as JSON to --report (and the largest size fstat
showed for its stderr, which is 0 for a pipe).  Expected: the referee reads its stderr as it
comes, so the bot is not stuck on a full pipe, and keeps a log of about 1 MiB.
"""

import argparse
import json
import os
import sys
import time

MB = 1024 * 1024
CHUNK = (b"stderr_while_thinking: " + b"x" * 1000 + b"\n") * 1000  # about 1 MiB


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


def flood(total, seconds):
    written = largest = 0
    start = time.monotonic()
    while written < total and time.monotonic() < start + seconds:
        written += os.write(2, CHUNK)
        largest = max(largest, os.fstat(2).st_size)
    return {"written": written, "largest": largest, "seconds": time.monotonic() - start}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report", required=True)
    parser.add_argument("--total", type=int, default=400, help="MB of stderr at most")
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    flooded = False
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "stderr_while_thinking", "protocol": 1})
        elif kind == "request":
            if not flooded:  # the bad thing
                flooded = True
                seen = flood(args.total * MB, args.seconds)
                with open(args.report, "w") as f:
                    json.dump(seen, f)
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
