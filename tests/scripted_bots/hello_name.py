#!/usr/bin/env python3
"""hello_name: first_legal, but its hello says the name given with `--name` (which may be one
the referee cannot use to name files, such as `a/b`).  Run: hello_name.py --name NAME"""

import argparse
import json
import sys

from first_legal import first_legal, send


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True)
    name = parser.parse_args().name
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": name, "protocol": 1})
        elif kind == "request":
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
