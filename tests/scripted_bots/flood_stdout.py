#!/usr/bin/env python3
"""flood_stdout: WRONG: after the handshake, writes garbage lines to stdout as fast as it can,
forever, never reading its input again.

Expected: `malformed` faults and retirement, a referee that neither blocks on writing to this
bot's full stdin nor buffers the flood in memory, and SIGTERM at the end (it ignores goodbye).
"""

import json
import os
import sys

BLOCK = b"garbage garbage garbage garbage garbage garbage garbage garbage\n" * 1024


def main():
    message = json.loads(sys.stdin.buffer.readline())
    if message.get("type") != "hello":
        return
    out = sys.stdout.buffer
    out.write(b'{"type": "hello", "name": "flood_stdout", "protocol": 1}\n')
    out.flush()
    try:
        while True:  # the bad thing
            out.write(BLOCK)
            out.flush()
    except OSError:  # the referee closed the pipe (BrokenPipeError)
        os._exit(0)  # no flush at exit, which would fail again


if __name__ == "__main__":
    main()
