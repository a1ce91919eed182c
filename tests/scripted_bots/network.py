#!/usr/bin/env python3
"""network: WRONG: at its first request, opens a TCP connection to 127.0.0.1:PORT (loopback
only, never any other address) and sends a line on it; then plays on (first legal choice).

Expected: without a sandbox it connects (the bots run as you); in the bwrap sandbox, which has
a network namespace of its own, the connection is refused and the bot crashes: a `crash`
fault saying the sandbox has no network.
"""

import argparse
import json
import socket
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
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    tried = False
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "network", "protocol": 1})
        elif kind == "request":
            if not tried:
                tried = True
                with socket.create_connection(("127.0.0.1", args.port), timeout=5) as conn:
                    conn.sendall(b"network bot was here\n")
                print(f"network: connected to 127.0.0.1:{args.port}", file=sys.stderr)
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
