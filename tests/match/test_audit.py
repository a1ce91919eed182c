"""A record anyone can audit: it keeps the deck it was dealt from (the seed's shuffle, or the
spec's deck) and the mystery hand, whose cards are turned from its first; `referee replay`
refuses a record whose deck or mystery hand was edited, naming the rule (R2.3, R7); and a
malformed reply's line is kept in its fault, cut short and escaped."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
import trio

from referee.bots.launch import BotSpec
from referee.game import GameConfig
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.player import Player
from referee.match.policy_player import random_player
from referee.match.record import (
    KEPT_LINE_BYTES,
    FaultLine,
    GameRecord,
    RecordError,
    kept_line,
    read_record,
)
from referee.match.replay import replay
from referee.match.spec import GameSpec
from referee.protocol.messages import FaultKind
from referee.text import visible

from .. import in_process
from ..processes import ROOT, command

DATA = Path(__file__).resolve().parents[1] / "data" / "records"
NAMES = ["ann", "ben", "cy"]
Lines = list[dict[str, Any]]


def play(seed: int = 5, variants: tuple[str, ...] = (), deck: list[int] | None = None,
         ) -> GameRecord:
    players = [random_player(name, i) for i, name in enumerate(NAMES)]
    spec = GameSpec.make("audit", seed, NAMES, variants=variants, deck=deck)
    return trio.run(play_game, spec, players)


def lines_of(record: GameRecord) -> Lines:
    return [orjson.loads(line) for line in record.to_jsonl().splitlines()]


def data_of(lines: Lines) -> bytes:
    return b"".join(orjson.dumps(line) + b"\n" for line in lines)


def turned(lines: Lines) -> list[int]:
    return [x["event"]["card"] for x in lines
            if x["type"] == "event" and x["event"]["type"] == "mystery_revealed"]


@pytest.fixture(scope="module")
def mystery_game() -> Lines:
    """A mystery game in which some, not all, of the mystery hand's cards were turned."""
    lines = lines_of(play(variants=("mystery",)))
    assert 0 < len(turned(lines)) < len(lines[1]["mystery"])
    return lines


# ---------------------------------------------------------------- what the deal line says


def test_the_deck_is_the_seeds_shuffle_as_docs_records_says() -> None:
    """The second line is the deck, top card first: the seed's shuffle of the edition's card
    ids, in the recipe docs/records.md gives; no mystery hand outside the mystery variant."""
    lines = lines_of(play(seed=5))
    cards = list(range(GameConfig(3).edition.n_cards))
    random.Random(5).shuffle(cards)
    assert lines[1] == {"type": "deal", "deck": cards}
    dealt = [x["event"] for x in lines if x["type"] == "event"
             and x["event"]["type"] == "cards_dealt"][:3]
    assert [d["cards"] for d in dealt] == [cards[s:30:3] for s in range(3)]  # R2.2, D6


def test_an_explicit_deck_is_the_records_deck_and_replays() -> None:
    deck = list(range(69, -1, -1))
    record = play(deck=deck)
    assert record.deal is not None and record.deal.deck == tuple(deck)
    assert replay(read_record(record.to_jsonl())).ok


def test_the_mystery_hand_is_dealt_last_and_turned_from_its_first(mystery_game: Lines) -> None:
    """R7 and D6: each round deals one card to each seat, then one to the mystery hand, as if
    for four players; the cards turned are the hand's first ones, in order (D2)."""
    deal = mystery_game[1]
    deck = list(deal["deck"])
    rounds = sum(1 for x in mystery_game if x["type"] == "event"
                 and x["event"]["type"] == "round_started")
    mystery = []
    for count in GameConfig(4).deal_counts()[:rounds]:
        for _ in range(count):
            del deck[:3]
            mystery.append(deck.pop(0))
    assert deal["mystery"] == mystery
    assert turned(mystery_game) == mystery[:len(turned(mystery_game))]


def test_a_record_reads_back_with_its_deal_and_replays(mystery_game: Lines) -> None:
    data = data_of(mystery_game)
    record = read_record(data)
    assert record.deal is not None and record.deal.mystery == tuple(mystery_game[1]["mystery"])
    assert record.to_jsonl() == data
    assert replay(record).ok


def test_a_record_written_before_records_kept_their_deal_still_replays() -> None:
    """An older record has no deal line: it reads, replays from its seed, and writes back the
    same bytes; there is no deal line to check, and nothing is refused."""
    data = (DATA / "play.jsonl").read_bytes()
    record = read_record(data)
    assert record.deal is None
    assert record.to_jsonl() == data
    assert replay(record).ok


# ---------------------------------------------------------------- an edited deal is refused


def swap_deck(lines: Lines) -> None:
    deck = lines[1]["deck"]
    deck[40], deck[41] = deck[41], deck[40]


def short_deck(lines: Lines) -> None:
    lines[1]["deck"].pop()


def swap_turned(lines: Lines) -> None:
    """Two mystery cards that were turned, swapped in the hand."""
    hand = lines[1]["mystery"]
    hand[0], hand[1] = hand[1], hand[0]


def change_unturned(lines: Lines) -> None:
    """The hand's last card, never turned, changed into one of the deck's that is not in it."""
    deal = lines[1]
    deal["mystery"][-1] = next(c for c in deal["deck"] if c not in deal["mystery"])


def drop_mystery(lines: Lines) -> None:
    del lines[1]["mystery"]


def add_mystery(lines: Lines) -> None:
    lines[1]["mystery"] = lines[1]["deck"][:3]


EDITS: dict[str, tuple[Callable[[Lines], None], str, str]] = {
    # name: (edit, game, the start of the refusal)
    "deck-swapped": (swap_deck, "plain",
                     "the record's deck is not the one its seed 5 deals (R2.3): its card 41 is"),
    "deck-short": (short_deck, "plain", "the record's deck is not the one its seed 5 deals "
                                        "(R2.3): it has 69 cards, the seed's 70"),
    "given-deck-swapped": (swap_deck, "given", "the record's deck is not the one the spec's "
                                               "deck deals (R2.3): its card 41 is"),
    "mystery-deck-swapped": (swap_deck, "mystery", "the record's deck is not the one its seed"),
    "turned-swapped": (swap_turned, "mystery", "mystery card 1 turned is"),
    "unturned-changed": (change_unturned, "mystery",
                         "the record's mystery hand is not the one its deck deals (R7): its "
                         "card 17 is"),
    "mystery-dropped": (drop_mystery, "mystery", "the record's deal has no mystery hand, which "
                                                 "the mystery variant deals (R7)"),
    "mystery-added": (add_mystery, "plain", "the record's deal has a mystery hand, but the game "
                                            "has none (R7)"),
}


@pytest.fixture(scope="module")
def games(mystery_game: Lines) -> dict[str, Lines]:
    return {"plain": lines_of(play()), "given": lines_of(play(deck=list(range(69, -1, -1)))),
            "mystery": mystery_game}


@pytest.mark.parametrize("name", list(EDITS))
def test_an_edited_deal_is_refused_naming_the_rule(name: str, games: dict[str, Lines]) -> None:
    edit, game, message = EDITS[name]
    lines = orjson.loads(orjson.dumps(games[game]))  # a deep copy
    edit(lines)
    record = read_record(data_of(lines))  # it reads: it is the deal that is wrong
    with pytest.raises(RecordError) as refused:
        replay(record)
    assert str(refused.value).startswith(message), str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(("edit", "rule"), [(swap_deck, "(R2.3)"), (change_unturned, "(R7)"),
                                            (swap_turned, "(R7, D2)")],
                         ids=["deck", "mystery-hand", "turned-card"])
def test_referee_replay_refuses_an_edited_deal_in_one_line(
        edit: Callable[[Lines], None], rule: str, mystery_game: Lines, tmp_path: Path) -> None:
    lines = orjson.loads(orjson.dumps(mystery_game))
    path = tmp_path / "game.jsonl"
    path.write_bytes(data_of(lines))
    assert in_process.referee("replay", "-q", str(path), cwd=ROOT).returncode == 0
    edit(lines)
    path.write_bytes(data_of(lines))
    proc = in_process.referee("replay", str(path), cwd=ROOT)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == ""  # refused before any of its game is shown
    [error] = proc.stderr.splitlines()
    assert error.startswith(f"error: {path}: ") and rule in error, error


# ---------------------------------------------------------------- a malformed reply's line


@pytest.mark.parametrize(("line", "kept"), [
    (b"this is not json", "this is not json"),
    (b"\x1b[2J\x1b]0;pwned\x07\rALL BOTS PASSED", "\\x1b[2J\\x1b]0;pwned\\x07\\rALL BOTS PASSED"),
    (b"\xff\xfe{", "\\xff\\xfe{"),
    (b"x" * 1000, "x" * KEPT_LINE_BYTES),
    ("é".encode() * 200, "é" * (KEPT_LINE_BYTES // 2)),
    (b"a" + "é".encode() * 200, "a" + "é" * (KEPT_LINE_BYTES // 2 - 1) + "\\xc3"),
])
def test_a_kept_line_is_cut_and_escaped(line: bytes, kept: str) -> None:
    assert kept_line(line) == kept


# Answers every request with a long line that is not JSON: an escape, then 400 'é'.
LONG_AND_ESCAPED = """\
import json, sys
out = sys.stdout.buffer
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        out.write(b'{"type": "hello", "name": "long", "protocol": 1}\\n')
    elif message["type"] == "request":
        out.write(b"\\x1b[2J" + "\\u00e9".encode() * 400 + b"\\n")
    elif message["type"] == "goodbye":
        break
    out.flush()
"""


@pytest.mark.parametrize(("bot", "kept"), [
    ("garbage.py", "this is not json"),
    ("terminal_escape.py", visible("\x1b[2J\x1b]0;pwned\x07\rALL BOTS PASSED")),
    ("illegal.py --kind fractional", None),  # JSON, but not a valid reply: kept whole
    ("long_and_escaped.py", "\\x1b[2J" + "é" * ((KEPT_LINE_BYTES - 4) // 2)),
], ids=["not-json", "escapes", "bad-field", "long"])
def test_a_malformed_fault_keeps_the_line(bot: str, kept: str | None, bot_dir: Path) -> None:
    (bot_dir / "long_and_escaped.py").write_text(LONG_AND_ESCAPED)
    players: list[Player] = [
        BotPlayer(BotSpec(name, command(bot_dir, script)), startup_time=5)
        for name, script in zip(NAMES, [bot, "first_legal.py", "first_legal.py"], strict=True)]

    async def run() -> GameRecord:
        try:
            return await play_game(GameSpec.make("kept", 3, NAMES, move_time=0.5,
                                                 time_bank=0.5), players)
        finally:
            for p in players:
                await p.aclose()

    record = trio.run(run)
    faults = [x for x in record.lines if isinstance(x, FaultLine)
              and x.kind is FaultKind.MALFORMED]
    assert faults and all(f.seat == 0 and f.line is not None for f in faults)
    first = faults[0].line
    assert first is not None
    if kept is None:
        assert orjson.loads(first)["amount"] == 2.5
    else:
        assert first == kept
    back = read_record(record.to_jsonl())
    assert [x for x in back.lines if isinstance(x, FaultLine)] == \
        [x for x in record.lines if isinstance(x, FaultLine)]
    assert all(x.line is None for x in record.lines
               if isinstance(x, FaultLine) and x.kind is not FaultKind.MALFORMED)
