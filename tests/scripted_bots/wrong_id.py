#!/usr/bin/env python3
"""wrong_id: WRONG: answers every request correctly but with the request's id + 1000.

Expected: a `wrong_id` fault per request until the seat is retired.
"""

import json
import sys


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
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "wrong_id", "protocol": 1})
        elif kind == "request":
            send({"id": message["id"] + 1000, **first_legal(message)})  # the bad thing
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
