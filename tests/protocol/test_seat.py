"""One seat's protocol (`protocol/seat.py`) with bytes only, no process: the hello, request ids
across games, late replies and floods of them, the clock and time bank, warnings, and what a
fresh process is sent again when the bot ended between games."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import orjson
import pytest

from referee.game import Bid, GameConfig, GameState, Pass, Play, seat_view
from referee.protocol import codec
from referee.protocol.messages import FaultKind
from referee.protocol.seat import (
    BUSY,
    BUSY_BEFORE,
    HELLO,
    IDLE,
    IDLE_BEFORE,
    LATE,
    STALE_AT_MOST,
    UNFLUSHED,
    Faulted,
    Replied,
    SeatProtocol,
    Stale,
)

ROOT = Path(__file__).resolve().parents[2]
EDITION: dict[str, Any] = {"name": "test", "artists": [], "cards": []}


def begin(protocol: SeatProtocol, game_id: str = "g1", move: float = 1.0, bank: float = 2.0,
          seat: int = 0) -> None:
    protocol.begin_game(game_id, seat, ["a", "b", "c"], EDITION, [], move, bank, 7)


def lines(data: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in data.splitlines()]


def asked(protocol: SeatProtocol) -> bytes:
    """The bytes of a request for the first decision of a 3-player game."""
    game = GameState(GameConfig(players=3), seed=1)
    seat = game.pending
    return protocol.request(game.decision(seat), seat_view(game, seat))


def reply(request_id: int, action: str = "pass", **more: int) -> bytes:
    return orjson.dumps({"id": request_id, "action": action, **more})


# ---------------------------------------------------------------- hello


def answered_once(move: float, bank: float) -> SeatProtocol:
    """A seat whose bot answered its first request in time and has been sent its second."""
    protocol = SeatProtocol()
    protocol.started()
    begin(protocol, move=move, bank=bank)
    asked(protocol)
    assert isinstance(protocol.receive(reply(1), 0.01), Replied)
    asked(protocol)
    return protocol


def test_hello_is_the_first_line_and_the_bots_hello_names_it() -> None:
    protocol = SeatProtocol()
    assert protocol.started() == HELLO
    assert lines(HELLO) == [{"type": "hello", "protocol": 1,
                             "referee": lines(HELLO)[0]["referee"]}]
    assert protocol.receive_hello(b'{"type":"hello","name":"bob","protocol":1}') == "bob"
    assert protocol.hello_name == "bob"


def test_a_bad_hello_is_malformed_and_says_why() -> None:
    """A hello of another protocol, or with a key of its own (`bot_name` for `name`), is
    malformed, and the reason names the key with the keys a hello has."""
    with pytest.raises(codec.ProtocolError) as caught:
        SeatProtocol().receive_hello(b'{"type":"hello","name":"bob","protocol":2}')
    assert caught.value.kind is FaultKind.MALFORMED
    assert caught.value.reason.startswith("bad hello: ")
    with pytest.raises(codec.ProtocolError) as caught:
        SeatProtocol().receive_hello(b'{"type":"hello","bot_name":"bob","protocol":1}')
    assert caught.value.reason.startswith(
        "bad hello: unknown key 'bot_name' (a hello's keys are type, name and protocol); "
        "name: Field required; the line began ")


def test_no_hello_says_whether_anything_came() -> None:
    """A start with no hello says whether anything came: part of a line, nothing (check that
    it flushes), nothing while it used the CPU (a loop), or its hello just after the limit (a
    slow start)."""
    assert SeatProtocol.no_hello(5, 0) == f"no hello within the start-up limit of 5 s{UNFLUSHED}"
    assert SeatProtocol.no_hello(2.5, 12) == ("no hello within the start-up limit of 2.5 s "
                                              "(12 bytes without a newline)")
    assert SeatProtocol.no_hello(5, 0, busy=True) == (
        "no hello within the start-up limit of 5 s (nothing came from it, and it was still "
        "using the CPU when its time ran out: most likely it is busy before its hello, in a "
        "loop that does not end or a start too slow for the limit)")
    assert SeatProtocol.no_hello(5, 0, busy=True, late=True) == (
        "no hello within the start-up limit of 5 s (nothing came from it in time, and its "
        "output came just after: it flushes, but its start took longer than the limit)")


# ---------------------------------------------------------------- requests and ids


def test_a_games_lines_go_before_its_first_request_and_ids_run_on_across_games() -> None:
    protocol = SeatProtocol()
    protocol.started()
    begin(protocol)
    protocol.send([b'{"type":"event","event":{"n":1}}\n'])
    first = lines(asked(protocol))
    assert [m["type"] for m in first] == ["new_game", "event", "request"]
    assert first[0]["time"] == {"move": 1.0, "bank": 2.0} and first[0]["seed"] == 7
    assert first[2]["id"] == 1 and first[2]["time"] == {"move": 1.0, "bank": 2.0}
    assert isinstance(protocol.receive(reply(1), 0.1), Replied)
    end = lines(protocol.game_end([1, 2, 3], [3, 2, 1], []))
    assert end == [{"type": "game_end", "game_id": "g1", "money": [1, 2, 3],
                    "ranks": [3, 2, 1], "retired": []}]
    begin(protocol, "g2")
    second = lines(asked(protocol))
    assert [m["type"] for m in second] == ["new_game", "request"]
    assert second[1]["id"] == 2  # one process, one run of ids


def test_a_reply_asks_for_its_action_as_the_seats() -> None:
    protocol = SeatProtocol()
    begin(protocol, seat=2)
    asked(protocol)
    got = protocol.receive(b'{"id":1,"action":"play","card":4}', 0.25)
    assert got == Replied(Play(2, 4), 0.25, 1)
    asked(protocol)
    assert protocol.receive(reply(2, "bid", amount=3), 0.1) == Replied(Bid(2, 3), 0.1, 2)


def test_lines_the_pipe_did_not_take_go_first_next_time() -> None:
    protocol = SeatProtocol()
    protocol.send([b"e1\n", b"e2\n"])
    data = protocol.take()
    assert protocol.pending == 0
    protocol.unsent(data[3:])
    protocol.send([b"e3\n"])
    assert protocol.take() == b"e2\ne3\n"


def test_a_decision_the_bot_cannot_be_sent_still_takes_an_id() -> None:
    protocol = SeatProtocol()
    begin(protocol)
    assert protocol.skip_request() == 1
    assert lines(asked(protocol))[-1]["id"] == 2


# ---------------------------------------------------------------- faults


def test_a_wrong_id_and_a_malformed_line_are_faults_that_say_why() -> None:
    protocol = SeatProtocol()
    begin(protocol)
    asked(protocol)
    assert protocol.receive(reply(5), 0.1) == Faulted(
        FaultKind.WRONG_ID, "reply id 5 does not match request id 1", 0.1, 1)
    asked(protocol)
    got = protocol.receive(b"hello there", 0.1)
    assert isinstance(got, Faulted) and got.kind is FaultKind.MALFORMED
    assert got.line == b"hello there"
    assert got.reason.endswith("; the line began 'hello there' (stdout is for protocol "
                               "messages only: write logs and debug output to stderr)")
    asked(protocol)
    got = protocol.receive(b'{"id":3,"action":"play"}', 0.1)
    assert got == Faulted(FaultKind.MALFORMED, "action 'play' takes a card: it has none, or "
                          "null (JavaScript's JSON.stringify writes NaN as null: a sum over a "
                          "missing value?); the line began '{\"id\":3,\"action\":\"play\"}'",
                          0.1, 3, b'{"id":3,"action":"play"}')
    assert protocol.malformed("a line longer than 10 bytes", 0.2) == Faulted(
        FaultKind.MALFORMED, "a line longer than 10 bytes", 0.2, 3)


def test_a_reply_with_an_id_no_request_had_is_a_wrong_id_at_once() -> None:
    """Request ids start at 1, so a reply with id 0 (a Go or C reply whose id was never set)
    answers no request: a wrong_id that says to copy the id, not a late answer skipped while
    the bot's time runs out."""
    protocol = SeatProtocol()
    begin(protocol)
    asked(protocol)
    asked(protocol)
    assert protocol.receive(reply(0), 0.1) == Faulted(
        FaultKind.WRONG_ID, "reply id 0 does not match request id 2 (no request has it: copy "
        "each request's id into its reply)", 0.1, 2)
    assert protocol.stale == 0


def test_a_late_reply_is_skipped_and_the_answer_to_this_request_counts() -> None:
    protocol = SeatProtocol()
    begin(protocol)
    asked(protocol)
    assert protocol.timed_out("gone quiet").kind is FaultKind.TIMEOUT
    asked(protocol)
    assert protocol.receive(reply(1), 0.1) == Stale(1, 2, 1)
    assert protocol.stale == 1
    assert protocol.receive(reply(2), 0.2) == Replied(Pass(0), 0.2, 2)
    asked(protocol)
    assert protocol.stale == 0  # counted per decision


def test_a_flood_of_late_replies_is_a_wrong_id_fault_past_the_limit() -> None:
    protocol = SeatProtocol()
    begin(protocol)
    protocol.skip_request()
    asked(protocol)
    for n in range(1, STALE_AT_MOST + 1):
        assert protocol.receive(reply(1), 0.01 * n) == Stale(1, 2, n)
    got = protocol.receive(reply(1), 0.5)
    assert isinstance(got, Faulted) and got.kind is FaultKind.WRONG_ID
    assert got.reason == (f"{STALE_AT_MOST + 1} replies to earlier requests while request 2 "
                          f"waited, a flood (at most {STALE_AT_MOST} late replies are skipped "
                          "in a decision)")


def test_a_timeout_says_what_came_and_what_was_skipped() -> None:
    """A timeout says when nothing ever came from the bot, and which late answers to earlier
    requests came while it waited, with the likely cause."""
    protocol = SeatProtocol()
    protocol.started()
    begin(protocol, move=0.5, bank=1.25)
    asked(protocol)
    silent = protocol.timed_out("no line")
    assert silent == Faulted(FaultKind.TIMEOUT, "no reply within 1.75 s (move time 0.5 s + "
                             f"time bank 1.25 s): no line{UNFLUSHED}", 1.75, 1)
    asked(protocol)
    assert protocol.timed_out("no line", partial=3).reason == (
        "no reply within 0.5 s (move time 0.5 s + time bank 0 s): no line")
    asked(protocol)
    protocol.receive(reply(2), 0.001)
    assert protocol.timed_out("x").reason.endswith(
        ": x (1 reply to earlier requests skipped, the last with id 2, 1 ms after this "
        "request was sent: an answer to the request before this one; the bot was still busy "
        "with it, or gives each reply the id of the request before)")
    asked(protocol)
    protocol.receive(reply(1), 0.25)
    protocol.receive(reply(2), 0.375)
    assert protocol.timed_out("x").reason.endswith(
        ": x (2 replies to earlier requests skipped, the last with id 2, 0.38 s after this "
        "request was sent: the bot was still busy with earlier requests)")
    asked(protocol)
    protocol.receive(reply(1), 123.4)
    assert protocol.timed_out("x").reason.endswith(
        ": x (1 reply to earlier requests skipped, the last with id 1, 123 s after this "
        "request was sent: the bot was still busy with an earlier request)")
    asked(protocol)
    assert protocol.timed_out("x").reason.endswith(  # it said something once: not UNFLUSHED
        ": x (nothing has come from it since the request of id 5 timed out, though it read "
        "this one: most likely its replies wait in its output buffer; check that it flushes "
        "each one)")


def test_a_bot_that_stops_flushing_mid_game_is_told_to_check_that_it_flushes() -> None:
    """A bot that answered, then holds its replies in a buffer it does not flush: its first
    timeout, found idle having read the request, tells it to check that it flushes, and so
    does the next, a request it read with nothing come since; one that has not read the
    next request is told it is still busy instead, with the last it read (not the first
    that timed out, which it read and went past), or with that first one when it has read
    none of them."""
    protocol = answered_once(move=0.5, bank=0)
    assert protocol.first_silence
    assert protocol.timed_out("no line").reason.endswith(f"s): no line{IDLE}")
    assert IDLE == (" (nothing came from it, though it read this request, and it was not "
                    "using the CPU: its reply may wait in its output buffer (check that it "
                    "flushes each one), or it may be waiting, in a sleep or on a lock)")
    asked(protocol)
    assert not protocol.first_silence  # looked at once a silence
    assert protocol.timed_out("no line").reason.endswith(
        "s): no line (nothing has come from it since the request of id 2 timed out, though it "
        "read this one: most likely its replies wait in its output buffer; check that it "
        "flushes each one)")
    asked(protocol)
    assert protocol.timed_out("no line", unread=200).reason.endswith(
        "(the bot has not read this request: most likely it is still busy with the request "
        "of id 3, which timed out; it has written nothing since)")
    asked(protocol)
    assert protocol.receive(reply(3), 0.01)  # a line: the silence ends
    asked(protocol)
    protocol.timed_out("no line", unread=90)  # the first of a silence, unread
    asked(protocol)
    assert protocol.timed_out("no line", unread=200).reason.endswith(
        "busy with the request of id 6, which timed out; it has written nothing since)")


def test_a_bot_found_busy_on_a_request_it_read_after_a_timeout_is_not_told_to_flush() -> None:
    """A bot slow mid-game (or one that reads its input in a thread as it computes), found
    using the CPU at the timeout of a request it read with nothing come since an earlier
    timeout, is told it is most likely busy, not to check that it flushes; looked at once in
    that silence; one whose output came just after is told it was late; after a reply, the
    next such silence is looked at again."""
    protocol = answered_once(move=0.5, bank=0)
    assert not protocol.read_in_silence(0, 0)  # its first timeout: nothing to look at yet
    protocol.timed_out("no line")
    asked(protocol)
    assert protocol.read_in_silence(0, 0) and not protocol.read_in_silence(0, 120)
    busy = ("s): no line (nothing has come from it since the request of id 2 timed out, and "
            "it was still using the CPU when its time ran out: most likely it is busy with "
            "this request or still with that one, in a loop that does not end or a search too "
            "long for the time allowed)")
    assert protocol.timed_out("no line", busy=True).reason.endswith(busy)
    asked(protocol)
    assert not protocol.read_in_silence(0, 0)  # looked at once in this silence
    assert protocol.timed_out("no line").reason.endswith(busy)
    asked(protocol)
    assert isinstance(protocol.receive(reply(protocol.request_id), 0.01), Replied)
    asked(protocol)
    protocol.timed_out("no line")
    asked(protocol)
    assert protocol.read_in_silence(0, 0)
    assert protocol.timed_out("no line", late=True).reason.endswith(f": no line{LATE}")


def test_a_silent_bots_first_timeout_says_busy_late_or_unflushed_once_a_silence() -> None:
    """The first timeout of a process that has sent nothing since its hello is the one looked
    at (`first_silence`: once a silence, so a table waits for the look once): a bot found
    using the CPU is told it was busy (with what came before the request, when it has not
    read it), and so are its later silent timeouts; one whose output
    came just after its time ran out is told it was late, not to check that it flushes; a
    fresh process is looked at again."""
    protocol = SeatProtocol()
    protocol.started()
    begin(protocol, move=0.5, bank=0)
    asked(protocol)
    assert protocol.first_silence
    assert protocol.timed_out("x", busy=True).reason.endswith(f": x{BUSY}")
    asked(protocol)
    assert not protocol.first_silence
    assert protocol.timed_out("x").reason.endswith(f": x{BUSY}")  # still it, most likely
    protocol.started()
    begin(protocol, "g1", move=0.5, bank=0)
    asked(protocol)  # busy with its new game: this request unread
    assert protocol.timed_out("x", unread=120, busy=True).reason.endswith(f": x{BUSY_BEFORE}")
    protocol.started()
    begin(protocol, "g2", move=0.5, bank=0)
    asked(protocol)
    assert protocol.first_silence
    assert protocol.timed_out("x", late=True).reason.endswith(f": x{LATE}")
    protocol.started()
    begin(protocol, "g3", move=0.5, bank=0)
    asked(protocol)
    assert protocol.timed_out("x").reason.endswith(f": x{UNFLUSHED}")
    asked(protocol)
    protocol.receive(reply(protocol.request_id), 0.1)
    assert protocol.first_silence  # it answered: a timeout now is a new silence's first


def test_a_first_timeout_after_answers_says_busy_late_or_idle() -> None:
    """A bot that answered, then times out (the first timeout since its last line, looked
    at as a silent bot's is): found using the CPU it is told it is busy, with this request
    or, having not read it, with what came before; its output come just after, that it was
    late; found idle, having read the request, to check that it flushes or whether it
    waits (a sleep, a lock), else that it most likely waits.  A timeout with late replies
    skipped meanwhile is not looked at."""
    said = {}
    for name, more in [("busy", {"busy": True}), ("busy_before", {"busy": True, "unread": 90}),
                       ("late", {"late": True}), ("idle", {}), ("idle_before", {"unread": 90})]:
        protocol = answered_once(move=1, bank=10)
        assert protocol.first_silence
        said[name] = protocol.timed_out("no complete line in time", **more).reason
    assert said == {
        name: f"no reply within 11 s (move time 1 s + time bank 10 s): no complete line in "
              f"time{hint}"
        for name, hint in [("busy", BUSY), ("busy_before", BUSY_BEFORE), ("late", LATE),
                           ("idle", IDLE), ("idle_before", IDLE_BEFORE)]}
    assert BUSY == (" (nothing came from it, and it was still using the CPU when its time "
                    "ran out: most likely it is busy with this request, in a loop that does "
                    "not end or a search too long for the time allowed)")
    asked(protocol)
    assert isinstance(protocol.receive(reply(2), 0.01), Stale)
    assert not protocol.first_silence  # a late answer came meanwhile: it is slow, not silent


# ---------------------------------------------------------------- the clock


def test_overruns_come_out_of_the_bank_and_a_timeout_empties_it() -> None:
    protocol = SeatProtocol()
    begin(protocol, move=1.0, bank=2.0)
    asked(protocol)
    protocol.receive(reply(1), 0.5)  # within the move time: the bank is whole
    assert protocol.bank == 2.0 and protocol.allowed == 3.0
    asked(protocol)
    protocol.receive(reply(2), 1.5)
    assert protocol.bank == 1.5
    assert lines(asked(protocol))[-1]["time"] == {"move": 1.0, "bank": 1.5}
    protocol.receive(b"{", 1.25)  # a fault's time counts all the same
    assert protocol.bank == 1.25
    asked(protocol)
    assert protocol.receive(reply(4), 2.0) == Replied(Pass(0), 2.0, 4)
    assert protocol.bank == 0.25
    asked(protocol)
    protocol.receive(reply(5), 9.0)
    assert protocol.bank == 0.0  # never below nothing
    begin(protocol, "g2", move=1.0, bank=2.0)  # each game has its own bank
    asked(protocol)
    assert protocol.timed_out("x").seconds == 3.0
    assert protocol.bank == 0.0
    assert lines(asked(protocol))[-1]["time"] == {"move": 1.0, "bank": 0.0}
    begin(protocol, "g3", move=1.0, bank=2.0)
    asked(protocol)
    protocol.receive(reply(protocol.request_id), 1.0123456)
    # the bank the bot is told is in whole milliseconds, rounded down
    assert lines(asked(protocol))[-1]["time"] == {"move": 1.0, "bank": 1.987}


def test_a_stale_line_costs_nothing_until_the_request_ends() -> None:
    protocol = SeatProtocol()
    begin(protocol, move=1.0, bank=2.0)
    protocol.skip_request()
    asked(protocol)
    protocol.receive(reply(1), 1.8)
    assert protocol.bank == 2.0
    protocol.receive(reply(2), 1.9)
    assert protocol.bank == pytest.approx(1.1)


# ---------------------------------------------------------------- warnings


def test_a_warning_names_the_fault_and_goes_before_the_next_request() -> None:
    protocol = SeatProtocol()
    begin(protocol)
    asked(protocol)
    protocol.warn(1, FaultKind.TIMEOUT, "too slow", Pass(0))
    protocol.warn(1, FaultKind.CRASH, "not a warning's kind", Bid(0, 0))
    protocol.send([b'{"type":"event","event":{"n":1}}\n'])
    sent = lines(asked(protocol))
    assert sent[0] == {"type": "warning", "id": 1, "fault": "timeout", "reason": "too slow",
                       "applied": {"action": "pass"}}
    assert sent[1]["fault"] == "illegal" and sent[1]["applied"] == {"action": "bid",
                                                                    "amount": 0}
    assert [m["type"] for m in sent] == ["warning", "warning", "event", "request"]
    protocol.warn(2, FaultKind.MALFORMED, "bad", Pass(0))
    assert [m["type"] for m in lines(protocol.game_end([0] * 3, [1] * 3, []))] == [
        "warning", "game_end"]


# ---------------------------------------------------------------- a game's opening


def test_a_game_nothing_of_which_was_read_goes_again_to_a_fresh_process_once() -> None:
    protocol = SeatProtocol()
    protocol.started()
    begin(protocol, "g1")
    asked(protocol)
    protocol.receive(reply(1), 0.1)
    protocol.game_end([0] * 3, [1] * 3, [])
    begin(protocol, "g2")
    assert protocol.in_opening and not protocol.opening_sent
    protocol.send([b"ev\n"])
    early = protocol.take()
    protocol.opened(early)
    data = asked(protocol)
    protocol.opened(data)
    assert protocol.opening_sent and protocol.between_games
    sent = len(early) + len(data)
    assert protocol.read_none_of_game(unread=sent)
    assert not protocol.read_none_of_game(unread=sent - 1)  # it read a byte of this game
    assert protocol.read_none_of_game(unread=sent - 10, unsent=-10)  # 10 bytes never went
    protocol.started()
    assert protocol.reopen() == early + data
    assert not protocol.between_games
    assert not protocol.read_none_of_game(unread=sent)  # the fresh one: a crash this time
    assert protocol.receive(reply(2), 0.1) == Replied(Pass(0), 0.1, 2)


def test_once_the_bot_answered_in_a_game_its_opening_is_done() -> None:
    protocol = SeatProtocol()
    protocol.started()
    begin(protocol)
    data = asked(protocol)
    protocol.opened(data)
    protocol.receive(b"nonsense", 0.1)  # any line read: the bot read this game
    assert not protocol.in_opening and not protocol.opening_sent
    protocol.opened(b"more")
    assert not protocol.read_none_of_game(unread=10**6)
    assert not protocol.between_games


# ---------------------------------------------------------------- its layer


def test_the_seat_protocol_imports_no_process_and_no_match() -> None:
    """Sans-IO: the module imports nothing of the bots, match or trio."""
    tree = ast.parse((ROOT / "referee" / "protocol" / "seat.py").read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not {m for m in names if m.split(".")[0] in ("trio", "time", "os", "subprocess")
                or m.startswith(("referee.bots", "referee.match"))}, names
