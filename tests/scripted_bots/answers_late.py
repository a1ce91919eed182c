#!/usr/bin/env python3
"""answers_late: WRONG: replies correctly but sleeps before each reply (1.5 s, or --delay S).

Expected with the default limits (1 s a move, 10 s bank): each overrun is taken from the bank;
once it is spent, `timeout` faults, and the late replies that follow are ignored.
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=1.5, help="seconds to sleep per reply")
    delay = parser.parse_args().delay
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "answers_late", "protocol": 1})
        elif kind == "request":
            time.sleep(delay)  # the bad thing
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
