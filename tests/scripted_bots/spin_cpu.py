#!/usr/bin/env python3
"""spin_cpu: WRONG: burns CPU time.

--per-request S: busy-loops S seconds of CPU before each (correct, first-legal) reply, within
  the move time, so only a CPU budget per game catches it.
--forever: at its first request, spins forever instead of answering.
--answers N: with --forever, answers its first N requests first.
--before-hello: spins forever at start, before it reads anything.
Expected: a `crash` fault naming the CPU limit (per game: the referee's watch; per process:
RLIMIT_CPU, SIGXCPU), and the bot stopped.
"""

import argparse
import json
import sys
import time


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


def spin(seconds):
    end = time.process_time() + seconds
    x = 0
    while time.process_time() < end:
        x += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-request", type=float, default=0.05)
    parser.add_argument("--forever", action="store_true")
    parser.add_argument("--before-hello", action="store_true")
    parser.add_argument("--answers", type=int, default=0)
    args = parser.parse_args()
    answered = 0
    if args.before_hello:
        spin(float("inf"))
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "spin_cpu", "protocol": 1})
        elif kind == "request":
            forever = args.forever and answered >= args.answers
            spin(float("inf") if forever else args.per_request)
            send({"id": message["id"], **first_legal(message)})
            answered += 1
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
