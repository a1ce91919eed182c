#!/usr/bin/env python3
"""logs_seed: first_legal's answers, and one line per `new_game` appended to the file named by
its argument: `{"game_id": ..., "seat": ..., "seed": ...}` as the referee sent them.

Run: python3 tests/scripted_bots/logs_seed.py FILE
"""

import json
import os
import sys

from first_legal import first_legal, send


def main():
    path = sys.argv[1]
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "logs_seed", "protocol": 1})
        elif kind == "new_game":
            entry = {key: message.get(key) for key in ("game_id", "seat", "seed")}
            # One write of one short line to a file opened to append: whole lines, from
            # however many processes.
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, (json.dumps(entry) + "\n").encode())
            finally:
                os.close(fd)
        elif kind == "request":
            send({"id": message["id"], **first_legal(message)})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
