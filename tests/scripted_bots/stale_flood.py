#!/usr/bin/env python3
"""stale_flood: WRONG: at each request, writes replies to an earlier request (id - 1) instead
of answering: as fast as it can (a flood), or one every `--every` seconds; it stops after
`--seconds` and goes on to the next request without answering.  The first request, to which
no earlier one is, it answers with its first legal choice.

Expected: the decision is faulted whatever it writes, within its move time and bank: a flood
is a `wrong_id` fault that names it; a slow stream is a timeout that counts what was skipped.
"""

import argparse
import json
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--every", type=float, default=0.0)
parser.add_argument("--seconds", type=float, default=20.0)
args = parser.parse_args()

out = sys.stdout.buffer
for line in sys.stdin.buffer:
    kind = json.loads(line).get("type")
    if kind == "hello":
        out.write(b'{"type":"hello","name":"stale_flood","protocol":1}\n')
        out.flush()
    elif kind == "request":
        request = json.loads(line)
        rid = request["id"]
        if rid == 1:
            decision, legal = request["decision"], request["legal"]
            first = ({"action": "play", "card": legal["cards"][0]} if decision == "play" else
                     {"action": "bid", "amount": 0} if decision == "hidden_bid" else
                     {"action": "price", "amount": legal["min"]} if decision == "price" else
                     {"action": "pass"})
            out.write(json.dumps({"id": 1, **first}).encode() + b"\n")
            out.flush()
            continue
        stale = b'{"id":%d,"action":"pass"}\n' % (rid - 1)
        until = time.monotonic() + args.seconds
        while time.monotonic() < until:
            out.write(stale * (1 if args.every else 256))
            out.flush()
            if args.every:
                time.sleep(args.every)
    elif kind == "goodbye":
        break
