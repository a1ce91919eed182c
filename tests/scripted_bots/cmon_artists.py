#!/usr/bin/env python3
"""cmon_artists: WRONG: hard-codes the cmon edition's artists (a value for each by name) instead
of reading the edition from `new_game`, so it crashes with a KeyError in any other edition.
Otherwise it plays as first_legal.  Expected: `referee check` fails it outside cmon, saying
which edition."""

import json
import sys

from first_legal import first_legal, send

VALUE = {"Manuel Carvalho": 1, "Sigrid Thaler": 2, "Daniel Melim": 3, "Ramon Martins": 4,
         "Rafael Silveira": 5}


def main():
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "cmon_artists", "protocol": 1})
        elif kind == "new_game":
            values = [VALUE[a] for a in message["edition"]["artists"]]
            print(f"cmon_artists: artist values {values}", file=sys.stderr)
        elif kind == "request":
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
