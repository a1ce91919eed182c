"""Recycled process ids: a pid that /proc or a cgroup listed as one of a bot's processes may
belong to another process a moment later, once the pids have wrapped (a busy machine, a
version manager's shim running short-lived `readlink`s).  Such a process is never taken for
the bot's: not counted, not a "left the bot's process group" fault, never signalled.

The moment between the listing and the look is built here with real processes: the children
listing of a real bot-like process is made to name a real unrelated process, which is what a
recycled pid looks like to the referee."""

from __future__ import annotations

import select
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.bots import proc_tree
from referee.bots.pids_cgroup import PREFIX, PidsCgroup, base_folder

# A bot-like process with one real child, in a session of its own; it prints the child's pid
# once the child exists.
PARENT = "sleep 60 & echo $!; wait"


@pytest.fixture
def spawn() -> Iterator[Callable[[list[str]], subprocess.Popen[str]]]:
    """Start processes in sessions of their own; each is killed (with its group) after."""
    started: list[subprocess.Popen[str]] = []

    def start(argv: list[str]) -> subprocess.Popen[str]:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, start_new_session=True)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        subprocess.run(["kill", "-KILL", "--", f"-{proc.pid}"], capture_output=True)
        proc.kill()
        proc.wait()


def bot_with_a_child(spawn: Callable[[list[str]], subprocess.Popen[str]]) -> tuple[int, int]:
    """(the bot's pid, its child's pid)."""
    bot = spawn(["sh", "-c", PARENT])
    assert bot.stdout is not None
    return bot.pid, int(bot.stdout.readline())


def listing_also(monkeypatch: pytest.MonkeyPatch, parent: int, *pids: int) -> None:
    """Make /proc's children listing of `parent` name `pids` as well: what the referee reads
    when children of `parent` exited and their pids went to other processes meanwhile."""
    real = proc_tree._children

    def children(pid: int) -> list[int]:
        return real(pid) + (list(pids) if pid == parent else [])

    monkeypatch.setattr(proc_tree, "_children", children)
    monkeypatch.setattr(proc_tree, "_HAS_CHILDREN_FILE", True)


def answers(stranger: subprocess.Popen[str]) -> bool:
    """Whether the `cat` still runs (neither killed nor stopped): it echoes a line."""
    assert stranger.stdin is not None and stranger.stdout is not None
    try:
        stranger.stdin.write("ping\n")
        stranger.stdin.flush()
    except BrokenPipeError:
        return False
    ready, _, _ = select.select([stranger.stdout], [], [], 10)
    return bool(ready) and stranger.stdout.readline() == "ping\n"


def state(pid: int) -> str | None:
    stat = proc_tree.read_stat(pid)
    return None if stat is None else stat.state


def test_a_recycled_pid_in_a_bots_children_is_not_its_process(
        spawn: Callable[[list[str]], subprocess.Popen[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A child's pid that has gone to another program's process (a `readlink` under Dask,
    say) is not a process of the bot's that "left the bot's process group": a listed child is
    the bot's only if /proc shows the bot as its parent, and a start no earlier."""
    bot, child = bot_with_a_child(spawn)
    stranger = spawn(["sleep", "60"]).pid  # in another process group, like that readlink
    gone = subprocess.Popen(["true"])
    gone.wait()  # a listed child that has exited meanwhile (and was reaped)
    listing_also(monkeypatch, bot, stranger, gone.pid)
    members = proc_tree.tree(bot)
    assert [p.pid for p in members] == [bot, child]
    assert {p.pgid for p in members} == {bot}  # no false "left the bot's process group"


def test_stopping_a_bot_never_signals_a_process_that_took_a_childs_pid(
        spawn: Callable[[list[str]], subprocess.Popen[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Killing a recycled pid stops or kills someone else's program (and its whole process
    group).  The bot and its child are killed; the stranger is neither stopped nor killed."""
    bot, child = bot_with_a_child(spawn)
    stranger = spawn(["cat"])
    listing_also(monkeypatch, bot, stranger.pid)
    proc_tree.kill_all(proc_tree.tree(bot)[:1])
    assert answers(stranger)
    deadline = time.monotonic() + 10  # SIGKILL takes a moment
    while state(bot) not in (None, "Z") or state(child) not in (None, "Z"):
        assert time.monotonic() < deadline, "the bot or its child survived"


def test_a_stale_process_record_is_not_signalled(
        spawn: Callable[[list[str]], subprocess.Popen[str]]) -> None:
    """A record of a process that has since exited, its pid now another's: the start time
    tells them apart, and the other process is left alone."""
    stranger = spawn(["cat"])
    now = proc_tree.read_stat(stranger.pid)
    assert now is not None
    older = proc_tree.ProcStat(now.pid, now.comm, now.state, now.ppid, now.pgid, now.sid,
                               now.ticks, now.start - 1)
    proc_tree.kill_all([older])
    assert answers(stranger)


def test_a_pid_in_a_bots_cgroup_listing_that_went_elsewhere_is_not_a_member(
        spawn: Callable[[list[str]], subprocess.Popen[str]], tmp_path: Path) -> None:
    """The group's listing is read, then each process's stat: a pid that left (exited) in
    between and went to a process outside the group is not the bot's, so it is neither
    counted, nor a fault, nor killed with the bot."""
    folder = tmp_path / f"{PREFIX}0-1-1"
    folder.mkdir()
    stranger = spawn(["sleep", "60"]).pid  # in no such group
    (folder / "cgroup.procs").write_text(f"{stranger}\n")
    group = PidsCgroup(folder)
    assert group.pids() == [stranger]
    assert group.members() == []


def test_the_bots_real_processes_are_still_found(
        spawn: Callable[[list[str]], subprocess.Popen[str]]) -> None:
    """The checks keep every real member: the bot, its child, and zombies among them."""
    bot, child = bot_with_a_child(spawn)
    assert [p.pid for p in proc_tree.tree(bot)] == [bot, child]
    subprocess.run(["kill", "-STOP", str(bot)], check=True)  # it cannot reap its child now
    try:
        subprocess.run(["kill", "-KILL", str(child)], check=True)
        deadline = time.monotonic() + 10
        while state(child) != "Z":
            assert time.monotonic() < deadline
        assert [p.pid for p in proc_tree.tree(bot)] == [bot, child]
    finally:
        subprocess.run(["kill", "-CONT", str(bot)], check=True)


def test_the_processes_in_a_bots_cgroup_are_still_members(
        spawn: Callable[[list[str]], subprocess.Popen[str]]) -> None:
    """Where a pids cgroup can be made (as root): the bot and its child, both in its group,
    are its members, found by the group's name in their /proc/PID/cgroup."""
    if base_folder() is None:
        pytest.skip("no pids cgroup can be made here (cgroup v1 pids, or v2 delegated)")
    group = PidsCgroup.make(tasks=8)
    assert group is not None
    try:
        bot, child = bot_with_a_child(lambda argv: spawn([*group.prefix(), *argv]))
        assert sorted(p.pid for p in group.members()) == [bot, child]
    finally:
        proc_tree.kill_all(group.members())
        deadline = time.monotonic() + 10  # the killed leave the group as they are reaped
        while not group.remove():
            assert time.monotonic() < deadline
