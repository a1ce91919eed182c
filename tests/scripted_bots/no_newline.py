#!/usr/bin/env python3
"""no_newline: WRONG: writes correct replies without the trailing newline (and flushes).

Expected: the reply is never complete, so a `timeout` fault per request.  With --once only the
first reply lacks its newline: the next reply then completes a line holding two JSON objects,
which is `malformed` (the referee must not read the partial line as an answer to a later id).
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
    parser.add_argument("--once", action="store_true", help="drop only the first newline")
    once = parser.parse_args().once
    dropped = False
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "no_newline", "protocol": 1})
        elif kind == "request" and not (once and dropped):
            dropped = True
            sys.stdout.write(json.dumps({"id": message["id"], **first_legal(message)}))
            sys.stdout.flush()  # the bad thing: no "\n"
        elif kind == "request":
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
