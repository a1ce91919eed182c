"""A bot's transcript (`bot_transcript.py`) read back for people: a request shown with what it
asks first, and the exchange of one request (`referee check` shows a failed answer's).
"""

from __future__ import annotations

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
    return [orjson.loads(raw) for raw in transcript.read_bytes().splitlines() if raw.strip()]


def _bot_line(message: Any) -> str:
    if isinstance(message, str):  # not JSON: kept as text
        return f"bot>     {message[:SHOWN_WIDTH]}  (not JSON)"
    return f"bot>     {orjson.dumps(message).decode()[:SHOWN_WIDTH]}"


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
                    said.append(_bot_line(later["from_bot"]))
            return [f"referee> {shown_request(msg, SHOWN_WIDTH)}",
                    *(said or ["bot>     (no reply)"])]
    return [_NEVER_REACHED]
