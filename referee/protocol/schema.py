"""The protocol's two JSON Schemas, generated from the message models.

`bot-to-referee.json` accepts exactly the lines the referee accepts from a bot (its hello and
its replies), `referee-to-bot.json` every line the referee sends.  The models of `messages` say
what each field holds; the wire models here add what the codec checks or writes beyond them:
which reply takes a card or an amount (`codec.reply_to_action`), the shape of `legal` for each
decision (`codec.legal`), every event by its `type`, and a warning's applied action.  Tests hold
the schemas to the decoder and to the transcripts of real games.

`python -m referee.protocol.schema protocol/schema` writes them; a test fails when the files
and the models drift apart.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from referee.game import events as game_events

from .messages import (
    ActionReply,
    BotHello,
    CardId,
    DecisionName,
    EventMessage,
    GameEnd,
    Goodbye,
    Hello,
    Legal,
    Message,
    Money,
    NewGame,
    Request,
    Warning,
)

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
BOT_TO_REFEREE = "bot-to-referee.json"
REFEREE_TO_BOT = "referee-to-bot.json"

INTEGERS = (
    "Integers are JSON numbers written without a fraction or an exponent: the referee rejects "
    "15.0 and 1e1 where an integer goes, although JSON Schema's own `integer` type matches "
    "them. Validate with a type checker whose `integer` is such a number (protocol/README.md, "
    "section 11, shows one for Python's jsonschema)."
)


# ---------------------------------------------------------------- events


def event_classes() -> list[type[game_events.Event]]:
    return [
        cls for cls in vars(game_events).values()
        if isinstance(cls, type) and issubclass(cls, game_events.Event)
        and cls is not game_events.Event
    ]


def event_model(cls: type[game_events.Event]) -> type[BaseModel]:
    """A strict pydantic model of one engine event as bots receive it."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {"type": (Literal.__getitem__(cls.type), ...)}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if typing.get_origin(hint) is tuple:
            hint = list.__class_getitem__(typing.get_args(hint)[0])
        fields[f.name] = (hint, ...)
    return create_model(
        cls.__name__, __config__=ConfigDict(extra="forbid", strict=True), __doc__=cls.__doc__,
        **fields,
    )


EVENT_MODELS: dict[str, type[BaseModel]] = {cls.type: event_model(cls) for cls in event_classes()}
_ENGINE_EVENTS: dict[type[BaseModel], type[game_events.Event]] = {
    EVENT_MODELS[cls.type]: cls for cls in event_classes()}


def engine_event(model: BaseModel) -> game_events.Event:
    """The engine's event for a validated event model (one read back from a game record)."""
    cls = _ENGINE_EVENTS[type(model)]
    return cls(**{k: tuple(v) if type(v) is list else v for k, v in model.__dict__.items()
                  if k != "type"})


def _one_of(models: typing.Iterable[Any], discriminator: str) -> Any:
    """The union of `models`, told apart by their field `discriminator` (a `oneOf`)."""
    return Annotated[Union[tuple(models)], Field(discriminator=discriminator)]  # noqa: UP007


def _present(model: type[BaseModel], name: str) -> Any:
    """The type of an optional field of `model`, without its `None`."""
    (hint,) = (a for a in typing.get_args(model.model_fields[name].annotation)
               if a is not type(None))
    return hint


# ---------------------------------------------------------------- bot to referee

Takes = Literal["card", "amount"] | None

# The field each action takes (`codec.reply_to_action`); the other of card and amount must be
# absent or null, which the decoder reads as absent.
REPLY_FIELD: dict[str, Takes] = {
    "play": "card", "offer": "card", "bid": "amount", "price": "amount",
    "buy": None, "pass": None, "reveal": None,
}
_ACTIONS_DOC: dict[Takes, str] = {
    "card": "`play` or `offer`, which take a `card` and no `amount`",
    "amount": "`bid` or `price`, which take an `amount` and no `card`",
    None: "`buy`, `pass` or `reveal`, which take no `card` and no `amount`",
}


def _actions(takes: Takes) -> Any:
    """The type of the `action` of the actions that take `takes`."""
    return Literal.__getitem__(tuple(a for a, field in REPLY_FIELD.items() if field == takes))


def _reply_model(takes: Takes) -> type[BaseModel]:
    fields: dict[str, Any] = {"action": (_actions(takes), ...)}
    for name in ("card", "amount"):
        fields[name] = (_present(ActionReply, name), ...) if name == takes else (None, None)
    return create_model(
        {"card": "CardReply", "amount": "AmountReply", None: "PlainReply"}[takes],
        __base__=ActionReply, **fields,
        __doc__=f"A reply to a `request`, repeating its `id`: {_ACTIONS_DOC[takes]} (a null "
                "one counts as none).")


@cache
def bot_line() -> TypeAdapter[Any]:
    """A line the referee accepts from a bot: its hello first, a reply to each request after
    (built on first use, as the other wire types: a program reading records need not)."""
    replies = [_reply_model(takes) for takes in _ACTIONS_DOC]
    line: Any = Union[BotHello, _one_of(replies, "action")]  # noqa: UP007
    return TypeAdapter(line)


# ---------------------------------------------------------------- referee to bot

# What `legal` holds for each decision (`codec.legal`), and whether the seat may pass.
LEGAL_FIELDS: dict[str, tuple[tuple[str, ...], bool]] = {
    "play": (("cards",), False), "offer": (("cards",), True),
    "bid": (("min", "max"), True), "hidden_bid": (("min", "max"), False),
    "price": (("min", "max"), False), "buy": (("price",), True), "mystery": ((), True),
}


def _camel(name: str) -> str:
    return name.replace("_", " ").title().replace(" ", "")


def _request_model(decision: str) -> type[BaseModel]:
    names, can_pass = LEGAL_FIELDS[decision]
    fields: dict[str, Any] = {name: (_present(Legal, name), ...) for name in names}
    fields["can_pass"] = (Literal.__getitem__(can_pass), ...)
    legal = create_model(
        f"{_camel(decision)}Legal", __base__=Message, **fields,
        __doc__=f"What is legal in a `{decision}` decision.",
    )
    request: dict[str, Any] = {"decision": (Literal.__getitem__(decision), ...),
                               "legal": (legal, ...)}
    return create_model(
        f"{_camel(decision)}Request", __base__=Request, __doc__=f"A `{decision}` decision.",
        **request,
    )


def _applied_model(takes: Takes) -> type[BaseModel]:
    """An action the referee played for a seat, in reply form without `id`
    (`codec.action_to_dict`)."""
    fields: dict[str, Any] = {"action": (_actions(takes), ...)}
    if takes is not None:
        fields[takes] = (CardId if takes == "card" else Money, ...)
    return create_model(
        {"card": "AppliedCard", "amount": "AppliedAmount", None: "AppliedPlain"}[takes],
        __base__=Message, **fields,
        __doc__=f"An action the referee played: {_ACTIONS_DOC[takes]}.")


@cache
def referee_line() -> TypeAdapter[Any]:
    """A line the referee sends a bot."""
    event = create_model(
        "EventMessage", __base__=EventMessage,
        __doc__="A game event, one of section 5's types; `cards_dealt` only to its own seat.",
        event=(_one_of(EVENT_MODELS.values(), "type"), ...),
    )
    warning = create_model(
        "Warning", __base__=Warning, __doc__=Warning.__doc__,
        applied=(_one_of([_applied_model(takes) for takes in _ACTIONS_DOC], "action"), ...),
    )
    requests = [_request_model(d) for d in typing.get_args(DecisionName)]
    return TypeAdapter(_one_of(
        (Hello, NewGame, event, _one_of(requests, "decision"), warning, GameEnd, Goodbye),
        "type"))


# ---------------------------------------------------------------- the files


def _tags_as_if_then(node: Any) -> Any:
    """`node` with each of pydantic's discriminated unions (a `oneOf` with an OpenAPI
    `discriminator`) written as `if`/`then` on its tag: the same lines validate, and a
    validator then says what is wrong in the branch the tag names ("15.0 is not of type
    'integer'") where a `oneOf` only says that no branch matched."""
    if isinstance(node, list):
        return [_tags_as_if_then(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _tags_as_if_then(value) for key, value in node.items()}
    if not isinstance(node.get("discriminator"), dict) or "oneOf" not in node:
        return node
    tag, mapping = node["discriminator"]["propertyName"], node["discriminator"]["mapping"]
    tags_of: dict[str, list[str]] = {}
    for value, target in mapping.items():
        tags_of.setdefault(target, []).append(value)
    return {
        **{key: value for key, value in node.items() if key not in ("oneOf", "discriminator")},
        "type": "object",
        "required": [tag],
        "properties": {tag: {"enum": list(mapping)}},
        "allOf": [{"if": {"required": [tag], "properties": {tag: _one_value(values)}},
                   "then": {"$ref": target}} for target, values in tags_of.items()],
    }


def _one_value(values: list[str]) -> dict[str, Any]:
    return {"const": values[0]} if len(values) == 1 else {"enum": values}


def _lift_inline_union(schema: dict[str, Any], name: str) -> list[dict[str, str]]:
    """Move the union written inline among `schema`'s top-level branches (the replies, or the
    requests told apart by `decision`) to `$defs` as `name`; the branches, each now a `$ref`."""
    ref = f"#/$defs/{name}"
    branches = schema.pop("oneOf" if "oneOf" in schema else "anyOf")
    (inline,) = [branch for branch in branches if "$ref" not in branch]
    schema["$defs"][name] = inline
    for tag, target in schema.get("discriminator", {}).get("mapping", {}).items():
        if target == inline:
            schema["discriminator"]["mapping"][tag] = ref
    return [{"$ref": ref} if branch is inline else branch for branch in branches]


def bot_to_referee() -> dict[str, Any]:
    """The schema of every line the referee accepts from a bot."""
    schema = bot_line().json_schema()
    hello, reply = _lift_inline_union(schema, "Reply")
    document: dict[str, Any] = _tags_as_if_then({
        "$schema": JSON_SCHEMA_DIALECT,
        "title": "A line a bot sends the referee",
        "description": (
            "The first line is the bot's hello, every later one a reply to a request. A line "
            "is UTF-8 text of at most 65,536 bytes before its newline (protocol/README.md, "
            "section 1); this schema judges the JSON value it holds. A reply that validates "
            "may still be at fault: its `id` must be the request's, and its action one the "
            f"request allows (section 8). {INTEGERS}"),
        "if": {"required": ["type"], "properties": {"type": {"const": "hello"}}},
        "then": hello,
        "else": reply,
        "$defs": schema["$defs"],
    })
    return document


def referee_to_bot() -> dict[str, Any]:
    """The schema of every line the referee sends a bot."""
    schema = referee_line().json_schema()
    schema["oneOf"] = _lift_inline_union(schema, "Request")
    document: dict[str, Any] = _tags_as_if_then({
        "$schema": JSON_SCHEMA_DIALECT,
        "title": "A line the referee sends a bot",
        "description": (
            "One of the messages of protocol/README.md, section 3, told apart by `type` (a "
            f"request also by `decision`, an event by its own `type`). {INTEGERS}"),
        **schema,
    })
    return document


def all_schemas() -> dict[str, dict[str, Any]]:
    """File name to schema, for both directions."""
    return {BOT_TO_REFEREE: bot_to_referee(), REFEREE_TO_BOT: referee_to_bot()}


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in sorted(all_schemas().items()):
        path = folder / name
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write(Path(sys.argv[1] if len(sys.argv) > 1 else "protocol/schema")):
        print(p)
