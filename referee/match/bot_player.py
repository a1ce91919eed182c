"""A bot process as a `Player`: its process's life and I/O, driving the protocol's seat.

One `BotPlayer` keeps its bot's process across games; after a crash or a retirement the process
is stopped, and the next game starts a fresh one.  Everything the bot does wrong comes back as
a `Fault` with a reason, never as an exception; a start refused by the referee's own limits
(`ResourcesExhausted`) is raised, to void the game: it is not the bot's fault.  What the
protocol says (hello, requests and their ids, late replies, warnings, the clock and time bank,
when a game's opening goes again to a fresh process) is `protocol.seat.SeatProtocol`'s, which
this drives: here are the pipe reads and writes, polling, the watchdog and the stops.  The rest
of what is the process's is the bots layer's: the process started under its spec's limits and
sandbox (`bots.launch`), the watch over the limits no rlimit can hold (`bots.watchdog`), and
why it ended (`bots.crash`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import trio

from referee.bots.caught import ErrorLines
from referee.bots.crash import crash_reason
from referee.bots.errors import BotGone, LineTooLong, ReplyTimeout, StartError
from referee.bots.launch import BotSpec, launch
from referee.bots.limits import DEFAULT_STARTUP_TIME
from referee.bots.polling import TURN_EVERY, LoopTurns, loop_turns
from referee.bots.process import CLOSED_OUTPUT, STOPPED_READING, BotProcess, ProcessLimits
from referee.bots.watchdog import LimitExceeded, Watchdog
from referee.game import Action, Decision, Event
from referee.protocol import codec
from referee.protocol.messages import FaultKind
from referee.protocol.seat import GOODBYE, Faulted, Replied, SeatProtocol

from .bot_transcript import TranscriptWriter
from .player import Answer, Fault, GameInfo, Standing

# A bot whose process exited is a crash (protocol/README.md), even where a process it started
# holds its output and answers: a reply is taken only while the bot's own process runs
# (`BotProcess.exited`: one waitid a reply, and in the sandbox one poll of a pidfd).
CHILD_ANSWERS = "exited (a process it started still answers for it)"
# How a start fault's reason begins when the bot's hello could not be read: for the layers
# above, which tell a bot that said no valid hello from one that crashed.
BAD_HELLO = codec.BAD_HELLO


async def _silence_looked_at(bot: BotProcess) -> tuple[bool, bool]:
    """A bot that wrote nothing in its time, looked at for `watchdog.BUSY_LOOK` seconds at
    the first timeout of a silence (its hello's, or a request's since its last line), and at
    the first after it of a request it read (`SeatProtocol.read_in_silence`): whether it
    used the CPU meanwhile (a loop, not an unflushed line), and whether its output came during
    the look (it is slow, not silent).  Only on a timeout's path, never a reply's."""
    busy = await Watchdog.busy(bot)
    return busy, bot.output_waiting() > 0


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
        self.startup_time = startup_time
        self.process_limits = process_limits
        self.stderr_path = stderr_path
        # Lines of its stderr that look like errors, over its processes ended so far.
        self.errors = ErrorLines()
        self.lingered = False  # a process of its, told goodbye, did not end in its grace
        self.bot: BotProcess | None = None
        self.watch = Watchdog(spec.limits)
        self.starts = 0
        self.seat = SeatProtocol()
        self._turns = LoopTurns()  # the event loop's, from each game's start (`loop_turns`)
        # `trio.current_time` without its three wrappers: the run's clock's own, from each
        # game's start, read once a decision.
        self._now: Callable[[], float] = trio.current_time
        self._exits: list[Fault] = []  # exits between games, reported with the game's end
        self._start_fault: Fault | None = None  # from `start`, for the first game to report

    @property
    def hello_name(self) -> str | None:
        """The name the bot gave in its hello, once it said hello."""
        return self.seat.hello_name

    @property
    def _id(self) -> int:
        """The last request's id (`benchmarks/protocol.py` counts decisions with it)."""
        return self.seat.request_id

    # ---------------------------------------------------------------- process life

    async def start(self) -> Fault | None:
        """Start the bot and read its hello before its first game, so that its `hello_name`
        is known while the game is set up; a failure is that game's `start` fault, and is
        returned (a tournament tries a bot that never started so, `tournament.start_probe`)."""
        if self.bot is None:
            self._start_fault = await self._start()
        return self._start_fault

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
        hello = self.seat.started()
        self.watch.new_process()
        if self.transcript_path is not None:
            bot.tee = TranscriptWriter(self.transcript_path)
        try:
            deadline = trio.current_time() + self.startup_time
            await bot.send(hello, deadline)
            self.seat.receive_hello(await self.watch.read_line(bot, deadline))
        except ReplyTimeout as exc:
            busy, late = (False, False) if exc.partial else await _silence_looked_at(bot)
            reason = self.seat.no_hello(self.startup_time, exc.partial, busy, late)
        except LimitExceeded as exc:
            reason = f"{exc} before its hello"
        except (BotGone, LineTooLong) as exc:
            reason = await self._crash_reason(f"{exc} before its hello")
            if str(exc) == STOPPED_READING and bot.process.returncode is not None:
                # It ended on its own before its hello: both its pipes are closed, and which
                # the referee met first is a race; said one way, as a read would find it.
                reason = CLOSED_OUTPUT + reason[len(STOPPED_READING):]
        except codec.ProtocolError as exc:
            reason = exc.reason
        else:
            bot.follow_own_process()
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
                self.errors.add(bot.stderr.errors)
                self.lingered = self.lingered or bot.lingered

    async def _crash_reason(self, what: str) -> str:
        if self.bot is None:
            return what
        return await crash_reason(self.bot, what, self.spec,
                                  between_games=self.seat.between_games)

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
        self._now = trio.lowlevel.current_clock().current_time
        self.seat.begin_game(info.game_id, info.seat, info.names, info.edition_info,
                             list(info.config.variants), info.move_time, info.time_bank,
                             info.seed)
        return None

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        seat = self.seat
        seat.send(lines)
        bot = self.bot
        if next_up and bot is not None and bot.answers_quickly and (
                seat.answered or seat.opening_sent or not bot.unread()):
            # Sent now rather than with the request: the bot wakes up (tens of microseconds
            # from one core to another) while the referee builds its request.  A game's first
            # lines only once the bot has read all it was sent before (see `_until_read`).
            data = seat.take()
            try:
                sent = bot.write_now(data, request=False)
            except BotGone:  # the request's write meets it again and records the crash
                sent = 0
            if sent:
                seat.opened(data[:sent])
            if sent < len(data):
                seat.unsent(data[sent:])

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        bot = self.bot
        seat = self.seat
        if bot is None:
            return Answer(None, Fault(FaultKind.CRASH, "the bot is not running"), 0.0,
                          seat.skip_request())
        data = seat.request(decision, view)
        if not seat.answered:  # in the game's opening
            if not seat.opening_sent:
                await self._until_read(bot)
            seat.opened(data)
        try:
            return await self._exchange(bot, data, alone)
        except GoneBeforeGame:
            pass
        fault = await self._restart_for_game()
        if fault is not None or self.bot is None:
            return Answer(None, fault, 0.0, seat.request_id)
        return await self._exchange(self.bot, seat.reopen(), alone)

    async def _until_read(self, bot: BotProcess) -> None:
        """Wait, a second at most, for the bot to have read all it was sent (the last game's
        end) before this game's first lines go out: whether it then read any of them says
        whether it ended between games, whatever the scheduling (see `GoneBeforeGame`)."""
        give_up = trio.current_time() + 1.0
        while bot.unread() and bot.process.returncode is None and \
                trio.current_time() < give_up:
            await trio.sleep(0.0005)

    async def _restart_for_game(self) -> Fault | None:
        """The bot ended between games: record it, start a fresh process for this game (the
        seat's `reopen` gives it the game so far); a fault if that fails (a crash in this
        game)."""
        why = await self._crash_reason("exited between games")
        await self._stop(goodbye=False)
        fault = await self._start()
        if fault is not None:
            return Fault(FaultKind.CRASH,
                         f"{why}; then it could not be started again: {fault.reason}")
        game_id = self.seat.game_id
        head, quote, tail = why.partition("; its stderr ends:")  # the bot's lines come last
        self._exits.append(Fault(FaultKind.EXIT, f"{head}; started afresh for game {game_id}"
                                                 f"{quote}{tail}"))
        assert self.bot is not None
        self.bot.stderr.start_game(game_id)
        self.watch.new_game()
        return None

    async def _exchange(self, bot: BotProcess, data: bytes, alone: bool) -> Answer:
        """Write a request (with what precedes it) and read the bot's reply to it; polling
        for a quick reply only if `alone` (see `Player.decide`)."""
        seat = self.seat
        request_id = seat.request_id
        watch = self.watch
        start = self._now()  # the bot's time runs from the write
        if start >= watch.next_watch:
            reason = watch.over_limit(bot)
            if reason is not None:  # the bot is stopped: what it was to be sent is moot
                return Answer(None, await self._limit_fault(reason), 0.0, request_id)
            start = self._now()  # the look in /proc is not the bot's time
        began = time.perf_counter()  # the same instant on the clock read when a line comes
        deadline = start + seat.move + seat.bank  # `seat.allowed`
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
        while True:
            try:
                # A quick bot's reply is read here without a trip through trio's scheduler,
                # giving other tasks a turn at least every TURN_EVERY seconds; it may be
                # slept for until the next look at the bot is due.
                line = bot.line_now(spin=alone, until=min(deadline, watch.next_watch))
                if line is not None and seat.stale and trio.current_time() >= deadline:
                    raise ReplyTimeout("no reply to this request in time")
                if line is None:
                    line = await watch.read_line(bot, deadline, spin=False)  # waited above
                    turns.given = time.perf_counter()
                elif time.perf_counter() - turns.given > TURN_EVERY:
                    await trio.lowlevel.checkpoint()
                    turns.given = time.perf_counter()
            except LimitExceeded as exc:
                return Answer(None, await self._limit_fault(str(exc)),
                              trio.current_time() - start, request_id)
            except ReplyTimeout as exc:
                # The first timeout of a silence, and once in it the first after the bot read
                # a request (`read_in_silence`): BUSY_LOOK s each.
                busy, late = (await _silence_looked_at(bot) if not exc.partial and (
                    seat.first_silence or seat.read_in_silence(exc.partial, bot.unread()))
                    else (False, False))
                return _answer(seat.timed_out(str(exc), exc.partial, bot.unread(), busy,
                                              late))
            except LineTooLong as exc:
                return _answer(seat.malformed(str(exc), time.perf_counter() - began))
            except BotGone as exc:
                self._gone_before_game(bot)
                reason = await self._crash_reason(str(exc))
                return Answer(None, Fault(FaultKind.CRASH, reason), trio.current_time() - start,
                              request_id)
            event = seat.receive(line, time.perf_counter() - began)
            if type(event) is Replied:
                if bot.exited:  # a process it left answers for it
                    reason = await self._crash_reason(CHILD_ANSWERS)
                    return Answer(None, Fault(FaultKind.CRASH, reason),
                                  trio.current_time() - start, request_id)
                action, seconds, _ = event
                return Answer(action, None, seconds, request_id)
            if type(event) is Faulted:
                return _answer(event)
            # Stale: a late reply to an earlier request, skipped

    def _gone_before_game(self, bot: BotProcess, unsent: int = 0) -> None:
        """Raise GoneBeforeGame if the bot, found gone, read nothing it was sent this game
        (`unsent`: bytes of the last write that did not go out, counted negative).  A second
        time in the same game it is a crash."""
        if self.seat.read_none_of_game(bot.unread(), unsent):
            raise GoneBeforeGame

    def warn(self, answer: Answer, fault: Fault, applied: Action) -> None:
        self.seat.warn(answer.request_id, fault.kind, fault.reason, applied)

    async def end_game(self, standing: Standing) -> list[Fault]:
        bot = self.bot
        faults, self._exits = self._exits, []
        if bot is None:
            self.seat.take()  # for no one
            return faults
        data = self.seat.game_end(standing.money, standing.ranks, standing.retired)
        cut = bot.stderr.check()
        reason = self.watch.end_game(bot)
        if reason is not None:
            faults.append(await self._limit_fault(reason))
        else:
            try:
                await bot.send(data, trio.current_time() + self.seat.allowed + 1.0)
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
        data = self.seat.take()
        if self.bot is not None and data:
            with suppress(BotGone):
                await self.bot.send(data, trio.current_time() + 0.2)
        await self._stop(goodbye=False)

    async def aclose(self) -> None:
        await self._stop(goodbye=True)


def _answer(event: Faulted) -> Answer:
    """A request that ended in the bot's fault, as the `Player` interface answers it."""
    return Answer(None, Fault(event.kind, event.reason), event.seconds, event.request_id,
                  event.line)
