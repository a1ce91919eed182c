#!/usr/bin/env python3
"""five_artists_only: WRONG: assumes every edition has five artists, as cmon and classic do.
In a game of another edition it exits at `new_game` (`--then exit`, the default), or answers
every request with `pass` (`--then pass`: illegal where a card or an amount is asked for).
Otherwise it plays as first_legal.  Expected: `referee check` fails it on the six-artist
edition, and says so."""

import argparse
import json
import sys

from first_legal import first_legal, send


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--then", choices=["exit", "pass"], default="exit")
    then = parser.parse_args().then
    five = True
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "five_artists_only", "protocol": 1})
        elif kind == "new_game":
            artists = message["edition"]["artists"]
            five = len(artists) == 5
            if not five and then == "exit":
                sys.exit(f"five_artists_only: expected 5 artists, got {len(artists)}")
        elif kind == "request":
            answer = first_legal(message) if five else {"action": "pass"}
            send({"id": message["id"], **answer})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
