#!/usr/bin/env python3
"""replies_unasked: WRONG: plays as first_legal does, but also replies to every message of
the kinds --to names (default new_game; e.g. --to new_game,event,game_end), repeating the id
of its last request (none before its first: an id 0, which no request has, is a wrong_id).
With --debug N it instead writes a line of debug output before each of its first N replies, as
a `println!` left in a bot does: each is taken as its request's (malformed) answer, and the real
reply after it answers no request.

Expected: no fault while a request waits on at most 16 of them (the referee skips a reply
with an earlier id), but `referee check` warns that lines answer no request.
"""

import argparse
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
    parser = argparse.ArgumentParser()
    parser.add_argument("--to", default="new_game", help="kinds of message to reply to")
    parser.add_argument("--debug", type=int, default=0, help="replies after a debug line")
    args = parser.parse_args()
    unasked = set(args.to.split(",")) if not args.debug else set()
    last = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "replies_unasked", "protocol": 1})
        elif kind == "request":
            last = message["id"]
            if last <= args.debug:
                sys.stdout.write(f"my answer to {last} is\n")
            send({"id": last, **first_legal(message)})
        elif kind == "goodbye":
            return
        elif kind in unasked and last:  # the bad thing: these want no reply
            send({"id": last, "action": "pass"})


if __name__ == "__main__":
    main()
