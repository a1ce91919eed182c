"""Pure encode/decode between protocol messages and bytes (one JSON object per line).

Outgoing messages are built as plain dicts (their shapes are the models in `messages`; a test
checks every one) and encoded with orjson, because this runs on every decision.  Incoming lines
are parsed and validated in one step by pydantic; any failure is a `ProtocolError` that says
what was wrong, which the referee records as the bot's fault.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, get_args

import orjson
from pydantic import ValidationError

from referee.game import (
    Action,
    Bid,
    Buy,
    Decision,
    DecisionKind,
    Edition,
    Event,
    HiddenBids,
    Offer,
    Pass,
    Play,
    Price,
    Reveal,
)
from referee.validation import first_error

from .messages import PROTOCOL_VERSION, ActionName, ActionReply, BotHello, FaultKind

BAD_HELLO = "bad hello"  # how a hello the referee cannot read is told (feedback tells it apart)


class ProtocolError(ValueError):
    """A line from a bot that is not a valid message; `kind` is the fault it counts as."""

    def __init__(self, kind: FaultKind, reason: str) -> None:
        super().__init__(reason)
        self.kind: FaultKind = kind
        self.reason = reason


def encode(message: dict[str, Any]) -> bytes:
    return orjson.dumps(message, option=orjson.OPT_APPEND_NEWLINE)


# ---------------------------------------------------------------- referee to bot


def hello(referee: str) -> dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "referee": referee}


def edition_info(edition: Edition) -> dict[str, Any]:
    return {
        "name": edition.name,
        "artists": list(edition.artists),
        "cards": [
            {"id": c, "artist": edition.card_artist[c], "type": edition.card_type[c].label}
            for c in range(edition.n_cards)
        ],
    }


def new_game(
    game_id: str,
    seat: int,
    names: list[str],
    edition: dict[str, Any],
    variants: list[str],
    move_time: float,
    time_bank: float,
    seed: int,
) -> dict[str, Any]:
    return {
        "type": "new_game",
        "game_id": game_id,
        "seat": seat,
        "players": len(names),
        "names": names,
        "edition": edition,
        "variants": variants,
        "time": {"move": move_time, "bank": time_bank},
        "seed": seed,
    }


def event(ev: Event) -> dict[str, Any]:
    return {"type": "event", "event": ev.to_dict()}


def _cards(d: Decision) -> dict[str, Any]:
    return {"cards": list(d.cards), "can_pass": d.can_pass}


def _amount(d: Decision) -> dict[str, Any]:
    return {"min": d.min_amount, "max": d.max_amount, "can_pass": d.can_pass}


_LEGAL: dict[DecisionKind, Callable[[Decision], dict[str, Any]]] = {
    DecisionKind.PLAY: _cards,
    DecisionKind.OFFER: _cards,
    DecisionKind.BID: _amount,
    DecisionKind.HIDDEN_BID: _amount,
    DecisionKind.PRICE: _amount,
    DecisionKind.BUY: lambda d: {"price": d.price, "can_pass": True},
    DecisionKind.MYSTERY: lambda d: {"can_pass": True},
}


def legal(decision: Decision) -> dict[str, Any]:
    """What is legal, as the request's `legal` object (its shape depends on the kind)."""
    return _LEGAL[decision.kind](decision)


def request(
    request_id: int, decision: Decision, view: dict[str, Any], move_left: float, bank_left: float
) -> dict[str, Any]:
    return {
        "type": "request",
        "id": request_id,
        "decision": decision.kind,  # a str enum: orjson writes its value
        "view": view,
        "legal": legal(decision),
        # in whole milliseconds, rounded down: 8.498, not 8.498107418992731
        "time": {"move": move_left, "bank": math.floor(bank_left * 1000) / 1000},
    }


def warning(request_id: int, fault: FaultKind, reason: str, applied: dict[str, Any]
            ) -> dict[str, Any]:
    return {"type": "warning", "id": request_id, "fault": fault, "reason": reason,
            "applied": applied}


def game_end(
    game_id: str, money: Sequence[int], ranks: Sequence[int], retired: Sequence[int]
) -> dict[str, Any]:
    return {"type": "game_end", "game_id": game_id, "money": money, "ranks": ranks,
            "retired": retired}


GOODBYE: dict[str, Any] = {"type": "goodbye"}


# ---------------------------------------------------------------- bot to referee


def _describe(exc: ValidationError) -> str:
    return first_error(exc)[:300]


def decode_hello(line: bytes) -> BotHello:
    try:
        return BotHello.model_validate_json(line)
    except ValidationError as exc:
        version = next((e for e in exc.errors() if tuple(e["loc"]) == ("protocol",)), None)
        if version is None:
            why = _unknown_key(line, exc, _HELLO_KEYS, reply=False) or _describe(exc)
        else:
            why = ("protocol: none given" if version["type"] == "missing" else
                   f"protocol: {json.dumps(version['input'])[:40]}") + \
                f", where it must be {PROTOCOL_VERSION}, the version this referee speaks"
        others = [e for e in exc.errors() if tuple(e["loc"]) != ("protocol",)]
        if version is not None and others:  # the rest too: one fix at a time costs a run each
            # `bot` for `name`: said as the keys a hello has
            why = (why + "; " + (_keys_said(others, f"({_HELLO_KEYS})") or _at(others[0])))[:300]
        raise ProtocolError(FaultKind.MALFORMED, f"{BAD_HELLO}: {why}; {shown(line)}") from None


# What a bot that wrote other lines on stdout is told (a malformed reply; `play`'s note of the
# real answers such lines pushed out of step).
STDOUT_ONLY = "stdout is for protocol messages only: write logs and debug output to stderr"


def shown(line: bytes) -> str:
    """The start of a line the referee could not use, as text, with a hint at the usual
    causes: something printed before the message, a pretty-printed message, a byte-order
    mark."""
    try:
        said = f"the line began {line.decode()[:80]!r}"
    except UnicodeDecodeError:
        return f"the line began {line[:80]!r} (not UTF-8: write UTF-8 text)"
    stripped = line.strip()
    if line.startswith(b"\xef\xbb\xbf"):
        return said + " (a UTF-8 byte-order mark: write plain UTF-8, without one)"
    if stripped in (b"{", b"[", b"}", b"]", b"},", b"],") or (
            line[:1] in (b" ", b"\t") and stripped[:1] in (b'"', b"{", b"[", b"}", b"]")) or (
            stripped.startswith(b"{") and stripped.endswith((b",", b"{", b"["))):
        return said + " (a message is one JSON object on one line: do not pretty-print it)"
    if stripped.startswith(b"Error occurred during initialization of VM"):
        return said + (" (the JVM could not start: most likely it could not reserve its heap "
                       "within the address-space limit: a command that starts with java gets "
                       "8G, any other, such as a script that runs java, 2G; raise "
                       "--address-space, or address_space in the tournament file)")
    if not stripped.startswith((b"{", b"[")):
        return said + f" ({STDOUT_ONLY})"
    kind = _message_type(stripped)
    if kind is not None and kind not in ("action", "hello"):
        return said + (f" (a message of type {kind!r}: a bot sends only its hello and its "
                       "replies; write logs and debug output to stderr)")
    return said


def _message_type(line: bytes) -> str | None:
    """The `type` of a JSON object line, if it has a string one (an echoed message)."""
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    kind = data.get("type") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


class Reply(NamedTuple):
    """The fields of a valid `ActionReply`, without the model (one is read per decision)."""

    id: int
    action: str
    card: int | None
    amount: int | None


_REPLY_FIELDS = frozenset(ActionReply.model_fields)
_ACTION_NAMES = frozenset(get_args(ActionName))


# A reply exactly as the protocol's examples and the sample bots write it (no spaces, id then
# action then an optional card or amount, numbers short enough to be in range without a check).
_COMPACT = re.compile(
    rb'\{"id":(0|[1-9][0-9]{0,14}),"action":"(' + "|".join(sorted(_ACTION_NAMES)).encode()
    + rb')"(?:,"(card|amount)":(-?(?:0|[1-9][0-9]{0,8})))?\}'
).fullmatch


def _compact_reply(line: bytes) -> Reply | None:
    """A reply in the compact form most bots write, read with one regular expression: the
    decoding of a reply is on the path from one bot's answer to waking the next bot, so every
    microsecond of it is one on each decision.  None for any other line."""
    m = _COMPACT(line)
    if m is None:
        return None
    rid, action, field, value = m.groups()
    if field is None:
        return Reply(int(rid), action.decode(), None, None)
    if field == b"card":
        return Reply(int(rid), action.decode(), int(value), None)
    return Reply(int(rid), action.decode(), None, int(value))


def _plain_reply(line: bytes) -> Reply | None:
    """An ordinary, valid reply, checked by hand at a fraction of the model's cost; None for
    anything else, which the model then judges and explains.  Tests hold the two to the same
    verdicts."""
    try:
        d = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if type(d) is not dict or not _REPLY_FIELDS.issuperset(d):
        return None
    rid, action, card, amount = d.get("id"), d.get("action"), d.get("card"), d.get("amount")
    if (
        type(rid) is not int or not 0 <= rid <= 2**53
        or type(action) is not str or action not in _ACTION_NAMES
        or (card is not None and (type(card) is not int or not -(2**31) <= card <= 2**31))
        or (amount is not None and (type(amount) is not int or not -(2**31) <= amount <= 2**31))
        or d.get("type", "action") != "action"
    ):
        return None
    return Reply(rid, action, card, amount)


def decode_reply(line: bytes) -> Reply:
    """A bot's action reply, validated as `ActionReply`; `ProtocolError` (malformed, saying
    what is wrong) if it is not one."""
    plain = _compact_reply(line) or _plain_reply(line)
    if plain is not None:
        return plain
    try:
        m = ActionReply.model_validate_json(line)
    except ValidationError as exc:
        why = _unknown_key(line, exc) or _not_an_integer(exc) or _describe(exc)
        raise ProtocolError(FaultKind.MALFORMED, f"bad reply: {why}") from None
    return Reply(m.id, m.action, m.card, m.amount)


def _not_an_integer(exc: ValidationError) -> str | None:
    """An `id`, `card` or `amount` that is not a JSON integer, said with what it was and how
    to write it (a TypeScript bot's `value * 0.65` is 30.19995, which pydantic calls only
    "Input should be a valid integer"); None if no number is of the wrong type."""
    err = next((e for e in exc.errors() if e["type"] == "int_type" and len(e["loc"]) == 1
                and e["loc"][0] in ("id", "card", "amount")), None)
    if err is None:
        return None
    value = err["input"]
    if isinstance(value, bool):
        how = "a number, not true or false"
    elif isinstance(value, str):
        how = "a number, not a string"
    elif isinstance(value, float) and value.is_integer():
        how = f"write {int(value)}: a number written with a fraction or an exponent is not one"
    elif isinstance(value, float) and math.isfinite(value):
        how = "round it to a whole number: Math.trunc in JavaScript, int() in Python"
    else:
        how = "a whole number"
    shown_value = json.dumps(value)[:40] if not isinstance(value, float) or \
        math.isfinite(value) else "a number beyond a float's range"
    return f"{err['loc'][0]}: {shown_value} is not an integer ({how})"


# The number each action takes, by the key that holds it.
_TAKES = {"play": "card", "offer": "card", "bid": "amount", "price": "amount"}
_REPLY_KEYS = "a reply's keys are id, action, card and amount"
_HELLO_KEYS = "a hello's keys are type, name and protocol"


def _unknown_key(line: bytes, exc: ValidationError, keys: str = _REPLY_KEYS,
                 reply: bool = True) -> str | None:
    """A key the message (a `reply`, else one whose `keys` are given) does not have, said
    with the keys it has and, for a reply, the one its action takes (a `value` for
    `amount`), and the message's next problem; None if no key is unknown."""
    errors = exc.errors()
    if not any(e["type"] == "extra_forbidden" and len(e["loc"]) == 1 for e in errors):
        return None
    try:
        action = orjson.loads(line).get("action")
    except orjson.JSONDecodeError:  # a number past 64 bits, which pydantic reads
        action = None
    takes = _TAKES.get(action) if isinstance(action, str) and reply else None
    said = _keys_said(errors, f"({keys}" + (f"; action {action!r} takes {takes!r})" if takes
                                            else ")"))
    return None if said is None else said[:300]


def _keys_said(errors: list[Any], keys: str) -> str | None:
    """The first unknown top-level key among `errors`, said with `keys` (the keys the message
    has, in brackets), then the next problem (one fix at a time costs a run each); None if
    no key is unknown."""
    extra = next((e for e in errors if e["type"] == "extra_forbidden" and len(e["loc"]) == 1),
                 None)
    if extra is None:
        return None
    why = f"unknown key {str(extra['loc'][0])[:40]!r} {keys}"
    other = next((e for e in errors if e is not extra), None)
    return why if other is None else f"{why}; {_at(other)}"


def _at(error: Any) -> str:
    """A validation error as `loc: msg`."""
    return f"{'.'.join(map(str, error['loc']))}: {error['msg']}"


# Why a number can be null: JavaScript writes NaN and Infinity as null.
_NULL = " (JavaScript's JSON.stringify writes NaN as null: a sum over a missing value?)"


def _one_field(name: str, takes: str, value: int | None, stray: str, stray_value: int | None,
               null: str) -> int:
    """The one number an action takes (`value`, said as `takes`), or a malformed fault: it is
    missing or null, or the other field (`stray`) is given too."""
    if value is None:
        raise ProtocolError(FaultKind.MALFORMED, f"action {name!r} takes {takes}: it has none, "
                            f"or null{null}")
    if stray_value is not None:
        raise ProtocolError(FaultKind.MALFORMED, f"action {name!r} takes {takes} and no {stray}")
    return value


def reply_to_action(reply: Reply, seat: int, from_bot: bool = True) -> Action:
    """The engine action a reply asks for; a missing or stray card/amount is malformed (for a
    line `from_bot`, with why a number may be null)."""
    name = reply.action
    null = _NULL if from_bot else ""
    if name in ("play", "offer"):
        card = _one_field(name, "a card", reply.card, "amount", reply.amount, null)
        return Play(seat, card) if name == "play" else Offer(seat, card)
    if name in ("bid", "price"):
        amount = _one_field(name, "an amount", reply.amount, "card", reply.card, null)
        return Bid(seat, amount) if name == "bid" else Price(seat, amount)
    if reply.card is not None or reply.amount is not None:
        raise ProtocolError(FaultKind.MALFORMED, f"action {name!r} takes no card and no amount")
    if name == "buy":
        return Buy(seat)
    if name == "reveal":
        return Reveal(seat)
    return Pass(seat)


_ACTION_DICT: dict[type, Any] = {
    Play: lambda a: {"action": "play", "card": a.card},
    Offer: lambda a: {"action": "offer", "card": a.card},
    Bid: lambda a: {"action": "bid", "amount": a.amount},
    Price: lambda a: {"action": "price", "amount": a.amount},
    Buy: lambda a: {"action": "buy"},
    Reveal: lambda a: {"action": "reveal"},
    Pass: lambda a: {"action": "pass"},
    HiddenBids: lambda a: {"action": "hidden_bids", "amounts": list(a.amounts)},
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """An engine action in reply form (without id), for warnings and records."""
    return _ACTION_DICT[type(action)](action)  # type: ignore[no-any-return]


_ACTION_KEYS = frozenset({"action", "card", "amount"})


def action_from_dict(data: Mapping[str, Any], seat: int | None) -> Action:
    """The engine action `action_to_dict` wrote, as `seat`'s (None for a hidden auction's
    bids, which have no one seat); a ProtocolError (a ValueError) says what does not fit."""
    name, card, amount = data.get("action"), data.get("card"), data.get("amount")
    if name == "hidden_bids":
        amounts = data.get("amounts")
        if seat is not None or set(data) != {"action", "amounts"} or not (
                isinstance(amounts, list | tuple) and all(type(a) is int for a in amounts)):
            raise ProtocolError(FaultKind.MALFORMED, "'hidden_bids' takes a list of amounts "
                                                     "and belongs to no one seat")
        return HiddenBids(tuple(amounts))
    if seat is None or name not in _ACTION_NAMES or not _ACTION_KEYS.issuperset(data) or any(
            v is not None and type(v) is not int for v in (card, amount)):
        raise ProtocolError(FaultKind.MALFORMED, f"not one seat's action: {dict(data)}")
    return reply_to_action(Reply(0, str(name), card, amount), seat, from_bot=False)
