"""The referee polls only where it may use two cores: its CPU affinity and its cgroup's CPU
quota both count (a container started with `--cpus 1` shows all the host's cores)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.bots.cores import cgroup_quota

PROBE = ("from referee.bots.cores import usable_cores\n"
         "from referee.bots.polling import default_spin\n"
         "print(usable_cores(), default_spin())\n")


@contextlib.contextmanager
def cgroup_with_one_core() -> Iterator[Path]:
    """A real new cgroup (v1 `cpu`, v2, or v2 beside v1 under `unified`) with a quota of one
    core; skips where none can be made (not root, or no writable cgroup file system).  A
    folder made where no cgroup file system is mounted (a tmpfs `/sys/fs/cgroup`) has no
    `cgroup.procs`: it is removed again and not used."""
    name = f"modern-art-test-{uuid.uuid4().hex[:8]}"
    root = Path("/sys/fs/cgroup")
    quota_v1 = {"cpu.cfs_quota_us": "100000", "cpu.cfs_period_us": "100000"}
    quota_v2 = {"cpu.max": "100000 100000"}
    for folder, files in ((root / "cpu" / name, quota_v1), (root / name, quota_v2),
                          (root / "unified" / name, quota_v2)):
        try:
            folder.mkdir()
        except OSError:
            continue
        try:
            if not (folder / "cgroup.procs").exists():
                continue
            for file, value in files.items():
                (folder / file).write_text(value)
        except OSError:
            continue
        else:
            yield folder
            return
        finally:
            with contextlib.suppress(OSError):
                folder.rmdir()
    pytest.skip("cannot make a cgroup with a CPU quota here")


def test_a_cgroup_quota_of_one_core_turns_polling_off() -> None:
    with cgroup_with_one_core() as folder:
        # The shell joins the cgroup, then becomes the probe, which so starts inside it.
        script = f'echo $$ > {folder}/cgroup.procs && exec "$0" -c "$1"'
        run = subprocess.run(["sh", "-c", script, sys.executable, PROBE],
                             capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["1.0", "0.0"]


def test_outside_any_quota_the_affinity_counts() -> None:
    cores, spin = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                                 check=True).stdout.split()
    assert float(cores) <= len(os.sched_getaffinity(0))
    assert (float(spin) > 0) == (float(cores) >= 2)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_the_tightest_quota_on_the_way_up_counts_v2(tmp_path: Path) -> None:
    """cgroup v2, as a container sees it: `cpu.max` on the group and on an ancestor."""
    membership = tmp_path / "cgroup"
    write(membership, "0::/outer/inner\n")
    write(tmp_path / "fs/cpu.max", "max 100000\n")
    write(tmp_path / "fs/outer/cpu.max", "150000 100000\n")
    write(tmp_path / "fs/outer/inner/cpu.max", "max 100000\n")
    assert cgroup_quota(tmp_path / "fs", membership) == 1.5
    write(tmp_path / "fs/outer/cpu.max", "max 100000\n")
    assert cgroup_quota(tmp_path / "fs", membership) is None


def test_a_v1_quota_under_a_joint_cpu_mount(tmp_path: Path) -> None:
    """cgroup v1 with cpu and cpuacct mounted together; -1 means no quota; a line that is not
    `id:controllers:path` is passed over."""
    membership = tmp_path / "cgroup"
    write(membership, "4:memory:/x\n2:cpu,cpuacct:/job\nnot a cgroup line\n0::/\n")
    write(tmp_path / "fs/cpu,cpuacct/job/cpu.cfs_quota_us", "50000\n")
    write(tmp_path / "fs/cpu,cpuacct/job/cpu.cfs_period_us", "100000\n")
    write(tmp_path / "fs/cpu,cpuacct/cpu.cfs_quota_us", "-1\n")
    write(tmp_path / "fs/cpu,cpuacct/cpu.cfs_period_us", "100000\n")
    assert cgroup_quota(tmp_path / "fs", membership) == 0.5
    assert cgroup_quota(tmp_path / "fs", tmp_path / "no such file") is None
