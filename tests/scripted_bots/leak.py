#!/usr/bin/env python3
"""leak: WRONG: at each request, lists its working folder and tries to read each --read PATH
(a file's bytes, or a folder's listing): the results store, its -wal file, the tournament file,
the stderr logs, another entrant's file.  It reports on stderr what it saw ("leak: cwd: [...]",
"leak: read PATH: ..." or "leak: denied PATH: ...") and plays on (first legal answer) whatever
it found.

Expected: without a sandbox it reads them all; in the bwrap sandbox its working folder shows
only its own file, and every read is denied.
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
        return f"{sorted(os.listdir(path))}"
    with open(path, "rb") as f:
        return f"{len(f.read())} bytes"


def report(paths):
    print(f"leak: cwd: {sorted(os.listdir('.'))}", file=sys.stderr)
    for path in paths:
        try:
            print(f"leak: read {path}: {steal(path)}", file=sys.stderr)
        except OSError as exc:
            print(f"leak: denied {path}: {exc}", file=sys.stderr)
    sys.stderr.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--read", action="append", default=[])
    args = parser.parse_args()
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "leak", "protocol": 1})
        elif kind == "request":
            report(args.read)
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
