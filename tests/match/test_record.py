"""Game records as typed lines: written in the format of earlier versions, byte for byte, read
back equal, a damaged line refused with a message that names it; and records written by
earlier versions (tests/data/records, made by the code of commit 9430be0) read, replay and rank
the same."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shutil
import zlib
from pathlib import Path
from typing import Any

import orjson
import pytest
import trio

from referee.cli.common import stored_standings_text, unfinished_note
from referee.game import Action, Bid, Decision, DecisionKind, HiddenBids, Pass, Play
from referee.game.events import AuctionStarted, CardPlayed, Payment, RoundStarted
from referee.game.random_policy import random_action
from referee.match.game import play_game
from referee.match.player import Fault
from referee.match.policy_player import PolicyPlayer, random_player
from referee.match.record import (
    AnswerLine,
    ApplyLine,
    DealLine,
    EventLine,
    FaultLine,
    GameRecord,
    RecordError,
    RetiredLine,
    read_record,
)
from referee.match.replay import replay
from referee.match.result import GameResult, StoredResult, read_result
from referee.match.spec import GameSpec
from referee.match.transcript import Transcript
from referee.protocol.messages import FaultKind
from referee.report.viewer import game_document
from referee.tournament.store import open_store

DATA = Path(__file__).resolve().parents[1] / "data" / "records"
ROOT = Path(__file__).resolve().parents[2]


def every_kind_of_line() -> GameRecord:
    """A record with a line of every type (not a game the rules would allow: no replay)."""
    spec = GameSpec.make("g1", 7, ["ann", "bob", "cy"])
    lines = (
        EventLine(event=RoundStarted(1, 0, (10, 10, 10), 0)),
        FaultLine(seat=1, kind=FaultKind.MALFORMED, reason="bad reply: not JSON"),
        FaultLine(seat=2, kind=FaultKind.ILLEGAL, reason="bid 101 is more than 100 (R4)",
                  rejected=Bid(2, 101)),
        RetiredLine(seat=1, reason="crash"),
        ApplyLine(seat=0, source="bot", action=Play(0, 12), seconds=0.000123),
        EventLine(event=CardPlayed(0, 12, 1)),
        EventLine(event=AuctionStarted(0, (12,), "hidden")),
        AnswerLine(seat=0, source="bot", action=Bid(0, 5), seconds=0.01),
        AnswerLine(seat=1, source="retired", action=Bid(1, 0), seconds=0.0),
        AnswerLine(seat=2, source="default", action=Bid(2, 0), seconds=1.5),
        ApplyLine(seat=None, source="bots", action=HiddenBids((5, 0, 0)), seconds=0.0),
        EventLine(event=Payment(0, None, 5)),
        ApplyLine(seat=2, source="default", action=Pass(2), seconds=2.0),
    )
    result = GameResult(game_id="g1", names=("ann", "bob", "cy"), money=(95, 100, 100),
                        ranks=(2, 3, 1), retired=(1,),
                        faults=((), (Fault(FaultKind.MALFORMED, "bad reply: not JSON"),),
                                (Fault(FaultKind.ILLEGAL, "bid 101 is more than 100 (R4)"),)))
    return GameRecord(spec, lines, result)


def overbid(decision: Decision, view: dict[str, Any], rng: random.Random) -> Action:
    """Random, but one bid in four is more than the seat has: an illegal fault."""
    if decision.kind in (DecisionKind.BID, DecisionKind.HIDDEN_BID) and rng.random() < 0.25:
        return Bid(decision.seat, decision.max_amount + 1)
    return random_action(decision, rng)


def played() -> GameRecord:
    """A whole game with faults, a retirement and hidden auctions."""
    players = [random_player("ann", 1), random_player("ben", 2), PolicyPlayer("over", overbid, 5)]
    spec = GameSpec.make("played", 2026, [p.name for p in players])
    return trio.run(play_game, spec, players)


def test_every_line_type_reads_back_equal_and_writes_the_same_bytes() -> None:
    record = every_kind_of_line()
    data = record.to_jsonl()
    back = read_record(data)
    assert back == record
    assert back.to_jsonl() == data
    assert {type(line) for line in back.lines} == {EventLine, FaultLine, RetiredLine,
                                                    ApplyLine, AnswerLine}


def test_a_played_game_reads_back_equal_and_replays() -> None:
    record = played()
    kinds = {line.type for line in record.lines}
    assert kinds == {"event", "fault", "retired", "answer", "apply"}, kinds
    data = record.to_jsonl()
    back = read_record(data)
    assert back == record
    assert back.to_jsonl() == data  # its events encoded afresh, as the seats were sent them
    assert replay(back).ok


def test_lines_are_written_with_the_keys_and_values_they_always_had() -> None:
    """The JSON objects on disk: `type` first, an action in reply form without its seat, a
    fault's kind as its plain string, `rejected` only when there is one."""
    lines = [orjson.loads(x) for x in every_kind_of_line().to_jsonl().splitlines()]
    assert list(lines[0])[:3] == ["type", "game_id", "seed"]
    assert lines[1] == {"type": "event", "event": {"type": "round_started", "round": 1,
                                                   "first_seat": 0, "hand_sizes": [10, 10, 10],
                                                   "mystery_size": 0}}
    assert lines[2] == {"type": "fault", "seat": 1, "kind": "malformed",
                        "reason": "bad reply: not JSON"}
    assert lines[3]["rejected"] == {"action": "bid", "amount": 101}
    assert lines[4] == {"type": "retired", "seat": 1, "reason": "crash"}
    assert lines[5] == {"type": "apply", "seat": 0, "source": "bot",
                        "action": {"action": "play", "card": 12}, "seconds": 0.000123}
    assert lines[11] == {"type": "apply", "seat": None, "source": "bots",
                         "action": {"action": "hidden_bids", "amounts": [5, 0, 0]},
                         "seconds": 0.0}
    assert lines[-1] == {"type": "result", "game_id": "g1", "names": ["ann", "bob", "cy"],
                         "money": [95, 100, 100], "ranks": [2, 3, 1], "retired": [1],
                         "faults": [[], [{"kind": "malformed", "reason": "bad reply: not JSON"}],
                                    [{"kind": "illegal",
                                      "reason": "bid 101 is more than 100 (R4)"}]]}
    assert [list(line) for line in lines[1:-1]] == [
        ["type", *(k for k in line if k != "type")] for line in lines[1:-1]]


def test_the_deal_and_a_malformed_reply_are_written_where_a_reader_looks() -> None:
    """The deal is the second line (its mystery hand only when there is one); a fault keeps
    a malformed reply under `line`, after the keys it always had, and only when there is one;
    both read back equal."""
    record = dataclasses.replace(
        every_kind_of_line(), deal=DealLine(deck=(3, 1, 2), mystery=(2,)),
        lines=(FaultLine(seat=1, kind=FaultKind.MALFORMED, reason="bad reply: not JSON",
                         line="not JSON\\x1b"), *every_kind_of_line().lines))
    data = record.to_jsonl()
    lines = [orjson.loads(x) for x in data.splitlines()]
    assert lines[1] == {"type": "deal", "deck": [3, 1, 2], "mystery": [2]}
    assert lines[2] == {"type": "fault", "seat": 1, "kind": "malformed",
                        "reason": "bad reply: not JSON", "line": "not JSON\\x1b"}
    assert "line" not in lines[3]
    assert read_record(data) == record
    no_mystery = dataclasses.replace(record, deal=DealLine(deck=(3, 1, 2)))
    assert orjson.loads(no_mystery.to_jsonl().splitlines()[1]) == {"type": "deal",
                                                                   "deck": [3, 1, 2]}


def test_fault_kinds_are_their_plain_strings_on_disk() -> None:
    assert [k.value for k in FaultKind] == ["start", "timeout", "malformed", "wrong_id",
                                            "illegal", "crash", "stderr", "exit"]
    assert Fault("timeout", "no reply").kind is FaultKind.TIMEOUT  # type: ignore[arg-type]
    result = StoredResult(game_id="g", names=("a", "b", "c"), money=(1, 2, 3), ranks=(3, 2, 1),
                          retired=(), faults=((Fault(FaultKind.EXIT, "x"),), (), ()))
    assert orjson.loads(orjson.dumps(result))["faults"][0] == [{"kind": "exit", "reason": "x"}]
    assert read_result(orjson.dumps(result)) == result


def test_fault_kind_is_defined_once() -> None:
    """One definition of the fault kinds, which every layer uses."""
    definition = re.compile(r"^\s*(class FaultKind\b|FaultKind\s*(:[^=]*)?=)", re.M)
    found = [path for path in (ROOT / "referee").rglob("*.py")
             if definition.search(path.read_text())]
    assert [p.relative_to(ROOT).as_posix() for p in found] == ["referee/protocol/messages.py"]


def damage(data: bytes, number: int, change: Any) -> bytes:
    """The record with its line `number` (from 1) changed by `change(line dict)`."""
    lines = data.splitlines()
    line = orjson.loads(lines[number - 1])
    change(line)
    lines[number - 1] = orjson.dumps(line)
    return b"\n".join(lines) + b"\n"


@pytest.mark.parametrize(("changed", "message"), [
    (lambda d: damage(d, 6, lambda x: x.pop("action")),
     "line 6 of the record is not valid: apply.action: Field required"),
    (lambda d: damage(d, 3, lambda x: x.update(kind="sulk")),
     "line 3 of the record is not valid: fault.kind: Input should be 'start', 'timeout'"),
    (lambda d: damage(d, 2, lambda x: x["event"].update(type="moon_landing")),
     "line 2 of the record is not valid: event.event: Input tag 'moon_landing' found using "
     "'type' does not match any of the expected tags"),
    (lambda d: damage(d, 6, lambda x: x["action"].update(card="12")),
     "line 6 of the record is not valid: apply.action.card: Input should be a valid integer"),
    (lambda d: damage(d, 6, lambda x: x["action"].pop("card")),
     "line 6 of the record is not valid: apply.action: action 'play' takes a card: it has "
     "none, or null"),
    (lambda d: damage(d, 5, lambda x: x.update(extra=1)),
     "line 5 of the record is not valid: retired.extra: Unexpected keyword argument"),
    (lambda d: damage(d, 5, lambda x: x.update(type="shuffle")),
     "line 5 of the record is not valid: Input tag 'shuffle' found using 'type' does not "
     "match"),
    (lambda d: damage(d, 5, lambda x: x.clear() or x.update(type="deal", deck=[1, 2])),
     "line 5 of the record is a deal line, which only the first (spec), the second (deal) or "
     "the last (result) may be"),
    (lambda d: d.replace(b'{"type":"retired"', b'{"type":"retired",'),
     "line 5 of the record is not valid: Invalid JSON"),
    (lambda d: damage(d, 15, lambda x: x.update(money=[1, 2])),
     "line 15 of the record is not valid: result: money: 2 entries for 3 seats"),
    (lambda d: d.rsplit(b"\n", 2)[0] + b"\n",
     "the record ends before its result line (it was cut short)"),
    (lambda d: d.split(b"\n", 1)[1], "not a game record: the first line is not a spec"),
    (lambda d: damage(d, 1, lambda x: x.update(seed=-1)),
     "the record's spec is not valid: seed: Input should be greater than or equal to 0"),
    # One range of seeds everywhere: 0 to 2**63-1, as `referee play --seed` takes.
    (lambda d: damage(d, 1, lambda x: x.update(seed=2**63)),
     "the record's spec is not valid: seed: Input should be less than or equal to "
     f"{2**63 - 1}"),
])
def test_a_malformed_line_is_refused_with_what_is_wrong_and_where(changed: Any,
                                                                  message: str) -> None:
    data = every_kind_of_line().to_jsonl()
    with pytest.raises(RecordError) as caught:
        read_record(changed(data))
    assert str(caught.value).startswith(message), str(caught.value)


# ---------------------------------------------------------------- written before the typed lines


def test_a_game_log_written_before_reads_replays_and_writes_back_the_same() -> None:
    """`referee play --log` of four test bots (two of them faulting until retired)."""
    data = (DATA / "play.jsonl").read_bytes()
    record = read_record(data)
    assert record.to_jsonl() == data
    assert record.result.retired == (1, 3)
    assert [f.kind for f in record.result.faults[3]] == [FaultKind.ILLEGAL] * 3
    result = replay(record)
    assert result.ok, result.mismatches
    transcript = Transcript(list(record.spec.names), record.spec.edition_obj())
    expected = (DATA / "replay.txt").read_text().splitlines()
    assert list(transcript.lines(result.events)) == expected[:-1]
    assert expected[-1] == "play.jsonl: the record agrees with the rules"


def rounded(value: object) -> object:
    """`value` (parsed JSON) with every float rounded to 6 decimals."""
    if isinstance(value, float):
        return round(value, 6) + 0.0
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    """A copy of a store a tiny tournament of in-process players wrote (one of them
    over-bids, so every game has faults and a retirement)."""
    return Path(shutil.copy(DATA / "tournament.db", tmp_path / "tournament.db"))


def test_a_store_written_before_reads_and_replays_every_game(old_store: Path) -> None:
    store = open_store(old_store, read_only=True)
    try:
        results = list(store.results())
        assert [r.game_id for r in results] == [f"t0000-d0{d}-o0{o}" for d in (0, 1)
                                                for o in (0, 1, 2)]
        blobs = dict(store.db.execute("SELECT game_id, record FROM games"))
        for result in results:
            assert result.names[result.retired[0]] == "overbidder"
            assert sum(len(h) for h in result.response_us) > 0
            record = store.record(result.game_id)
            assert record is not None
            assert record.to_jsonl() == zlib.decompress(blobs[result.game_id])
            assert record.result == GameResult(**{
                k: getattr(result, k) for k in ("game_id", "names", "money", "ranks",
                                                "retired", "faults")})
            assert replay(record).ok
        record = store.record("t0000-d01-o02")
        assert record is not None
        transcript = Transcript(list(record.spec.names), record.spec.edition_obj())
        expected = (DATA / "replay_stored.txt").read_text().splitlines()
        assert list(transcript.lines(replay(record).events)) == expected[:-1]
    finally:
        store.close()


def test_a_store_written_before_gives_the_same_leaderboard_and_replay_page(
        old_store: Path) -> None:
    """A store written by an earlier referee: the same standings and replay page, and no
    note that its tournament is unfinished."""
    store = open_store(old_store, read_only=True)
    try:
        # The same standings; the JSON has since gained `left_out`, `baselines`,
        # `never_started`, `unfinished`, `until`, `joined_late` and `no_games` (none in an
        # earlier store)
        # and each entrant's `baseline` (no), and leaderboard.json the block model's
        # `strength`, its `note` and exact intervals.
        # Ratings to a millionth of an Elo point: the fit's last digits are the solver's.
        expected = json.loads((DATA / "leaderboard.json").read_text())
        expected["entrants"] = [{**e, "baseline": False} for e in expected["entrants"]]
        assert rounded(json.loads(stored_standings_text(old_store, "json"))) == rounded({
            **expected, "left_out": [], "baselines": [], "never_started": [],
            "unfinished": None, "until": None, "joined_late": [], "no_games": []})
        # All its games are stored: no note that a run would play more (its ids are another
        # schedule's, which a run refuses).
        assert unfinished_note(old_store) is None
        record = store.record("t0000-d00-o00")
        assert record is not None
        doc = orjson.loads(orjson.dumps(game_document(record)))
        assert doc == orjson.loads((DATA / "game_document.json").read_bytes())
    finally:
        store.close()


def bids_zero(decision: Decision, view: dict[str, Any], rng: random.Random) -> Action:
    """Random, but a bid of 0 where it means to pass in an open or once-around auction."""
    if decision.kind is DecisionKind.BID:
        return Bid(decision.seat, 0)
    return random_action(decision, rng)


def test_a_bid_of_0_in_an_open_auction_says_how_to_pass() -> None:
    """A seat that bids 0 to pass (0 is no bid in a hidden auction only) is faulted with the
    rule's reason and how to pass; the record of it replays."""
    players = [random_player("ann", 1), random_player("ben", 2), PolicyPlayer("zero", bids_zero)]
    record = trio.run(play_game, GameSpec.make("zero", 7, [p.name for p in players]), players)
    reasons = [f.reason for f in record.result.faults[2]]
    assert reasons and all(r.endswith('(0 is no bid only in a hidden auction: to pass, answer '
                                      '{"action": "pass"})') for r in reasons), reasons
    assert replay(read_record(record.to_jsonl())).ok
