"""The pids cgroup each bot gets where the referee may make one (as root, say): the kernel
refuses a fork past its limit, and the group is gone once the bot is stopped."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio

from referee.bots.pids_cgroup import (
    PREFIX,
    PidsCgroup,
    _cgroup_folders,
    _pid_namespace,
    base_folder,
)
from referee.bots.start import start_bot

from ..processes import wait_until

FORKS = """
import os, sys, time
made = 0
for _ in range(40):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    made += 1
print(made, flush=True)
os.killpg(0, 9)
"""


@pytest.fixture
def group() -> PidsCgroup:
    if base_folder() is None:
        pytest.skip("no pids cgroup can be made here (cgroup v1 pids, or v2 delegated)")
    made = PidsCgroup.make(tasks=8)
    assert made is not None
    return made


def test_the_kernel_refuses_a_fork_past_the_groups_limit(group: PidsCgroup) -> None:
    """8 tasks: the shell that becomes the program, and 7 children; not the 40 it tries (fewer
    only if the machine itself is out of processes)."""
    out = subprocess.run([*group.prefix(), sys.executable, "-c", FORKS], capture_output=True,
                         text=True, start_new_session=True, timeout=30)
    assert 1 <= int(out.stdout) <= 7, out
    # Its killed children leave the group as init reaps them; then it can be removed.
    wait_until(group.remove, "the group to be removed")
    assert not group.folder.exists()


def test_a_group_is_not_removed_while_a_process_is_in_it(group: PidsCgroup) -> None:
    child = subprocess.Popen([*group.prefix(), "sleep", "30"])
    try:
        wait_until(group.pids, "the process to be in the group")
        assert group.pids() == [child.pid]
        assert not group.remove()
    finally:
        child.kill()
        child.wait()
    assert group.remove()


def test_groups_of_referees_no_longer_running_are_removed(tmp_path: Path) -> None:
    """A referee killed with SIGKILL leaves its groups, and maybe bots in them; the next one
    kills those bots and removes the groups, and leaves those of a referee still running."""
    if base_folder() is None:
        pytest.skip("no pids cgroup can be made here (cgroup v1 pids, or v2 delegated)")
    base = base_folder()
    assert base is not None
    dead = subprocess.Popen(["true"])
    dead.wait()
    ns = _pid_namespace()
    stale = base / f"{PREFIX}{ns}-{dead.pid}-1"
    live = base / f"{PREFIX}{ns}-{os.getpid()}-999999"
    # The same pid in another pid namespace (a container sharing the cgroup file system):
    # its referee may be running; it is not ours to judge.
    elsewhere = base / f"{PREFIX}1{ns}-{dead.pid}-1"
    for folder in (stale, live, elsewhere):
        folder.mkdir()
    orphan = subprocess.Popen([*PidsCgroup(stale).prefix(), "sleep", "60"])
    other = subprocess.Popen([*PidsCgroup(elsewhere).prefix(), "sleep", "60"])
    try:
        wait_until(lambda: PidsCgroup(stale).pids() and PidsCgroup(elsewhere).pids(),
                   "both processes to be in their groups")
        base_folder.cache_clear()
        assert base_folder() == base
        assert orphan.wait(timeout=5) == -9  # SIGKILL
        assert not stale.exists()
        assert live.exists() and elsewhere.exists()
        assert other.poll() is None
    finally:
        for child in (orphan, other):
            child.kill()
            child.wait()
        for folder in (stale, live, elsewhere):
            for _ in range(100):
                if not folder.exists() or PidsCgroup(folder).remove():
                    break
                time.sleep(0.01)


def test_where_our_groups_are_made() -> None:
    """From /proc/self/mountinfo and /proc/self/cgroup: cgroup v1's pids hierarchy first, as
    mounted here, then v2; a group outside what a mount shows is not used."""
    mountinfo = "\n".join([
        "30 25 0:26 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
        "31 25 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory",
        "32 25 0:28 /docker/abc /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw",
    ])
    membership = "8:pids:/jobs/x\n4:memory:/m\n0::/docker/abc/inner\n"
    assert _cgroup_folders(mountinfo, membership) == [
        ("v1", Path("/sys/fs/cgroup/pids/jobs/x")),
        ("v2", Path("/sys/fs/cgroup/unified/inner")),
    ]
    assert _cgroup_folders(mountinfo, "0::/elsewhere\n") == []


def test_a_bot_that_cannot_start_leaves_no_group(tmp_path: Path) -> None:
    """Its stderr log cannot be made (a file where its folder should be): the error is the
    caller's, and the group made for it is removed."""
    if base_folder() is None:
        pytest.skip("no pids cgroup can be made here (cgroup v1 pids, or v2 delegated)")
    (tmp_path / "afile").write_text("")
    made = PidsCgroup.make(tasks=256)
    assert made is not None

    async def start() -> None:
        await start_bot(["true"], stderr_path=tmp_path / "afile" / "sub" / "log", group=made)

    with pytest.raises(OSError):
        trio.run(start)
    assert not made.folder.exists()
