"""What a bot may use and how long it may think: `BotLimits`, sizes and amounts as users write
them, and the one source of every default.

The defaults are written here as a tournament file writes them (`"1G"`, `60.0`, `"auto"`);
`BotLimits`, the tournament file's `[limits]`, the command line's options, a game spec and
`referee check` all take theirs from here.
"""

from __future__ import annotations

import math
import re
import resource
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

# Time controls and retirement.
DEFAULT_MOVE_TIME = 1.0  # seconds per decision
DEFAULT_TIME_BANK = 10.0  # seconds per game that absorb overruns of the move time
DEFAULT_STARTUP_TIME = 10.0  # seconds for a bot to say hello
DEFAULT_BUILD_TIME = 300.0  # seconds for a bot's build command, run once before it plays
DEFAULT_MAX_FAULTS = 3  # faults in one game before a seat is retired
DEFAULT_STDERR_PER_GAME = 1 << 20  # bytes of a bot's stderr kept in its log per game
RERUN_TIMEOUT = 60.0  # `replay --bot`: seconds for the hello and each answer, unless told otherwise
# max_faults at most: far more than a seat's decisions in a game (a large value says "never
# retire"), and within the record's 64-bit integers.
MAX_FAULTS = 10**9

# What each bot process may use (README, Untrusted bots), as a tournament file writes it.
DEFAULT_ADDRESS_SPACE = "auto"  # AUTO: AUTO_ADDRESS_SPACE, or JVM_ADDRESS_SPACE for `java`
DEFAULT_CPU_PER_GAME = 60.0  # CPU seconds of all a bot's processes in one game
DEFAULT_CPU_TIME = 3600  # CPU seconds per process in its whole life (the backstop)
DEFAULT_FILE_SIZE = "1G"
DEFAULT_OPEN_FILES = 256
DEFAULT_PROCESSES = 64
DEFAULT_SCRATCH = "64M"  # the sandbox's private /tmp

AUTO = -1  # address_space: AUTO_ADDRESS_SPACE, or JVM_ADDRESS_SPACE for `java`
AUTO_ADDRESS_SPACE = 2 * GiB
# The JVM reserves 1 GiB of class space up front and sizes its heap to half the limit.
JVM_ADDRESS_SPACE = 8 * GiB


def format_size(size: int) -> str:
    for unit, name in ((GiB, "GiB"), (MiB, "MiB"), (KiB, "KiB")):
        if size >= unit and size % (unit // 8 or 1) == 0:
            return f"{size / unit:g} {name}"
    return f"{size} bytes"


# prlimit takes numbers below 2**64; beyond these, a limit is better written "off".
MAX_SIZE = 1 << 50  # 1 PiB
MAX_AMOUNT = 1e9  # CPU seconds (30 years), files, processes

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_OFF = ("off", "none", "unlimited", "no")


def parse_size(value: str | int | None) -> int | None:
    """`"2G"`, `"512MiB"`, `"64m"`, a number of bytes; `"off"` (or None) for no limit."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"expected a size like '2G' or 'off', got {value!r}")
    if isinstance(value, int):
        if value <= 0:
            raise ValueError(f"a size must be positive, got {value}")
        return _at_most_max_size(value, value)
    if value.strip().lower() in _OFF:
        return None
    match = _SIZE.match(value)
    if not match:
        raise ValueError(f"expected a size like '2G', '512M' or 'off', got {value!r}")
    scale = {"": 1, "k": KiB, "m": MiB, "g": GiB, "t": 1024 * GiB}[match.group(2).lower()]
    size = int(float(match.group(1)) * scale)
    if size <= 0:
        raise ValueError(f"a size must be positive, got {value!r}")
    return _at_most_max_size(size, value)


def _at_most_max_size(size: int, value: str | int) -> int:
    if size > MAX_SIZE:
        raise ValueError(f"a size must be at most 1024T (or 'off' for no limit), got {value!r}")
    return size


def parse_address_space(value: str | int | None) -> int | None:
    """A size, `"off"`, or `"auto"` (AUTO)."""
    if isinstance(value, str) and value.strip().lower() == "auto":
        return AUTO
    return parse_size(value)


def parse_amount(value: str | float | None) -> float | None:
    """A positive number, or `"off"` (or None) for no limit."""
    if value is None:
        return None
    if isinstance(value, str):
        if value.strip().lower() in _OFF:
            return None
        try:
            value = float(value)
        except ValueError:
            raise ValueError(f"expected a number or 'off', got {value!r}") from None
    if isinstance(value, bool) or not 0 < value < math.inf:  # NaN fails this too
        raise ValueError(f"expected a positive number or 'off', got {value!r}")
    if value > MAX_AMOUNT:
        raise ValueError(f"expected at most {MAX_AMOUNT:g} (or 'off' for no limit), "
                         f"got {value!r}")
    return float(value)


def _bytes(text: str) -> int:
    size = parse_size(text)
    assert size is not None
    return size


@dataclass(frozen=True)
class BotLimits:
    """What one bot may use.  None turns a limit off.  Core dumps are always off."""

    address_space: int | None = AUTO  # bytes of virtual memory per process (RLIMIT_AS)
    # CPU seconds of all its processes in one game (watched, `watchdog.py`)
    cpu_per_game: float | None = DEFAULT_CPU_PER_GAME
    cpu_time: int | None = DEFAULT_CPU_TIME  # CPU seconds per process in its life (RLIMIT_CPU)
    file_size: int | None = _bytes(DEFAULT_FILE_SIZE)  # bytes in any one file (RLIMIT_FSIZE)
    open_files: int | None = DEFAULT_OPEN_FILES  # file descriptors per process (RLIMIT_NOFILE)
    processes: int | None = DEFAULT_PROCESSES  # its processes alive at once (watched)
    scratch: int = _bytes(DEFAULT_SCRATCH)  # size of the sandbox's private /tmp

    @classmethod
    def off(cls) -> BotLimits:
        return cls(None, None, None, None, None, None)

    def address_space_for(self, argv: Sequence[str]) -> int | None:
        if self.address_space != AUTO:
            return self.address_space
        return JVM_ADDRESS_SPACE if Path(argv[0]).name == "java" else AUTO_ADDRESS_SPACE

    def prlimit_options(self, argv: Sequence[str], *, nproc: bool = False) -> list[str]:
        """prlimit's options for these limits; soft and hard alike, so a bot cannot raise
        them (root outside a user namespace can: see README), never above our own hard."""
        options = ["--core=0:0"]

        def both(name: str, res: int, value: int | None, extra: int = 0) -> None:
            if value is None:
                return
            hard = resource.getrlimit(res)[1]
            soft, top = value, value + extra
            if hard != resource.RLIM_INFINITY:
                soft, top = min(soft, hard), min(top, hard)
            options.append(f"--{name}={soft}:{top}")

        both("as", resource.RLIMIT_AS, self.address_space_for(argv))
        # SIGXCPU at the soft limit, SIGKILL a little later if the bot ignores it.
        both("cpu", resource.RLIMIT_CPU, self.cpu_time, extra=5)
        both("fsize", resource.RLIMIT_FSIZE, self.file_size)
        both("nofile", resource.RLIMIT_NOFILE, self.open_files)
        if nproc:  # only the sandbox's own (a fresh user namespace)
            both("nproc", resource.RLIMIT_NPROC, self.tasks)
        return options

    @property
    def tasks(self) -> int | None:
        """The kernel's limit behind `processes`, which counts threads too (RLIMIT_NPROC in
        the sandbox, a pids cgroup's `pids.max`): 16 a process, at least 256."""
        return None if self.processes is None else max(self.processes * 16, 256)
