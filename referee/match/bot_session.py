"""A bot process as a `Player`: the protocol's session with it (hello, games, requests and their
ids, warnings), its clock and time bank, and its transcript.

One `BotPlayer` keeps its bot's process across games; after a crash or a retirement the process
is stopped, and the next game starts a fresh one.  Everything the bot does wrong comes back as
a `Fault` with a reason, never as an exception.  What is the process's and not the protocol's
is the bots layer's: the process started under its spec's limits and sandbox (`bots.launch`),
the watch over the limits no rlimit can hold (`bots.watchdog`), and why it ended
(`bots.crash`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import trio

from referee import __version__
from referee.bots.crash import crash_reason
from referee.bots.errors import BotGone, LineTooLong, ReplyTimeout, StartError
from referee.bots.launch import BotSpec, launch
from referee.bots.limits import DEFAULT_MOVE_TIME, DEFAULT_STARTUP_TIME, DEFAULT_TIME_BANK
from referee.bots.polling import HOLD_AT_MOST, LoopTurns, loop_turns
from referee.bots.process import BotProcess, ProcessLimits
from referee.bots.watchdog import LimitExceeded, Watchdog
from referee.game import Action, Decision, Event
from referee.protocol import codec
from referee.protocol.messages import FaultKind

from .bot_transcript import TranscriptWriter
from .player import Answer, Fault, GameInfo, Standing

GOODBYE = codec.encode(codec.GOODBYE)
# The first line every bot process is sent (`referee replay --bot` sends it too).
HELLO = codec.encode(codec.hello(f"modern-art-referee {__version__}"))
# A timeout with nothing ever read from the bot (no hello; no reply since its hello).
UNFLUSHED = " (nothing came from it: check that the bot flushes its output)"
# Replies to earlier requests skipped in one decision before the decision is faulted: a late
# answer is allowed for each request that timed out, and a bot is retired after a few faults,
# so more than this is a flood, which must neither hold the decision nor the referee's CPU.
STALE_AT_MOST = 16
# A warning names these faults as they are; any other rejected reply is `illegal`.
WARNED_AS_THEMSELVES = frozenset({FaultKind.TIMEOUT, FaultKind.MALFORMED, FaultKind.WRONG_ID})


class GoneBeforeGame(Exception):
    """The bot's process ended having read nothing of this game: it exited between games."""


class BotPlayer:
    """A subprocess bot speaking protocol v1 (see protocol/README.md).  `process_limits`
    says, with its `spin`, whether the referee polls for the bot's quick replies: whoever
    makes the player knows whether other tables share the event loop."""

    def __init__(
        self,
        spec: BotSpec,
        *,
        startup_time: float = DEFAULT_STARTUP_TIME,
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
        self.watch = Watchdog(spec.limits)
        self.starts = 0
        self._turns = LoopTurns()  # the event loop's, from each game's start (`loop_turns`)
        self._out: list[bytes] = []
        self._id = 0
        self._seat = 0
        self._move = DEFAULT_MOVE_TIME  # this game's, from its `GameInfo`
        self._bank = DEFAULT_TIME_BANK
        self._game_id = ""
        self._games = 0
        self._answered = False
        self._replies = 0
        # This game's lines written to the bot until its first reply in the game: if its
        # process turns out to have ended before reading any of them, they are sent again
        # to a fresh one (`_restart_for_game`).
        self._game_sent: list[bytes] = []
        self._exits: list[Fault] = []  # exits between games, reported with the game's end
        self._fresh_in_game = False
        self._start_fault: Fault | None = None  # from `start`, for the first game to report

    # ---------------------------------------------------------------- process life

    async def start(self) -> None:
        """Start the bot and read its hello before its first game, so that its `hello_name`
        is known while the game is set up; a failure is that game's `start` fault."""
        if self.bot is None:
            self._start_fault = await self._start()

    def move_files(self, stderr_path: Path | None, transcript_path: Path | None) -> None:
        """Rename the bot's stderr log and transcript (a bot named by its hello): what was
        written goes with them, and the rest is written under the new names."""
        for old, new in ((self.stderr_path, stderr_path),
                         (self.transcript_path, transcript_path)):
            if old is not None and new is not None and old != new:
                try:
                    old.replace(new)
                except FileNotFoundError:  # nothing written yet: none of an earlier game's
                    new.unlink(missing_ok=True)
        self.stderr_path, self.transcript_path = stderr_path, transcript_path
        if self.bot is not None:
            if stderr_path is not None:
                self.bot.stderr.path = stderr_path
            if isinstance(self.bot.tee, TranscriptWriter) and transcript_path is not None:
                self.bot.tee.path = transcript_path

    async def _start(self) -> Fault | None:
        try:
            bot = await launch(self.spec, stderr_path=self.stderr_path,
                               limits=self.process_limits)
        except StartError as exc:
            return Fault(FaultKind.START, str(exc))
        self.bot = bot
        self.starts += 1
        self._games = 0
        self._replies = 0  # lines read after its hello, by this process
        self.watch.new_process()
        if self.transcript_path is not None:
            bot.tee = TranscriptWriter(self.transcript_path)
        try:
            deadline = trio.current_time() + self.startup_time
            await bot.send(HELLO, deadline)
            line = await self.watch.read_line(bot, deadline)
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
        return Fault(FaultKind.START, reason)

    async def _stop(self, goodbye: bool) -> None:
        bot, self.bot = self.bot, None
        if bot is not None:
            try:
                await bot.aclose(GOODBYE if goodbye else None)
            finally:
                if isinstance(bot.tee, TranscriptWriter):
                    bot.tee.close()

    async def _crash_reason(self, what: str) -> str:
        if self.bot is None:
            return what
        return await crash_reason(self.bot, what, self.spec,
                                  between_games=self._games > 1 and not self._answered)

    async def _limit_fault(self, reason: str) -> Fault:
        await self._stop(goodbye=False)
        return Fault(FaultKind.CRASH, f"{reason}; the bot was stopped")

    # ---------------------------------------------------------------- Player

    async def begin_game(self, info: GameInfo) -> Fault | None:
        fault, self._start_fault = self._start_fault, None
        if fault is None and self.bot is None:
            fault = await self._start()
        if fault is not None:
            return fault
        assert self.bot is not None
        self.bot.stderr.start_game(info.game_id)
        self.watch.new_game()
        self._turns = loop_turns()
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
            list(info.config.variants), info.move_time, info.time_bank, info.seed)))
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

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        bot = self.bot
        self._id += 1
        request_id = self._id
        if bot is None:
            return Answer(None, Fault(FaultKind.CRASH, "the bot is not running"), 0.0, request_id)
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
            return await self._exchange(bot, data, request_id, alone)
        except GoneBeforeGame:
            pass
        fault = await self._restart_for_game()
        if fault is not None or self.bot is None:
            return Answer(None, fault, 0.0, request_id)
        return await self._exchange(self.bot, b"".join(self._game_sent), request_id, alone)

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
            return Fault(FaultKind.CRASH,
                         f"{why}; then it could not be started again: {fault.reason}")
        self._exits.append(Fault(FaultKind.EXIT, f"{why}; started afresh for game {self._game_id}"))
        assert self.bot is not None
        self.bot.stderr.start_game(self._game_id)
        self._fresh_in_game = True
        self._games = 1
        self.watch.new_game()
        return None

    async def _exchange(self, bot: BotProcess, data: bytes, request_id: int,
                        alone: bool) -> Answer:
        """Write a request (with what precedes it) and read the bot's reply to it; polling
        for a quick reply only if `alone` (see `Player.decide`)."""
        move, bank = self._move, self._bank
        watch = self.watch
        start = trio.current_time()  # the bot's time runs from the write
        if start >= watch.next_watch:
            reason = watch.over_limit(bot)
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
            return Answer(None, Fault(FaultKind.CRASH, await self._crash_reason(str(exc))),
                          trio.current_time() - start, request_id)
        turns = self._turns
        stale = 0  # replies to earlier requests skipped in this decision
        while True:
            try:
                # A quick bot's reply is read here without a trip through trio's scheduler,
                # giving other tasks a turn at least every HOLD_AT_MOST seconds.
                line = bot.line_now(spin=alone)
                if line is not None and stale and trio.current_time() >= deadline:
                    raise ReplyTimeout("no reply to this request in time")
                if line is None:
                    line = await watch.read_line(bot, deadline, spin=alone)
                    turns.given = time.perf_counter()
                elif time.perf_counter() - turns.given > HOLD_AT_MOST:
                    await trio.lowlevel.checkpoint()
                    turns.given = time.perf_counter()
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
                return Answer(None, Fault(FaultKind.TIMEOUT, reason), move + bank, request_id)
            except LineTooLong as exc:
                return self._answer(None, Fault(FaultKind.MALFORMED, str(exc)), began, request_id)
            except BotGone as exc:
                self._gone_before_game(bot)
                reason = await self._crash_reason(str(exc))
                return Answer(None, Fault(FaultKind.CRASH, reason), trio.current_time() - start,
                              request_id)
            self._answered = True
            self._replies += 1
            try:
                reply = codec.decode_reply(line)
            except codec.ProtocolError as exc:
                reason = f"{exc.reason}; {codec.shown(line)}"
                return self._answer(None, Fault(FaultKind.MALFORMED, reason), began, request_id,
                                    line)
            if reply.id < request_id:  # a late answer to a request that already timed out
                stale += 1
                if stale > STALE_AT_MOST:
                    fault = Fault(FaultKind.WRONG_ID, f"{stale} replies to earlier requests while "
                                  f"request {request_id} waited, a flood (at most "
                                  f"{STALE_AT_MOST} late replies are skipped in a decision)")
                    return self._answer(None, fault, began, request_id)
                continue
            if reply.id != request_id:
                fault = Fault(FaultKind.WRONG_ID, f"reply id {reply.id} does not match request id "
                                          f"{request_id}")
                return self._answer(None, fault, began, request_id)
            try:
                action = codec.reply_to_action(reply, self._seat)
            except codec.ProtocolError as exc:
                fault = Fault(FaultKind.MALFORMED, exc.reason)
                return self._answer(None, fault, began, request_id, line)
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
        self, action: Action | None, fault: Fault | None, began: float, request_id: int,
        line: bytes | None = None,
    ) -> Answer:
        """Charge the time used since `began` (`time.perf_counter`, cheaper to read than trio's
        clock, on the path to waking the next bot): overruns of the move time come out of the
        time bank.  `line`: a malformed reply, which the record keeps."""
        elapsed = time.perf_counter() - began
        over = elapsed - self._move
        if over > 0:
            self._bank = max(0.0, self._bank - over)
        return Answer(action, fault, elapsed, request_id, line)

    def warn(self, answer: Answer, fault: Fault, applied: Action) -> None:
        kind = fault.kind if fault.kind in WARNED_AS_THEMSELVES else FaultKind.ILLEGAL
        self._out.append(
            codec.encode(codec.warning(answer.request_id, kind, fault.reason,
                                       codec.action_to_dict(applied)))
        )

    async def end_game(self, standing: Standing) -> list[Fault]:
        bot = self.bot
        if bot is None:
            self._out.clear()
            faults, self._exits = self._exits, []
            return faults
        self._out.append(
            codec.encode(codec.game_end(self._game_id, standing.money, standing.ranks,
                                        standing.retired))
        )
        data = b"".join(self._out)
        self._out.clear()
        faults, self._exits = self._exits, []
        cut = bot.stderr.check()
        reason = self.watch.end_game(bot)
        if reason is not None:
            faults.append(await self._limit_fault(reason))
        else:
            try:
                await bot.send(data, trio.current_time() + self._move + self._bank + 1.0)
            except BotGone:  # dead, or not reading: restarted for its next game
                await self._stop(goodbye=False)
            if self.watch.worn_out:
                await self._stop(goodbye=True)  # fresh before RLIMIT_CPU: no fault
        if cut:
            limit = self.process_limits.stderr_per_game
            faults.append(Fault(FaultKind.STDERR, f"wrote {cut} bytes to stderr past the limit of "
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
