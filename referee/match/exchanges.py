"""A bot's transcript (`bot_transcript.py`) read back for people: a request shown with what it
asks first, the exchange of one request, and the lines a bot wrote that answer no request.

`referee check` shows a failed answer's exchange and counts the lines that answered nothing;
`referee replay --bot --show-request` shows each request as `shown_request` does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

# A request's fields a reader wants before its view: what is asked, what may be answered, and
# the time left.  The view (the board, about 500 characters) comes last, where it may be cut.
_REQUEST_HEAD = ("type", "id", "decision", "legal", "time")
SHOWN_WIDTH = 400  # characters of a line shown in an exchange
_NEVER_REACHED = ("(the request never reached the bot: it had stopped reading its input, or "
                  "exited)")


def shown_request(message: dict[str, Any], width: int | None = None) -> str:
    """A request as JSON, its decision, `legal` and time before its view, cut to `width`
    characters (then ending in "..."): a cut takes only the end of the view."""
    head = {k: message[k] for k in _REQUEST_HEAD if k in message}
    ordered = {**head, **{k: v for k, v in message.items() if k not in head}}
    text = orjson.dumps(ordered).decode()
    return text if width is None or len(text) <= width else text[:width] + "..."


def _entries(transcript: Path) -> list[dict[str, Any]]:
    """The transcript's lines; one cut short (the referee stopped mid-write) is left out."""
    entries = []
    for raw in transcript.read_bytes().splitlines():
        try:
            entry = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def _bot_line(message: Any, request_id: int | None = None) -> str:
    """A line the bot wrote; a reply to an earlier request than `request_id` says so (the
    referee skipped it), lest it read as an answer with a wrong id."""
    if isinstance(message, str):  # not JSON: kept as text
        return f"bot>     {message[:SHOWN_WIDTH]}  (not JSON)"
    line = f"bot>     {orjson.dumps(message).decode()[:SHOWN_WIDTH]}"
    late = message.get("id") if isinstance(message, dict) else None
    if request_id is not None and isinstance(late, int) and not isinstance(late, bool) \
            and 0 < late < request_id:
        line += f"  (an answer to earlier request {late}: skipped)"
    return line


def exchanged(transcript: Path, request_id: int, game_id: str | None = None) -> list[str]:
    """The request with this id (in game `game_id`, if given) and what the bot wrote until
    the next request, shortened: a late answer to an earlier request shows beside the line at
    fault."""
    entries = _entries(transcript)
    start = 0
    if game_id is not None:
        start = next((i for i, e in enumerate(entries)
                      if isinstance(msg := e.get("to_bot"), dict)
                      and msg.get("type") == "new_game" and msg.get("game_id") == game_id),
                     len(entries))
    for i in range(start, len(entries)):
        msg = entries[i].get("to_bot")
        if isinstance(msg, dict) and msg.get("type") == "request" and msg.get("id") == request_id:
            said: list[str] = []
            for later in entries[i + 1:]:
                sent = later.get("to_bot")
                if isinstance(sent, dict) and sent.get("type") in ("request", "hello"):
                    break  # the next request, or a new process: not this request's reply
                if "from_bot" in later and len(said) < 5:
                    said.append(_bot_line(later["from_bot"], request_id))
            return [f"referee> {shown_request(msg, SHOWN_WIDTH)}",
                    *(said or ["bot>     (no reply)"])]
    return [_NEVER_REACHED]


@dataclass(frozen=True)
class Before:
    """What the referee sent a bot after its last line and before a request: the messages'
    kinds in order, the events' own types in order, and whether that last line was its
    hello."""

    kinds: list[str]
    events: list[str]
    since_hello: bool


def sent_before(transcript: Path, request_id: int, game_id: str) -> Before | None:
    """What the bot was sent between its last line and the request with this id in game
    `game_id` (read after the fact: `referee check` tells a bot that ended at a request that
    it may have ended on one of these); None when the request is not in the transcript (it
    never reached the bot)."""
    kinds: list[str] = []
    events: list[str] = []
    since_hello = False
    in_game = False
    for entry in _entries(transcript):
        msg = entry.get("to_bot")
        if not isinstance(msg, dict):
            if "from_bot" in entry:
                said = entry["from_bot"]
                kinds, events = [], []
                since_hello = isinstance(said, dict) and said.get("type") == "hello"
            continue
        kind = str(msg.get("type"))
        if kind == "new_game":
            in_game = msg.get("game_id") == game_id
        elif in_game and kind == "request" and msg.get("id") == request_id:
            return Before(kinds, events, since_hello)
        kinds.append(kind)
        if kind == "event" and isinstance(msg.get("event"), dict):
            events.append(str(msg["event"].get("type")))
    return None


@dataclass(frozen=True)
class Unasked:
    """Lines a bot wrote that answer no request, the first of them, and what the referee had
    sent it since its line before that one."""

    count: int
    first: str
    after: str
    # of `count`, the replies to a request whose answer had been taken from a line before
    # them that was not a reply to it (debug output on stdout pushes the real answer back)
    pushed: int = 0


def unasked_lines(transcript: Path) -> Unasked | None:
    """The lines the bot wrote that answer no request, judged as the referee judges a line
    read while a request waits (`SeatProtocol.receive`): a reply with a lower id (not 0) is skipped,
    and counts here unless it is the late answer to a request that had none; any other line
    is the waiting request's answer, good or bad.  None when there is no such line."""
    sent: set[int] = set()
    answered: set[int] = set()
    waiting: int | None = None  # the request whose answer is read next
    since: list[str] = []  # what was sent since the bot's last line
    count, first, after = 0, "", ""
    pushed = 0
    taken: set[int] = set()  # requests answered by a line that was not their reply
    for entry in _entries(transcript):
        if "to_bot" in entry:
            msg = entry["to_bot"]
            kind = str(msg.get("type")) if isinstance(msg, dict) else "?"
            if kind == "request":
                waiting = msg["id"]
                sent.add(waiting)
            elif kind == "hello":  # a fresh process
                waiting = None
            since.append(kind)
            continue
        msg = entry.get("from_bot")
        heard, since = since, []
        if isinstance(msg, dict) and msg.get("type") == "hello":
            continue
        reply_id = msg.get("id") if isinstance(msg, dict) else None
        if waiting is not None and not (type(reply_id) is int and 0 < reply_id < waiting):
            answered.add(waiting)
            if reply_id != waiting:
                taken.add(waiting)
            waiting = None
        elif type(reply_id) is int and reply_id in sent and reply_id not in answered:
            answered.add(reply_id)  # the late answer to a request that timed out
        else:
            count += 1
            if reply_id in taken:
                taken.discard(reply_id)
                pushed += 1
            if count == 1:
                first, after = _bot_line(msg), _kinds(heard)
    return Unasked(count, first, after, pushed) if count else None


def _kinds(kinds: list[str]) -> str:
    """Message kinds in words, in order of first appearance: "new_game, 3 events, request"."""
    counted = Counter(kinds)
    return ", ".join(k if n == 1 else f"{n} {k}s" for k, n in counted.items()) or "nothing"
