#!/usr/bin/env python3
"""crash_mid_game: WRONG: answers its first 5 requests correctly, then crashes on the 6th.

Prints a Python-style traceback to stderr and exits with status 1.  Expected: a `crash` fault
with exit status 1 and the ZeroDivisionError line; the seat is retired, and the bot is restarted
for its next game (where it crashes again on its 6th request).

With --close-input it instead closes its stdin as it sends its 5th answer and exits with status
3 a moment later.  Expected: the 6th request cannot be written to it: a `crash` fault ("stopped
reading its input", exit status 3); `referee check` says that request never reached the bot.

With --backtrace it crashes as a Rust bot run with RUST_BACKTRACE=1 does: its panic's two
lines, then a backtrace of 12 frames.  Expected: the crash's reason quotes the panic's lines,
which the backtrace would push out of the stderr's last lines.

With --in-game N it instead answers every request of its first N - 1 games and crashes at the
first request of game N, having read that game's first lines.

With --on-event TYPE it instead answers every request and crashes reading the first event of
that type (a KeyError: a field the event lacks), as a bot with a bug in its bookkeeping does.
Expected: the crash is found at the next request; `referee check` says the bot crashed on
it or on one of the events it was sent before it.
"""

import json
import os
import sys
import time

ANSWERED_BEFORE_CRASH = 5
BACKTRACE = ("thread 'main' panicked at src/strategy.rs:188:39:\n"
             "index out of bounds: the len is 0 but the index is 2\nstack backtrace:\n"
             + "".join(f"  {i:2}: frame_{i}\n" for i in range(12))
             + "note: Some details are omitted, run with `RUST_BACKTRACE=full`.\n")


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
    close_input = "--close-input" in sys.argv[1:]
    in_game = int(sys.argv[sys.argv.index("--in-game") + 1]) if "--in-game" in sys.argv else 0
    on_event = sys.argv[sys.argv.index("--on-event") + 1] if "--on-event" in sys.argv else None
    answered = games = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if on_event is not None:
            if kind == "event" and message["event"]["type"] == on_event:
                message["event"]["no such field"]  # the bad thing: a KeyError
            elif kind == "request":
                send({"id": message["id"], **first_legal(message)})
                continue
        if kind == "hello":
            send({"type": "hello", "name": "crash_mid_game", "protocol": 1})
        elif kind == "new_game":
            games += 1
        elif kind == "request":
            if (answered == ANSWERED_BEFORE_CRASH and not in_game) or games == in_game:
                sys.stderr.write(BACKTRACE if "--backtrace" in sys.argv[1:] else
                                 "Traceback (most recent call last):\n  ...\n"
                                 "ZeroDivisionError: division by zero\n")
                sys.stderr.flush()
                sys.exit(1)
            if close_input and answered == ANSWERED_BEFORE_CRASH - 1:  # the bad thing
                os.close(0)
                send({"id": message["id"], **first_legal(message)})
                time.sleep(0.3)
                sys.exit(3)
            send({"id": message["id"], **first_legal(message)})
            answered += 1
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
