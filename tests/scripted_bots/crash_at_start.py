#!/usr/bin/env python3
"""crash_at_start: WRONG: dies before the handshake, like a bot with a missing import.

Writes a traceback-like message to stderr and exits with status 3 without sending hello.
Expected: a `crash` fault whose reason gives exit status 3 and these stderr lines.
"""

import sys

sys.stderr.write(
    "Traceback (most recent call last):\n"
    '  File "crash_at_start.py", line 9, in <module>\n'
    "    import numpy\n"
    "ModuleNotFoundError: No module named 'numpy'\n"
)
sys.stderr.flush()
sys.exit(3)
