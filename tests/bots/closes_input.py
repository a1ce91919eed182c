#!/usr/bin/env python3
"""closes_input: WRONG: answers its fifth request, closes its stdin at once, and exits a moment
later with status 3.

Expected: the next request cannot be written to it: a `crash` fault ("stopped reading its
input", exit status 3); `referee check` says that request never reached the bot.
"""

import json
import os
import sys
import time

HELLO = '{"type": "hello", "name": "closes_input", "protocol": 1}\n'


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
        if message.get("type") == "hello":
            sys.stdout.write(HELLO)
            sys.stdout.flush()
        elif message.get("type") == "request":
            answered += 1
            if answered == 5:
                os.close(0)  # the bad thing
            sys.stdout.write(json.dumps({"id": message["id"], **first_legal(message)}) + "\n")
            sys.stdout.flush()
            if answered == 5:
                time.sleep(0.3)
                sys.exit(3)


if __name__ == "__main__":
    main()
