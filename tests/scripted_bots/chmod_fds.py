#!/usr/bin/env python3
"""chmod_fds: HOSTILE: writes to stderr, then calls fchmod(fd, 0o4777) and fchown(fd, 65534,
65534) on every descriptor it holds (its stderr among them), then plays first_legal.

Expected: no file the referee keeps (stderr log, transcript) changes mode or owner.
"""

import contextlib
import json
import os
import sys

sys.stderr.write("chmod_fds: trying every descriptor\n")
sys.stderr.flush()
for fd in range(1024):
    with contextlib.suppress(OSError):
        os.fchmod(fd, 0o4777)
    with contextlib.suppress(OSError):
        os.fchown(fd, 65534, 65534)


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
        print(json.dumps({"type": "hello", "name": "chmod_fds", "protocol": 1}), flush=True)
    elif message["type"] == "request":
        print(json.dumps({"id": message["id"], **first_legal(message)}), flush=True)
    elif message["type"] == "goodbye":
        break
