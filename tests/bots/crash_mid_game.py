#!/usr/bin/env python3
"""crash_mid_game: WRONG: answers its first 5 requests correctly, then crashes on the 6th.

Prints a Python-style traceback to stderr and exits with status 1.  Expected: a `crash` fault
with exit status 1 and the ZeroDivisionError line; the seat is retired, and the bot is restarted
for its next game (where it crashes again on its 6th request).
"""

import json
import sys

ANSWERED_BEFORE_CRASH = 5


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
    answered = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "crash_mid_game", "protocol": 1})
        elif kind == "request":
            if answered == ANSWERED_BEFORE_CRASH:  # the bad thing
                sys.stderr.write(
                    "Traceback (most recent call last):\n  ...\n"
                    "ZeroDivisionError: division by zero\n"
                )
                sys.stderr.flush()
                sys.exit(1)
            send({"id": message["id"], **first_legal(message)})
            answered += 1
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
