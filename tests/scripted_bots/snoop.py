#!/usr/bin/env python3
"""snoop: WRONG: at its first request, tries to read each --read PATH (a file's bytes, or a
folder's listing): another bot's folder, the results store, a file in a home directory.  It
reports each attempt on stderr ("snoop: read PATH: ..." or "snoop: denied PATH: ..."); if any
was denied it then fails with that error, else it plays on.

Expected: without a sandbox it reads them all (the bots run as you); in the bwrap sandbox none
of them is there, the bot crashes (FileNotFoundError) and gets a `crash` fault saying what the
sandbox shows.
"""

import argparse
import json
import os
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


def steal(path):
    if os.path.isdir(path):
        return f"{len(os.listdir(path))} entries"
    with open(path, "rb") as f:
        return f"{len(f.read())} bytes"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--read", action="append", default=[])
    args = parser.parse_args()
    done = False
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "snoop", "protocol": 1})
        elif kind == "request":
            if not done:
                done = True
                denied = None
                for path in args.read:
                    try:
                        print(f"snoop: read {path}: {steal(path)}", file=sys.stderr, flush=True)
                    except OSError as exc:
                        print(f"snoop: denied {path}: {exc}", file=sys.stderr, flush=True)
                        denied = denied or exc
                if denied is not None:
                    raise denied
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
