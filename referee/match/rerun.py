"""`referee replay --bot`: one seat's part of a recorded game (`seat_part.py`) sent again to a
bot, each answer set beside the recorded one, so that an entrant can watch, or debug, their
bot's decisions.  Whatever the bot answers now, it is sent what the seat was sent in the game.
The bot's stderr is shown as it comes; the caller may pause before any request, for a debugger
to be attached to the bot's process.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import orjson
import trio

from referee.bots.crash import limit_hint
from referee.bots.errors import BotGone, LineTooLong, ReplyTimeout, StartError
from referee.bots.launch import BotSpec, launch
from referee.bots.limits import RERUN_TIMEOUT
from referee.bots.process import BotProcess, ProcessLimits
from referee.bots.start import split_command
from referee.bots.stderr_log import StderrLog
from referee.protocol import codec
from referee.protocol.messages import FaultKind
from referee.protocol.seat import GOODBYE, SeatProtocol

from .seat_part import RequestResult, RerunError, SeatPart, SentRequest, result_of

__all__ = ["RERUN_TIMEOUT", "Compared", "RerunDisplay", "RerunError", "RerunResult", "rerun"]



@dataclass(frozen=True, slots=True)
class Compared:
    """A request sent again, the bot's answer now and the seconds it took, beside the
    recorded answer."""

    request: SentRequest
    answer: RequestResult
    seconds: float

    @property
    def same(self) -> bool:
        return self.answer.matches(self.request.recorded)

    @property
    def recorded_fault(self) -> bool:
        """The recorded answer was a fault in the game (an illegal bid, a timeout...): the
        same answer now is the same fault, whatever `same` says."""
        return self.request.recorded.fault is not None


@dataclass
class RerunResult:
    part: SeatPart
    compared: list[Compared] = field(default_factory=list)
    ended: str | None = None  # why the bot ended, if it did when sent the game's end


class RerunDisplay(Protocol):
    """Shows a rerun as it goes (the command line prints; tests may collect)."""

    def started(self, pid: int | None, sandbox: int | None) -> None:
        """The bot's own pid (None: not found); in the sandbox, bwrap's, its ancestor."""

    def hello(self, name: str, processes: list[str]) -> None: ...

    def sending(self, request: SentRequest) -> None:
        """The request about to be sent (before a pause there)."""

    def compared(self, compared: Compared) -> None: ...

    def waiting(self, request: SentRequest, seconds: float | None, as_in_game: bool) -> None:
        """The first request that timed out in the game is about to be sent: its answer is
        waited for `seconds` (None: with no limit), the time it had in the game if
        `as_in_game`."""

    def stderr(self, text: str) -> None: ...

    async def pause(self, before: str) -> None: ...


class _StderrSince:
    """What the bot wrote to stderr since the last look."""

    def __init__(self, log: StderrLog) -> None:
        self.log = log
        self.offset = os.fstat(log.fd).st_size

    def new(self) -> str:
        if self.log.fd < 0:
            return ""
        self.log.check()
        size = os.fstat(self.log.fd).st_size
        data = os.pread(self.log.fd, size - self.offset, self.offset) if size > self.offset else b""
        self.offset = size
        return data.decode("utf-8", "replace")


async def rerun(part: SeatPart, spec: BotSpec, display: RerunDisplay, *,
                upto: int | None = None, pause_before: int | None = None,
                timeout: float | None = RERUN_TIMEOUT,
                timeouts_as_in_game: bool = False) -> RerunResult:
    """Start the bot, send it the seat's part up to request `upto` (all of it, game_end
    included, if None), and compare each answer with the recorded one; stop the bot.
    `pause_before`: the request number (0: the hello) before which `display.pause` waits;
    `timeout`: seconds for the hello and each answer, None for no limit;
    `timeouts_as_in_game`: a request that timed out in the game is given the time it had
    there (`time_in_game`), not `timeout`.  RerunError when `upto` is out of range or the bot
    does not start; a bot that ends later is in the result."""
    requests = part.up_to(upto)
    try:
        bot = await launch(spec, limits=ProcessLimits(spin=0.0))
    except StartError as exc:
        raise RerunError(f"the bot cannot start: {exc}") from None
    try:
        return await _send(bot, part, requests, upto is None, spec, display, pause_before,
                           timeout, timeouts_as_in_game)
    finally:
        await bot.aclose(GOODBYE)


# Seconds to wait for bwrap to start the bot's own process, the one to attach a debugger to.
OWN_PROCESS_WAIT = 2.0


async def _own_pid(bot: BotProcess) -> int | None:
    """The bot's own pid (`BotProcess.own_pid`), waited for while bwrap starts it; None if it
    ended first, or did not come in OWN_PROCESS_WAIT seconds."""
    give_up = trio.current_time() + OWN_PROCESS_WAIT
    while (pid := bot.own_pid()) is None and bot.process.returncode is None \
            and trio.current_time() < give_up:
        await trio.sleep(0.001)
    return pid


def _deadline(timeout: float | None) -> float:
    return math.inf if timeout is None else trio.current_time() + timeout


def time_in_game(request: SentRequest) -> float | None:
    """The seconds the seat had for `request` in the game: its move time and what was left of
    its time bank, as the request told it; None when the request does not say."""
    try:
        time = orjson.loads(request.line).get("time")
        return float(time["move"]) + float(time["bank"])
    except (orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
        return None


async def _send(bot: BotProcess, part: SeatPart, requests: Sequence[SentRequest], to_end: bool,
                spec: BotSpec, display: RerunDisplay, pause_before: int | None,
                timeout: float | None, timeouts_as_in_game: bool) -> RerunResult:
    display.started(await _own_pid(bot), bot.pid if bot.sandboxed else None)
    stderr = _StderrSince(bot.stderr)
    protocol = SeatProtocol()  # judges the bot's lines as the referee does
    if pause_before == 0:
        await display.pause("the hello")
    try:
        deadline = _deadline(timeout)
        await bot.send(part.hello, deadline)
        name = protocol.receive_hello(await bot.read_line(deadline, spin=False))
    except ReplyTimeout:
        display.stderr(stderr.new())
        raise RerunError(f"the bot sent no hello within {timeout:g} s (is its output "
                         "flushed?)") from None
    except (BotGone, LineTooLong) as exc:
        display.stderr(stderr.new())
        raise RerunError(f"the bot {exc} before its hello; {await _ending(bot, spec)}") from None
    except codec.ProtocolError as exc:
        display.stderr(stderr.new())
        raise RerunError(exc.reason) from None
    display.hello(name, [f"{p.pid} {p.comm}" for p in bot.processes()])
    display.stderr(stderr.new())
    result = RerunResult(part)
    told = False  # of the wait at a request that timed out in the game
    for request in requests:
        display.sending(request)
        if pause_before == request.number:
            await display.pause(f"request {request.number}")
        wait = timeout
        if request.recorded.fault is FaultKind.TIMEOUT:
            had = time_in_game(request) if timeouts_as_in_game else None
            if had is not None:
                wait = had if timeout is None else min(had, timeout)
            if not told:
                display.waiting(request, wait, had is not None)
                told = True
        compared = await _ask(bot, protocol, request, spec, wait)
        result.compared.append(compared)
        display.compared(compared)
        display.stderr(stderr.new())
        if compared.answer.fault is FaultKind.CRASH:
            return result
    if to_end and part.after:
        try:
            await bot.send(part.after, _deadline(timeout))
        except BotGone as exc:
            result.ended = f"{exc}; {await _ending(bot, spec)}"
    display.stderr(stderr.new())
    return result


async def _ask(bot: BotProcess, protocol: SeatProtocol, request: SentRequest, spec: BotSpec,
               timeout: float | None) -> Compared:
    """Send one request (and what precedes it) and read the answer, skipping replies to
    earlier requests as the referee does."""
    start = trio.current_time()
    deadline = _deadline(timeout)

    def took(result: RequestResult) -> Compared:
        return Compared(request, result, trio.current_time() - start)

    try:
        await bot.send(request.before + request.line, deadline)
        protocol.sent_request(request.request_id, request.seat)
        while True:
            line = await bot.read_line(deadline, spin=False)
            result = result_of(protocol.receive(line, trio.current_time() - start))
            if result is not None:
                return took(result)
    except ReplyTimeout:
        return took(RequestResult(fault=FaultKind.TIMEOUT,
                                  reason=f"no answer within {timeout:g} s"))
    except LineTooLong as exc:
        return took(RequestResult(fault=FaultKind.MALFORMED, reason=str(exc)))
    except BotGone as exc:
        return took(RequestResult(fault=FaultKind.CRASH,
                                  reason=f"{exc}; {await _ending(bot, spec)}"))


async def _ending(bot: BotProcess, spec: BotSpec) -> str:
    """How the bot's process ended (a second at most to tell), and the limit it shows it
    ran into."""
    with trio.move_on_after(1.0):
        await bot.process.wait()
    ending = bot.exit_description()
    hint = limit_hint(ending, bot.stderr.last_lines(), split_command(spec.command),
                      spec.limits, bot.sandboxed)
    return f"{ending} ({hint})" if hint else ending
