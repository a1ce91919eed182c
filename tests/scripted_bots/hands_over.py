#!/usr/bin/env python3
"""hands_over: WRONG: at its Nth request (--at, 3 by default) it forks a child and exits (status
0, a line on stderr); the child, once its parent is gone, answers that request and every later
one on the stdout it inherited, each after --delay seconds (0: at once).

Expected: the bot's process exited in the game, so it is a `crash` fault (and the seat retired)
whether or not a process it left answers for it, and however fast; no process of it is left.
"""

import argparse
import json
import os
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


def hand_over():
    """Fork; the parent exits, the child returns once it is gone (it has a new parent)."""
    parent = os.getpid()
    sys.stdout.flush()
    sys.stderr.flush()
    if os.fork() != 0:
        sys.stderr.write("hands_over: the parent exits, its child answers\n")
        sys.stderr.flush()
        os._exit(0)
    while os.getppid() == parent:
        time.sleep(0.001)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--at", type=int, default=3)
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    asked = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "hands_over", "protocol": 1})
        elif kind == "request":
            asked += 1
            if asked == args.at:
                hand_over()
            if asked >= args.at and args.delay:
                time.sleep(args.delay)
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
