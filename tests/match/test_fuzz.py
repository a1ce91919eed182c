"""Fuzzing the referee's input side: the decoders never raise anything but a ProtocolError,
and a game of fuzzing bots (random JSON-like replies) records every bad reply as a fault."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.bots.launch import BotSpec
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.player import Fault
from referee.match.record import AnswerLine, ApplyLine, FaultLine, GameRecord
from referee.match.spec import GameSpec
from referee.protocol import codec

from ..processes import command

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)
NEAR_REPLY = st.fixed_dictionaries(
    {"id": st.integers(-3, 2**70) | JSON},
    optional={"action": st.sampled_from(["pass", "play", "bid", "price", "buy", "offer",
                                         "reveal", ""]) | JSON,
              "card": st.integers(-3, 300) | JSON, "amount": st.integers(-3, 2**70) | JSON,
              "type": JSON, "name": JSON, "protocol": JSON},
)
NEAR_HELLO = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "Hello", ""]) | JSON},
    optional={"name": st.text(max_size=80) | JSON, "protocol": st.integers(-1, 3) | JSON,
              "x": JSON},
)


def decode_everything(line: bytes) -> None:
    """What the referee does with a line from a bot, up to the warning it sends back: any
    failure must be a ProtocolError with a reason that encodes."""

    def rejected(exc: codec.ProtocolError) -> None:
        assert exc.kind == "malformed" and exc.reason
        fault = Fault("malformed", f"{exc.reason}; {codec.shown(line)}")
        orjson.dumps(fault.to_dict())
        codec.encode(codec.warning(1, fault.kind, fault.reason, {"action": "pass"}))

    try:
        codec.decode_hello(line)
    except codec.ProtocolError as exc:
        rejected(exc)
    try:
        reply = codec.decode_reply(line)
    except codec.ProtocolError as exc:
        rejected(exc)
        return
    for seat in range(5):
        try:
            codec.reply_to_action(reply, seat)
        except codec.ProtocolError as exc:
            rejected(exc)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    decode_everything(data)


@settings(max_examples=200, deadline=None)
@given(NEAR_REPLY | NEAR_HELLO | JSON)
def test_arbitrary_json_never_raises(value: object) -> None:
    decode_everything(json.dumps(value).encode())
    decode_everything(json.dumps({"id": 1, "action": "bid", "amount": value}).encode())


def test_fuzzing_bots_answer_ten_thousand_decisions(bot_dir: Path) -> None:
    """Five fuzzing bots (one process each, kept across games, never retired) answer at least
    10,000 decisions between them.  The referee never raises (no game is void), and every
    reply is either applied as the bot's move or recorded as a fault with a reason."""
    names = [f"fuzz{i}" for i in range(5)]
    players = [BotPlayer(BotSpec(n, command(bot_dir, f"fuzz.py --seed {i}")))
               for i, n in enumerate(names)]

    async def run() -> list[GameRecord]:
        records: list[GameRecord] = []
        answered = 0
        try:
            while answered < 10_000:
                spec = GameSpec.make(f"g{len(records)}", len(records), names, move_time=0.5,
                                     time_bank=0.5, max_faults=10**9)
                record = await play_game(spec, players)
                records.append(record)
                answered += sum(1 for line in record.lines
                                if isinstance(line, ApplyLine | AnswerLine)
                                and line.source in ("bot", "default"))
        finally:
            for p in players:
                await p.aclose()
        return records

    records = trio.run(run)
    answered = faults = applied = 0
    kinds: set[str] = set()
    for record in records:
        for line in record.lines:
            if isinstance(line, ApplyLine | AnswerLine) and line.source in ("bot", "default"):
                answered += 1
                applied += line.source == "bot"
            elif isinstance(line, FaultLine):
                faults += 1
                kinds.add(line.kind)
                assert line.reason
        assert record.result.retired == ()
    assert answered >= 10_000
    assert faults + applied == answered  # every reply not applied is a recorded fault
    assert kinds <= {"malformed", "illegal", "wrong_id"}, kinds
    assert {"malformed", "illegal", "wrong_id"} <= kinds
    assert all(p.starts == 1 for p in players)  # no crash, no restart
