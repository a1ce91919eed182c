#!/usr/bin/env python3
"""forks_grandchild: WRONG: after the handshake, forks a child that ignores SIGTERM and sleeps
forever; the bot itself then plays correctly and exits on goodbye.

The child stays in the bot's process group and keeps the inherited stdin, stdout and stderr
open.  Expected: no fault; after the last game the referee kills the whole process group
(SIGTERM, then SIGKILL) so that no process is left, and does not wait for EOF on stdout (which
the child holds open) to decide that the bot has exited.

With --crash-at N the bot itself exits with status 3 at its Nth request, a line on stderr,
while the child still holds its output open.  Expected: a `crash` fault within moments (not a
timeout), with the exit status and that line.
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
    crash_at = int(sys.argv[sys.argv.index("--crash-at") + 1]) if "--crash-at" in sys.argv else 0
    asked = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "forks_grandchild", "protocol": 1})
            fork_stubborn_child()
        elif kind == "request":
            asked += 1
            if asked == crash_at:
                sys.stderr.write("RuntimeError: deliberate crash\n")
                sys.stderr.flush()
                os._exit(3)
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
