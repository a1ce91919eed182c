"""A bot process as a `Player`: the protocol's handshake, games, requests, time and faults.

One `BotPlayer` owns at most one process at a time and keeps it across games; after a crash
or a retirement the process is stopped, and the next game starts a fresh one.  Everything the
bot does wrong comes back as a `Fault` with a reason, never as an exception.

The process runs under its spec's limits and sandbox (`sandbox.py`).  What rlimits cannot say
is watched here from /proc, over the bot's whole process tree, at most every PROCS_EVERY
seconds (at a request, and while waiting for a reply) and at each game's end: CPU seconds per
game, processes alive at once, and processes that left the bot's process group.  Going over
is a `crash` fault naming the limit, and the process is stopped (restarted next game).  CPU
time per game cannot be an rlimit, since RLIMIT_CPU counts a process's whole life and the
process is kept across games; RLIMIT_CPU (`cpu_time`) is only the backstop, and a bot past
half of it is restarted quietly between games, so that a long tournament never reaches it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import trio

from referee import __version__
from referee.game import Action, Decision, Event
from referee.match.player import Answer, Fault, GameInfo
from referee.protocol import codec

from .pids_cgroup import PidsCgroup
from .process import (
    BotGone,
    BotProcess,
    LineTooLong,
    ProcessLimits,
    ReplyTimeout,
    StartError,
    split_command,
    start_bot,
)
from .sandbox import BotLimits, SandboxError, SandboxMode, limit_hint, resolve_program, wrap_command

GOODBYE = codec.encode(codec.GOODBYE)
# Seconds between looks at a bot while it thinks; its processes in /proc (~40 us) are looked
# at every PROCS_EVERY.
WATCH_EVERY = 0.01
PROCS_EVERY = 0.05
# Replies read at once do not pass through trio's scheduler; the event loop is given back
# at least this often all the same, so that other tables and timers are not kept waiting.
HOLD_AT_MOST = 0.001
_turn_given = [0.0]  # when a decision last let other tasks run (perf_counter)
# Seconds for an exited bot's output to close before a process it left is held to keep it.
EXIT_GRACE = 0.2
# A timeout with nothing ever read from the bot (no hello; no reply since its hello).
UNFLUSHED = " (nothing came from it: check that the bot flushes its output)"
# Replies to earlier requests skipped in one decision before the decision is faulted: a late
# answer is allowed for each request that timed out, and a bot is retired after a few faults,
# so more than this is a flood, which must neither hold the decision nor the referee's CPU.
STALE_AT_MOST = 16


class LimitExceeded(Exception):
    """The bot went over a watched limit; the message says which."""


class GoneBeforeGame(Exception):
    """The bot's process ended having read nothing of this game: it exited between games."""


@dataclass(frozen=True)
class BotSpec:
    """How to run a bot: a display name, a command line, where to run it, its limits and
    sandbox (see `sandbox.py`).

    `home` is the folder the sandbox shows (read-only); by default the one its command names
    (`sandbox.bot_home`).  `read_only` are more host paths the sandbox shows."""

    name: str
    command: str
    cwd: Path | None = None
    limits: BotLimits = field(default_factory=BotLimits)
    sandbox: SandboxMode = "none"
    home: Path | None = None
    read_only: tuple[Path, ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """`NAME=COMMAND`, or just `COMMAND` (then the bot is named after its program file)."""
        name, sep, command = text.partition("=")
        if sep and name.strip() and " " not in name.strip() and command.strip():
            return cls(name.strip(), command.strip())
        argv = split_command(text)
        # The first argument that names a file (my_bot.py, ./bot) names the bot.
        named = next((a for a in argv[1:] if not a.startswith("-") and Path(a).suffix), argv[0])
        return cls((Path(named).stem or "bot")[:64], text)


class TranscriptWriter:
    """Appends each line, both ways, as `{"to_bot": ...}` or `{"from_bot": ...}`.  A write
    may end inside a line (a full pipe): the line is written when its rest comes, or as it is
    when the bot is stopped first (`close`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.partial = {"to_bot": b"", "from_bot": b""}

    def __call__(self, direction: str, data: bytes) -> None:
        data = self.partial[direction] + data
        cut = data.rfind(b"\n") + 1
        self.partial[direction] = data[cut:]
        self._write(direction, data[:cut].splitlines())

    def close(self) -> None:
        for direction, rest in self.partial.items():
            self.partial[direction] = b""
            self._write(direction, [rest] if rest else [])

    def _write(self, direction: str, lines: list[bytes]) -> None:
        if not lines:
            return
        with self.path.open("ab") as f:
            for line in lines:
                try:
                    message = orjson.loads(line)
                except orjson.JSONDecodeError:
                    message = line.decode("utf-8", "replace")[:200]
                f.write(orjson.dumps({direction: message}) + b"\n")


class BotPlayer:
    """A subprocess bot speaking protocol v1 (see protocol/README.md)."""

    def __init__(
        self,
        spec: BotSpec,
        *,
        startup_time: float = 10.0,
        process_limits: ProcessLimits = ProcessLimits(),  # noqa: B008
        stderr_path: Path | None = None,
        transcript_path: Path | None = None,
    ) -> None:
        self.spec = spec
        self.transcript_path = transcript_path
        self.name = spec.name
        self.hello_name: str | None = None
        self.startup_time = startup_time
        self.process_limits = process_limits
        self.stderr_path = stderr_path
        self.bot: BotProcess | None = None
        self.starts = 0
        self._out: list[bytes] = []
        self._id = 0
        self._seat = 0
        self._move = 1.0
        self._bank = 10.0
        self._game_id = ""
        self._cpu_base = 0.0  # CPU seconds of the bot's processes when this game began
        self._cpu_life = 0.0  # the most CPU seconds any one of its processes has used
        self._next_watch = self._next_procs = 0.0
        self._looked = False  # the last `_over_limit` looked at the bot's processes
        self._cpu_now = 0.0
        self._argv: list[str] = []
        self._games = 0
        self._answered = False
        self._replies = 0
        # This game's lines written to the bot until its first reply in the game: if its
        # process turns out to have ended before reading any of them, they are sent again
        # to a fresh one (`_restart_for_game`).
        self._game_sent: list[bytes] = []
        self._exits: list[Fault] = []  # exits between games, reported with the game's end
        self._fresh_in_game = False

    # ---------------------------------------------------------------- process life

    async def _start(self) -> Fault | None:
        spec = self.spec
        try:
            argv = split_command(spec.command)
            cwd = spec.cwd or Path.cwd()
            if resolve_program(argv[0], cwd) is None:
                raise StartError(f"cannot start {argv[0]}: no such program, or it is not "
                                 f"executable")
            wrapped = wrap_command(argv, cwd=cwd, limits=spec.limits, sandbox=spec.sandbox,
                                   home=spec.home, read_only=spec.read_only)
            self.bot = await start_bot(
                wrapped, cwd=spec.cwd, stderr_path=self.stderr_path, limits=self.process_limits,
                sandboxed=spec.sandbox != "none", group=PidsCgroup.make(spec.limits.tasks),
            )
        except (StartError, SandboxError) as exc:
            return Fault("start", str(exc))
        self.starts += 1
        self._argv = argv
        self._games = 0
        self._replies = 0  # lines read after its hello, by this process
        self._cpu_base = self._cpu_life = 0.0
        self._next_watch = trio.current_time() + WATCH_EVERY
        self._next_procs = trio.current_time() + PROCS_EVERY
        bot = self.bot
        if self.transcript_path is not None:
            bot.tee = TranscriptWriter(self.transcript_path)
        try:
            deadline = trio.current_time() + self.startup_time
            await bot.send(codec.encode(codec.hello(f"modern-art-referee {__version__}")),
                           deadline)
            line = await self._read_line(bot, deadline)
            hello = codec.decode_hello(line)
        except ReplyTimeout as exc:
            reason = (f"no hello within the start-up limit of {self.startup_time:g} s" + (
                f" ({exc.partial} bytes without a newline)" if exc.partial else UNFLUSHED))
        except LimitExceeded as exc:
            reason = f"{exc} before its hello"
        except (BotGone, LineTooLong) as exc:
            reason = await self._crash_reason(f"{exc} before its hello")
        except codec.ProtocolError as exc:
            reason = exc.reason
        else:
            self.hello_name = hello.name
            return None
        await self._stop(goodbye=False)
        return Fault("start", reason)

    async def _stop(self, goodbye: bool) -> None:
        bot, self.bot = self.bot, None
        if bot is not None:
            try:
                await bot.aclose(GOODBYE if goodbye else None)
            finally:
                if isinstance(bot.tee, TranscriptWriter):
                    bot.tee.close()

    async def _crash_reason(self, what: str) -> str:
        """`what`, how the process ended, and the end of its stderr."""
        bot = self.bot
        if bot is None:
            return what
        with trio.move_on_after(1.0):
            await bot.process.wait()
        ending = bot.exit_description()
        tail = bot.stderr.last_lines()
        text = f"{what}; {ending}"
        hint = limit_hint(ending, tail, self._argv, self.spec.limits, bot.sandboxed)
        if hint is None and ending == "exit status 0" and self._games > 1 and \
                not self._answered:
            hint = ("it ended after its last game: one process plays every game, until "
                    "goodbye or the end of its input")
        if hint:
            text += f" ({hint})"
        if tail:
            text += "; its stderr ends:\n" + tail
        return text

    # ---------------------------------------------------------------- watched limits

    def _over_limit(self) -> str | None:
        """If it is time to look, the watched limit the bot's processes are over now, in
        words, or None."""
        bot = self.bot
        if bot is None:
            return None
        now = trio.current_time()
        self._next_watch = now + WATCH_EVERY
        self._looked = now >= self._next_procs
        if not self._looked:
            return None
        self._next_procs = now + PROCS_EVERY
        tree = bot.processes()
        if not tree:
            return None
        root = tree[0]
        # In the sandbox the first two are bwrap's own: outside, and pid 1 inside.
        own = [p for p in tree if p.pid != root.pid and p.ppid != root.pid] \
            if bot.sandboxed else tree
        limits = self.spec.limits
        for p in tree:
            if p.pgid != root.pgid:
                return (f"its process {p.pid} ({p.comm}) left the bot's process group "
                        "(setsid or setpgid); a bot's processes must stay in its group")
        if limits.processes is not None and len(own) > limits.processes:
            return f"ran {len(own)} processes at once, over the limit of {limits.processes}"
        cpu = sum(p.cpu_seconds for p in tree)
        self._cpu_life = max((p.cpu_seconds for p in own), default=0.0)
        if limits.cpu_per_game is not None and cpu - self._cpu_base > limits.cpu_per_game:
            return (f"used {cpu - self._cpu_base:.1f} s of CPU time in this game (all its "
                    f"processes), over the limit of {limits.cpu_per_game:g} s per game")
        self._cpu_now = cpu
        return None

    async def _read_line(self, bot: BotProcess, deadline: float) -> bytes:
        """`read_line`, looking at the bot every WATCH_EVERY seconds of waiting;
        raises LimitExceeded as well."""
        while True:
            try:
                return await bot.read_line(min(deadline, self._next_watch))
            except ReplyTimeout:
                if trio.current_time() >= deadline:
                    raise
            if bot.process.returncode is not None:
                # It exited.  Its output closes as its last processes go (in the sandbox, a
                # moment after bwrap itself); if it stays open, a process it left holds it.
                try:
                    return await bot.read_line(trio.current_time() + EXIT_GRACE)
                except ReplyTimeout:
                    raise BotGone("exited (a process it started still holds its output "
                                  "open)") from None
            reason = self._over_limit()
            if reason is not None:
                raise LimitExceeded(reason)
            if self._looked and bot.output_only_held_by_sandbox():
                bot.closed_stdout = True
                raise BotGone("closed its output")

    async def _limit_fault(self, reason: str) -> Fault:
        await self._stop(goodbye=False)
        return Fault("crash", f"{reason}; the bot was stopped")

    # ---------------------------------------------------------------- Player

    async def begin_game(self, info: GameInfo) -> Fault | None:
        if self.bot is None:
            fault = await self._start()
            if fault is not None:
                return fault
        assert self.bot is not None
        self.bot.stderr.start_game(info.game_id)
        self._cpu_now = self._cpu_base
        self._next_watch = self._next_procs = 0.0  # look at it at each game's first request
        self._seat = info.seat
        self._move = info.move_time
        self._bank = info.time_bank
        self._game_id = info.game_id
        self._games += 1  # games this process was given, this one included
        self._answered = False  # no reply read yet in this game
        self._game_sent.clear()
        self._fresh_in_game = False  # started afresh during this game
        self._out.append(codec.encode(codec.new_game(
            info.game_id, info.seat, info.names, info.edition_info,
            list(info.config.variants), info.move_time, info.time_bank)))
        return None

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        out = self._out
        out.extend(lines)
        bot = self.bot
        if next_up and bot is not None and bot.answers_quickly and (
                self._answered or self._game_sent or not bot.unread()):
            # Sent now rather than with the request: the bot wakes up (tens of microseconds
            # from one core to another) while the referee builds its request.  A game's first
            # lines only once the bot has read all it was sent before (see `_until_read`).
            data = b"".join(out)
            out.clear()
            try:
                sent = bot.write_now(data, request=False)
            except BotGone:  # the request's write meets it again and records the crash
                sent = 0
            if not self._answered and sent:
                self._game_sent.append(data[:sent])
            if sent < len(data):
                out.append(data[sent:])

    async def decide(self, decision: Decision, view: dict[str, Any]) -> Answer:
        bot = self.bot
        self._id += 1
        request_id = self._id
        if bot is None:
            return Answer(None, Fault("crash", "the bot is not running"), 0.0, request_id)
        move, bank = self._move, self._bank
        out = self._out
        out.append(codec.encode(codec.request(request_id, decision, view, move, bank)))
        data = b"".join(out)
        out.clear()
        if not self._answered:
            if not self._game_sent:
                await self._until_read(bot)
            self._game_sent.append(data)
        try:
            return await self._exchange(bot, data, request_id)
        except GoneBeforeGame:
            pass
        fault = await self._restart_for_game()
        if fault is not None or self.bot is None:
            return Answer(None, fault, 0.0, request_id)
        return await self._exchange(self.bot, b"".join(self._game_sent), request_id)

    async def _until_read(self, bot: BotProcess) -> None:
        """Wait, a second at most, for the bot to have read all it was sent (the last game's
        end) before this game's first lines go out: whether it then read any of them says
        whether it ended between games, whatever the scheduling (see `GoneBeforeGame`)."""
        give_up = trio.current_time() + 1.0
        while bot.unread() and bot.process.returncode is None and \
                trio.current_time() < give_up:
            await trio.sleep(0.0005)

    async def _restart_for_game(self) -> Fault | None:
        """The bot ended between games: record it, start a fresh process for this game and
        hand it the game so far; a fault if that fails (a crash in this game)."""
        why = await self._crash_reason("exited between games")
        await self._stop(goodbye=False)
        fault = await self._start()
        if fault is not None:
            return Fault("crash", f"{why}; then it could not be started again: {fault.reason}")
        self._exits.append(Fault("exit", f"{why}; started afresh for game {self._game_id}"))
        assert self.bot is not None
        self.bot.stderr.start_game(self._game_id)
        self._fresh_in_game = True
        self._games = 1
        self._next_watch = self._next_procs = 0.0
        self._cpu_now = self._cpu_base = 0.0
        return None

    async def _exchange(self, bot: BotProcess, data: bytes, request_id: int) -> Answer:
        """Write a request (with what precedes it) and read the bot's reply to it."""
        move, bank = self._move, self._bank
        start = trio.current_time()  # the bot's time runs from the write
        if start >= self._next_watch:
            reason = self._over_limit()
            if reason is not None:  # the bot is stopped: what it was to be sent is moot
                return Answer(None, await self._limit_fault(reason), 0.0, request_id)
            start = trio.current_time()  # the look in /proc is not the bot's time
        began = time.perf_counter()  # the same instant on the clock `_answer` reads quickly
        deadline = start + move + bank
        sent = 0
        try:
            sent = bot.write_now(data)
            if sent < len(data):
                await bot.send(data, deadline, sent=sent)
        except BotGone as exc:
            self._gone_before_game(bot, sent - len(data))
            return Answer(None, Fault("crash", await self._crash_reason(str(exc))),
                          trio.current_time() - start, request_id)
        stale = 0  # replies to earlier requests skipped in this decision
        while True:
            try:
                # A quick bot's reply is read here without a trip through trio's scheduler,
                # giving other tasks a turn at least every HOLD_AT_MOST seconds.
                line = bot.line_now()
                if line is not None and stale and trio.current_time() >= deadline:
                    raise ReplyTimeout("no reply to this request in time")
                if line is None:
                    line = await self._read_line(bot, deadline)
                    _turn_given[0] = time.perf_counter()
                elif time.perf_counter() - _turn_given[0] > HOLD_AT_MOST:
                    await trio.lowlevel.checkpoint()
                    _turn_given[0] = time.perf_counter()
            except LimitExceeded as exc:
                return Answer(None, await self._limit_fault(str(exc)),
                              trio.current_time() - start, request_id)
            except ReplyTimeout as exc:
                self._bank = 0.0
                reason = (f"no reply within {move + bank:.3g} s (move time {move:g} s + time bank "
                          f"{bank:.3g} s): {exc}")
                if stale:
                    reason += f" ({stale} replies to earlier requests skipped)"
                elif not self._replies and not exc.partial:  # nothing, ever
                    reason += UNFLUSHED
                return Answer(None, Fault("timeout", reason), move + bank, request_id)
            except LineTooLong as exc:
                return self._answer(None, Fault("malformed", str(exc)), began, request_id)
            except BotGone as exc:
                self._gone_before_game(bot)
                reason = await self._crash_reason(str(exc))
                return Answer(None, Fault("crash", reason), trio.current_time() - start,
                              request_id)
            self._answered = True
            self._replies += 1
            try:
                reply = codec.decode_reply(line)
            except codec.ProtocolError as exc:
                reason = f"{exc.reason}; {codec.shown(line)}"
                return self._answer(None, Fault("malformed", reason), began, request_id)
            if reply.id < request_id:  # a late answer to a request that already timed out
                stale += 1
                if stale > STALE_AT_MOST:
                    fault = Fault("wrong_id", f"{stale} replies to earlier requests while "
                                  f"request {request_id} waited, a flood (at most "
                                  f"{STALE_AT_MOST} late replies are skipped in a decision)")
                    return self._answer(None, fault, began, request_id)
                continue
            if reply.id != request_id:
                fault = Fault("wrong_id", f"reply id {reply.id} does not match request id "
                                          f"{request_id}")
                return self._answer(None, fault, began, request_id)
            try:
                action = codec.reply_to_action(reply, self._seat)
            except codec.ProtocolError as exc:
                return self._answer(None, Fault("malformed", exc.reason), began, request_id)
            return self._answer(action, None, began, request_id)

    def _gone_before_game(self, bot: BotProcess, unsent: int = 0) -> None:
        """Raise GoneBeforeGame if the bot, found gone, read nothing it was sent this game
        (`unsent`: bytes of the last write that did not go out).  A second time in the same
        game it is a crash."""
        if self._answered or not self._game_sent or self._fresh_in_game:
            return
        if bot.unread() >= sum(map(len, self._game_sent)) + unsent:
            raise GoneBeforeGame

    def _answer(
        self, action: Action | None, fault: Fault | None, began: float, request_id: int
    ) -> Answer:
        """Charge the time used since `began` (`time.perf_counter`, cheaper to read than trio's
        clock, on the path to waking the next bot): overruns of the move time come out of the
        time bank."""
        elapsed = time.perf_counter() - began
        over = elapsed - self._move
        if over > 0:
            self._bank = max(0.0, self._bank - over)
        return Answer(action, fault, elapsed, request_id)

    def warn(self, answer: Answer, fault: Fault, applied: Action) -> None:
        kind = fault.kind if fault.kind in ("timeout", "malformed", "wrong_id") else "illegal"
        self._out.append(
            codec.encode(codec.warning(answer.request_id, kind, fault.reason,
                                       codec.action_to_dict(applied)))
        )

    async def end_game(self, result: dict[str, Any]) -> list[Fault]:
        bot = self.bot
        if bot is None:
            self._out.clear()
            faults, self._exits = self._exits, []
            return faults
        self._out.append(
            codec.encode(codec.game_end(self._game_id, result["money"], result["ranks"],
                                        result["retired"]))
        )
        data = b"".join(self._out)
        self._out.clear()
        faults, self._exits = self._exits, []
        cut = bot.stderr.check()
        self._next_procs = 0.0  # a game's end always looks at its processes
        reason = self._over_limit()
        if reason is not None:
            faults.append(await self._limit_fault(reason))
        else:
            try:
                await bot.send(data, trio.current_time() + self._move + self._bank + 1.0)
            except BotGone:  # dead, or not reading: restarted for its next game
                await self._stop(goodbye=False)
            self._cpu_base = self._cpu_now  # time between games counts towards the next
            cpu_time = self.spec.limits.cpu_time
            if cpu_time is not None and self._cpu_life > cpu_time / 2:
                await self._stop(goodbye=True)  # fresh before RLIMIT_CPU: no fault
        if cut:
            limit = self.process_limits.stderr_per_game
            faults.append(Fault("stderr", f"wrote {cut} bytes to stderr past the limit of "
                                          f"{limit} bytes per game; the excess was dropped"))
        return faults

    async def retire(self) -> None:
        """Stop the bot for the rest of the game; it is told why first (the warning for its
        last fault), if it still reads within a moment."""
        data = b"".join(self._out)
        self._out.clear()
        if self.bot is not None and data:
            with suppress(BotGone):
                await self.bot.send(data, trio.current_time() + 0.2)
        await self._stop(goodbye=False)

    async def aclose(self) -> None:
        await self._stop(goodbye=True)
