"""A bot's process tree from /proc: its members, their CPU time, and a thorough kill.

Linux only.  The tree is found through `/proc/PID/task/TID/children` (one small read per
thread of each member), or by one scan of /proc where the kernel lacks that file.  Used to
enforce the limits that no rlimit can: CPU time per game over all of a bot's processes, the
number of processes (RLIMIT_NPROC is per user and not enforced for root), and processes that
leave the bot's process group with setsid or setpgid.
"""

from __future__ import annotations

import os
import signal
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_HAS_CHILDREN_FILE = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists()


@dataclass(frozen=True)
class ProcStat:
    """The fields of /proc/PID/stat that matter here."""

    pid: int
    comm: str
    state: str
    ppid: int
    pgid: int
    sid: int
    ticks: int  # utime + stime + cutime + cstime: its CPU time and that of children it reaped
    start: int  # start time in clock ticks after boot: tells a reused pid apart

    @property
    def cpu_seconds(self) -> float:
        return self.ticks / CLOCK_TICKS


def read_stat(pid: int) -> ProcStat | None:
    """The process's stat, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    end = data.rfind(b")")
    if end < 0:
        return None
    comm = data[data.find(b"(") + 1 : end].decode("utf-8", "replace")
    fields = data[end + 2 :].split()
    try:
        ticks = sum(int(x) for x in fields[11:15])
        return ProcStat(pid, comm, fields[0].decode(), int(fields[1]), int(fields[2]),
                        int(fields[3]), ticks, int(fields[19]))
    except (IndexError, ValueError):
        return None


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found.extend(int(x) for x in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def _children_by_scan() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = read_stat(int(entry))
            if stat is not None:
                kids.setdefault(stat.ppid, []).append(stat.pid)
    return kids


def tree(root: int) -> list[ProcStat]:
    """`root` and all its live descendants (zombies included), root first."""
    stat = read_stat(root)
    if stat is None:
        return []
    kids = None if _HAS_CHILDREN_FILE else _children_by_scan()
    out = [stat]
    todo = [root]
    seen = {root}
    while todo:
        pid = todo.pop()
        for child in (_children(pid) if kids is None else kids.get(pid, [])):
            if child in seen:
                continue
            seen.add(child)
            child_stat = read_stat(child)
            if child_stat is not None:
                out.append(child_stat)
                todo.append(child)
    return out


def kill_all(procs: list[ProcStat], rounds: int = 50) -> None:
    """SIGKILL these processes (those still the same process: the start time is checked),
    every descendant they have, and their process groups.

    They are frozen first with SIGSTOP, a tree at a time, until a scan finds nothing new: a
    stopped process cannot fork, so a process forking in a loop cannot outrun the kill, and
    no child is orphaned (out of reach) by its parent dying first.  The referee's own process
    group is never signalled."""
    own_group = os.getpgrp()
    stopped: dict[int, ProcStat] = {}
    roots = [p for p in procs if _same(p)]
    for _ in range(rounds):
        new = [q for p in roots + list(stopped.values()) for q in tree(p.pid)
               if q.pid not in stopped and q.state != "Z"]
        if not new:
            break
        for q in new:
            stopped[q.pid] = q
            with suppress(ProcessLookupError, PermissionError):
                os.kill(q.pid, signal.SIGSTOP)
    for q in stopped.values():
        with suppress(ProcessLookupError, PermissionError):
            os.kill(q.pid, signal.SIGKILL)
        if q.pgid > 1 and q.pgid != own_group:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(q.pgid, signal.SIGKILL)


def _same(p: ProcStat) -> bool:
    now = read_stat(p.pid)
    return now is not None and now.start == p.start
