"""How many cores this process may use: its CPU affinity and its cgroup's CPU quota.

The referee polls for fast replies only where a bot can run on another core meanwhile
(`polling.default_spin`).  A container often shows every core of its host in the affinity
mask but caps the CPU time with a cgroup quota (`docker run --cpus 1`), so both are read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")


def usable_cores(root: Path = CGROUP_ROOT, membership: Path = Path("/proc/self/cgroup")) -> float:
    """The cores in our affinity mask, lowered to our cgroup's CPU quota where one is set."""
    cores = float(len(os.sched_getaffinity(0)))
    quota = cgroup_quota(root, membership)
    return cores if quota is None else min(cores, quota)


def cgroup_quota(root: Path = CGROUP_ROOT,
                 membership: Path = Path("/proc/self/cgroup")) -> float | None:
    """The tightest CPU quota, in cores, on our cgroup and its ancestors (cgroup v2 `cpu.max`,
    v1 `cpu.cfs_quota_us` over `cpu.cfs_period_us`); None where none is set or none is readable."""
    try:
        lines = membership.read_text().splitlines()
    except OSError:
        return None
    found: list[float] = []
    for line in lines:
        fields = line.split(":", 2)
        if len(fields) != 3:
            continue
        _, controllers, path = fields
        if controllers == "":  # v2: 0::/path
            for base in (root, root / "unified"):
                found += _quotas(base, path, _v2_quota)
        elif "cpu" in controllers.split(","):  # v1: 2:cpu,cpuacct:/path
            mount = root / controllers if (root / controllers).is_dir() else root / "cpu"
            found += _quotas(mount, path, _v1_quota)
    return min(found, default=None)


def _quotas(base: Path, path: str, read: Callable[[Path], float | None]) -> list[float]:
    """The quotas set on `path` and each of its ancestors under the mount `base`."""
    found = []
    folder = base / path.strip("/")
    while True:
        quota = read(folder)
        if quota is not None:
            found.append(quota)
        if folder == base or base not in folder.parents:
            return found
        folder = folder.parent


def _v2_quota(folder: Path) -> float | None:
    try:
        limit, period = (folder / "cpu.max").read_text().split()
        return None if limit == "max" else int(limit) / int(period)
    except (OSError, ValueError):
        return None


def _v1_quota(folder: Path) -> float | None:
    try:
        limit = int((folder / "cpu.cfs_quota_us").read_text())
        period = int((folder / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return None if limit < 0 or period <= 0 else limit / period
