"""protocol/schema/ is exact: bot-to-referee.json accepts a bot's line exactly when the referee
does, and referee-to-bot.json accepts every line the referee sends, in generated games and in
the transcripts of real ones."""

from __future__ import annotations

import functools
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.game import CLASSIC, CMON, Edition, GameConfig, GameState, HiddenBids, Phase, seat_view
from referee.game.random_policy import random_action
from referee.match.spec import seat_seed
from referee.protocol import codec
from referee.protocol.messages import FaultKind
from referee.protocol.schema import bot_line, referee_line

from .. import in_process
from ..processes import BOT_PYTHON
from .schemas import BY_DIRECTION, FROM_BOT, TO_BOT, errors, referee_accepts, schema_accepts

ROOT = Path(__file__).resolve().parents[2]


def _bot_verdicts(line: bytes) -> tuple[bool, bool, bool]:
    """The referee's verdict on a bot's line, the schema's, and the wire model's."""
    try:
        bot_line().validate_json(line)
        model = True
    except ValueError:
        model = False
    return referee_accepts(line), schema_accepts(line), model


@pytest.mark.parametrize("line", [
    b'{"id":1,"action":"bid","amount":15.0}',
    b'{"id":1,"action":"bid","amount":1e1}',
    b'{"id":1,"action":"price","amount":1E+1}',
    b'{"id":3.0,"action":"pass"}',
    b'{"id":1,"action":"bid"}',
    b'{"id":1,"action":"bid","amount":null}',
    b'{"id":1,"action":"pass","amount":5}',
    b'{"id":1,"action":"play","card":3,"amount":5}',
    b'{"id":1,"action":"play"}',
    b'{"id":1,"action":"buy","card":3}',
    b'{"type":"hello","name":"a","protocol":1.0}',
    b'{"type":"hello","name":"","protocol":1}',
])
def test_replies_the_referee_rejects_fail_the_schema(line: bytes) -> None:
    """Floats and exponents where an integer goes, a bid without an amount (or with null), a
    pass or play with an amount: malformed to the referee, and invalid to the schema."""
    assert _bot_verdicts(line) == (False, False, False)


@pytest.mark.parametrize("line", [
    b'{"id":1,"action":"bid","amount":15}',
    b'{"id":1,"action":"pass","card":null}',
    b'{"id":1,"action":"play","card":3,"amount":null,"type":"action"}',
    b' {"id": -0, "action": "reveal"}\r',
    b'{"id":1,"action":"bid","amount":null,"amount":-7}',
    b'{"type":"hello","name":"\\ud83d\\ude00","protocol":1}',
])
def test_replies_the_referee_accepts_pass_the_schema(line: bytes) -> None:
    """A null card or amount counts as none, JSON whitespace is allowed, the last of two equal
    keys counts: the schema says so too."""
    assert _bot_verdicts(line) == (True, True, True)


@pytest.mark.parametrize("message", [
    {"type": "event", "event": {}},
    {"type": "event", "event": {"type": "bid", "seat": 1}},
    {"type": "event", "event": {"type": "bid", "seat": 1, "amount": 15.0}},
    {"type": "event", "event": {"type": "auction", "seat": 1}},
    {"type": "request", "id": 1, "decision": "buy", "view": {}, "legal": {"can_pass": True},
     "time": {"move": 1.0, "bank": 1.0}},
    {"type": "warning", "id": 1, "fault": "illegal", "reason": "r", "applied": {}},
])
def test_the_referee_to_bot_schema_knows_each_event_and_request(message: dict[str, object]
                                                                ) -> None:
    """An event is one of the spec's types with its fields; a request's `legal` and a
    warning's `applied` have the shape their kind gives them."""
    assert not TO_BOT.is_valid(message)
    with pytest.raises(ValueError):
        referee_line().validate_python(message)


def test_a_schema_error_says_what_is_wrong_in_the_message_named() -> None:
    """The tags pick the branch, so the error is the field's, not "no branch matched"."""
    assert errors(FROM_BOT, {"id": 1, "action": "bid", "amount": 15.0}) == [
        "['amount']: 15.0 is not of type 'integer'"]
    assert errors(TO_BOT, {"type": "event", "event": {}}) == [
        "['event']: 'type' is a required property"]


# ---------------------------------------------------------------- bot lines, generated


def _numbers(low: int, high: int) -> st.SearchStrategy[str]:
    """Number texts at and around the bounds, also written as floats or with exponents."""
    ints = (st.sampled_from([low - 1, low, high, high + 1])
            | st.integers(low, min(high, low + 999)) | st.integers())
    return st.one_of(
        ints.map(str), ints.map(lambda n: f"{n}.0"), ints.map(lambda n: f"{n}e0"),
        st.sampled_from(["1e1", "1E+1", "-0", "-0.0", "2.5", "10E-1", "1e400", "9" * 30]),
    )


OTHER = st.sampled_from(["null", "true", "false", '"15"', "[]", "{}", '"pass"', '""'])
ACTIONS = ["play", "offer", "bid", "price", "buy", "pass", "reveal"]
TAKES = {"play": "card", "offer": "card", "bid": "amount", "price": "amount"}
INT32 = st.integers(-(2**31), 2**31).map(str)
# Values a valid line may hold, and values around and beyond them.
VALID = {
    "id": st.integers(0, 2**53).map(str), "action": st.sampled_from(ACTIONS).map(json.dumps),
    "card": INT32 | st.integers(0, 999).map(str), "amount": INT32, "type": st.just('"action"'),
    "name": st.text(min_size=1, max_size=64).map(json.dumps), "protocol": st.just("1"),
}
VALUES = {
    "id": _numbers(0, 2**53) | OTHER,
    "action": st.sampled_from([*ACTIONS, "hidden_bid", "Pass", "hello"]).map(json.dumps)
    | OTHER,
    "card": _numbers(0, 999) | _numbers(-(2**31), 2**31) | OTHER,
    "amount": _numbers(-(2**31), 2**31) | OTHER,
    "type": st.sampled_from(["action", "hello", "request"]).map(json.dumps) | OTHER,
    "name": st.text(max_size=66).map(json.dumps) | OTHER,
    "protocol": _numbers(1, 1) | OTHER,
    "x": OTHER,
}


# bot_lines' choices, each made once: a strategy built afresh at every draw is validated and
# sized again by Hypothesis each time, which cost about a quarter of the test's time.
SHAPES = st.sampled_from(["reply", "hello", "mix"])
ACTION = st.sampled_from(ACTIONS)
EXTRA_KEY = st.lists(st.sampled_from(["type", "card", "amount"]), max_size=1)
ANY_KEYS = st.lists(st.sampled_from(list(VALUES)), max_size=6)
ONE_IN_FOUR = st.integers(0, 3)
POSITIONS = [st.integers(0, n) for n in range(8)]  # an index in `n + 1` keys
AFTER_COLON = st.sampled_from(["", " "])
COMMA = st.sampled_from([",", ", "])
SPACE = st.sampled_from(["", " ", "\t", "\r"])


@functools.cache
def _orders(keys: tuple[str, ...]) -> st.SearchStrategy[list[str]]:
    return st.permutations(keys)


@st.composite
def bot_lines(draw: st.DrawFn) -> bytes:
    """A line as a bot might write it: a reply or a hello, each value valid three times in
    four, else at or beyond its limits or of another type; now and then a key too many, one
    missing, or twice."""
    shape = draw(SHAPES)
    if shape == "reply":
        action = draw(ACTION)
        keys = ["id", "action", *([TAKES[action]] if action in TAKES else [])]
        keys += draw(EXTRA_KEY)
    elif shape == "hello":
        keys = ["type", "name", "protocol"]
    else:
        keys = draw(ANY_KEYS)
    if shape != "mix" and draw(ONE_IN_FOUR) == 0:
        keys.pop(draw(POSITIONS[len(keys) - 1]))
    items = []
    for key in draw(_orders(tuple(keys))):
        if shape == "reply" and key == "action":
            value = json.dumps(action)
        elif shape == "hello" and key == "type":
            value = '"hello"'
        elif key in VALID and draw(ONE_IN_FOUR):
            value = draw(VALID[key])
        else:
            value = draw(VALUES[key])
        items.append(f'"{key}":{draw(AFTER_COLON)}{value}')
    text = draw(SPACE) + "{" + draw(COMMA).join(items) + "}" + draw(SPACE)
    return text.encode()


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(bot_lines())
def test_the_schema_accepts_a_generated_line_iff_the_referee_does(line: bytes) -> None:
    """A bot's author can trust the schema: what it accepts the referee takes, and the
    reverse."""
    referee, schema, model = _bot_verdicts(line)
    assert schema == referee, line
    assert model == referee


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)


@settings(max_examples=250, deadline=None)
@given(st.binary(max_size=80) | st.dictionaries(
    st.sampled_from(["id", "action", "card", "amount", "type", "name", "protocol"]), JSON)
    .map(lambda d: json.dumps(d).encode()))
def test_the_schema_rejects_what_the_referee_rejects_in_any_bytes(line: bytes) -> None:
    """Junk, and JSON objects with the protocol's keys and any values, get the same verdict."""
    referee, schema, model = _bot_verdicts(line)
    assert schema == referee == model, line


# ---------------------------------------------------------------- referee lines, generated


def _referee_lines(players: int, edition: Edition, variants: tuple[str, ...], seed: int
                   ) -> Iterator[bytes]:
    """Every line the referee would send in one game, to every seat: the hello, `new_game`,
    each event and request, a warning for each decision (its default applied), `game_end`
    and `goodbye`."""
    config = GameConfig.from_variants(players, edition, variants)
    rng = random.Random(seed)
    state = GameState(config, seed=seed)
    names = [f"bot-{i}" for i in range(players)]
    yield codec.encode(codec.hello("modern-art-referee test"))
    for seat in range(players):
        yield codec.encode(codec.new_game("g", seat, names, codec.edition_info(edition),
                                          list(variants), 1.0, 10.0, seat_seed(seed, 0, seat)))
    events = state.take_events()
    request_id = 0
    while True:
        yield from (codec.encode(codec.event(ev)) for ev in events)
        if state.is_over:
            break
        for decision in state.decisions():
            request_id += 1
            yield codec.encode(codec.request(request_id, decision,
                                             seat_view(state, decision.seat), 0.25, 9.5))
            yield codec.encode(codec.warning(request_id, FaultKind.TIMEOUT, "late",
                                             codec.action_to_dict(decision.default_action())))
        if state.phase is Phase.HIDDEN:
            bids = [random_action(d, rng) for d in state.decisions()]
            events = state.apply(HiddenBids(tuple(b.amount for b in bids)))  # type: ignore[union-attr]
        else:
            events = state.apply(random_action(state.decision(state.pending), rng))
    end = events[-1].to_dict()
    yield codec.encode(codec.game_end("g", end["money"], end["ranks"], [players - 1]))
    yield codec.encode(codec.GOODBYE)


GAMES = st.sampled_from([3, 4, 5]).flatmap(lambda players: st.tuples(
    st.just(players),
    st.sampled_from([CMON, CLASSIC]),
    st.sampled_from([(), ("mystery",), ("mystery-winner",)] if players == 3 else [()]),
    st.sets(st.sampled_from(["split-double", "hidden-money"])),
    st.integers(0, 2**32),
))


# The lines found valid so far: the same bytes (an event every seat is sent, the hello, a
# warning of the same id and default in another game) are validated once, as jsonschema's
# verdict on them cannot differ; about a quarter of a game's lines.
_VALID_LINES: set[bytes] = set()


@settings(max_examples=6, deadline=None)
@given(GAMES)
def test_every_line_the_referee_sends_validates(
        game: tuple[int, Edition, tuple[str, ...], set[str], int]) -> None:
    """Whatever the table, edition and variants, a bot can validate what it receives."""
    players, edition, mystery, others, seed = game
    for line in _referee_lines(players, edition, (*mystery, *sorted(others)), seed):
        if line in _VALID_LINES:
            continue
        message = orjson.loads(line)
        assert TO_BOT.is_valid(message), (message, errors(TO_BOT, message))
        referee_line().validate_json(line)
        _VALID_LINES.add(line)


# ---------------------------------------------------------------- real transcripts

RANDOM_BOT = f"{BOT_PYTHON} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
# (players' kinds, options): both editions, every variant, every decision kind, and a fuzzing
# seat whose faults bring warnings and lines the referee rejects.
TABLES = [
    (["random", "random", "fuzz"], ["--variant", "mystery", "--variant", "split-double",
                                     "--variant", "hidden-money"]),
    (["random", "random", "random"], ["--edition", "classic", "--variant", "mystery-winner"]),
    (["random", "fuzz", "random", "random"], ["--edition", "classic", "--variant",
                                              "split-double"]),
    (["random"] * 5, ["--variant", "hidden-money"]),
]


def test_every_line_of_real_transcripts_fits_the_schemas(bot_dir: Path, tmp_path: Path
                                                          ) -> None:
    """Games played by `referee play --transcript-dir` over both editions and all variants: each
    line the referee sent validates, and each line a bot sent validates exactly when the
    referee took it."""
    seen: set[str] = set()
    verdicts: set[bool] = set()
    validated: set[bytes] = set()  # a line every seat was sent is validated once
    for number, (kinds, options) in enumerate(TABLES):
        bots = [f"{kind}{seat}=" + (RANDOM_BOT if kind == "random" else
                                    f"{BOT_PYTHON} {bot_dir / 'fuzz.py'} --seed {number}")
                for seat, kind in enumerate(kinds)]
        folder = tmp_path / f"game{number}"
        done = in_process.referee("play", *bots, *options, "--seed", str(number),
                                  "--max-faults", "1000", "--transcript-dir", str(folder),
                                  cwd=tmp_path, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
        for path in sorted(folder.glob("*.transcript.jsonl")):
            for at, text in enumerate(path.read_bytes().splitlines(), 1):
                if text in validated:
                    continue
                validated.add(text)
                ((direction, message),) = orjson.loads(text).items()
                accepted = BY_DIRECTION[direction].is_valid(message)
                where = f"{path.name}:{at}"
                if direction == "to_bot":
                    assert accepted, (where, errors(TO_BOT, message))
                    seen.add(message["type"] + "." + (message.get("decision") or message.get(
                        "event", {}).get("type", "")))
                else:
                    assert accepted == referee_accepts(orjson.dumps(message)), (where, message)
                    verdicts.add(accepted)
    decisions = {f"request.{d}" for d in ("play", "offer", "bid", "hidden_bid", "price", "buy",
                                          "mystery")}
    assert decisions <= seen, decisions - seen
    assert {"warning.", "game_end.", "goodbye.", "event.mystery_revealed"} <= seen
    assert verdicts == {True, False}


# ---------------------------------------------------------------- the spec's example


def _readme_snippet() -> str:
    text = (ROOT / "protocol" / "README.md").read_text()
    section = text[text.index("## 11. "):]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "protocol/README.md, section 11, shows a Python validator"
    return match.group(1)


def test_the_spec_shows_a_validator_that_works(tmp_path: Path) -> None:
    """The spec's few lines of Python pass a real transcript, and name the line and the
    field of a reply the referee would reject."""
    script = tmp_path / "validate.py"
    script.write_text(_readme_snippet())
    example = ROOT / "protocol" / "examples" / "short_game.jsonl"
    ok = subprocess.run([sys.executable, script, example], cwd=ROOT, capture_output=True,
                        text=True, timeout=120)
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "", "")
    bad = tmp_path / "bad.jsonl"
    lines = example.read_text().splitlines()
    lines[5] = json.dumps({"from_bot": {"id": 3, "action": "bid", "amount": 15.0}})
    bad.write_text("\n".join(lines) + "\n")
    failed = subprocess.run([sys.executable, script, bad], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert failed.returncode == 1
    assert "line 6" in failed.stdout and "15.0 is not of type 'integer'" in failed.stdout
