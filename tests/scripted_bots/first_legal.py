#!/usr/bin/env python3
"""first_legal: a well-behaved, deterministic Modern Art bot (protocol v1, stdlib only).

Answers every request with the first legal choice: play legal.cards[0]; offer, bid, buy and
mystery -> pass; hidden_bid -> 0; price -> legal.min.  Plays any number of games and exits on
`goodbye` or at end of input.  Run: python3 tests/scripted_bots/first_legal.py
"""

import json
import sys

NAME = "first_legal"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def first_legal(request):
    """The first legal answer to a request (without its id)."""
    decision, legal = request["decision"], request["legal"]
    if decision == "play":
        return {"action": "play", "card": legal["cards"][0]}
    if decision == "hidden_bid":
        return {"action": "bid", "amount": 0}
    if decision == "price":
        return {"action": "price", "amount": legal["min"]}
    return {"action": "pass"}  # offer, bid, buy, mystery


def main():
    for line in sys.stdin.buffer:  # bytes: json.loads decodes UTF-8 whatever the locale
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": NAME, "protocol": 1})
        elif kind == "request":
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return
        # new_game, event, warning and game_end need no answer


if __name__ == "__main__":
    main()
