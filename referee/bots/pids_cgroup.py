"""A pids cgroup of its own for each bot, where the referee may make one (as root, say).

RLIMIT_NPROC does not hold for root, and the referee's look at a bot's processes comes only
every 50 ms, so as root a fork bomb could fill the process table first.  In a cgroup with
`pids.max` the kernel refuses the fork itself.  A cgroup also holds every process the bot
started, a double-forked `setsid` daemon too (which /proc's process tree loses once its parent
exits), so the referee finds it and kills it with the bot.

The bot's command is prefixed with a shell that moves itself into the group and then execs
the command, so the bot's first instruction already runs inside (the pid stays the bot's).
Where no group can be made (no pids controller, not allowed), bots run as before; a bot that
cannot join runs as before too.  cgroup v1's `pids` hierarchy is used, else cgroup v2 where
our group already hands the pids controller to its children.  Each group is removed once its
bot is stopped; groups left by a referee that was killed are removed by the next one in the
same pid namespace, and the bots still in them killed.
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import time
from collections.abc import Container
from contextlib import suppress
from pathlib import Path

from . import proc_tree

PREFIX = "modern-art-referee-"
_made = itertools.count(1)


@functools.cache
def _pid_namespace() -> str:
    """Our pid namespace's inode: a group's name gives its referee's pid as that referee sees
    it, which means nothing to a referee in another namespace sharing the cgroup file system
    (a container)."""
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return "0"

JOIN = '{ echo $$ > "$0"; } 2>/dev/null; exec "$@"'  # run the bot even if it cannot join


def _cgroup_folders(mountinfo: str, membership: str) -> list[tuple[str, Path]]:
    """(version, folder of our cgroup) for the pids v1 hierarchy and the v2 one, from
    /proc/self/mountinfo and /proc/self/cgroup."""
    ours: dict[str, str] = {}
    for line in membership.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            if parts[1] == "":
                ours["v2"] = parts[2]
            elif "pids" in parts[1].split(","):
                ours["v1"] = parts[2]
    found = []
    for line in mountinfo.splitlines():
        head, sep, tail = line.partition(" - ")
        fields, after = head.split(), tail.split()
        if not sep or len(fields) < 5 or len(after) < 3:
            continue
        root, mount, fstype = fields[3], fields[4], after[0]
        version = ("v1" if fstype == "cgroup" and "pids" in after[2].split(",") else
                   "v2" if fstype == "cgroup2" else None)
        path = ours.get(version or "")
        if version is None or path is None:
            continue
        relative = os.path.relpath(path, root)
        if relative.startswith(".."):
            continue  # our group lies outside what this mount shows
        found.append((version, Path(os.path.normpath(os.path.join(mount, relative)))))
    return sorted(found)  # v1 first


@functools.cache
def base_folder() -> Path | None:
    """The folder our pids groups are made in, or None where none can be made."""
    try:
        mountinfo = Path("/proc/self/mountinfo").read_text()
        membership = Path("/proc/self/cgroup").read_text()
    except OSError:
        return None
    for version, folder in _cgroup_folders(mountinfo, membership):
        if version == "v2":
            with suppress(OSError):
                if "pids" not in (folder / "cgroup.subtree_control").read_text().split():
                    continue
        if os.access(folder, os.W_OK) and (folder / "cgroup.procs").exists():
            _remove_stale(folder)
            return folder
    return None


def _remove_stale(folder: Path) -> None:
    """Remove the groups of referees of our pid namespace that are no longer running (killed
    with SIGKILL), killing the bots left in them first: nobody else will.  A group still busy
    (its killed not yet gone) is left to the next referee, rather than waited for."""
    mine = f"{PREFIX}{_pid_namespace()}-"
    stale = []
    with suppress(OSError):
        for entry in folder.iterdir():
            pid = entry.name.removeprefix(mine).partition("-")[0]
            if entry.name.startswith(mine) and pid.isdigit() and \
                    not Path(f"/proc/{pid}").exists():
                stale.append(PidsCgroup(entry))
    for group in stale:
        proc_tree.kill_all(group.members())
    for _ in range(20):  # the killed leave their groups as they are reaped: 0.2 s at most
        stale = [group for group in stale if not group.remove()]
        if not stale:
            return
        time.sleep(0.01)


class PidsCgroup:
    """One bot's group: made with its limit, joined by the bot's command, removed after."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._procs = str(folder / "cgroup.procs")

    @classmethod
    def make(cls, tasks: int | None) -> PidsCgroup | None:
        """A new group allowing `tasks` tasks (threads count; None: no limit), or None."""
        base = base_folder()
        if base is None:
            return None
        folder = base / f"{PREFIX}{_pid_namespace()}-{os.getpid()}-{next(_made)}"
        try:
            folder.mkdir()
        except OSError:
            return None
        group = cls(folder)
        try:
            (folder / "pids.max").write_text("max" if tasks is None else str(tasks))
        except OSError:
            group.remove()
            return None
        return group

    def prefix(self) -> list[str]:
        """What goes before the bot's command so that it runs in this group."""
        return [shutil.which("sh") or "/bin/sh", "-c", JOIN, str(self.folder / "cgroup.procs")]

    def pids(self) -> list[int]:
        """The processes in the group now."""
        try:
            return [int(x) for x in proc_tree.read_file(self._procs).split()]
        except (OSError, ValueError):
            return []

    def members(self, known: Container[int] = ()) -> list[proc_tree.ProcStat]:
        """The processes in the group now, as /proc shows them, but those `known` (found
        and checked just now, in the bot's process tree).  Each is checked to be in the group
        by its own /proc/PID/cgroup, read with its stat: a pid listed here may have exited
        and gone to a process outside the group by the time it is read (pids wrap on a busy
        machine), which is neither the bot's fault nor to be killed."""
        found = []
        for pid in self.pids():
            if pid in known:
                continue
            read = proc_tree.read_stat_and(pid, "cgroup")
            if read is not None and self._named_in(read[1]):
                found.append(read[0])
        return found

    def _named_in(self, cgroups: bytes) -> bool:
        """Whether a process's /proc/PID/cgroup puts it in this group: the group's name is
        unique (our pid namespace, our pid, a count), and a path may be shown relative to a
        cgroup namespace's root, so the last part of a path is compared."""
        name = os.fsencode(self.folder.name)
        return any(line.split(b":", 2)[-1].rstrip().rsplit(b"/", 1)[-1] == name
                   for line in cgroups.splitlines())

    def remove(self) -> bool:
        """Remove the group; False while a process is still in it (or it cannot be)."""
        try:
            self.folder.rmdir()
        except FileNotFoundError:
            return True
        except OSError:
            return False
        return True
