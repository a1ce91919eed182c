#!/usr/bin/env python3
"""fuzz: WRONG: answers every request with one random JSON-like line: random bytes (some not
UTF-8), random JSON values, near-miss replies (the right id with a random action, card or
amount; ids ahead of the request's; wrong types; stray keys).  Seeded by --seed.

Expected: the referee never fails; each reply is either a legal move or a recorded fault
(malformed, wrong_id or illegal).  It never sends an id below the request's (a late answer is
ignored, and the referee would wait for another line) and every line ends in a newline.
"""

import argparse
import json
import random
import sys

ACTIONS = ["pass", "play", "offer", "bid", "price", "buy", "reveal", "x", "", None, 3]
KEYS = ["id", "action", "card", "amount", "type", "cards", "x", ""]


def scalar(rng):
    return rng.choice([
        None, True, False, rng.randint(-5, 5), rng.randint(-(2**70), 2**70), rng.random() * 100,
        "", "pass", "\u00e9\u4e2d", "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"),
    ])


def value(rng, depth=0):
    kind = rng.random()
    if depth > 3 or kind < 0.5:
        return scalar(rng)
    if kind < 0.75:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(KEYS): value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def near_miss(rng, request):
    reply = {"id": request["id"] + rng.choice([0, 0, 0, 0, 1, 7])}
    reply["action"] = rng.choice(ACTIONS)
    legal = request.get("legal", {})
    if rng.random() < 0.6:
        cards = legal.get("cards") or [0]
        reply["card"] = rng.choice([*cards, rng.randint(-3, 200), "1", 1.5, None])
    if rng.random() < 0.6:
        reply["amount"] = rng.choice([legal.get("min", 0), legal.get("max", 0),
                                      rng.randint(-10, 300), 2**64, 0.5, "7", None])
    for _ in range(rng.choice([0, 0, 0, 1])):
        reply[rng.choice(KEYS)] = value(rng)
    if rng.random() < 0.1:
        reply.pop(rng.choice(list(reply)))
    return json.dumps(reply).encode()


def junk(rng):
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 60))).replace(b"\n", b" ")


def line_for(rng, request):
    kind = rng.random()
    if kind < 0.55:
        return near_miss(rng, request)
    if kind < 0.8:
        return json.dumps(value(rng)).encode()
    if kind < 0.95:
        return junk(rng)
    return json.dumps({"id": request["id"], "action": value(rng)}).encode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            out.write(json.dumps({"type": "hello", "name": "fuzz", "protocol": 1}).encode())
            out.write(b"\n")
            out.flush()
        elif kind == "request":
            out.write(line_for(rng, message) + b"\n")
            out.flush()
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
