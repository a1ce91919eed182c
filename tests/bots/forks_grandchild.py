#!/usr/bin/env python3
"""forks_grandchild: WRONG: after the handshake, forks a child that ignores SIGTERM and sleeps
forever; the bot itself then plays correctly and exits on goodbye.

The child stays in the bot's process group and keeps the inherited stdin, stdout and stderr
open.  Expected: no fault; after the last game the referee kills the whole process group
(SIGTERM, then SIGKILL) so that no process is left, and does not wait for EOF on stdout (which
the child holds open) to decide that the bot has exited.
"""

import json
import os
import signal
import sys
import time


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


def fork_stubborn_child():
    sys.stdout.flush()
    sys.stderr.flush()
    if os.fork() == 0:  # the child: the bad thing
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            time.sleep(3600)


def main():
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "forks_grandchild", "protocol": 1})
            fork_stubborn_child()
        elif kind == "request":
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
