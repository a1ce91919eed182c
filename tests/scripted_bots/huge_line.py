#!/usr/bin/env python3
"""huge_line: WRONG: answers its first request with one 10 MB line, then plays correctly.

The line is the correct answer padded with spaces inside the JSON object, so the only fault is
its length (over the 64 KiB limit).  Expected: one `malformed` fault, then normal play; the
referee must discard the rest of the long line, not read it as the next reply.
"""

import json
import sys

HUGE = 10 * 1024 * 1024


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
    first = True
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "huge_line", "protocol": 1})
        elif kind == "request" and first:  # the bad thing
            first = False
            reply = json.dumps({"id": message["id"], **first_legal(message)})
            sys.stdout.write(reply[:-1] + " " * (HUGE - len(reply) - 1) + "}\n")
            sys.stdout.flush()
        elif kind == "request":
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
