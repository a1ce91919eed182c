"""A game record, typed: every line the match runner writes, and their reading.

On disk a record is JSON lines: a `spec` line; the `deal` (the deck it was dealt from, and
the mystery hand); per step any `fault` and `retired` lines, a hidden auction's `answer` lines
(one per seat), the `apply`ed action and its `event`s; last the `result`.  docs/records.md
describes every field, for a reader without this code.  In memory each line is a frozen
dataclass holding the engine's own values (an `Action`, an `Event`, a `Fault`): the runner
makes one for each step of every game, and a dataclass of engine values costs little more
than the dict it replaces, while turning actions and events into JSON is left to
`GameRecord.to_jsonl`, once per game.  Reading goes through pydantic (`read_record`), which
checks every line and says which one is wrong and how, and gives the JSON Schema of a line
(`record_schema`, written to protocol/schema/record.json by `python -m referee.match.record`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)

from referee.game import Action, Event, GameState
from referee.protocol import codec
from referee.protocol.messages import FaultKind
from referee.text import visible
from referee.validation import first_error

from .player import Fault
from .result import (
    STRICT,
    GameResult,
    RecordError,
    result_fields,
)
from .spec import GameSpec

__all__ = [
    "AnswerLine", "ApplyLine", "DealLine", "EventLine", "FaultLine", "GameRecord",
    "RecordError", "RecordLine", "ResultLine", "RetiredLine", "SpecLine", "StepLine",
    "kept_line", "read_record", "record_schema",
]

# Who chose an applied action: the bot; the referee, for a bot at fault ("default") or a
# retired seat ("retired"); or, for a hidden auction's joint bids, every seat ("bots").
Source = Literal["bot", "default", "retired"]


class ActionForm(BaseModel):
    """An action as a record writes it: a reply's action and its card or amount (without the
    reply's id), or `hidden_bids` with every seat's amount."""

    model_config = STRICT

    action: Literal["play", "offer", "bid", "price", "buy", "pass", "reveal", "hidden_bids"]
    card: int | None = None
    amount: int | None = None
    amounts: list[int] | None = None


def _action(form: ActionForm, info: ValidationInfo) -> Action:
    """The engine action of a line's `action` (or `rejected`), for the line's seat."""
    return codec.action_from_dict(form.model_dump(exclude_none=True), info.data.get("seat"))


def _event(model: BaseModel) -> Event:
    from referee.protocol.schema import engine_event

    return engine_event(model)


if TYPE_CHECKING:
    RecordedAction = Action
    RecordedEvent = Event
else:  # as pydantic reads them: the JSON forms, turned into the engine's values
    RecordedAction = Annotated[ActionForm, AfterValidator(_action)]
    RecordedEvent = Annotated["EventPayload", AfterValidator(_event)]  # noqa: F821 (see _adapters)


# ---------------------------------------------------------------- the lines of a step


# How much of a malformed reply a fault line keeps: enough to see what the bot wrote, not so
# much that a flood of long lines swells the store.
KEPT_LINE_BYTES = 300


def kept_line(line: bytes) -> str:
    """A malformed reply as its fault line keeps it: its first KEPT_LINE_BYTES bytes, a byte
    that is not UTF-8 written `\\xff`, and every character that does not show as itself
    escaped (`referee.text.visible`), so that printing a record cannot drive a terminal."""
    return visible(line[:KEPT_LINE_BYTES].decode("utf-8", "backslashreplace"))


@dataclass(frozen=True, slots=True, kw_only=True)
class FaultLine:
    """A seat's fault; `rejected` is the action it asked for, when its reply could be read;
    `line`, a malformed reply itself: its first 300 bytes, control characters escaped."""

    __pydantic_config__ = STRICT

    type: Literal["fault"] = "fault"
    seat: int
    kind: FaultKind
    reason: str
    rejected: RecordedAction | None = None
    line: str | None = None

    @property
    def fault(self) -> Fault:
        return Fault(self.kind, self.reason)


@dataclass(frozen=True, slots=True, kw_only=True)
class RetiredLine:
    """A seat is retired for the rest of the game: `reason` is the fault kind that retired it
    at once (`crash`, `start`), or how many faults it made."""

    __pydantic_config__ = STRICT

    type: Literal["retired"] = "retired"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerLine:
    """One seat's hidden bid, written before the `apply` line of the joint bids."""

    __pydantic_config__ = STRICT

    type: Literal["answer"] = "answer"
    seat: int
    source: Source
    action: RecordedAction
    seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ApplyLine:
    """The action applied in one step; `seat` is None (and `source` "bots") for a hidden
    auction's bids; `seconds` is the time the bot took."""

    __pydantic_config__ = STRICT

    type: Literal["apply"] = "apply"
    seat: int | None
    source: Source | Literal["bots"]
    action: RecordedAction
    seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class EventLine:
    """One event of the step just applied, as the seats it was public to were sent it."""

    __pydantic_config__ = STRICT

    type: Literal["event"] = "event"
    event: RecordedEvent


StepLine = FaultLine | RetiredLine | AnswerLine | ApplyLine | EventLine


# ---------------------------------------------------------------- the first and last lines


@dataclass(frozen=True, slots=True, kw_only=True)
class DealLine:
    """The second line: the deck the game was dealt from, top card first (R2.3), and in the
    mystery variant every card dealt to the mystery hand, in deal order (R7); so that a reader
    can check the deal against the seed, and each mystery card turned against the hand."""

    __pydantic_config__ = STRICT

    type: Literal["deal"] = "deal"
    deck: tuple[int, ...]
    mystery: tuple[int, ...] | None = None  # None: the variant has no mystery hand

    @classmethod
    def of(cls, state: GameState) -> DealLine:
        """The deal of a game, so far (the mystery hand grows each round)."""
        mystery = tuple(state.mystery_dealt) if state.config.mystery is not None else None
        return cls(deck=state.deck_order, mystery=mystery)


class SpecLine(GameSpec):
    """The first line: the game's spec, enough to replay it."""

    type: Literal["spec"] = "spec"

    def spec(self) -> GameSpec:
        return GameSpec(**self.model_dump(exclude={"type"}))


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultLine(GameResult):
    """The last line: the game's result."""

    type: Literal["result"] = "result"

    def result(self) -> GameResult:
        return GameResult(**result_fields(self))


RecordLine = SpecLine | DealLine | StepLine | ResultLine


# ---------------------------------------------------------------- made in the hot path

# The match runner makes an `apply` line and an `event` line or two for every decision.  A
# frozen dataclass's own `__init__` sets each field through `object.__setattr__` (to get past
# `frozen`), which makes it several times dearer than the dict it replaces; these constructors
# set the slots through their descriptors instead, in half the time, and give the same object.
_new = object.__new__


def _slot_setter(cls: type, name: str) -> Callable[[object, object], None]:
    return cls.__dict__[name].__set__  # type: ignore[no-any-return]  # a slot's descriptor


_event_type, _event_event = (_slot_setter(EventLine, n) for n in ("type", "event"))
_apply_type, _apply_seat, _apply_source, _apply_action, _apply_seconds = (
    _slot_setter(ApplyLine, n) for n in ("type", "seat", "source", "action", "seconds"))


def event_lines(events: Iterable[Event]) -> list[EventLine]:
    """`[EventLine(event=e) for e in events]`, made quickly."""
    out = []
    for event in events:
        line: EventLine = _new(EventLine)
        _event_type(line, "event")
        _event_event(line, event)
        out.append(line)
    return out


def apply_line(seat: int | None, source: Source | Literal["bots"], action: Action,
               seconds: float) -> ApplyLine:
    """`ApplyLine(seat=seat, source=source, action=action, seconds=seconds)`, made quickly."""
    line: ApplyLine = _new(ApplyLine)
    _apply_type(line, "apply")
    _apply_seat(line, seat)
    _apply_source(line, source)
    _apply_action(line, action)
    _apply_seconds(line, seconds)
    return line


# ---------------------------------------------------------------- the record


def _fault_dict(line: FaultLine) -> dict[str, Any]:
    out = {"type": "fault", "seat": line.seat, "kind": line.kind, "reason": line.reason}
    if line.rejected is not None:
        out["rejected"] = codec.action_to_dict(line.rejected)
    if line.line is not None:
        out["line"] = line.line
    return out


def _deal_dict(line: DealLine) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "deal", "deck": line.deck}
    if line.mystery is not None:
        out["mystery"] = line.mystery
    return out


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Every step of one game, and its result: enough to re-check it against the rules."""

    spec: GameSpec
    lines: tuple[StepLine, ...]  # the steps' lines, between the deal and the result
    result: GameResult
    deal: DealLine | None = None  # None in a record written before records kept their deal
    # The event lines as the runner encoded them for the seats, in order (the protocol's event
    # message is the record's event line): `to_jsonl` writes them as they are.  Empty for a
    # record read back, whose events it encodes again.
    sent_events: tuple[bytes, ...] = field(default=(), repr=False, compare=False)

    def to_jsonl(self) -> bytes:
        """The record's JSON lines, each object's keys in the order they were always written."""
        dumps, newline, action_dict = orjson.dumps, orjson.OPT_APPEND_NEWLINE, codec.action_to_dict
        # `order` only when it is not 0: a single game's spec, and one written before it was
        # kept, are written as they always were.
        spec = self.spec.model_dump(exclude=None if self.spec.order else {"order"})
        out = [dumps({"type": "spec", **spec}, option=newline)]
        if self.deal is not None:
            out.append(dumps(_deal_dict(self.deal), option=newline))
        sent = iter(self.sent_events)
        for line in self.lines:  # by exact type, the commonest first: this runs every game
            if type(line) is EventLine:
                out.append(next(sent, b"") or dumps(
                    {"type": "event", "event": line.event.to_dict()}, option=newline))
            elif type(line) is ApplyLine or type(line) is AnswerLine:
                out.append(dumps({"type": line.type, "seat": line.seat, "source": line.source,
                                  "action": action_dict(line.action), "seconds": line.seconds},
                                 option=newline))
            elif type(line) is FaultLine:
                out.append(dumps(_fault_dict(line), option=newline))
            else:  # orjson writes a dataclass's fields in their order
                out.append(dumps(line, option=newline))
        out.append(dumps({"type": "result", **result_fields(self.result)}, option=newline))
        return b"".join(out)


@cache
def _adapters() -> tuple[TypeAdapter[SpecLine], TypeAdapter[RecordLine]]:
    """Built on first use, with the event models (`EventPayload`, which `RecordedEvent`
    names): building them takes some 10 ms that a program writing records need not spend."""
    from referee.protocol.schema import EVENT_MODELS

    globals()["EventPayload"] = Annotated[Union[tuple(EVENT_MODELS.values())],  # noqa: UP007
                                          Field(discriminator="type")]
    return (TypeAdapter(SpecLine),
            TypeAdapter(Annotated[RecordLine, Field(discriminator="type")]))


def read_record(data: bytes) -> GameRecord:
    """A record from its JSON lines (blank lines skipped); RecordError names the first line
    that is not what the runner writes, and says what is wrong with it."""
    raw = [line for line in data.splitlines() if line.strip()]
    try:
        first = orjson.loads(raw[0]) if raw else None
    except orjson.JSONDecodeError:
        first = None
    if not isinstance(first, dict) or first.get("type") != "spec":
        hint = (" (a bot's transcript: replay it with --bot BOT)"
                if isinstance(first, dict) and ("to_bot" in first or "from_bot" in first)
                else "")
        raise RecordError(f"not a game record: the first line is not a spec{hint}")
    spec_adapter, line_adapter = _adapters()
    try:
        spec = spec_adapter.validate_json(raw[0]).spec()
    except ValidationError as exc:
        raise RecordError(f"the record's spec is not valid: {first_error(exc)}") from None
    deal: DealLine | None = None
    steps: list[StepLine] = []
    for number, text in enumerate(raw[1:], start=2):
        try:
            line = line_adapter.validate_json(text)
        except ValidationError as exc:
            raise RecordError(f"line {number} of the record is not valid: "
                              f"{first_error(exc)}") from None
        if isinstance(line, ResultLine) and number == len(raw):
            return GameRecord(spec, tuple(steps), line.result(), deal)
        if isinstance(line, DealLine) and number == 2:
            deal = line
            continue
        if isinstance(line, SpecLine | DealLine | ResultLine):
            raise RecordError(f"line {number} of the record is a {line.type} line, which only "
                              "the first (spec), the second (deal) or the last (result) may be")
        steps.append(line)
    raise RecordError("the record ends before its result line (it was cut short)")


def record_schema() -> dict[str, Any]:
    """The JSON Schema of one line of a game record."""
    schema = _adapters()[1].json_schema()
    return {"title": "A line of a game record", **schema}


def write_schema(folder: Path) -> Path:
    path = folder / "record.json"
    path.write_text(json.dumps(record_schema(), indent=2, sort_keys=True) + "\n")
    return path


if __name__ == "__main__":
    print(write_schema(Path(sys.argv[1] if len(sys.argv) > 1 else "protocol/schema")))
