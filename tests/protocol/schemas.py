"""The published schemas as the spec says to use them, and the referee's own verdict on a line,
for the tests that hold the two together."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pydantic_core
from jsonschema import Draft202012Validator, validators

from referee.protocol import codec

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "protocol" / "schema"

# The protocol's integers are numbers written without a fraction or an exponent; JSON Schema's
# own `integer` also takes 15.0 and 1e1 (protocol/README.md, section 11).
_TYPES = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _, v: type(v) is int)
Validator = validators.extend(Draft202012Validator, type_checker=_TYPES)

FROM_BOT = Validator(json.loads((SCHEMA_DIR / "bot-to-referee.json").read_text()))
TO_BOT = Validator(json.loads((SCHEMA_DIR / "referee-to-bot.json").read_text()))
BY_DIRECTION = {"from_bot": FROM_BOT, "to_bot": TO_BOT}


def schema_accepts(line: bytes) -> bool:
    """Whether `line` holds JSON that bot-to-referee.json accepts, the JSON read by the
    referee's parser (JSON parsers differ at the edges: lone surrogates, 1e400)."""
    try:
        value = pydantic_core.from_json(line)
    except ValueError:
        return False
    return FROM_BOT.is_valid(value)


def referee_accepts(line: bytes) -> bool:
    """Whether the referee takes `line` from a bot: as its hello, or as a reply that is not
    malformed (whether it is the right id and a legal action depends on the request)."""
    try:
        codec.decode_hello(line)
        return True
    except codec.ProtocolError:
        pass
    try:
        codec.reply_to_action(codec.decode_reply(line), 0)
        return True
    except codec.ProtocolError:
        return False


def errors(validator: Any, value: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]
