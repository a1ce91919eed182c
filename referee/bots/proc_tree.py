"""A bot's process tree from /proc: its members, their CPU time, and a thorough kill.

Linux only.  The tree is found through `/proc/PID/task/TID/children` (one small read per
thread of each member), or by one scan of /proc where the kernel lacks that file.  Used to
enforce the limits that no rlimit can (`watchdog.py`): CPU time per game over all of a bot's
processes, the number of processes (RLIMIT_NPROC is per user and not enforced for root), and
processes that leave the bot's process group with setsid or setpgid.

A pid read from a listing (a children file, a cgroup's) may belong to another process by the
time its stat is read: the listed one exited, and on a busy machine the pids wrapped.  So a
listed process counts only once its stat shows it is the one listed (its parent, its start
time), and a process is signalled only while it is verifiably the one found (its start time,
through a pidfd): a recycled pid is never a fault of the bot's, and never killed with it.
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


def read_file(path: str, dir_fd: int | None = None) -> bytes:
    """A small file of /proc or /sys whole, with plain system calls: the watchdog reads
    several at every look, and `open` would cost several times as much."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        data = os.read(fd, 4096)
        if len(data) < 4096:  # /proc answers a read with all it has, up to a page
            return data
        chunks = [data]
        while data := os.read(fd, 65536):
            chunks.append(data)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_stat(pid: int) -> ProcStat | None:
    """The process's stat, or None if it is gone."""
    try:
        data = read_file(f"/proc/{pid}/stat")
    except OSError:
        return None
    return _parse_stat(pid, data)


def read_stat_and(pid: int, name: str) -> tuple[ProcStat, bytes] | None:
    """The process's stat and its /proc/PID/`name` file, both of one process, or None if it
    is gone: they are read through one descriptor of its /proc folder, which stops working
    when that process is gone, even if its pid goes to another meanwhile."""
    try:
        folder = os.open(f"/proc/{pid}", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        data = [read_file(file, folder) for file in ("stat", name)]
    except OSError:
        return None
    finally:
        os.close(folder)
    stat = _parse_stat(pid, data[0])
    return None if stat is None else (stat, data[1])


def _parse_stat(pid: int, data: bytes) -> ProcStat | None:
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


def cpu_wanted(pid: int) -> float:
    """Seconds the process's threads have run or waited to run, from /proc/PID/task/*/schedstat
    (its first two fields: nanoseconds on a CPU, and runnable on a run queue): what it would
    have used of the CPU on an idle machine.  A loaded machine gives a looping process little
    CPU time, but it is runnable all along; a process blocked reading neither runs nor waits.
    0.0 where the kernel keeps no schedstat (CONFIG_SCHED_INFO off), or the process is gone."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for tid in tasks:
        try:
            fields = read_file(f"/proc/{pid}/task/{tid}/schedstat").split()
            total += int(fields[0]) + int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            found.extend(int(x) for x in read_file(f"/proc/{pid}/task/{tid}/children").split())
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
    """`root` and all its live descendants (zombies included), root first; a pid listed as
    a child counts only if /proc shows it is one (see `_walk`)."""
    stat = read_stat(root)
    return [] if stat is None else _walk(stat)


def _walk(top: ProcStat) -> list[ProcStat]:
    """`top` and its descendants.  A listed child is one only if its stat, read after the
    listing, names the parent and a start no earlier than the parent's, and the parent is
    still the same process after that read (so it held its pid meanwhile): else the child
    exited and its pid went to another process, or the parent's did (the children of a
    recycled parent pass the first two tests)."""
    kids = None if _HAS_CHILDREN_FILE else _children_by_scan()
    out = [top]
    todo = [top]
    seen = {top.pid}
    while todo:
        parent = todo.pop()
        found: dict[int, ProcStat] = {}
        for child in (_children(parent.pid) if kids is None else kids.get(parent.pid, [])):
            if child in seen:
                continue
            stat = read_stat(child)
            if stat is not None and stat.ppid == parent.pid and stat.start >= parent.start:
                found[child] = stat
        if found and not _same(parent):
            continue
        seen.update(found)
        out.extend(found.values())
        todo.extend(found.values())
    return out


def sandboxed_bot(root: int) -> ProcStat | None:
    """Under bwrap `root`: the process it started for the bot, the earliest-started child of
    bwrap's own pid 1 (its one child, a bwrap too); None if there is none now, or the layout
    is another.  Later children of that pid 1 are processes the bot left, which it adopted."""
    top = read_stat(root)
    if top is None:
        return None
    below = _walk(top)[1:]
    inits = [p for p in below if p.ppid == root]
    if len(inits) != 1 or inits[0].comm != top.comm:
        return None
    own = [p for p in below if p.ppid == inits[0].pid]
    return min(own, key=lambda p: p.start, default=None)


def kill_all(procs: list[ProcStat], rounds: int = 50) -> None:
    """SIGKILL these processes (those still the same process: the start time is checked),
    every descendant they have, and their process groups.

    They are frozen first with SIGSTOP, a tree at a time, until a scan finds nothing new: a
    stopped process cannot fork, so a process forking in a loop cannot outrun the kill, and
    no child is orphaned (out of reach) by its parent dying first.  Every signal goes only to
    a process still the one found (see `_signal`), and a group is signalled only while one of
    those found is still in it; the referee's own process group never is."""
    own_group = os.getpgrp()
    stopped: dict[tuple[int, int], ProcStat] = {}  # by pid and start: a pid may be reused
    for _ in range(rounds):
        new: dict[tuple[int, int], ProcStat] = {}
        for p in [*procs, *stopped.values()]:
            now = read_stat(p.pid)
            if now is not None and now.start == p.start:
                new.update(((q.pid, q.start), q) for q in _walk(now)
                           if (q.pid, q.start) not in stopped and q.state != "Z")
        if not new:
            break
        for key, q in new.items():
            if _signal(q, signal.SIGSTOP):
                stopped[key] = q
    groups = {q.pgid for q in stopped.values() if q.pgid > 1 and q.pgid != own_group}
    for group in groups:  # while its stopped members hold it: a group id is a pid, reusable
        if any(_in_group(q, group) for q in stopped.values()):
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
    for q in stopped.values():
        _signal(q, signal.SIGKILL)


def pidfd_of(p: ProcStat) -> int | None:
    """A pidfd of `p` while it is still that process (its start time checked once the pidfd
    is open, so that the pidfd cannot be of another that took its pid); None if it is not,
    or where there are no pidfds (a kernel before 5.3)."""
    try:
        fd = os.pidfd_open(p.pid)
    except OSError:
        return None
    if not _same(p):
        os.close(fd)
        return None
    return fd


def _same(p: ProcStat) -> bool:
    now = read_stat(p.pid)
    return now is not None and now.start == p.start


def _in_group(p: ProcStat, group: int) -> bool:
    now = read_stat(p.pid)
    return now is not None and now.start == p.start and now.pgid == group


def _signal(p: ProcStat, sig: int) -> bool:
    """Send `sig` to `p` if it is still that process, not another that took its pid; whether
    it is.  Through a pidfd, so that the start time checked and the process signalled are
    the same one; where there are none (a kernel before 5.3), a signal by pid just after
    the check."""
    try:
        fd = os.pidfd_open(p.pid)
    except ProcessLookupError:
        return False
    except OSError:
        fd = -1
    try:
        if not _same(p):
            return False
        with suppress(ProcessLookupError, PermissionError):
            if fd >= 0:
                signal.pidfd_send_signal(fd, sig)
            else:
                os.kill(p.pid, sig)
        return True
    finally:
        if fd >= 0:
            os.close(fd)
