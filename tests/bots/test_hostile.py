"""Hostile bots against the limits and the bwrap sandbox, with real processes.

Seat 0 is the hostile bot, seats 1-3 first_legal.py, all in the same mode (no sandbox, or
bwrap).  Each hostile bot must be stopped or denied with a `crash` fault whose reason names
what stopped it; the other seats finish their game without a fault; and no process of any bot
is left (the `bot_dir` fixture scans /proc for the bots' folder after each test).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
from pathlib import Path

import pytest
import trio

from referee.bots.launch import BotSpec
from referee.bots.limits import MAX_FAULTS, BotLimits, MiB
from referee.bots.pids_cgroup import PREFIX, _pid_namespace, base_folder
from referee.bots.process import BotProcess
from referee.bots.watchdog import BUSY_LOOK, Watchdog
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.player import Fault, Player
from referee.match.policy_player import default_player
from referee.match.record import AnswerLine, ApplyLine, GameRecord
from referee.match.spec import GameSpec

from .. import in_process
from ..processes import command
from .support import NAMES, assert_contained, play

EXIT_WITH = r"(?s)^closed its output; exit status 1 "


def test_memory_hog_meets_the_address_space_limit(bot_dir: Path, mode: str) -> None:
    """The address-space limit stops the hog: one `crash` fault naming the limit retires it,
    and the other seats finish their game without a fault."""
    # Filling 256 MiB takes a busy machine over a second, hence the long move time; a fault
    # before the crash, should the machine be slower still, can only be a timeout.
    [game] = play(bot_dir, "hog_memory.py", mode, BotLimits(address_space=256 * MiB),
                  move_time=10, time_bank=10)
    result = game.result
    assert len(result.money) == 4 and len(result.ranks) == 4
    assert result.faults[1:] == ((), (), ()), result.faults
    *before, crash = result.faults[0]
    assert all(f.kind == "timeout" for f in before), result.faults[0]
    assert crash.kind == "crash", result.faults[0]
    assert re.search(EXIT_WITH + r"\(probably over the address-space limit of 256 MiB .*\).*"
                     r"MemoryError", crash.reason), crash.reason
    assert result.retired == (0,)


def test_cpu_spent_between_replies_meets_the_cpu_budget_per_game(bot_dir: Path,
                                                                 mode: str) -> None:
    """25 ms of CPU before each reply is within every move time, but not within 0.25 s a
    game."""
    [game] = play(bot_dir, "spin_cpu.py --per-request 0.025", mode,
                  BotLimits(cpu_per_game=0.25))
    assert_contained(game, "crash", r"^used 0\.\d s of CPU time in this game \(all its "
                                    r"processes\), over the limit of 0.25 s per game; the bot "
                                    r"was stopped$")


def test_endless_spin_meets_the_cpu_time_rlimit(bot_dir: Path, mode: str) -> None:
    """The backstop: RLIMIT_CPU ends the process with SIGXCPU (bwrap passes the signal on as
    exit status 152, which the reason turns back into the signal)."""
    [game] = play(bot_dir, "spin_cpu.py --forever", mode,
                  BotLimits(cpu_time=1, cpu_per_game=None), move_time=5)
    assert_contained(game, "crash", r"^closed its output; killed by SIGXCPU \(over the "
                                    r"CPU-time limit of 1 s per process\)$")


def test_fork_loop_meets_the_process_limit(bot_dir: Path, mode: str) -> None:
    """Stopped by the referee's look at its processes; or, for an ordinary user in the
    sandbox, maybe first by the kernel (RLIMIT_NPROC in bwrap's user namespace)."""
    [game] = play(bot_dir, "fork_loop.py", mode)
    assert_contained(game, "crash", r"(?s)^ran \d+ processes at once, over the limit of 64; "
                                    r"the bot was stopped$|probably over the limit of 64 "
                                    r"processes.*BlockingIOError")


def test_huge_file_meets_the_file_size_limit(bot_dir: Path, mode: str) -> None:
    [game] = play(bot_dir, "huge_file.py", mode, BotLimits(file_size=8 * MiB))
    assert_contained(game, "crash", EXIT_WITH + r"\(over the file-size limit of 8 MiB\).*"
                                               r"File too large")
    written = bot_dir / "huge_file.out"
    if mode == "none":  # in the sandbox it went to the private /tmp, gone with the sandbox
        assert written.stat().st_size == 8 * MiB
    else:
        assert not written.exists()


def test_network_is_cut_off_in_the_sandbox(bot_dir: Path, mode: str) -> None:
    """The bot connects to a listener of the test on loopback (127.0.0.1, never any other
    address): it gets through without a sandbox, and is refused in bwrap's own network."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        server.settimeout(0)
        port = server.getsockname()[1]
        [game] = play(bot_dir, f"network.py --port {port}", mode)
        try:
            conn, _ = server.accept()
        except BlockingIOError:
            reached = b""
        else:
            with conn:
                conn.settimeout(5)
                reached = conn.recv(100)
    if mode == "none":
        assert reached == b"network bot was here\n"
        assert game.result.faults == ((), (), (), ())
        return
    assert reached == b""
    assert_contained(game, "crash", EXIT_WITH + r"\(the sandbox has no network\).*"
                                               r"ConnectionRefusedError")


def a_file_in_home() -> Path | None:
    home = Path.home()
    try:
        return next((p for p in sorted(home.iterdir())
                     if p.is_file() and os.access(p, os.R_OK)), None)
    except OSError:
        return None


def test_other_bots_the_results_store_and_home_are_not_visible(
        bot_dir: Path, tmp_path: Path, mode: str) -> None:
    other = tmp_path / "other_bot"
    other.mkdir()
    (other / "strategy.py").write_text("SECRET = 42\n")
    store = tmp_path / "spring.db"
    store.write_bytes(b"SQLite format 3\0")
    targets = [store, other, other / "strategy.py"]
    home_file = a_file_in_home()
    if home_file is not None:
        targets.append(home_file)
    log = tmp_path / "snoop.stderr"
    reads = " ".join(f"--read {p}" for p in targets)
    [game] = play(bot_dir, f"snoop.py {reads}", mode, stderr=log)
    said = log.read_text()
    if mode == "none":  # the bots run as you: nothing stops them
        assert game.result.faults == ((), (), (), ())
        assert all(f"snoop: read {p}: " in said for p in targets), said
        return
    for p in targets:
        assert f"snoop: denied {p}: [Errno 2] No such file or directory" in said, said
    assert_contained(game, "crash", EXIT_WITH + r"\(the sandbox shows only the system folders, "
                                               r"the bot's own folder \(read-only\) and a "
                                               r"scratch /tmp\).*FileNotFoundError")


def test_setsid_child_is_caught_and_killed(bot_dir: Path, mode: str) -> None:
    """The child leaves the bot's process group (so a signal to the group misses it): the
    referee sees it in the bot's process tree, records the fault, stops the bot and kills the
    whole tree; no process survives (the fixture checks)."""
    [game] = play(bot_dir, "setsid_escape.py", mode)
    assert_contained(game, "crash", r"^its process \d+ \(python\S*\) left the bot's process "
                                    r"group \(setsid or setpgid\); a bot's processes must stay "
                                    r"in its group; the bot was stopped$")


def test_double_forked_daemon_dies_with_the_sandbox(bot_dir: Path, bwrap: str) -> None:
    """With a double fork the daemon is no descendant of the bot: only the sandbox's PID
    namespace ends it (it is reparented to bwrap's pid 1, and everything in the namespace is
    killed when that exits).  Without a sandbox, only a pids cgroup catches it: see
    docs/security.md."""
    [game] = play(bot_dir, "setsid_escape.py --double", bwrap)
    assert_contained(game, "crash", r"left the bot's process group")


def test_double_forked_daemon_dies_with_its_pids_cgroup(bot_dir: Path) -> None:
    """Without a sandbox, where the referee can make a pids cgroup (as root, say): the daemon
    has left the bot's process tree, but it is still in the bot's cgroup, where the referee
    finds it, records the fault and kills it (the fixture checks that it is gone)."""
    if base_folder() is None:
        pytest.skip("no pids cgroup can be made here (cgroup v1 pids, or v2 delegated)")
    [game] = play(bot_dir, "setsid_escape.py --double", "none")
    assert_contained(game, "crash", r"^its process \d+ \(python\S*\) left the bot's process "
                                    r"group \(setsid or setpgid\)")
    ours = f"{PREFIX}{_pid_namespace()}-{os.getpid()}-"
    assert not [p for p in base_folder().iterdir() if p.name.startswith(ours)]


def test_limits_off_run_the_bot_plain(bot_dir: Path) -> None:
    """With every limit off a bot still runs (core dumps stay off), and plays clean."""
    [game] = play(bot_dir, "first_legal.py", "none", BotLimits.off())
    assert game.result.faults == ((), (), (), ())


def test_cpu_budget_is_per_game_not_per_process(bot_dir: Path) -> None:
    """The process is kept across games; its CPU budget starts again with each game.  The
    bot spends 5 ms of CPU a request, some 0.2 s a game, against a budget of 0.5 s a game:
    four games in one process, no fault."""
    games = play(bot_dir, "spin_cpu.py --per-request 0.005", "none",
                 BotLimits(cpu_per_game=0.5), games=4)
    requests = sum(1 for g in games for line in g.lines
                   if isinstance(line, ApplyLine) and line.seat == 0)
    assert requests * 0.005 > 0.5  # more than one game's budget in all
    for game in games:
        assert game.result.faults == ((), (), (), ())


@pytest.mark.slow
def test_a_sandboxed_game_longer_than_ten_seconds_is_not_cut(bot_dir: Path, bwrap: str) -> None:
    """A sandboxed game outlasts the 10 s after which trio's idle worker threads end (trio
    starts processes from them, and bwrap's --die-with-parent would tie a sandbox to such a
    thread): no bot of the table, good or bad, is killed when that thread ends."""
    [game] = play(bot_dir, "answers_late.py --delay 0.3", bwrap, move_time=1.0, time_bank=1.0)
    assert game.result.faults == ((), (), (), ()), game.result.faults
    thinking = sum(line.seconds for line in game.lines
                   if isinstance(line, ApplyLine | AnswerLine) and line.seat == 0)
    assert thinking > 10.5, "the game did not outlast the threads' 10 s"


def test_files_the_referee_keeps_keep_their_mode_and_owner(bot_dir: Path, mode: str,
                                                           tmp_path: Path) -> None:
    """A bot that calls fchmod(0o4777) and fchown on every descriptor it holds changes no file
    the referee writes for it: every stderr log and transcript stays 0644, the referee's own."""
    logs, transcripts = tmp_path / "stderr", tmp_path / "transcripts"
    bots = [f"{n}={command(bot_dir, b)}" for n, b in
            [("bad", "chmod_fds.py"), ("good1", "first_legal.py"), ("good2", "first_legal.py")]]
    done = in_process.referee("play", *bots, "--sandbox", mode, "--stderr-dir", str(logs),
                              "--transcript-dir", str(transcripts), "--move-time", "0.5",
                              cwd=bot_dir, timeout=60)
    assert done.returncode == 0, done.stderr
    kept = sorted([*logs.iterdir(), *transcripts.iterdir()])
    assert {p.name for p in kept} >= {"bad.stderr.log", "bad.transcript.jsonl"}
    assert "trying every descriptor" in (logs / "bad.stderr.log").read_text()
    for path in kept:
        st = path.lstat()
        assert stat.S_ISREG(st.st_mode), path
        assert (stat.S_IMODE(st.st_mode), st.st_uid) == (0o644, os.getuid()), path


def test_a_bot_that_closes_its_output_and_lives_is_a_crash(bot_dir: Path, mode: str) -> None:
    """Closing stdout while staying alive is a crash at once in both modes (in the sandbox,
    bwrap's own processes hold the pipe open, so no end of file comes)."""
    [game] = play(bot_dir, "closes_stdout.py", mode)
    assert_contained(game, "crash", r"^closed its output; still running$")
    assert game.result.retired == (0,)


@pytest.mark.parametrize("delay", [0.0, 0.1])
def test_a_bot_that_exits_is_a_crash_while_its_child_answers(bot_dir: Path, mode: str,
                                                             delay: float) -> None:
    """The bot's process exits at its third request, leaving a child that answers for it on
    the output it inherited, at once or 0.1 s later (within the moment the referee gives an
    exited bot's output to close): that first answer is a `crash` with the exit status and
    stderr, however soon it comes (in the sandbox, before bwrap has told of the exit), and
    the seat is retired: no answer of the child's is played; no process of it is left."""
    [game] = play(bot_dir, f"hands_over.py --delay {delay}", mode)
    fault = assert_contained(game, "crash", r"(?s)^exited \(a process it started still "
                                            r"(answers for it|holds its output open)\); exit "
                                            r"status 0;.*the parent exits, its child answers")
    assert game.result.retired == (0,), fault
    played = [line for line in game.lines if type(line) in (ApplyLine, AnswerLine)
              and line.seat == 0 and line.source == "bot"]
    assert len(played) == 2, played  # its own two answers, none of the child's


def test_a_bot_looping_mid_game_is_told_it_was_busy(bot_dir: Path) -> None:
    """A bot that answers its first requests, then spins, is looked at at its first timeout
    as a bot silent since its hello is: it is told it was still using the CPU when its time
    ran out (an endless loop), not to check that it flushes its output (it was told nothing
    of the cause); the CPU budget per game then stops it."""
    # Timeouts never retire it here: on a loaded machine it gets a small share of a core, and
    # takes many 0.2 s timeouts to use up its 0.5 s of CPU.
    [game] = play(bot_dir, "spin_cpu.py --forever --answers 2 --per-request 0", "none",
                  BotLimits(cpu_per_game=0.5),
                  move_time=0.2, time_bank=0, max_faults=MAX_FAULTS)
    timeout, *rest = game.result.faults[0]
    assert timeout.kind == "timeout" and timeout.reason.endswith(
        "(nothing came from it, and it was still using the CPU when its time ran out: most "
        "likely it is busy with this request, in a loop that does not end or a search too "
        "long for the time allowed)"), timeout.reason
    assert [f.kind for f in rest][-1:] == ["crash"], game.result.faults[0]


def test_a_bot_looping_before_its_hello_is_told_it_was_busy(bot_dir: Path) -> None:
    """A bot that spins at start, before it reads its hello, fails to start with the same
    look as a first request: it was still using the CPU (an endless loop), not told to check
    that it flushes its output."""
    player = BotPlayer(BotSpec("bad", command(bot_dir, "spin_cpu.py --before-hello")),
                       startup_time=0.2)

    async def start() -> Fault | None:
        try:
            return await player.start()
        finally:
            await player.aclose()

    fault = trio.run(start)
    assert fault is not None and fault.kind == "start", fault
    assert fault.reason == (
        "no hello within the start-up limit of 0.2 s (nothing came from it, and it was still "
        "using the CPU when its time ran out: most likely it is busy before its hello, in a "
        "loop that does not end or a start too slow for the limit)"), fault.reason


def test_a_bot_answering_just_after_its_time_is_told_it_was_late(
        bot_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot whose first reply comes just after its move time, while the referee looks at why
    nothing came, is told that its output came just after: it flushes, but it took longer than
    the time allowed (not to check that it flushes); its late reply is skipped and it plays
    the game out.  No timing luck: the bot holds its reply until a SIGUSR1, which the look
    (`Watchdog.busy`, itself unchanged) sends it, going on once the reply is in the pipe.  The
    other seats are in-process players."""
    real_busy = Watchdog.busy
    looks: list[int] = []

    async def look(bot: BotProcess, seconds: float = BUSY_LOOK) -> bool:
        looks.append(bot.process.pid)
        os.kill(bot.process.pid, signal.SIGUSR1)
        with trio.move_on_after(10):  # the test fails below, never hangs, if nothing comes
            while not bot.output_waiting():
                await trio.sleep(0.001)
        return await real_busy(bot, seconds)

    monkeypatch.setattr(Watchdog, "busy", staticmethod(look))
    players: list[Player] = [
        BotPlayer(BotSpec("bad", command(bot_dir, "answers_late.py --only 1 --signalled"))),
        *(default_player(name) for name in NAMES[1:])]

    async def run() -> GameRecord:
        try:
            # Half a second a move: the bot's other replies are in time on a busy machine.
            return await play_game(GameSpec.make("late", 40, NAMES, move_time=0.5,
                                                 time_bank=0), players)
        finally:
            for player in players:
                await player.aclose()

    game = trio.run(run)
    assert len(looks) == 1, looks
    assert_contained(game, "timeout", re.escape(
        "no reply within 0.5 s (move time 0.5 s + time bank 0 s): no complete line in time "
        "(nothing came from it in time, and its output came just after: it flushes, but it "
        "took longer than the time allowed)") + "$")
