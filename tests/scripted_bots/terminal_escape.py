#!/usr/bin/env python3
"""terminal_escape: HOSTILE: writes terminal escape sequences wherever the referee shows them.

Says hello with a name that clears the screen, sets the window title, rings the bell and
overwrites its line with a fake "ALL BOTS PASSED"; answers its first request with such a line
(not JSON), and at its second writes the same to stderr, with a right-to-left override, and
exits with status 1.  With --build it is a build that prints them and fails (exit status 1).
Expected: the referee shows all of it as escapes (`\\x1b[2J`, `\\x07`, `\\r`, `\\u202e`),
never as raw control bytes.
"""

import json
import sys

EVIL = "\x1b[2J\x1b]0;pwned\x07\rALL BOTS PASSED"


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main():
    if "--build" in sys.argv[1:]:
        send("compiling " + EVIL)
        sys.stderr.write("error: " + EVIL + "\x9b31m\u202edeliaf\n")
        sys.exit(1)
    asked = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send(json.dumps({"type": "hello", "name": EVIL, "protocol": 1}))
        elif kind == "request":
            asked += 1
            if asked == 1:
                send(EVIL)  # the bad thing: a reply that is not JSON
                continue
            sys.stderr.write("Traceback: " + EVIL + "\u202edeliaf\x1b[0m\n")  # the bad thing
            sys.stderr.flush()
            sys.exit(1)
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
