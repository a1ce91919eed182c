"""What one seat was sent in a game, request by request, and what it answered there: rebuilt
from a game record by driving the seat's protocol as the match runner does
(`protocol.seat.SeatProtocol`: its requests from the engine's decisions and views, each event
to the seats that may see it, the warnings of the seat's faults, the time left as its clock ran
down), or read from a transcript's `to_bot` lines, the bot's answers judged by the same
protocol.  For `referee replay --bot` (`rerun.py`), which sends it to a bot again.

Two things a record cannot tell: in a tournament one process plays many games, so there the
request ids ran on from earlier games, which the bot also remembered; a part starts its ids
from 1, as for a fresh process.  And the time bank after an overrun is the recorded one to the
microsecond (records round times to it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

import orjson

from referee.game import Action, Event, GameState, seat_view
from referee.protocol import codec
from referee.protocol.messages import FaultKind
from referee.protocol.seat import HELLO, Faulted, Received, Replied, SeatProtocol

from .game import final_ranks
from .player import HARMLESS_FAULTS
from .record import (
    AnswerLine,
    ApplyLine,
    FaultLine,
    GameRecord,
    RecordError,
    RetiredLine,
    StepLine,
    kept_line,
    read_record,
)
from .replay import replay
from .steps import walk


class RerunError(ValueError):
    """The rerun cannot be made as asked (a seat or request out of range, a file that is
    neither a record nor a transcript, a bot that does not start); the message says why."""


@dataclass(frozen=True, slots=True)
class RequestResult:
    """What came of one request: the action the reply asked for (even one the rules refused),
    or the fault that left none; `line`, a malformed reply as a record keeps it."""

    action: Action | None = None
    fault: FaultKind | None = None
    reason: str = ""
    line: str | None = None

    def matches(self, other: RequestResult) -> bool:
        if self.action is not None or other.action is not None:
            return self.action == other.action
        return self.fault == other.fault and self.line == other.line

    def __str__(self) -> str:
        reason = self.reason.split("\n", 1)[0]
        if self.action is not None:
            text = orjson.dumps(codec.action_to_dict(self.action)).decode()
            return f"{text} ({self.fault}: {reason})" if self.fault else text
        if self.line is not None and not reason:
            return f"{self.fault}: {self.line}"
        # a malformed line's reason says what is wrong, and quotes the line's start
        return f"{self.fault}: {reason}" if reason else str(self.fault)


def result_of(event: Received) -> RequestResult | None:
    """What a line the seat's protocol judged (`SeatProtocol.receive`) came to, as a result;
    None for a reply to an earlier request, which the referee skips."""
    if isinstance(event, Replied):
        return RequestResult(event.action)
    if isinstance(event, Faulted):
        line = None if event.line is None else kept_line(event.line)
        return RequestResult(fault=event.kind, reason=event.reason, line=line)
    return None


@dataclass(frozen=True, slots=True)
class SentRequest:
    """One request a seat was sent, with the lines sent since the previous one (`before`), and
    what the seat answered in the game."""

    number: int  # 1 for the seat's first request in the game
    seat: int
    request_id: int
    decision: str
    before: bytes
    line: bytes
    recorded: RequestResult


@dataclass(frozen=True, slots=True)
class SeatPart:
    """Everything one seat was sent in a game, as requests, and what came after the last."""

    game_id: str
    seat: int
    name: str
    requests: tuple[SentRequest, ...]
    after: bytes  # warnings and game_end after the last request (goodbye is sent on closing)
    hello: bytes = HELLO

    def up_to(self, upto: int | None) -> tuple[SentRequest, ...]:
        """The requests up to number `upto` (all if None); RerunError if there is none such."""
        total = len(self.requests)
        if upto is not None and not 1 <= upto <= total:
            raise RerunError(f"--request {upto}: seat {self.seat} ({self.name}) was sent "
                             f"{total} requests in game {self.game_id}"
                             + (f" (1 to {total})" if total else ""))
        return self.requests[:upto]


class _Lines:
    """Collects the lines sent to a seat into its requests."""

    def __init__(self) -> None:
        self.pending: list[bytes] = []
        self.requests: list[SentRequest] = []

    def request(self, seat: int, request_id: int, decision: str, line: bytes,
                recorded: RequestResult) -> None:
        self.requests.append(SentRequest(len(self.requests) + 1, seat, request_id, decision,
                                     b"".join(self.pending), line, recorded))
        self.pending.clear()

    def sent(self, data: bytes) -> None:
        """Bytes the seat's protocol gave to send; a request is their last line."""
        self.pending.append(data)

    def part(self, game_id: str, seat: int, name: str, hello: bytes = HELLO) -> SeatPart:
        return SeatPart(game_id, seat, name, tuple(self.requests), b"".join(self.pending), hello)


def _recorded(lines: Iterable[StepLine], applied: ApplyLine, seat: int
              ) -> tuple[RequestResult, float]:
    """What `seat` answered in a step, and the seconds it took, from the step's lines."""
    seconds = applied.seconds
    action: Action | None = applied.action
    if applied.seat is None:  # a hidden auction: the seat's own answer line
        answer = next(ln for ln in lines if isinstance(ln, AnswerLine) and ln.seat == seat)
        seconds, action = answer.seconds, answer.action
    for ln in lines:
        if isinstance(ln, FaultLine) and ln.seat == seat and ln.kind not in HARMLESS_FAULTS:
            line = ln.line if ln.kind is FaultKind.MALFORMED else None
            return RequestResult(ln.rejected, ln.kind, ln.reason, line), seconds
    return RequestResult(action), seconds


def _seen_by(seat: int, events: Iterable[Event]) -> list[bytes]:
    """The event lines `seat` is sent, encoded as the runner encodes them."""
    return [codec.encode(codec.event(ev)) for ev in events if ev.private_to in (None, seat)]


def seat_in(record: GameRecord, seat: int | str | None) -> int:
    """The seat given as a number or as its bot's name; RerunError listing the game's seats
    when none is given or no seat is named so."""
    names = record.spec.names
    listed = ", ".join(f"{i} {n}" for i, n in enumerate(names))
    if seat is None:
        raise RerunError(f"give --seat S: whose part of the game to send to the bot ({listed})")
    if isinstance(seat, int):
        return seat
    if re.fullmatch(r"-?[0-9]+", seat):
        return int(seat)
    if seat in names:
        return names.index(seat)
    raise RerunError(f"--seat {seat}: no bot of game {record.spec.game_id} is named so "
                     f"({listed})")


def part_from_record(record: GameRecord, seat: int) -> SeatPart:
    """What `seat` was sent in a recorded game, request by request, rebuilt as the match
    runner built it; RerunError for a seat out of range, a seat that was sent nothing, or a
    record that does not agree with the rules."""
    spec = record.spec
    if not 0 <= seat < spec.players:
        raise RerunError(f"--seat {seat}: game {spec.game_id} has seats 0 to {spec.players - 1}")
    checked = replay(record)
    if not checked.ok:
        raise RerunError(f"the record does not agree with the rules ({checked.mismatches[0]}); "
                         "`referee replay` without --bot lists where")
    name = spec.names[seat]
    config = spec.config()
    state = GameState(config, seed=spec.seed, deck=spec.deck)
    steps = walk(record.lines)
    retired = {ln.seat for ln in steps.start if isinstance(ln, RetiredLine)}
    if seat in retired:
        raise RerunError(f"seat {seat} ({name}) did not start in game {spec.game_id}: it was "
                         "sent nothing to replay")
    out = _Lines()
    # A fresh process's protocol, as `BotPlayer` drives it, with what the record says the bot
    # did in place of what it read.
    protocol = SeatProtocol()
    protocol.begin_game(spec.game_id, seat, list(spec.names), codec.edition_info(config.edition),
                        list(config.variants), spec.move_time, spec.time_bank,
                        spec.seat_seed(seat))
    protocol.send(_seen_by(seat, state.take_events()))
    for step in steps.steps:
        lines, applied = step.lines, step.applied
        if seat in state.pending_seats() and seat not in retired:
            decision = state.decision(seat)
            recorded, seconds = _recorded(lines, applied, seat)
            data = protocol.request(decision, seat_view(state, seat))
            cut = data.rfind(b"\n", 0, -1) + 1
            out.sent(data[:cut])
            out.request(seat, protocol.request_id, decision.kind.value, data[cut:], recorded)
            # The seat's clock: a timeout empties the bank, any other answer later than the
            # move time takes its overrun from it, as recorded (to the microsecond).
            if recorded.fault is FaultKind.TIMEOUT:
                protocol.timed_out(recorded.reason)
            elif seconds > protocol.move:
                protocol.charge(seconds)
                protocol.bank = round(protocol.bank, 6)
        for ln in lines:
            if isinstance(ln, FaultLine) and ln.seat == seat and ln.kind not in HARMLESS_FAULTS:
                default = applied.action if applied.seat is not None else next(
                    a.action for a in lines if isinstance(a, AnswerLine) and a.seat == seat)
                protocol.warn(protocol.request_id, ln.kind, ln.reason, default)
            elif isinstance(ln, RetiredLine):
                retired.add(ln.seat)
        events = state.apply(applied.action)
        if seat not in retired:
            protocol.send(_seen_by(seat, events))
    if seat not in retired:
        flags = [s in retired for s in range(spec.players)]
        out.sent(protocol.game_end(state.money, final_ranks(state.money, flags),
                                   sorted(retired)))
    else:
        out.sent(protocol.take())
    return out.part(spec.game_id, seat, name)


_DIRECTIONS = frozenset({"to_bot", "from_bot"})  # a transcript line's one key


def part_from_transcript(data: bytes, seat: int | None = None) -> SeatPart:
    """What a bot was sent, request by request, from its transcript (`--transcript`), and its
    answers there, judged by the seat's protocol as the referee judged them: the first reply
    after a request that is not to an earlier one.  A second hello (the bot started afresh)
    ends what is replayed."""
    out = _Lines()
    protocol = SeatProtocol()
    hello: bytes | None = None
    game_id, name, own_seat, first_seat = "", "", -1, -1
    answer: RequestResult | None = None  # to the last request, once its reply is found

    def close_request() -> None:
        """The last request's recorded answer: its reply, or none."""
        if out.requests:
            recorded = answer or RequestResult(fault=FaultKind.TIMEOUT, reason="no reply")
            out.requests[-1] = replace(out.requests[-1], recorded=recorded)

    for number, raw in enumerate(data.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            entry = orjson.loads(raw)
        except orjson.JSONDecodeError:
            entry = None
        if not isinstance(entry, dict) or len(entry) != 1 or not _DIRECTIONS & set(entry):
            raise RerunError(f"line {number} of the transcript is not a {{\"to_bot\": ...}} or "
                             "{\"from_bot\": ...} line")
        if "from_bot" in entry:
            message = entry["from_bot"]
            if out.requests and answer is None:
                line = message.encode() if isinstance(message, str) else orjson.dumps(message)
                answer = result_of(protocol.receive(line, 0.0))
            continue
        message = entry["to_bot"]
        kind = message.get("type") if isinstance(message, dict) else None
        line = orjson.dumps(message, option=orjson.OPT_APPEND_NEWLINE)
        if kind == "hello":
            if hello is not None:
                break
            hello = line
        elif kind == "request":
            close_request()
            request_id = message.get("id", 0)
            out.request(own_seat, request_id, str(message.get("decision")), line, RequestResult())
            protocol.sent_request(request_id, own_seat)
            answer = None
        elif kind != "goodbye":
            if kind == "new_game":  # a transcript of `referee check` has several games
                own_seat = int(message.get("seat", -1))
                if not game_id:
                    game_id, first_seat = str(message.get("game_id")), own_seat
                    names = message.get("names") or []
                    name = str(names[own_seat]) if 0 <= own_seat < len(names) else ""
            out.pending.append(line)
    close_request()
    if hello is None or not game_id:
        raise RerunError("the transcript has no hello and new_game sent to the bot: not a "
                         "transcript of a game")
    if seat is not None and seat != first_seat:
        raise RerunError(f"--seat {seat}: the transcript is seat {first_seat}'s ({name})")
    return out.part(game_id, first_seat, name, hello)


def read_part(data: bytes, seat: int | str | None) -> SeatPart:
    """A seat's part from a game record (`referee play --log`, `seat` needed: a number or a
    bot's name) or a transcript (`--transcript`); RerunError for anything else."""
    first = next((ln for ln in data.splitlines() if ln.strip()), b"")
    try:
        head = orjson.loads(first)
    except orjson.JSONDecodeError:
        head = None
    if isinstance(head, dict) and head.get("type") == "spec":
        try:
            record = read_record(data)
        except RecordError as exc:
            raise RerunError(str(exc)) from None
        return part_from_record(record, seat_in(record, seat))
    if isinstance(head, dict) and ("to_bot" in head or "from_bot" in head):
        named = isinstance(seat, str) and not re.fullmatch(r"-?[0-9]+", seat)
        part = part_from_transcript(data, None if named or seat is None else int(seat))
        if named and seat != part.name:
            raise RerunError(f"--seat {seat}: the transcript is seat {part.seat}'s ({part.name})")
        return part
    raise RerunError("not a game record (from `referee play --log`) nor a transcript "
                     "(from `--transcript`)")
