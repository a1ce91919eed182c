#!/usr/bin/env python3
"""tells_parent: first_legal that first writes `parent PID` to stderr: which process runs it."""

import os
import sys

import first_legal

sys.stderr.write(f"parent {os.getppid()}\n")
sys.stderr.flush()
first_legal.main()
