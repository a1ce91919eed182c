"""The process layer on its own, with real processes: cancellation, start errors, line limits."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest
import trio

from referee.bots.launch import BotSpec
from referee.bots.process import (
    BotProcess,
    LineTooLong,
    ProcessLimits,
    ReplyTimeout,
    open_bot,
    start_bot,
)
from referee.game import Decision, Event, GameState, seat_view
from referee.match.bot_session import BotPlayer
from referee.match.bot_transcript import TranscriptWriter
from referee.match.player import Answer, GameInfo, Player
from referee.match.policy_player import PolicyPlayer
from referee.match.record import EventLine, GameRecord, GameResult
from referee.match.runner import play_game
from referee.match.spec import GameSpec
from referee.protocol import codec
from referee.tournament import runner as tournament_runner
from referee.tournament.config import TournamentConfig
from referee.tournament.runner import run_tournament
from referee.tournament.store import open_store

from .support import command, leftover_processes, processes_with

HELLO = b'{"type": "hello", "protocol": 1, "referee": "test"}\n'

# A bot that answers `{"type": "line"}` with one line of exactly SIZE bytes (newline excluded),
# written with a single write() into a 1 MiB pipe, so the referee finds the whole line there.
LONG_LINE_BOT = """\
import fcntl, json, os, sys
try:
    fcntl.fcntl(1, fcntl.F_SETPIPE_SZ, 1 << 20)
except OSError:
    pass
size = int(sys.argv[1])
for line in sys.stdin.buffer:
    message = json.loads(line)
    if message.get("type") == "hello":
        os.write(1, b'{"type": "hello", "name": "long_line", "protocol": 1}\\n')
    elif message.get("type") == "line":
        os.write(1, b"[" + b" " * (size - 2) + b"]\\n")
"""


async def wait_for_processes(marker: str, count: int, limit: float = 60.0) -> int:
    """How many processes have `marker`, once there are `count` of them or `limit` passed."""
    with trio.move_on_after(limit):
        while len(processes_with(marker)) < count:
            await trio.sleep(0.02)
    return len(processes_with(marker))


def test_cancelled_open_bot_kills_the_whole_group(bot_dir: Path) -> None:
    """Leaving `open_bot` by cancellation stops the bot and its SIGTERM-proof grandchild."""
    script = f"{bot_dir}/forks_grandchild.py"
    seen: list[int] = []

    async def run() -> int | None:
        with trio.CancelScope() as scope:
            async with open_bot([sys.executable, script]) as bot:
                await bot.send(HELLO)
                await bot.read_line(trio.current_time() + 10)
                # The bot forks its child just after its hello: wait until both are there.
                seen.append(await wait_for_processes(script, 2))
                scope.cancel()
                await trio.sleep_forever()  # cancelled here, inside the open_bot block
        assert scope.cancelled_caught
        return bot.process.returncode

    returncode = trio.run(run)
    assert seen == [2]
    assert returncode is not None
    assert leftover_processes(script) == []


def test_read_line_times_out_with_the_partial_line(bot_dir: Path) -> None:
    """A reply without its newline is never a line; the timeout says how much came."""
    async def run() -> str:
        async with open_bot([sys.executable, f"{bot_dir}/no_newline.py"]) as bot:
            await bot.send(HELLO)
            await bot.read_line(trio.current_time() + 10)
            request = (b'{"type": "request", "id": 1, "decision": "bid", "view": {}, '
                       b'"legal": {"min": 1, "max": 5, "can_pass": true}}\n')
            await bot.send(request)
            # Short deadlines, repeated until the partial reply has arrived (a loaded
            # machine may take a while to run the bot); a timeout keeps what was read.
            for _ in range(30):
                with pytest.raises(ReplyTimeout) as info:
                    await bot.read_line(trio.current_time() + 0.3)
                if "without a newline" in str(info.value):
                    break
            return str(info.value)

    # The reply {"id": 1, "action": "pass"} is 27 bytes, without its newline.
    assert trio.run(run) == "no complete line in time (27 bytes without a newline)"


def test_unstartable_bot_is_a_start_fault(bot_dir: Path) -> None:
    """A command that cannot run: a `start` fault each game, and the others play on."""
    missing = BotPlayer(BotSpec("missing", f"{bot_dir}/no_such_bot"), startup_time=5)
    players: list[Player] = [missing] + [
        BotPlayer(BotSpec(f"good{i}", command(bot_dir, "first_legal.py")), startup_time=5)
        for i in (1, 2, 3)
    ]
    spec = GameSpec.make("g", 1, [p.name for p in players], move_time=0.5, time_bank=0.5)

    async def run() -> GameResult:
        try:
            return (await play_game(spec, players)).result
        finally:
            for p in players:
                await p.aclose()

    result = trio.run(run)
    assert [f.kind for f in result.faults[0]] == ["start"]
    assert "cannot start" in result.faults[0][0].reason
    assert result.faults[1:] == ((), (), ())
    assert result.retired == (0,)
    assert result.ranks[0] == 4
    assert missing.starts == 0


async def long_line(path: Path, size: int) -> bytes:
    async with open_bot([sys.executable, str(path), str(size)]) as bot:
        await bot.send(HELLO)
        await bot.read_line(trio.current_time() + 5)
        await bot.send(b'{"type": "line"}\n')
        return await bot.read_line(trio.current_time() + 5)


def test_line_of_the_maximum_length_is_read(tmp_path: Path) -> None:
    bot = tmp_path / "long_line.py"
    bot.write_text(LONG_LINE_BOT)
    assert len(trio.run(long_line, bot, 65536)) == 65536


def test_line_over_the_maximum_length_is_rejected(tmp_path: Path) -> None:
    """A complete line just over the limit, found whole in the buffer, is still too long.
    (Found by this suite: lines of 65,537 to 131,071 bytes used to get through.)"""
    bot = tmp_path / "long_line.py"
    bot.write_text(LONG_LINE_BOT)
    with pytest.raises(LineTooLong):
        trio.run(long_line, bot, 100_000)


def test_line_far_over_the_maximum_length_is_rejected(tmp_path: Path) -> None:
    bot = tmp_path / "long_line.py"
    bot.write_text(LONG_LINE_BOT)
    with pytest.raises(LineTooLong):
        trio.run(long_line, bot, 200_000)


def test_start_bot_reaps_on_aclose(bot_dir: Path) -> None:
    """`start_bot` without `open_bot`: the owner's `aclose` stops and reaps the process."""
    async def run() -> str:
        bot = await start_bot([sys.executable, f"{bot_dir}/never_answers.py"])
        try:
            await bot.send(HELLO)
            await bot.read_line(trio.current_time() + 5)
        finally:
            await bot.aclose(b'{"type": "goodbye"}\n')
        return bot.exit_description()

    assert trio.run(run) == "exit status 0"  # it left on goodbye, before any signal


def test_a_temporary_stderr_log_leaves_no_file_and_a_named_one_is_kept(tmp_path: Path) -> None:
    """Each bot used to leave a `bot-stderr-*` file in the temporary folder for good (one per
    bot process when the referee was killed with SIGKILL); now the file is unlinked as soon as
    it is open, and its lines are still there for a crash's reason."""
    says = [sys.executable, "-c",
            "import sys; sys.stderr.write('said\\n'); print('ok', flush=True); sys.stdin.read()"]

    async def run(stderr_path: Path | None) -> Path:
        async with open_bot(says, stderr_path=stderr_path) as bot:
            assert await bot.read_line(trio.current_time() + 10) == b"ok"
            assert bot.stderr.path.exists() == (stderr_path is not None)
            assert bot.stderr.last_lines() == "said"
        return bot.stderr.path

    temporary = trio.run(run, None)
    assert not temporary.exists()
    named = trio.run(run, tmp_path / "bot.log")
    assert named.read_text() == "said\n"


# Echoes each line back, after `sys.argv[1]` seconds.
DELAYED_ECHO = """\
import sys, time
delay = float(sys.argv[1])
for line in sys.stdin.buffer:
    time.sleep(delay)
    sys.stdout.buffer.write(line)
    sys.stdout.flush()
"""


async def referee_cpu_per_reply(path: Path, delay: float, count: int) -> float:
    """The referee's CPU seconds per reply from a bot that answers after `delay`."""
    limits = ProcessLimits(spin=0.002)
    async with open_bot([sys.executable, str(path), str(delay)], limits=limits) as bot:
        await bot.send(b"warm-up\n")
        await bot.read_line(trio.current_time() + 5)
        cpu = time.process_time()
        for _ in range(count):
            await bot.send(b"ping\n")
            assert await bot.read_line(trio.current_time() + 5) == b"ping"
        return (time.process_time() - cpu) / count


def test_the_referee_polls_only_for_bots_that_answer_fast(tmp_path: Path) -> None:
    """Polling for a reply (`spin`) saves a fast bot a wake-up; a slow bot must not cost the
    referee a core: after one slow reply it is waited for in trio, without polling."""
    bot = tmp_path / "delayed_echo.py"
    bot.write_text(DELAYED_ECHO)
    slow = trio.run(referee_cpu_per_reply, bot, 0.01, 30)
    assert slow < 0.0005  # polling for every reply would cost 2 ms of CPU each
    fast = trio.run(referee_cpu_per_reply, bot, 0.0, 300)
    assert fast < 0.002  # a fast bot's reply ends the polling at once


class PollingWatcher(PolicyPlayer):
    """A default player that notes, at each decision, whether it could poll for its answer."""

    def __init__(self, name: str) -> None:
        super().__init__(name, lambda decision, view, rng: decision.default_action())
        self.seen: dict[str, set[bool]] = {}

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        self.seen.setdefault(decision.kind.value, set()).add(alone)
        return await super().decide(decision, view, alone)


def test_players_waited_on_together_may_not_poll() -> None:
    """A hidden bid asks every seat at once: none may hold the event loop while it waits,
    or the others would be asked only after its answer.  Other decisions may."""
    players = [PollingWatcher(f"p{i}") for i in range(4)]
    seen: dict[str, set[bool]] = {}
    for seed in range(6):
        spec = GameSpec.make(f"g{seed}", seed, [p.name for p in players])
        trio.run(play_game, spec, players)
    for p in players:
        for kind, values in p.seen.items():
            seen.setdefault(kind, set()).update(values)
    assert seen.pop("hidden_bid") == {False}
    assert seen and all(values == {True} for values in seen.values())


def test_parallel_tables_of_a_tournament_may_not_poll(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables that share one event loop may not poll; a single table may (by default)."""
    bot_factory = tournament_runner.bot_factory

    def run(workers: int) -> set[float | None]:
        spins: set[float | None] = set()

        def factory(*args: Any, **kwargs: Any) -> Callable[[str, int], Player]:
            make_bot = bot_factory(*args, **kwargs)

            def make(name: str, worker: int) -> Player:
                bot = make_bot(name, worker)
                assert isinstance(bot, BotPlayer)
                spins.add(bot.process_limits.spin)
                return PollingWatcher(name)  # the games are played in-process

            return make

        monkeypatch.setattr(tournament_runner, "bot_factory", factory)
        config = TournamentConfig.model_validate({
            "name": "t", "seed": 1, "table_size": 4,
            "bots": [{"name": f"b{i}", "command": f"{sys.executable} unused.py"}
                     for i in range(4)],
        })
        store = open_store(tmp_path / f"w{workers}.db")
        trio.run(lambda: run_tournament(config, tmp_path / "t.toml", store, workers,
                                        lambda m: None))
        store.close()
        return spins

    assert run(2) == {0.0}
    assert run(1) == {None}


# Answers the hello, then echoes every line it reads: what it was sent comes straight back.
ECHO_BOT = """\
import sys
for line in sys.stdin.buffer:
    if line.startswith(b'{"type":"hello"'):
        sys.stdout.buffer.write(b'{"type": "hello", "name": "echo", "protocol": 1}\\n')
    else:
        sys.stdout.buffer.write(line)
    sys.stdout.flush()
"""


async def begin_quick(player: BotPlayer, spec: GameSpec, seat: int) -> BotProcess:
    """Begin `spec`'s game for `player` in `seat`; where the referee polls, ping its bot (it
    answers `{}` to `{}`) until its last reply came within `spin`, so that it counts as quick."""
    config = spec.config()
    info = GameInfo(spec.game_id, seat, list(spec.names), config, spec.move_time,
                    spec.time_bank, codec.edition_info(config.edition))
    assert await player.begin_game(info) is None
    bot = player.bot
    assert bot is not None
    with trio.move_on_after(5):
        while bot.spin and not bot.answers_quickly:
            bot.write_now(b"{}\n")
            assert await bot.read_line(trio.current_time() + 1) == b"{}"
    return bot


async def lines_before_any_request(path: Path, spin: float, next_up: bool) -> list[bytes]:
    """Start a game with the echo bot and give it one event line; the lines it has echoed
    within half a second, with no request sent."""
    player = BotPlayer(BotSpec("echo", f"{sys.executable} {path}"),
                       process_limits=ProcessLimits(spin=spin))
    try:
        bot = await begin_quick(player, GameSpec.make("g", 1, ["echo", "b", "c"]), 0)
        player.notify([], [b'{"type":"event","event":{"type":"pass","seat":1}}\n'], next_up)
        echoed = []
        with trio.move_on_after(0.5):
            while True:
                echoed.append(await bot.read_line(trio.current_time() + 1))
        return echoed
    finally:
        await player.aclose()


def test_a_quick_bot_asked_next_gets_its_events_before_the_request(tmp_path: Path) -> None:
    """Where the referee polls for a quick bot, the seat asked next is sent its events as soon
    as they are known (it reads them while its request is built); other seats, and every seat
    where the referee does not poll (as at parallel tables), get theirs with their next
    request."""
    path = tmp_path / "echo_bot.py"
    path.write_text(ECHO_BOT)
    ahead = trio.run(lines_before_any_request, path, 0.0003, True)
    assert [line.split(b'"', 4)[3] for line in ahead] == [b"new_game", b"event"]
    assert trio.run(lines_before_any_request, path, 0.0003, False) == []
    assert trio.run(lines_before_any_request, path, 0.0, True) == []


class Listener(PolicyPlayer):
    """A default player that logs, in one list shared by the seats, every `notify` (seat,
    lines, next_up) and every `decide` (seat, whether a hidden bid)."""

    def __init__(self, name: str, seat: int, log: list[tuple[Any, ...]]) -> None:
        super().__init__(name, lambda decision, view, rng: decision.default_action())
        self.seat = seat
        self.log = log

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        self.log.append(("notify", self.seat, list(lines), next_up))

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        self.log.append(("decide", self.seat, decision.kind.value == "hidden_bid"))
        return await super().decide(decision, view, alone)


def seen_by(record: GameRecord, seat: int) -> list[bytes]:
    """The record's event lines that `seat` may see, encoded as the protocol sends them."""
    return [codec.encode(codec.event(line.event)) for line in record.lines
            if isinstance(line, EventLine) and line.event.private_to in (None, seat)]


def test_the_seat_asked_next_is_told_first_and_every_seat_gets_its_events_once() -> None:
    """Before every single decision the seat asked is the first told of the step's events,
    and told it is next; before a hidden bid no seat is.  Each seat gets the events it may
    see (a deal only its own), each once, in the record's order."""
    for seed, variants, seats in ((1, (), 4), (2, ("mystery", "split-double"), 3),
                                  (3, ("hidden-money",), 5)):
        log: list[tuple[Any, ...]] = []
        players = [Listener(f"p{i}", i, log) for i in range(seats)]
        spec = GameSpec.make(f"g{seed}", seed, [p.name for p in players], variants=variants)
        record = trio.run(play_game, spec, players)
        block: list[tuple[Any, ...]] = []  # the notifies since the last decide
        got: dict[int, list[bytes]] = {seat: [] for seat in range(seats)}
        for entry in log:
            if entry[0] == "notify":
                block.append(entry)
                got[entry[1]].extend(entry[2])
                continue
            _, seat, hidden = entry
            told_next = [n for n in block if n[3]]
            if hidden:
                assert told_next == []
            elif block:
                assert block[0][1] == seat and told_next == [block[0]]
            block = []
        for seat in range(seats):
            assert got[seat] == seen_by(record, seat)


# Reads every line into a log; after a `stall` line stops reading for a second (its input
# pipe fills up); answers hello, `{}` pings and requests.
STALLING_BOT = """\
import json, sys, time
log = open(sys.argv[1], "wb")
for line in sys.stdin.buffer:
    log.write(line)
    log.flush()
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        out = b'{"type": "hello", "name": "staller", "protocol": 1}\\n'
    elif kind is None:
        out = b"{}\\n"
    elif kind == "stall":
        time.sleep(1.0)
        continue
    elif kind == "request":
        out = json.dumps({"id": message["id"], "action": "pass"}).encode() + b"\\n"
    else:
        continue
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
"""


def test_events_the_pipe_cannot_take_at_once_reach_the_bot_whole_and_in_order(
        tmp_path: Path) -> None:
    """Events written ahead of the request to a bot that is not reading fill its pipe; the
    rest goes with the request once it reads again: the bot, and its transcript, get every
    line once, whole, in order, then the request, and its answer counts."""
    script = tmp_path / "staller.py"
    script.write_text(STALLING_BOT)
    received, transcript = tmp_path / "received", tmp_path / "transcript.jsonl"
    events = [orjson.dumps({"type": "event", "event": {"type": "pass", "seat": 1,
                                                        "pad": "x" * 1000, "n": n}}) + b"\n"
              for n in range(300)]  # 300 kB: more than a pipe holds

    async def run() -> Answer:
        player = BotPlayer(BotSpec("staller", f"{sys.executable} {script} {received}"),
                           process_limits=ProcessLimits(spin=0.0003),
                           transcript_path=transcript)
        spec = GameSpec.make("g", 1, ["staller", "b", "c"], move_time=5.0, time_bank=5.0)
        state = GameState(spec.config(), seed=1)
        seat = state.pending
        try:
            bot = await begin_quick(player, spec, seat)
            assert bot.answers_quickly
            bot.write_now(b'{"type": "stall"}\n')
            with trio.fail_after(60):  # until it has read that line, and stopped reading
                while not received.read_bytes().endswith(b'{"type": "stall"}\n'):
                    await trio.sleep(0.01)
            player.notify([], events, True)
            assert player._out, "the pipe took it all: the test needs a fuller pipe"
            decision = state.decision(seat)
            return await player.decide(decision, seat_view(state, seat))
        finally:
            await player.aclose()

    answer = trio.run(run)
    assert answer.fault is None and answer.action is not None
    lines = received.read_bytes().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if b'"new_game"' in line)
    assert lines[start + 1 : start + 301] == events
    assert lines[start + 301].startswith(b'{"type":"request"')
    sent = [json.loads(line)["to_bot"] for line in transcript.read_text().splitlines()
            if "to_bot" in line]
    assert [m["event"]["n"] for m in sent if m.get("type") == "event"] == list(range(300))
    assert sent[-1]["type"] in ("request", "goodbye")


def test_a_transcript_line_split_across_writes_is_written_whole(tmp_path: Path) -> None:
    """A write that the pipe took only in part ends inside a line; the transcript shows the
    line once, whole, when its rest is written, or as far as it went if the bot is stopped
    first."""
    path = tmp_path / "t.jsonl"
    tee = TranscriptWriter(path)
    tee("to_bot", b'{"a":1}\n{"b"')
    tee("from_bot", b'{"id":1}\n')
    tee("to_bot", b':2}\n{"c":')
    tee.close()  # the bot was stopped before the rest of the last line was written
    assert path.read_text().splitlines() == [
        '{"to_bot":{"a":1}}', '{"from_bot":{"id":1}}', '{"to_bot":{"b":2}}',
        '{"to_bot":"{\\"c\\":"}']


def test_a_process_that_cannot_be_reaped_does_not_hang_the_referee(bot_dir: Path) -> None:
    """A frozen process (a cgroup freezer, or a hung file system) ignores SIGKILL until it
    thaws: the referee waited for it forever; it now goes on after `reap_within`."""
    freezer = Path("/sys/fs/cgroup/freezer")
    if not (freezer / "cgroup.procs").exists() or not os.access(freezer, os.W_OK):
        pytest.skip("needs a writable cgroup v1 freezer (root)")
    limits = ProcessLimits(goodbye_grace=0.1, term_grace=0.1, reap_within=0.5)
    group = freezer / f"referee-test-{os.getpid()}"
    group.mkdir()
    try:
        async def run() -> float:
            bot = await start_bot([sys.executable, f"{bot_dir}/never_answers.py"],
                                  limits=limits)
            (group / "cgroup.procs").write_text(str(bot.pid))
            (group / "freezer.state").write_text("FROZEN")
            start = time.monotonic()
            with trio.fail_after(10):
                await bot.aclose(b'{"type": "goodbye"}\n')
            return time.monotonic() - start

        assert trio.run(run) < 3
    finally:
        (group / "freezer.state").write_text("THAWED")
        for _ in range(100):
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.02)
