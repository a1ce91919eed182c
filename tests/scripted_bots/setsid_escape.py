#!/usr/bin/env python3
"""setsid_escape: WRONG: at its first request, forks a child that calls setsid() to leave the
bot's process group (and session), ignores SIGTERM and sleeps forever; the bot itself plays on
correctly.  With --double the child forks again and exits, so the grandchild is an orphan
(a daemon), no longer a descendant of the bot.

Expected: a `crash` fault (a process left the bot's process group), the bot stopped, and no
process of it left: the referee kills the tree it finds in /proc; the double fork escapes
that tree: the bwrap sandbox's PID namespace ends it, or the bot's pids cgroup where the
referee can make one (see docs/security.md).

The escape waits for a request, not only the hello: the referee is then in the game, waiting
for this reply.  Made just after the hello, it raced the referee's read of that hello: on a
loaded machine a look at the bot's processes, made as the hello came, found the escape first,
a `start` fault "... before its hello" rather than the game's `crash`.
"""

import argparse
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


def escape(double):
    """Returns once the escaped process has left the group: from then on every look of the
    referee's can see it, however late a loaded machine runs the child."""
    sys.stdout.flush()
    sys.stderr.flush()
    done, tell = os.pipe()
    if os.fork() != 0:
        os.close(tell)
        os.read(done, 1)
        os.close(done)
        if double:
            os.wait()
        return
    os.close(done)
    os.setsid()
    if double and os.fork() != 0:
        os._exit(0)
    os.write(tell, b"x")
    os.close(tell)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(3600)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--double", action="store_true")
    args = parser.parse_args()
    escaped = False
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "setsid_escape", "protocol": 1})
        elif kind == "request":
            if not escaped:
                escape(args.double)
                escaped = True
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
