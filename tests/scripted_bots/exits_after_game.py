#!/usr/bin/env python3
"""exits_after_game: WRONG: plays its first game correctly, then exits at game_end instead of
waiting for the next game (or goodbye).  Expected: a `crash` fault in its next game whose
reason says one process plays every game."""

import json
import sys


def first_legal(request):
    decision, legal = request["decision"], request["legal"]
    if decision == "play":
        return {"action": "play", "card": legal["cards"][0]}
    if decision == "hidden_bid":
        return {"action": "bid", "amount": 0}
    if decision == "price":
        return {"action": "price", "amount": legal["min"]}
    return {"action": "pass"}


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "exits_after_game", "protocol": 1}),
              flush=True)
    elif message["type"] == "request":
        print(json.dumps({"id": message["id"], **first_legal(message)}), flush=True)
    elif message["type"] == "game_end":
        print("exits_after_game: game over, exiting", file=sys.stderr, flush=True)
        break
