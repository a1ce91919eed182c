"""Local workers in processes of their own (`executors/processes.py`): with two workers or
more and PROCESSES_FROM games a worker, each plays its games in a process of its own, and the
referee stores them."""

from __future__ import annotations

import math
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import trio
import trio.testing

from referee.tournament.budget import BudgetSpent
from referee.tournament.config import load_tournament
from referee.tournament.executors import Finished, Outcome, Report, Voided
from referee.tournament.executors.local import PROCESSES_FROM, LocalExecutor
from referee.tournament.executors.processes import (
    BOOT,
    ProcessWorkers,
    WorkerFailed,
    _Process,
)
from referee.tournament.executors.worker import Worker
from referee.tournament.executors.worker_process import (
    FrameError,
    Frames,
    _tell_voids,
    frame,
)
from referee.tournament.schedule import schedule
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

from .. import in_process
from ..processes import ROOT, command, copy_bots, wait_until
from ..processes import children as _children
from .stand_in_workers import FinishesAsTheStopComes, VoidsAfterTheStop, boot

GAMES = 2 * PROCESSES_FROM  # two workers' worth: 6 seat orders a deal of 3 entrants
# What the executors made here are handed to play in worker processes: enough to check what
# the processes do, at a tenth of the games a run needs to repay them.
FEW = 6


def tournament(folder: Path, script: str, seats: int = 3, games: int = GAMES,
               extra: str = "") -> Path:
    """`seats` entrants at one table, `games` games (every seat order, as many deals as that
    takes); `extra`: more lines of the file.  Three entrants play the tiny edition (short
    games: these tests are about the worker processes, not the games), unless `extra` names
    another."""
    bots = copy_bots(folder / "bots")
    path = folder / "t.toml"
    if seats == 3 and "edition" not in extra:
        shutil.copy(ROOT / "protocol" / "examples" / "tiny.toml", folder / "tiny.toml")
        extra = f'edition = "tiny.toml"\n{extra}'
    entries = "".join(f'[[bots]]\nname = "b{i}"\ncommand = "{command(bots, script)}"\n'
                      for i in range(seats))
    path.write_text(f'name = "t"\nseed = 3\ntable_size = {seats}\n'
                    f'deals = {games // math.factorial(seats)}\n{extra}\n{entries}')
    return path


def parents(logs: Path, worker: int) -> set[int]:
    """The parent pids that worker `worker`'s bots wrote to their stderr logs."""
    return {int(line.split()[1]) for log in logs.glob(f"*.w{worker}.stderr.log")
            for line in log.read_text().splitlines() if line.startswith("parent ")}


def test_two_workers_play_in_processes_of_their_own_and_leave_none(tmp_path: Path) -> None:
    """Two workers and enough games: every game is played and stored, each worker's bots are
    run by one process of its own, neither the referee's, and once the run is over no worker
    process is left."""
    path = tournament(tmp_path, "tells_parent.py", games=2 * FEW)
    config = load_tournament(path)
    logs = tmp_path / "logs"
    store = open_store(tmp_path / "t.db")
    try:
        summary = trio.run(run_tournament, config, path, store,
                           LocalExecutor(2, stderr_dir=logs, processes_from=FEW),
                           lambda m: None)
        stored = len(list(store.results()))
    finally:
        store.close()
    assert summary.played == stored == 2 * FEW
    workers = [parents(logs, 0), parents(logs, 1)]
    assert [len(w) for w in workers] == [1, 1], workers
    pids = workers[0] | workers[1]
    assert len(pids) == 2 and os.getpid() not in pids
    for pid in pids:
        wait_until(lambda pid=pid: not Path(f"/proc/{pid}").exists(),  # type: ignore[misc]
                   f"worker process {pid} gone")


def test_an_adaptive_runs_small_rounds_play_in_worker_processes_when_its_budget_is_large(
        tmp_path: Path) -> None:
    """An adaptive round of one table (6 games) is smaller than the games that make a batch
    play in worker processes (12 with two workers here), but the run's budget is not: every
    round is played by the two workers' processes, none by the referee's own."""
    path = tournament(tmp_path, "tells_parent.py", games=6,  # a deal: a round's table
                      extra='schedule = "adaptive"\nmax_games = 24')
    config = load_tournament(path)
    logs = tmp_path / "logs"
    store = open_store(tmp_path / "t.db")
    try:
        summary = trio.run(run_tournament, config, path, store,
                           LocalExecutor(2, stderr_dir=logs, processes_from=FEW),
                           lambda m: None)
        rounds = len(store.rounds())
    finally:
        store.close()
    assert summary.played == 24 and rounds == 4
    pids = parents(logs, 0) | parents(logs, 1)
    assert len(pids) == 2 and os.getpid() not in pids, pids


def test_batches_move_between_this_process_and_worker_processes_as_they_grow_and_shrink(
        tmp_path: Path) -> None:
    """A run handed batches stage by stage plays a small batch in its own process, a large
    one in worker processes and a small one in its own process again: every game of each is
    reported finished, and each time the bots of the other way of playing are stopped first,
    so that no more bot processes live than one way keeps."""
    path = tournament(tmp_path, "tells_parent.py", games=4 * FEW)
    config = load_tournament(path)
    games = schedule(config)
    logs = tmp_path / "logs"
    marker = str(tmp_path / "bots")
    me = os.getpid()

    def bots_of(pid: int) -> list[int]:
        return [p for p in _children(pid) if _has(Path(f"/proc/{p}/cmdline"), marker)]

    def workers() -> list[int]:
        return [p for p in _children(me)
                if _has(Path(f"/proc/{p}/cmdline"), "executors.worker_process")]

    async def main() -> tuple[list[tuple[int, int, set[int]]], list[tuple[int, int]]]:
        executor = LocalExecutor(2, stderr_dir=logs, processes_from=FEW)
        await executor.start(config, path)
        seen, first = [], []
        try:
            for batch in (games[:FEW], games[FEW:3 * FEW], games[3 * FEW:]):
                finished: list[Outcome] = []

                def report(outcome: Outcome, finished: list[Outcome] = finished) -> None:
                    if not finished:  # as the batch's first game ends
                        first.append((len(bots_of(me)), len(workers())))
                    finished.append(outcome)

                await executor.play(batch, report)
                assert sorted(f.game_id for f in finished if isinstance(f, Finished)) == sorted(
                    g.game_id for g in batch)
                seen.append((len(bots_of(me)), len(workers()),
                             parents(logs, 0) | parents(logs, 1)))
        finally:
            await executor.aclose()
        return seen, first

    (small, large, small_again), first = trio.run(main)
    # As the first game of each batch ends, the other way's bots are already gone.
    assert first[1][0] == 0 and first[2][1] == 0, first
    # Each worker keeps its table's three bots; here, at first, with no worker process.
    assert 3 <= small[0] <= 6 and small[1:] == (0, {me}), small
    # Then none here: two worker processes, whose own bots play.
    assert large[:2] == (0, 2) and len(large[2] - small[2]) == 2, large
    # Then the worker processes gone, and bots here again.
    assert 3 <= small_again[0] <= 6 and small_again[1] == 0, small_again
    wait_until(lambda: not bots_of(me) and not workers(), "no bot and no worker left")


def test_a_time_budget_stops_the_workers_games_and_their_processes(tmp_path: Path) -> None:
    """A time budget that runs out while the workers play stops them: the run returns with
    the games finished stored (none or few), and no worker process or bot is left."""
    path = tournament(tmp_path, "answers_late.py --delay 0.05", games=2 * FEW)
    config = load_tournament(path)
    logs = tmp_path / "logs"
    store = open_store(tmp_path / "t.db")
    executor = LocalExecutor(2, stderr_dir=logs, processes_from=FEW)
    try:
        summary = trio.run(lambda: run_tournament(config, path, store, executor,
                                                  lambda m: None, time_budget=1.0))
        stored = len(list(store.results()))
    finally:
        store.close()
    assert summary.played == stored < 2 * FEW
    assert not [pid for pid in _children(os.getpid())
                if _has(Path(f"/proc/{pid}/cmdline"), "executors.worker_process")]
    marker = str(tmp_path / "bots")
    wait_until(lambda: not [p for p in Path("/proc").glob("[0-9]*/cmdline")
                            if _has(p, marker)], "the bots gone")


def test_a_killed_run_leaves_no_worker_process_or_bot(tmp_path: Path) -> None:
    """`kill -9` of `referee tournament run` playing in worker processes: each worker finds
    its run gone, stops its bots and exits; no process of the run is left."""
    path = tournament(tmp_path, "answers_late.py --delay 0.01")
    db = tmp_path / "t.db"
    proc = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "run", str(path),
                             "--db", str(db), "-q", "--workers", "2"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    marker = str(tmp_path / "bots")
    workers: list[int] = []

    def playing() -> bool:
        workers[:] = [pid for pid in _children(proc.pid)
                      if _has(Path(f"/proc/{pid}/cmdline"), "executors.worker_process")]
        bots = [pid for w in workers for pid in _children(w)
                if _has(Path(f"/proc/{pid}/cmdline"), marker)]
        return len(workers) == 2 and len(bots) >= 2

    try:
        wait_until(playing, "two worker processes playing", process=proc)
    finally:
        proc.kill()
        proc.wait()
    for pid in workers:
        wait_until(lambda pid=pid: not Path(f"/proc/{pid}").exists(),  # type: ignore[misc]
                   f"worker process {pid} gone")
    wait_until(lambda: not [p for p in Path("/proc").glob("[0-9]*/cmdline")
                            if _has(p, marker)], "the bots gone")


def test_a_worker_process_killed_ends_the_run_in_one_line_and_it_resumes(
        tmp_path: Path) -> None:
    """A worker process killed (by the machine, or a user) is not a bot's fault: the run stops
    with one line naming the worker, the game (or that it was between games) and the signal,
    no traceback; the games stored are kept, and the same command plays the rest."""
    hold = tmp_path / "hold"  # the bots wait from their 40th answer on (some games stored)
    hold.touch()  # while it exists: the run cannot end before the kill, whatever the machine
    path = tournament(tmp_path, f"held.py --while {hold} --after 40",
                      extra="[limits]\nmove_time = 300.0")
    db = tmp_path / "t.db"
    run = ["tournament", "run", str(path), "--db", str(db), "-q", "--workers", "2"]
    proc = subprocess.Popen([sys.executable, "-m", "referee", *run], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    workers: list[int] = []

    def stored_and_playing() -> bool:
        workers[:] = [pid for pid in _children(proc.pid)
                      if _has(Path(f"/proc/{pid}/cmdline"), "executors.worker_process")]
        return bool(workers) and stored(db) >= 2

    try:
        wait_until(stored_and_playing, "games stored by worker processes", process=proc)
        os.kill(workers[0], signal.SIGKILL)
        _, said = proc.communicate(timeout=120)
    finally:
        hold.unlink()
        proc.kill()
    assert proc.returncode == 2, said
    # The kill may come between a worker's games: its last one stored (which the test saw),
    # the next not yet sent, whose send then finds the process gone.
    assert re.fullmatch(r"error: worker [01]'s process ended (before its next game|during game "
                        r"t\S+) \(killed by SIGKILL\); the games stored are kept: run again to "
                        r"resume\n", said), said
    assert 2 <= stored(db) < GAMES
    again = in_process.referee(*run, cwd=tmp_path)  # the same command, in this process
    assert again.returncode == 0, again.stderr
    assert stored(db) == GAMES


def stored(db: Path) -> int:
    """Games stored so far by a run that may be writing."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            return int(con.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def _has(cmdline: Path, marker: str) -> bool:
    try:
        return marker in cmdline.read_bytes().decode(errors="replace")
    except OSError:
        return False


def test_a_frame_read_cancelled_halfway_is_read_whole_after() -> None:
    """A read of a worker's frame cut short (the run stopped while a large game came in) loses
    nothing: the next read returns the whole frame, then the end of the stream."""
    big = {"record": b"x" * 200_000}

    async def main() -> None:
        send, receive = trio.testing.memory_stream_one_way_pair()
        frames = Frames(receive)
        data = frame(big)
        await send.send_all(data[:100_000])
        async with trio.open_nursery() as nursery:
            nursery.start_soon(frames.receive)
            await trio.testing.wait_all_tasks_blocked()  # it has read all there is, and waits
            assert len(frames.buf) == 100_000
            nursery.cancel_scope.cancel()
        await send.send_all(data[100_000:])
        await send.aclose()
        assert await frames.receive() == big
        assert await frames.receive() is None

    trio.run(main)


def test_a_worker_that_writes_what_is_not_a_frame_is_stopped_without_a_traceback() -> None:
    """Output of a worker process that is not a frame (something else wrote to it): reading
    it is a FrameError, not whatever unpickling raised, and stopping that worker ends it (it
    is killed) instead of failing on what it wrote."""
    garbage = frame(None)[:4] + b"\xff" * (len(frame(None)) - 4)
    script = (f"import sys, time; sys.stdout.buffer.write({garbage!r}); sys.stdout.flush(); "
              "time.sleep(60)")

    async def main() -> None:
        send, receive = trio.testing.memory_stream_one_way_pair()
        await send.send_all(garbage)
        with pytest.raises(FrameError, match="not a frame"):
            await Frames(receive).receive()
        process = await trio.lowlevel.open_process(
            [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        worker = _Process(process, 0)
        await worker.stop(None)
        assert process.returncode is not None

    trio.run(main)


PRLIMIT = shutil.which("prlimit")


@pytest.mark.skipif(PRLIMIT is None, reason="needs prlimit (util-linux)")
@pytest.mark.parametrize(("open_files", "said"), [
    (30, r"game (t\S+) was void 3 times; the last time: cannot start a bot process: Too many "
         r"open files"),
    (18, r"cannot start worker [01]'s process: Too many open files"),
])
def test_worker_processes_short_of_descriptors_stop_the_run_in_one_line(
        tmp_path: Path, open_files: int, said: str) -> None:
    """The referee out of descriptors (`ulimit -n`) with two workers: where a worker's process
    cannot start its five bots, each attempt at its game is stored as void, and where the
    process itself cannot be started, nothing is; either way the run stops with one line
    saying what ran short and what to do, exit status 2, and no bot is charged with a game."""
    path = tournament(tmp_path, "first_legal.py", seats=5)
    db = tmp_path / "t.db"
    run = subprocess.run([PRLIMIT or "prlimit", f"--nofile={open_files}:{open_files}",
                          sys.executable, "-m", "referee", "tournament", "run", str(path),
                          "--db", str(db), "-q", "--workers", "2"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    line = re.fullmatch(r"error: the referee ran short of its own resources: " + said +
                        r"; the games stored before it are kept: lower max_bot_processes or "
                        r"--workers, or raise the limit of open files \(ulimit -n\), then run "
                        r"again to resume\n", run.stderr)
    assert line is not None, run.stderr
    assert stored(db) == 0
    try:
        with sqlite3.connect(db) as con:
            voids = con.execute("SELECT game_id, attempt, reason FROM voids").fetchall()
    except sqlite3.OperationalError:  # no table: the run stopped before its first game
        voids = []
    if line.groups():  # the game that stopped the run was tried three times, each stored
        assert [a for g, a, _ in voids if g == line.group(1)] == [1, 2, 3], voids
        assert all("Too many open files" in reason for _, _, reason in voids), voids
    else:
        assert voids == []


def _zombie(pid: int) -> bool:
    """Whether process `pid` has exited and waits to be reaped."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2] == "Z"


def test_a_stop_stores_the_void_attempts_a_worker_process_made_before_it(
        tmp_path: Path) -> None:
    """A worker process short of descriptors voids its game three times while the run is
    busy storing the first, and the run then stops (its store fails): the attempts still in
    the pipe when the stop came are reported as it stops, so none is lost."""
    path = tournament(tmp_path, "first_legal.py", seats=5)
    workers = ProcessWorkers(1)
    # Its process may open 30 files, too few for five bots: every attempt is void.
    workers.boot = ("import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (30, 30)); "
                    + BOOT)
    reported: list[Voided] = []

    def report(outcome: Outcome) -> None:
        assert isinstance(outcome, Voided), outcome
        reported.append(outcome)
        if len(reported) == 1:  # busy until the worker has said all it had and exited
            pid = workers.running[0].process.pid
            wait_until(lambda: _zombie(pid), "the worker process done with its game")
            raise OSError("the store failed")

    with pytest.raises(OSError, match="the store failed"):
        play(workers, path, report)
    game = reported[0].game_id
    assert [(v.game_id, v.attempt) for v in reported] == [(game, 1), (game, 2), (game, 3)]
    assert all("Too many open files" in v.reason for v in reported), reported


def test_void_attempts_not_yet_sent_when_a_worker_is_stopped_are_sent() -> None:
    """A worker process stopped as its game voids sends the void attempts it had not yet sent
    before it stops, so that the run can store them."""
    voids = [Voided("g1", 1, "short"), Voided("g1", 2, "short")]

    async def main() -> list[object]:
        read, write = os.pipe()
        send, receive = trio.open_memory_channel[Voided](math.inf)
        for void in voids:
            send.send_nowait(void)
        send.close()  # the game's play ended as the stop came
        out = trio.lowlevel.FdStream(write)
        with trio.CancelScope() as stopped:
            stopped.cancel()
            await _tell_voids(receive, out)
        await out.aclose()
        frames = Frames(trio.lowlevel.FdStream(read))
        said = []
        while (one := await frames.receive()) is not None:
            said.append(one)
        await frames.stream.aclose()
        return said

    assert trio.run(main) == [("void", v) for v in voids]


def play_with(tmp_path: Path, stand_in: type[Worker], report: Report) -> None:
    """A tournament's games played by one worker process of `stand_in`, as `play`."""
    workers = ProcessWorkers(1)
    workers.boot = boot(stand_in)
    play(workers, tournament(tmp_path, "first_legal.py"), report)


def play(workers: ProcessWorkers, path: Path, report: Report) -> None:
    """The games of the tournament file at `path` played by `workers`, reported to `report`,
    whose error stops the play and is raised; no worker process is left running."""
    config = load_tournament(path)

    async def main() -> None:
        await workers.start(config, path)
        try:
            await workers.play(schedule(config), report)
        finally:
            await workers.aclose()

    try:
        trio.run(main)
    finally:
        assert not workers.running


@pytest.mark.parametrize("stand_in", [VoidsAfterTheStop, FinishesAsTheStopComes])
def test_what_a_worker_process_says_after_the_stop_came_is_reported(
        tmp_path: Path, stand_in: type[Worker]) -> None:
    """A stop reaches a worker process in the middle of its game: a void attempt it makes
    after the stop (a retry stops its bots first) and a game it finished as the stop came are
    both reported to the run as it stops, after the attempt made before the stop."""
    reported: list[Outcome] = []

    def report(outcome: Outcome) -> None:
        reported.append(outcome)
        if len(reported) == 1:
            raise OSError("the store failed")

    with pytest.raises(OSError, match="the store failed"):
        play_with(tmp_path, stand_in, report)
    first = reported[0]
    assert isinstance(first, Voided), first
    game = first.game_id
    assert first == Voided(game, 1, "void before the stop")
    assert len(reported) == 2, reported
    after = reported[1]
    if stand_in is VoidsAfterTheStop:
        assert after == Voided(game, 2, "void after the stop")
    else:
        assert isinstance(after, Finished) and after.game_id == game, after
        assert len(after.result.ranks) == 3 and not after.result.retired, after.result


@pytest.mark.parametrize(("then", "ends_with"), [(OSError, "outcome 2"),
                                                (BudgetSpent, "outcome 1")])
def test_a_store_failing_as_the_run_stops_is_the_error_the_run_ends_with(
        tmp_path: Path, then: type[Exception], ends_with: str) -> None:
    """The store fails, and the run stops; a void attempt the worker process made after is
    then not stored either, and the run ends with that later failure rather than dropping
    it.  A time budget spent as it stops is no failure."""
    reported: list[Outcome] = []

    def report(outcome: Outcome) -> None:
        reported.append(outcome)
        if len(reported) == 1:
            raise OSError("the store failed at outcome 1")
        raise then("the store failed at outcome 2")

    with pytest.raises(OSError, match=ends_with):
        play_with(tmp_path, VoidsAfterTheStop, report)
    assert [o.attempt for o in reported if isinstance(o, Voided)] == [1, 2]


def test_the_edition_file_is_read_once_when_the_run_starts(tmp_path: Path) -> None:
    """A run in worker processes plays the edition it read as it started, even if the file
    is then removed: every game is played and stored."""
    path = tournament(tmp_path, "first_legal.py", games=2 * FEW)  # the tiny edition
    config = load_tournament(path)
    finished: list[Outcome] = []

    async def main() -> None:
        executor = LocalExecutor(2, processes_from=FEW)
        await executor.start(config, path)
        (tmp_path / "tiny.toml").unlink()
        try:
            await executor.play(schedule(config), finished.append)
        finally:
            await executor.aclose()

    trio.run(main)
    assert sorted(f.game_id for f in finished if isinstance(f, Finished)) == sorted(
        g.game_id for g in schedule(config))


def test_a_worker_process_gone_between_games_is_named_and_a_fresh_one_plays_on(
        tmp_path: Path) -> None:
    """A worker process killed while it waits for its next game: the next game stops the
    play with WorkerFailed naming the worker and the signal; the game after starts a fresh
    process, which plays it."""
    path = tournament(tmp_path, "first_legal.py")
    config = load_tournament(path)
    games = schedule(config)
    workers = ProcessWorkers(1)
    finished: list[Outcome] = []

    async def main() -> str:
        await workers.start(config, path)
        try:
            await workers.play(games[:1], finished.append)
            pid = workers.running[0].process.pid
            os.kill(pid, signal.SIGKILL)
            wait_until(lambda: _zombie(pid), "the worker process killed")
            with pytest.raises(WorkerFailed) as failed:
                await workers.play(games[1:2], finished.append)
            await workers.play(games[2:3], finished.append)
            assert workers.running[0].process.pid != pid
        finally:
            await workers.aclose()
        return str(failed.value)

    said = trio.run(main)
    # The game may be sent before the dead process's pipe is seen closed: it is then named.
    assert re.fullmatch(r"worker 0's process ended (before its next game|during game t\S+) "
                        r"\(killed by SIGKILL\); the games stored are kept: run again to "
                        r"resume", said), said
    assert [f.game_id for f in finished if isinstance(f, Finished)] == [
        games[0].game_id, games[2].game_id]


def test_worker_processes_can_start_every_bot_afresh_for_each_game(tmp_path: Path) -> None:
    """With `restart_each_game` (a benchmark's measure of what keeping bots saves), a worker
    process starts each seat's bot anew for every game: each bot's log shows one start a
    game, all by that worker's process."""
    path = tournament(tmp_path, "tells_parent.py")
    config = load_tournament(path)
    logs = tmp_path / "logs"
    workers = ProcessWorkers(1, stderr_dir=logs, restart_each_game=True)
    finished: list[Outcome] = []

    async def main() -> int:
        await workers.start(config, path)
        try:
            await workers.play(schedule(config)[:3], finished.append)
            return workers.running[0].process.pid
        finally:
            await workers.aclose()

    pid = trio.run(main)
    assert len(finished) == 3
    for log in sorted(logs.glob("*.w0.stderr.log")):
        starts = [line for line in log.read_text().splitlines() if line.startswith("parent ")]
        assert starts == [f"parent {pid}"] * 3, (log.name, starts)
