"""The JavaScript, Perl, Java and C++ kits live through an error in the entrant's strategy as
the other kits do: one line on stderr naming the error and its place (where the language
keeps one), in the words the referee counts as an error the bot lived through, then the
decision's default or the event ignored; never a crash that retires the bot for the game."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from .kits import built_kit
from .patched import (
    NEW_GAME,
    VIEW,
    counted,
    lived_through_a_bid,
    logged_at,
    patched_kit,
    request,
)


def test_the_javascript_kit_lives_through_an_error_in_its_strategy(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """An entrant's `seenEvent` reads a payment's `payee`, null for the bank, and its
    `chooseBid` a bid's (absent) `legal.cards`: the bot logs each TypeError in one line with
    its line of bot.js and its function (the event's type; the request and its decision),
    answers the bid with the default (pass) and plays on, where the event's error used to
    crash it (the kit had no place for an entrant's event tracking)."""
    done, (event_line, bid_line) = patched_kit("javascript", tmp_path_factory, "bot.js", {
        "function seenEvent(event) {":
            '\n  if (event.type === "payment") event.payee.toFixed(); // bug\n',
        "function chooseBid(view, legal) {\n": "  const first = legal.cards[0]; // bug\n"})
    lived_through_a_bid(done, {
        r"^heuristic_js: cannot read an event \(payment: TypeError: Cannot read properties of "
        r"null \(reading 'toFixed'\) at bot\.js:(\d+) in seenEvent\), ignored$": event_line,
        r"^heuristic_js: request 1 \(bid\): TypeError: Cannot read properties of undefined "
        r"\(reading '0'\) at bot\.js:(\d+) in chooseBid; falling back to the default$": bid_line},
        errors=2)


def test_the_perl_kit_lives_through_a_die_in_its_strategy(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """An entrant's `seen_event` uses a payment's `payee`, null for the bank, as an array, and
    `decide` a bid's (absent) `legal.cards`: the bot logs each error in one line, Perl's
    message with its place as bot.pl:LINE and the sub (the event's type; the request and its
    decision), answers the bid with the default (pass) and plays on, where the event's error
    used to end it (the kit had no place for an entrant's event tracking).  The session's
    events are written with a space after the colon, so the loop's skip of `{"type":"event"`
    lets them through, as removing it would."""
    done, (event_line, bid_line) = patched_kit("perl", tmp_path_factory, "bot.pl", {
        "    my ($event) = @_;\n":
            "    my $payee = scalar @{ $event->{payee} }; # bug\n",
        "    if ($decision eq 'bid') {\n":
            "        my $first = scalar @{ $legal->{cards} }; # bug\n"})
    lived_through_a_bid(done, {
        r"^modest_pl: cannot read an event \(payment: Can't use an undefined value as an ARRAY "
        r"reference at bot\.pl:(\d+) in seen_event\), ignored$": event_line,
        r"^modest_pl: request 1 \(bid\): Can't use an undefined value as an ARRAY reference at "
        r"bot\.pl:(\d+) in decide; falling back to the default$": bid_line},
        errors=2)


def test_the_java_kit_lives_through_an_exception_a_deep_recursion_and_an_assert(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """An entrant's Java `seenEvent` unboxes a payment's `payee`, null for the bank; its
    `decide` recurses without end; its `newGame` throws an AssertionError in the second game.
    The bot logs each in one line, in the words the referee counts as an error it lived
    through: the exception or error and its file, line and method (the event's type; each
    request and its decision), and plays on, every request answered with its default, where
    the event's exception used to crash it (the kit had no place for an entrant's event
    tracking) and the StackOverflowError and the AssertionError to end it (the kit caught
    RuntimeException only).  A StackOverflowError's stack trace is cut to a few lines."""
    done, (game_line, event_line, decide_line) = patched_kit(
        "java", tmp_path_factory, "Bot.java", {
            "    void newGame(Map<String, Object> msg) {\n":
                '        if ("g2".equals(msg.get("game_id"))) throw new AssertionError("no");'
                " // bug\n",
            "    void seenEvent(Map<String, Object> event) {\n":
                '        long payee = (Long) event.get("payee"); // bug\n',
            "    Map<String, Object> decide(Map<String, Object> request) {\n":
                "        if (!request.isEmpty()) return decide(request); // bug\n"})
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[1:] == [{"id": 1, "action": "pass"}, {"id": 2, "action": "play", "card": 0},
                           {"id": 3, "action": "play", "card": 0}], done.stdout
    where = logged_at(done.stderr,
                      r"^sample_java: cannot read an event \(payment: "
                      r"java\.lang\.NullPointerException: .* at Bot\.java:(\d+) in "
                      r"Bot\.seenEvent\), ignored$")
    assert where == event_line, done.stderr
    for id_, decision in ((1, "bid"), (2, "play")):
        where = logged_at(done.stderr,
                          rf"^sample_java: request {id_} \({decision}\): "
                          r"java\.lang\.StackOverflowError at Bot\.java:(\d+) in Bot\.decide; "
                          r"falling back to the default$")
        assert where == decide_line, done.stderr
    where = logged_at(done.stderr,
                      r"^sample_java: cannot read new_game \(java\.lang\.AssertionError: no at "
                      r"Bot\.java:(\d+) in Bot\.newGame\); answering the defaults$")
    assert where == game_line, done.stderr
    assert re.search(r"^sample_java: request 3 \(play\): no game: .*; falling back to the "
                     r"default$", done.stderr, re.MULTILINE), done.stderr
    assert len(done.stderr.splitlines()) < 200, done.stderr  # not 1024 frames a request
    errors = counted(done.stderr)
    assert errors.count == 5 and "seenEvent" in errors.first, done.stderr


def test_the_cpp_kit_names_a_strategy_exception_and_lives_through_one_in_an_event(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The C++ kit as built, made to throw by what it is sent (no rebuild): a `round_ended`
    whose counts are not numbers (nlohmann's type_error, reading the event for `seen_event`),
    and a play with a card in hand that the edition lacks (std::out_of_range from the
    strategy's `.at()`).  The bot logs each in one line, the event's type and the exception
    (the request's by its type and message: C++ keeps no place), in the words the referee
    counts as an error it lived through, answers the default (the first legal card) and plays
    on; the event's exception used to be logged in words the referee did not count."""
    folder = built_kit("cpp", tmp_path_factory).folder
    session = [
        {"type": "hello", "protocol": 1, "referee": "test"},
        NEW_GAME,
        {"type": "event", "event": {"type": "round_ended", "round": 1, "ender": 0,
                                    "counts": ["x", 1], "ranking": [1, 0], "tiles": [20, 30],
                                    "values": [20, 30], "unsold": []}},
        {**request(1, "play", {"cards": [1, 0], "can_pass": False}),
         "view": {**VIEW, "hand": [0, 1, 99], "auction": None}},
        request(2, "bid", {"min": 1, "max": 100, "can_pass": True}),
        {"type": "goodbye"},
    ]
    done = subprocess.run(["./bot"], cwd=folder, capture_output=True, text=True, timeout=30,
                          input="".join(json.dumps(line) + "\n" for line in session))
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[1] == {"id": 1, "action": "play", "card": 1}, done.stdout
    assert replies[2]["id"] == 2, done.stdout  # the next request is answered as usual
    assert re.search(r"^sample_cpp: cannot read an event \(round_ended: \[json\.exception\."
                     r"type_error\.\d+\] type must be number, but is string\), ignored$",
                     done.stderr, re.MULTILINE), done.stderr
    assert re.search(r"^sample_cpp: request 1 \(play\): std::out_of_range: .*\(which is 99\).*; "
                     r"falling back to the default$", done.stderr, re.MULTILINE), done.stderr
    assert counted(done.stderr).count == 2, done.stderr
