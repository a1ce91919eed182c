"""What a bot found ended at a request is told it may have crashed on (`match.ended`): the
request, or the messages it was sent since its last line, named, in one short clause."""

from __future__ import annotations

from referee.match.ended import sent_since
from referee.match.exchanges import Before


def test_a_crash_names_the_request_and_what_came_since_the_bots_last_line() -> None:
    """One event, several (each type once, counted), other messages with them, and since the
    hello: each says it crashed on this request or on what it was sent since, and names it."""
    assert sent_since(Before(["event"], ["bid"], since_hello=False)) == (
        "it crashed on this request or on the event sent since its last answer (bid)")
    assert sent_since(Before(["event"] * 3, ["bid"] * 3, since_hello=False)) == (
        "it crashed on this request or on one of the 3 events sent since its last answer "
        "(bid 3 times)")
    assert sent_since(Before(["warning"], [], since_hello=False)) == (
        "it crashed on this request or on the warning sent since its last answer")
    assert sent_since(Before(["new_game", "event", "event"], ["pass", "auction_won"],
                             since_hello=True)) == (
        "it crashed on this request or on one of the new_game and 2 events sent since its "
        "hello (pass, auction_won)")
    many = [f"e{n}" for n in range(10)]
    assert sent_since(Before(["event"] * 10, many, since_hello=False)).endswith(
        "(e0, e1, e2, e3, e4, e5, e6, e7, ...)")
