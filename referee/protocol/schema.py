"""JSON Schemas for every protocol message, generated from the models.

`python -m referee.protocol.schema protocol/schema` writes them; a test fails when the files
and the models drift apart.  Event payloads get one schema each, built from the engine's event
types, so the spec and the engine cannot disagree either.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, create_model

from referee.game import events as game_events

from .messages import BOT_MESSAGES, REFEREE_MESSAGES, Message


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


def _file_name(model: type[BaseModel], prefix: str) -> str:
    return f"{prefix}{model.__name__}.json"


def all_schemas() -> dict[str, dict[str, Any]]:
    """File name to schema for every message (referee-to-bot, bot-to-referee) and event."""
    out: dict[str, dict[str, Any]] = {}
    groups: list[tuple[str, tuple[type[BaseModel], ...]]] = [
        ("to_bot.", REFEREE_MESSAGES), ("from_bot.", BOT_MESSAGES),
        ("event.", tuple(EVENT_MODELS.values())),
    ]
    for prefix, models in groups:
        for model in models:
            out[_file_name(model, prefix)] = model.model_json_schema()
    return out


def message_model(direction: str, message: dict[str, Any]) -> type[Message]:
    """The model a message of this direction and `type` must match."""
    models = REFEREE_MESSAGES if direction == "to_bot" else BOT_MESSAGES
    kind = message.get("type", "action")
    for model in models:
        if model.model_fields["type"].default == kind or kind in str(
            model.model_fields["type"].annotation
        ):
            return model
    raise KeyError(f"no {direction} message of type {kind!r}")


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
