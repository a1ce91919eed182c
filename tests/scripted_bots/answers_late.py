#!/usr/bin/env python3
"""answers_late: WRONG: replies correctly but sleeps before each reply (1.5 s, or --delay S);
with --only N (repeatable), before its reply to request N only (its Nth request, counted from
1).  With --signalled, it waits for a SIGUSR1 instead of sleeping: a test sends it once the
referee has given up waiting, so the reply comes just after the time allowed, with no
timing luck.

Expected with the default limits (1 s a move, 10 s bank): each overrun is taken from the bank;
once it is spent, `timeout` faults, and the late replies that follow are ignored.  `referee
check` fails a bot with more replies over the move time than 1 in 200 (at least one), or one
late by more than the move time or 1 s, whichever is longer, and warns of fewer, and above 80%
of it.
"""

import argparse
import json
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=1.5, help="seconds to sleep per reply")
    parser.add_argument("--only", type=int, action="append", default=[],
                        help="sleep before request N only (repeat for several)")
    parser.add_argument("--signalled", action="store_true",
                        help="wait for a SIGUSR1 instead of sleeping")
    args = parser.parse_args()
    delay, only = args.delay, args.only
    if args.signalled:  # held until sigwait takes it: one sent early is not lost
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    requests = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "answers_late", "protocol": 1})
        elif kind == "request":
            requests += 1
            if not only or requests in only:  # the bad thing
                if args.signalled:
                    signal.sigwait({signal.SIGUSR1})
                else:
                    time.sleep(delay)
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
