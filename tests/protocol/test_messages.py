"""Protocol v1: schemas match the models, examples match the schemas, the codec matches both."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import orjson
import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from referee.game import CLASSIC, CMON, GameConfig, GameState, HiddenBids, Phase, seat_view
from referee.game.random_policy import random_action
from referee.match.game import play_game
from referee.match.policy_player import random_player
from referee.match.record import record_schema
from referee.match.spec import GameSpec
from referee.protocol import codec
from referee.protocol.messages import ActionReply, Request, View
from referee.protocol.schema import EVENT_MODELS, all_schemas, bot_line, referee_line

from .schemas import BY_DIRECTION, SCHEMA_DIR

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "protocol" / "examples").glob("*.jsonl"))
RECORD_SCHEMA = "record.json"  # the game record's lines, written by python -m referee.match.record


def test_schema_files_match_the_models() -> None:
    """A change to a message model without regenerating protocol/schema fails here."""
    on_disk = {p.name: json.loads(p.read_text()) for p in SCHEMA_DIR.glob("*.json")
               if p.name != RECORD_SCHEMA}
    generated = all_schemas()
    assert sorted(on_disk) == sorted(generated), "run: python -m referee.protocol.schema"
    for name, schema in generated.items():
        assert on_disk[name] == schema, f"{name} drifted; run: python -m referee.protocol.schema"


def test_record_schema_file_matches_the_models() -> None:
    """A change to a game record's line types without regenerating record.json fails here."""
    on_disk = json.loads((SCHEMA_DIR / RECORD_SCHEMA).read_text())
    assert on_disk == record_schema(), "record.json drifted; run: python -m referee.match.record"


@pytest.mark.parametrize("name", ["play.jsonl", "stored.jsonl"])
def test_game_records_validate_against_the_record_schema(name: str) -> None:
    """Every line of a record written by an earlier version (before the typed records), and
    of one written by this one, fits the published schema."""
    schema = json.loads((SCHEMA_DIR / RECORD_SCHEMA).read_text())
    if name == "play.jsonl":
        data = (ROOT / "tests" / "data" / "records" / name).read_bytes()
    else:
        seats = [random_player(f"p{i}", i) for i in range(3)]
        spec = GameSpec.make("schema", 3, [p.name for p in seats])
        data = trio.run(play_game, spec, seats).to_jsonl()
    validator = jsonschema.Draft202012Validator(schema)
    for line in data.splitlines():
        validator.validate(orjson.loads(line))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_transcripts_validate(path: Path) -> None:
    """Every line of the spec's example transcripts is a valid message, events included."""
    lines = [orjson.loads(x) for x in path.read_bytes().splitlines()]
    assert lines[0] == {"to_bot": {"type": "hello", "protocol": 1,
                                   "referee": lines[0]["to_bot"]["referee"]}}
    assert lines[1]["from_bot"]["type"] == "hello"
    kinds = set()
    for line in lines:
        ((direction, message),) = line.items()
        (referee_line() if direction == "to_bot" else bot_line()).validate_python(message)
        # the JSON Schema files say the same as the models
        assert BY_DIRECTION[direction].is_valid(message), message
        if message.get("type") == "event":
            EVENT_MODELS[message["event"]["type"]].model_validate(message["event"])
        kinds.add(message.get("type", "action"))
    assert {"hello", "new_game", "event", "request", "action"} <= kinds
    if path.name == "short_game.jsonl":
        assert {"game_end", "goodbye"} <= kinds
    else:
        assert "warning" in kinds


@pytest.mark.parametrize(
    ("players", "edition", "variants"),
    [(3, CMON, ("mystery", "split-double", "hidden-money")), (4, CLASSIC, ()),
     (5, CMON, ("hidden-money",)), (3, CLASSIC, ("mystery-winner",))],
)
def test_codec_messages_match_the_models(players, edition, variants) -> None:
    """Every request and event the referee would send in whole games validates strictly."""
    config = GameConfig.from_variants(players, edition, variants)
    for seed in range(3):
        rng = random.Random(seed)
        state = GameState(config, seed=seed)
        events = state.take_events()
        request_id = 0
        while not state.is_over:
            for ev in events:
                msg = codec.event(ev)
                EVENT_MODELS[msg["event"]["type"]].model_validate(msg["event"])
            for decision in state.decisions():
                request_id += 1
                msg = codec.request(request_id, decision, seat_view(state, decision.seat),
                                    1.0, 9.5)
                Request.model_validate_json(codec.encode(msg))
            if state.phase is Phase.HIDDEN:
                bids = [random_action(d, rng) for d in state.decisions()]
                events = state.apply(HiddenBids(tuple(b.amount for b in bids)))  # type: ignore[union-attr]
            else:
                events = state.apply(random_action(state.decision(state.pending), rng))


def test_hidden_money_view_hides_others_money() -> None:
    """R8.2 as bots see it: the view's money list has null for every other seat."""
    state = GameState(GameConfig.from_variants(4, CMON, ("hidden-money",)), seed=1)
    view = View.model_validate(seat_view(state, 2))
    assert view.money == [None, None, 100, None]


@settings(max_examples=250, deadline=None)
@given(st.binary(max_size=300))
def test_decoder_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    """Any bytes decode to a reply or to a ProtocolError, never another exception."""
    try:
        reply = codec.decode_reply(data)
    except codec.ProtocolError as exc:
        assert exc.kind == "malformed" and exc.reason
    else:
        assert isinstance(reply, codec.Reply)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)


@settings(max_examples=250, deadline=None)
@given(st.dictionaries(st.sampled_from(["id", "action", "card", "amount", "type", "x"]), JSON)
       | JSON)
def test_decoder_never_raises_on_arbitrary_json(value: object) -> None:
    """Arbitrary JSON values, including near-miss replies, decode or fail as malformed."""
    line = json.dumps(value).encode()
    try:
        reply = codec.decode_reply(line)
        codec.reply_to_action(reply, 0)
    except codec.ProtocolError as exc:
        assert exc.kind == "malformed" and exc.reason


def _near(*bounds: int) -> st.SearchStrategy[object]:
    """Integers at and around the bounds, and values of the wrong type."""
    edges = [b + d for b in bounds for d in (-1, 0, 1)]
    return st.sampled_from(edges) | st.integers() | st.sampled_from(
        [True, False, 1.0, 2.5, None, "3", [], {}])


ACTIONS = ["play", "offer", "bid", "price", "buy", "pass", "reveal"]
# Near-valid replies: each field at and around its limits, or of a wrong type, or missing.
REPLIES = st.fixed_dictionaries(
    {"id": st.integers(0, 2**53), "action": st.sampled_from(ACTIONS)},
    optional={
        "card": _near(0, 999),
        "amount": _near(-(2**31), 0, 2**31),
        "type": st.sampled_from(["action", "request", None, 1]),
    },
) | st.fixed_dictionaries(
    {},
    optional={
        "id": _near(0, 2**53),
        "action": st.sampled_from([*ACTIONS, "hidden_bid", "Pass", ""]) | _near(0),
        "card": st.integers(0, 999),
        "type": st.just("action"),
        "x": st.just(1),
    },
)


@settings(max_examples=750, deadline=None)
@given(REPLIES)
def test_the_quick_reply_check_agrees_with_the_model(reply: dict[str, object]) -> None:
    """The hand-written checks of ordinary replies (spaced and compact) accept only what the
    model accepts, with the same fields; what they do not accept goes to the model for its
    reason."""
    for separators in ((", ", ": "), (",", ":")):
        line = json.dumps(reply, separators=separators).encode()
        try:
            model = ActionReply.model_validate_json(line)
        except ValidationError:
            model = None
        for quick in (codec._plain_reply(line), codec._compact_reply(line)):
            if model is None:
                assert quick is None
            elif quick is not None:
                assert quick == codec.Reply(model.id, model.action, model.card, model.amount)


@pytest.mark.parametrize(("line", "reply"), [
    (b'{"id":7,"action":"pass"}', codec.Reply(7, "pass", None, None)),
    (b'{"id":0,"action":"play","card":12}', codec.Reply(0, "play", 12, None)),
    (b'{"id":999999999999999,"action":"bid","amount":-999999999}',
     codec.Reply(999999999999999, "bid", None, -999999999)),
    (b'{"id":3,"action":"price","amount":-0}', codec.Reply(3, "price", None, 0)),
    (b'{"id":01,"action":"pass"}', None),  # not JSON: a leading zero
    (b'{"id":1,"action":"pass"} ', None),
    (b'{"id":1,"action":"pass","card":1e2}', None),
    (b'{"id":1,"action":"steal"}', None),
    (b'{"id":9007199254740993,"action":"pass"}', None),  # past 2**53: the model's reason
])
def test_the_compact_reply_form_is_read_by_the_quick_path(
        line: bytes, reply: codec.Reply | None) -> None:
    """The form the sample bots write takes the quickest path; anything unusual is left to
    the checks that explain it."""
    assert codec._compact_reply(line) == reply


@pytest.mark.parametrize("line", [b'{"id":1,"id":2,"action":"pass"}', b'{"id":1,"action":"pass"} ',
                                  b'{"id":1,"action":"pass","card":null}',
                                  b'{"id":1,"action":"bid","amount":-5}',
                                  b'{"id":1,"action":"bid","amount":1e2}'])
def test_the_quick_reply_check_agrees_on_edge_cases(line: bytes) -> None:
    try:
        model = codec.Reply(**ActionReply.model_validate_json(line).model_dump(exclude={"type"}))
    except ValidationError:
        model = None
    for quick in (codec._plain_reply(line), codec._compact_reply(line)):
        assert quick is None or quick == model
    decoded: codec.Reply | None
    try:
        decoded = codec.decode_reply(line)
    except codec.ProtocolError:
        decoded = None
    assert decoded == model


def test_deep_nesting_is_malformed_not_a_crash() -> None:
    for line in (b"[" * 30000 + b"]" * 30000, b'{"a":' * 20000 + b"1" + b"}" * 20000):
        with pytest.raises(codec.ProtocolError) as info:
            codec.decode_reply(line)
        assert info.value.kind == "malformed"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b'{"id":1,"action":"bid","amount":2.5}', r"amount: 2.5 is not an integer \(round it "
                                                  "to a whole number: Math.trunc in JavaScript"),
        (b'{"id":1,"action":"bid","amount":15.0}', r"amount: 15.0 is not an integer \(write 15:"),
        (b'{"id":1,"action":"play","card":"3"}', r'card: "3" is not an integer \(a number, not '
                                                 r"a string\)"),
        (b'{"id":1,"action":"bid","amount":' + b"1" + b"0" * 100 + b"}", "less than or equal"),
        (b'{"id":1,"action":"bid","amount":5,"why":"x"}', "unknown key 'why' \\(a reply's keys "
                                                        "are id, action, card and amount; "),
        (b'{"id":2,"action":"bid","value":3}', "unknown key 'value' .*; action 'bid' takes "
                                               "'amount'\\)$"),
        (b'{"id":2,"action":"bidd","value":3}', "unknown key 'value' .*\\); action: Input "
                                                "should be 'play'"),
        (b'{"id":1,"action":"steal"}', "action: Input should be"),
        (b'\xff\xfe', "Invalid JSON"),
    ],
)
def test_malformed_replies_say_what_is_wrong(line: bytes, reason: str) -> None:
    """A malformed reply's fault says what is wrong with it: a key the protocol does not have
    is named, with the key its action takes (`value` for `amount`), and any other problem; a
    number that is not an integer is shown, with how to write it (a TypeScript bot's
    `value * 0.65`)."""
    with pytest.raises(codec.ProtocolError, match=reason):
        codec.decode_reply(line)


@pytest.mark.parametrize(
    "reply",
    [{"id": 1, "action": "bid"}, {"id": 1, "action": "play"}, {"id": 1, "action": "pass",
                                                               "card": 3},
     {"id": 1, "action": "price", "card": 2, "amount": 4}],
)
def test_missing_or_stray_fields_are_malformed(reply: dict[str, object]) -> None:
    with pytest.raises(codec.ProtocolError):
        codec.reply_to_action(codec.decode_reply(orjson.dumps(reply)), 0)


@pytest.mark.parametrize("line", [b'{"type":"hello","name":"a"}',
                                  b'{"type":"hello","name":"a","protocol":true}',
                                  b'{"type":"hello","name":"a","protocol":1.0}',
                                  b'{"type":"hello","name":"a","protocol":2}'])
def test_a_hello_must_say_protocol_1(line: bytes) -> None:
    """The spec: `protocol`: 1, anything else is a start fault (no protocol, `true` and `1.0`
    included: none of them is taken for 1), whose reason says what it gave and that it must
    be 1."""
    with pytest.raises(codec.ProtocolError, match=r"bad hello: protocol: (none given|true|1\.0|2)"
                       ", where it must be 1, the version this referee speaks"):
        codec.decode_hello(line)
    assert codec.decode_hello(b'{"type":"hello","name":"a","protocol":1}').name == "a"
    with pytest.raises(codec.ProtocolError, match="the version this referee speaks; name: Field "
                       "required"):  # what else is wrong, said at once
        codec.decode_hello(b'{"type":"hello","protocol":2}')
    with pytest.raises(codec.ProtocolError, match="the version this referee speaks; unknown key "
                       r"'bot' \(a hello's keys are type, name and protocol\); name: Field "
                       "required; the line began"):  # a key of its own, said as a key
        codec.decode_hello(b'{"type":"hello","bot":"a"}')


@pytest.mark.parametrize(("line", "hint"), [
    (b"Bot starting up", "write logs and debug output to stderr"),
    (b"{", "do not pretty-print it"),
    (b'  "action": "pass"', "do not pretty-print it"),
    (b"}", "do not pretty-print it"),
    (b"\xef\xbb\xbf{}", "byte-order mark"),
    (b"\xff\xfe", "not UTF-8"),
    (b'{"type":"round_started","round":1}', "a message of type 'round_started': a bot sends "
                                             "only its hello and its replies"),
    (b"[1, 2]", None),
    (b'{"id": 3, "action": "bid", "amount": "2"}', None),
])
def test_a_line_at_fault_is_quoted_with_the_likely_cause(line: bytes, hint: str | None) -> None:
    said = codec.shown(line)
    assert said.startswith("the line began ")
    assert (hint in said) if hint else "(" not in said.removeprefix("the line began "), said
