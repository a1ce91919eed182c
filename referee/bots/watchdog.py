"""The watch over a bot's processes for the limits no rlimit can hold: CPU time per game over
all of its processes, its processes alive at once, and processes that left its process group.

Its process tree (`proc_tree.py`, with its pids cgroup's members, `pids_cgroup.py`) is looked
at in /proc at most every PROCS_EVERY seconds: at a request, while waiting for a reply, and at
each game's end.  Going over is `LimitExceeded`, naming the limit; whoever watches stops the
bot.  CPU time per game cannot be an rlimit, since RLIMIT_CPU counts a process's whole life
and the process is kept across games; RLIMIT_CPU (`cpu_time`) is only the backstop, and a bot
past half of it is `worn_out`, to be restarted quietly between games, so that a long
tournament never reaches it.
"""

from __future__ import annotations

import trio

from . import proc_tree
from .errors import BotGone, ReplyTimeout
from .limits import BotLimits
from .process import CLOSED_OUTPUT, BotProcess

# Seconds between looks at a bot while it thinks; its processes in /proc (~40 us) are looked
# at every PROCS_EVERY.
WATCH_EVERY = 0.01
PROCS_EVERY = 0.05
# Seconds for an exited bot's output to close before a process it left is held to keep it.
EXIT_GRACE = 0.2
# Seconds a bot that timed out is watched for the CPU time it uses (`Watchdog.busy`): long
# enough for several clock ticks; a bot blocked reading or holding an unflushed reply uses none.
BUSY_LOOK = 0.2


class LimitExceeded(Exception):
    """The bot went over a watched limit; the message says which."""


class Watchdog:
    """Watches one bot's processes against its `limits`, process after process
    (`new_process`) and game after game (`new_game`, `end_game`)."""

    def __init__(self, limits: BotLimits) -> None:
        self.limits = limits
        self.next_watch = 0.0  # trio's clock: a request from then on looks first
        self._next_procs = 0.0
        self._looked = False  # the last `over_limit` looked at the bot's processes
        self._cpu_base = 0.0  # CPU seconds of the bot's processes when this game began
        self._cpu_now = 0.0
        self._cpu_life = 0.0  # the most CPU seconds any one of its processes has used

    def new_process(self) -> None:
        """A fresh process of the bot's: nothing used yet, looked at in a moment."""
        now = trio.current_time()
        self._cpu_base = self._cpu_life = 0.0
        self.next_watch = now + WATCH_EVERY
        self._next_procs = now + PROCS_EVERY

    def new_game(self) -> None:
        """A game begins: its CPU time counts from here (from the last game's end, where
        `end_game` looked), and its first request looks again if PROCS_EVERY has passed
        since."""
        self._cpu_now = self._cpu_base
        self.next_watch = 0.0

    def end_game(self, bot: BotProcess) -> str | None:
        """A game's end always looks: the watched limit the bot is over, in words, or None;
        then the CPU time it uses until the next game counts towards that game."""
        self._next_procs = 0.0
        reason = self.over_limit(bot)
        if reason is None:
            self._cpu_base = self._cpu_now
        return reason

    @property
    def worn_out(self) -> bool:
        """One of its processes used over half of RLIMIT_CPU: best restarted, before the
        backstop kills it in a game."""
        cpu_time = self.limits.cpu_time
        return cpu_time is not None and self._cpu_life > cpu_time / 2

    def over_limit(self, bot: BotProcess) -> str | None:
        """If it is time to look, the watched limit the bot's processes are over now, in
        words, or None."""
        now = trio.current_time()
        self.next_watch = now + WATCH_EVERY
        self._looked = now >= self._next_procs
        if not self._looked:
            return None
        self._next_procs = now + PROCS_EVERY
        tree = bot.processes()
        if not tree:
            return None
        root = tree[0]
        # In the sandbox the first two are bwrap's own: outside, and pid 1 inside.
        own = [p for p in tree if p.pid != root.pid and p.ppid != root.pid] \
            if bot.sandboxed else tree
        limits = self.limits
        for p in tree:
            if p.pgid != root.pgid:
                return (f"its process {p.pid} ({p.comm}) left the bot's process group "
                        "(setsid or setpgid); a bot's processes must stay in its group")
        if limits.processes is not None and len(own) > limits.processes:
            return f"ran {len(own)} processes at once, over the limit of {limits.processes}"
        cpu = sum(p.cpu_seconds for p in tree)
        self._cpu_life = max((p.cpu_seconds for p in own), default=0.0)
        if limits.cpu_per_game is not None and cpu - self._cpu_base > limits.cpu_per_game:
            return (f"used {cpu - self._cpu_base:.1f} s of CPU time in this game (all its "
                    f"processes), over the limit of {limits.cpu_per_game:g} s per game")
        self._cpu_now = cpu
        return None

    @staticmethod
    async def busy(bot: BotProcess, seconds: float = BUSY_LOOK) -> bool:
        """Whether the bot's processes are using the CPU: over the next `seconds`, a quarter
        of them or more spent running or waiting to run (`proc_tree.cpu_wanted`), or else of
        CPU time.  Looked at only when the hello or a request timed out with nothing come from
        the bot since its last line (the first timeout of a silence, and the first after it
        of a request the bot read: `SeatProtocol.read_in_silence`), to tell an endless
        loop from an unflushed reply; the time waited counts, since on a loaded machine a
        loop gets far less than a quarter of a core."""
        def used() -> tuple[float, float]:
            tree = bot.processes()
            return (sum(p.cpu_seconds for p in tree),
                    sum(proc_tree.cpu_wanted(p.pid) for p in tree))

        cpu, wanted = used()
        await trio.sleep(seconds)
        cpu_after, wanted_after = used()
        return max(cpu_after - cpu, wanted_after - wanted) >= seconds / 4

    async def read_line(self, bot: BotProcess, deadline: float, *, spin: bool = True) -> bytes:
        """`bot.read_line`, looking at the bot every WATCH_EVERY seconds of waiting; raises
        LimitExceeded as well."""
        while True:
            try:
                return await bot.read_line(min(deadline, self.next_watch), spin=spin)
            except ReplyTimeout:
                if trio.current_time() >= deadline:
                    raise
            if bot.process.returncode is not None:
                # It exited.  Its output closes as its last processes go (in the sandbox, a
                # moment after bwrap itself); if it stays open, a process it left holds it.
                try:
                    return await bot.read_line(trio.current_time() + EXIT_GRACE)
                except ReplyTimeout:
                    raise BotGone("exited (a process it started still holds its output "
                                  "open)") from None
            reason = self.over_limit(bot)
            if reason is not None:
                raise LimitExceeded(reason)
            if self._looked and bot.output_only_held_by_sandbox():
                bot.closed_stdout = True
                raise BotGone(CLOSED_OUTPUT)
