"""A bot process as a `Player`: the protocol's handshake, games, requests, time and faults.

One `BotPlayer` owns at most one process at a time and keeps it across games; after a crash
or a retirement the process is stopped, and the next game starts a fresh one.  Everything the
bot does wrong comes back as a `Fault` with a reason, never as an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import trio

from referee import __version__
from referee.game import Action, Decision, Event
from referee.player import Answer, Fault, GameInfo
from referee.protocol import codec

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

GOODBYE = codec.encode(codec.GOODBYE)


@dataclass(frozen=True)
class BotSpec:
    """How to run a bot: a display name, a command line, and where to run it."""

    name: str
    command: str
    cwd: Path | None = None

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


def _transcript_writer(path: Path) -> Callable[[str, bytes], None]:
    """Append each line, both ways, as `{"to_bot": ...}` or `{"from_bot": ...}`."""

    def tee(direction: str, data: bytes) -> None:
        with path.open("ab") as f:
            for line in data.splitlines():
                try:
                    message = orjson.loads(line)
                except orjson.JSONDecodeError:
                    message = line.decode("utf-8", "replace")[:200]
                f.write(orjson.dumps({direction: message}) + b"\n")

    return tee


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

    # ---------------------------------------------------------------- process life

    async def _start(self) -> Fault | None:
        try:
            argv = split_command(self.spec.command)
            self.bot = await start_bot(
                argv, cwd=self.spec.cwd, stderr_path=self.stderr_path, limits=self.process_limits
            )
        except StartError as exc:
            return Fault("start", str(exc))
        self.starts += 1
        bot = self.bot
        if self.transcript_path is not None:
            bot.tee = _transcript_writer(self.transcript_path)
        try:
            deadline = trio.current_time() + self.startup_time
            await bot.send(codec.encode(codec.hello(f"modern-art-referee {__version__}")),
                           deadline)
            line = await bot.read_line(deadline)
            hello = codec.decode_hello(line)
        except ReplyTimeout:
            reason = f"no hello within the start-up limit of {self.startup_time:g} s"
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
            await bot.aclose(GOODBYE if goodbye else None)
            bot.close_log()

    async def _crash_reason(self, what: str) -> str:
        """`what`, how the process ended, and the end of its stderr."""
        bot = self.bot
        if bot is None:
            return what
        with trio.move_on_after(1.0):
            await bot.process.wait()
        text = f"{what}; {bot.exit_description()}"
        tail = bot.stderr.last_lines()
        if tail:
            text += "; its stderr ends:\n" + tail
        return text

    # ---------------------------------------------------------------- Player

    async def begin_game(self, info: GameInfo) -> Fault | None:
        if self.bot is None:
            fault = await self._start()
            if fault is not None:
                return fault
        assert self.bot is not None
        self.bot.stderr.start_game(info.game_id)
        self._seat = info.seat
        self._move = info.move_time
        self._bank = info.time_bank
        self._game_id = info.game_id
        self._out.append(
            codec.encode(
                codec.new_game(
                    info.game_id, info.seat, info.names, info.edition_info,
                    list(info.config.variants), info.move_time, info.time_bank,
                )
            )
        )
        return None

    def notify(self, events: Sequence[Event], lines: Sequence[bytes]) -> None:
        self._out.extend(lines)

    async def decide(self, decision: Decision, view: dict[str, Any]) -> Answer:
        bot = self.bot
        self._id += 1
        request_id = self._id
        if bot is None:
            return Answer(None, Fault("crash", "the bot is not running"), 0.0, request_id)
        move, bank = self._move, self._bank
        if request_id % 16 == 0:
            bot.stderr.check()  # keeps a flood of stderr from filling the disk mid-game
        self._out.append(codec.encode(codec.request(request_id, decision, view, move, bank)))
        data = b"".join(self._out)
        self._out.clear()
        start = trio.current_time()
        deadline = start + move + bank
        try:
            await bot.send(data, deadline)
        except BotGone as exc:
            return Answer(None, Fault("crash", await self._crash_reason(str(exc))),
                          trio.current_time() - start, request_id)
        while True:
            try:
                line = await bot.read_line(deadline)
            except ReplyTimeout as exc:
                self._bank = 0.0
                reason = (f"no reply within {move + bank:.3g} s (move time {move:g} s + time bank "
                          f"{bank:.3g} s): {exc}")
                return Answer(None, Fault("timeout", reason), move + bank, request_id)
            except LineTooLong as exc:
                return self._answer(None, Fault("malformed", str(exc)), start, request_id)
            except BotGone as exc:
                reason = await self._crash_reason(str(exc))
                return Answer(None, Fault("crash", reason), trio.current_time() - start,
                              request_id)
            try:
                reply = codec.decode_reply(line)
            except codec.ProtocolError as exc:
                reason = f"{exc.reason}; the line began {line[:80]!r}"
                return self._answer(None, Fault("malformed", reason), start, request_id)
            if reply.id < request_id:
                continue  # a late answer to a request that already timed out
            if reply.id != request_id:
                fault = Fault("wrong_id", f"reply id {reply.id} does not match request id "
                                          f"{request_id}")
                return self._answer(None, fault, start, request_id)
            try:
                action = codec.reply_to_action(reply, self._seat)
            except codec.ProtocolError as exc:
                return self._answer(None, Fault("malformed", exc.reason), start, request_id)
            return self._answer(action, None, start, request_id)

    def _answer(
        self, action: Action | None, fault: Fault | None, start: float, request_id: int
    ) -> Answer:
        """Charge the time used: overruns of the move time come out of the time bank."""
        elapsed = trio.current_time() - start
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
            return []
        self._out.append(
            codec.encode(codec.game_end(self._game_id, result["money"], result["ranks"],
                                        result["retired"]))
        )
        data = b"".join(self._out)
        self._out.clear()
        faults: list[Fault] = []
        cut = bot.stderr.check()
        try:
            await bot.send(data, trio.current_time() + self._move + self._bank + 1.0)
        except BotGone:  # dead, or not reading: restarted for its next game
            await self._stop(goodbye=False)
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
