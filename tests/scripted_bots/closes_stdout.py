#!/usr/bin/env python3
"""closes_stdout: WRONG: says hello, then at its first request closes its stdout and stays
alive, reading its input to the end.

Expected: a `crash` fault, "closed its output", with or without the sandbox.
"""

import json
import os
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "closes_stdout", "protocol": 1}), flush=True)
    elif message["type"] == "request":
        sys.stdout.flush()
        os.close(1)
        sys.stdin.read()
        break
