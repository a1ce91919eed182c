"""RULES.md R1-R8, one scripted scenario at a time, through the engine's public interface.

Every test names the rule it checks.  Hands are built card by card with `Cards`, so a scenario
says which artist and auction type each player holds; `deck=[]` means no later deal unless a
test gives one.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import pytest

from referee.game import (
    BUILTIN_EDITIONS,
    CLASSIC,
    CMON,
    AuctionType,
    Bid,
    Buy,
    Decision,
    DecisionKind,
    Edition,
    EditionError,
    GameConfig,
    GameState,
    HiddenBids,
    IllegalAction,
    MysteryTrigger,
    Offer,
    Pass,
    Play,
    Price,
    Reveal,
    seat_view,
)
from referee.game.edition import parse_edition
from referee.game.events import (
    AuctionStarted,
    AuctionWon,
    CardPlayed,
    CardsDealt,
    Event,
    GameEnded,
    HiddenBidsRevealed,
    MysteryRevealed,
    PaintingsSold,
    Passed,
    Payment,
    PriceSet,
    RoundEnded,
    RoundStarted,
    SecondCardDeclined,
)

OPEN = AuctionType.OPEN
ONCE = AuctionType.ONCE_AROUND
HIDDEN = AuctionType.HIDDEN
FIXED = AuctionType.FIXED_PRICE
DOUBLE = AuctionType.DOUBLE
PLAIN = (OPEN, ONCE, HIDDEN)  # auction types that end free for the auctioneer if all pass

E = TypeVar("E", bound=Event)


# --------------------------------------------------------------------------- helpers


class Cards:
    """Hands out distinct card ids of an edition by artist (index) and auction type."""

    def __init__(self, edition: Edition = CMON) -> None:
        self.edition = edition
        self.used: set[int] = set()

    def __call__(self, artist: int, kind: AuctionType | Sequence[AuctionType] = PLAIN) -> int:
        kinds = (kind,) if isinstance(kind, AuctionType) else tuple(kind)
        for k in kinds:
            for card in self.edition.cards_of(artist, k):
                if card not in self.used:
                    self.used.add(card)
                    return card
        raise AssertionError(f"no unused {kinds} card of artist {artist} left")

    def many(
        self, artist: int, k: int, kind: AuctionType | Sequence[AuctionType] = PLAIN
    ) -> list[int]:
        return [self(artist, kind) for _ in range(k)]

    def unused(self) -> list[int]:
        return [c for c in range(self.edition.n_cards) if c not in self.used]


def table(
    hands: Sequence[Sequence[int]],
    *,
    edition: Edition = CMON,
    deck: Sequence[int] = (),
    mystery_hand: Sequence[int] = (),
    **options: Any,
) -> GameState:
    """A game with the given round-1 hands and draw pile (empty by default)."""
    config = GameConfig(len(hands), edition, **options)
    return GameState(config, hands=hands, deck=list(deck), mystery_hand=list(mystery_hand))


def run(state: GameState, *actions: Any) -> list[Event]:
    events: list[Event] = []
    for action in actions:
        events += state.apply(action)
        assert_money_conserved(state)
    return events


def of(kind: type[E], events: Iterable[Event]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def pending(state: GameState) -> int:
    seats = state.pending_seats()
    assert len(seats) == 1, seats
    return seats[0]


def kind_now(state: GameState) -> DecisionKind:
    return state.decision(state.pending_seats()[0]).kind


def to_next_play(state: GameState) -> list[Event]:
    """Apply default actions until an auctioneer must play a card (or the game is over)."""
    events: list[Event] = []
    while not state.is_over and kind_now(state) is not DecisionKind.PLAY:
        events += run(state, state.default_action())
    return events


def play(state: GameState, seat: int, card: int) -> list[Event]:
    """`seat` plays `card`; everyone then takes the default (so plain auctions end free)."""
    assert pending(state) == seat and kind_now(state) is DecisionKind.PLAY
    return run(state, Play(seat, card)) + to_next_play(state)


def drive(state: GameState) -> list[list[Event]]:
    """Default actions to the end of the game; the events of each step."""
    steps = [state.take_events()]
    for _ in range(5000):
        if state.is_over:
            return steps
        steps.append(run(state, state.default_action()))
    raise AssertionError("the game did not end")


def assert_money_conserved(state: GameState) -> None:
    assert sum(state.money) + state.bank_in - state.bank_out == 100 * state.n


def snapshot(state: GameState) -> Any:
    seats = state.pending_seats()
    return (
        seats,
        [state.decision(s) for s in seats],
        [seat_view(state, s) for s in range(state.n)],
        list(state.money),
        state.bank_in,
        state.bank_out,
        state.is_over,
    )


def assert_rejected(state: GameState, action: Any, message: str | None = None) -> IllegalAction:
    """`action` raises IllegalAction and leaves the game exactly as it was."""
    twin = copy.deepcopy(state)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    if message is not None:
        assert str(info.value) == message
    assert snapshot(state) == before
    # The game goes on as if the illegal action had never been tried.
    probe = copy.deepcopy(state)
    step = twin.default_action()
    assert probe.apply(step) == twin.apply(step)
    assert snapshot(probe) == snapshot(twin)
    return info.value


# --------------------------------------------------------------------------- R1 editions

CMON_TABLE = {
    "Manuel Carvalho": (3, 3, 2, 2, 2),
    "Sigrid Thaler": (3, 2, 3, 3, 2),
    "Daniel Melim": (3, 3, 3, 3, 3),
    "Ramon Martins": (3, 3, 3, 3, 3),
    "Rafael Silveira": (3, 3, 3, 3, 3),
}
CLASSIC_TABLE = {
    "Lite Metal": (3, 3, 2, 2, 2),
    "Yoko": (3, 2, 3, 3, 2),
    "Christin P.": (3, 3, 3, 3, 2),
    "Karl Gitter": (3, 3, 3, 3, 3),
    "Krypto": (4, 3, 3, 3, 3),
}


@pytest.mark.parametrize(
    ("name", "edition", "expected", "totals"),
    [
        ("cmon", CMON, CMON_TABLE, (12, 13, 15, 15, 15)),
        ("classic", CLASSIC, CLASSIC_TABLE, (12, 13, 14, 15, 16)),
    ],
)
def test_R1_builtin_editions_have_the_tables_per_type_counts(
    name: str, edition: Edition, expected: dict[str, tuple[int, ...]], totals: tuple[int, ...]
) -> None:
    """R1: both shipped decks, artist by artist in board order, type by type."""
    assert BUILTIN_EDITIONS[name] is edition
    assert edition.artists == tuple(expected)
    for artist, row in expected.items():
        got = tuple(len(edition.cards_of(artist, kind)) for kind in AuctionType)
        assert got == row, artist
    assert tuple(len(edition.cards_of(a)) for a in edition.artists) == totals
    assert edition.n_cards == sum(totals) == 70
    assert GameConfig(3).edition is CMON  # cmon is the default


SEED_002_TOML = """
name = "cmon-002"

[[artists]]
name = "Manuel Carvalho"
open = 3
once-around = 3
hidden = 2
fixed-price = 2
double = 2

[[artists]]
name = "Sigrid Thaler"
open = 3
once-around = 2
hidden = 3
fixed-price = 3
double = 2

[[artists]]
name = "Daniel Melim"
open = 3
once-around = 3
hidden = 3
fixed-price = 3
double = 2

[[artists]]
name = "Ramon Martins"
open = 3
once-around = 3
hidden = 3
fixed-price = 3
double = 3

[[artists]]
name = "Rafael Silveira"
open = 4
once-around = 3
hidden = 3
fixed-price = 3
double = 3
"""


def seed_002_data() -> dict[str, Any]:
    names = ["Manuel Carvalho", "Sigrid Thaler", "Daniel Melim", "Ramon Martins",
             "Rafael Silveira"]
    return {
        "name": "cmon-002",
        "artists": [
            {"name": n, **dict(zip(("open", "once-around", "hidden", "fixed-price", "double"),
                                   row, strict=True))}
            for n, row in zip(names, CLASSIC.counts, strict=True)
        ],
    }


def test_R1_user_edition_from_toml_and_json_text() -> None:
    """R1: seed 002's printing (12/13/14/15/16) loads from TOML and JSON and can be played."""
    from_toml = parse_edition(SEED_002_TOML, "toml")
    from_json = parse_edition(json.dumps(seed_002_data()), "json")
    assert from_toml == from_json
    assert from_toml.name == "cmon-002"
    assert from_toml.artists == CMON.artists
    assert [len(from_toml.cards_of(a)) for a in range(5)] == [12, 13, 14, 15, 16]
    assert len(from_toml.cards_of("Rafael Silveira", OPEN)) == 4
    assert len(from_toml.cards_of("Daniel Melim", DOUBLE)) == 2
    # It is a playable deck: a seeded game deals from it and ends with its artists scored.
    state = GameState(GameConfig(4, from_toml), seed=7)
    steps = drive(state)
    dealt = [c for step in steps for e in of(CardsDealt, step) for c in e.cards]
    assert len(dealt) == len(set(dealt)) == 4 * (9 + 4 + 4)
    assert all(0 <= c < 70 for c in dealt)
    ended = [e for step in steps for e in of(RoundEnded, step)]
    assert ended and all(len(e.counts) == 5 for e in ended)


def test_R1_user_edition_with_other_artists_and_round_trip() -> None:
    """R1: an edition is data: any names, any counts; `to_data` gives the same file back."""
    text = json.dumps({
        "name": "tiny",
        "artists": [
            {"name": "Left", "open": 5, "once-around": 4, "hidden": 3, "fixed-price": 2,
             "double": 1},
            {"name": "Middle", "open": 1, "once-around": 1, "hidden": 1, "fixed-price": 1,
             "double": 1},
            {"name": "Right", "open": 0, "once-around": 0, "hidden": 0, "fixed-price": 0,
             "double": 6},
        ],
    })
    ed = parse_edition(text, "json")
    assert ed.artists == ("Left", "Middle", "Right")
    assert [len(ed.cards_of("Left", k)) for k in AuctionType] == [5, 4, 3, 2, 1]
    assert ed.cards_of("Right") == ed.cards_of("Right", DOUBLE)
    assert ed.n_cards == 26
    assert parse_edition(json.dumps(ed.to_data()), "json") == ed


def _with(path: tuple[Any, ...], value: Any, *, delete: bool = False) -> str:
    data = seed_002_data()
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "fmt", "where"),
    [
        (_with(("artists", 1, "hidden"), -1), "json", "artists.1.hidden"),
        (_with(("artists", 1, "hidden"), "three"), "json", "artists.1.hidden"),
        (_with(("artists", 0, "once-around"), -2), "json", "artists.0.once-around"),
        (_with(("artists", 2, "fixed-price"), 41), "json", "artists.2.fixed-price"),
        (_with(("artists", 3, "double"), 2.5), "json", "artists.3.double"),
        # A count written true, "3" or 3.0 is refused, not taken as 1 or 3.
        (_with(("artists", 3, "double"), True), "json", "artists.3.double"),
        (_with(("artists", 3, "double"), "3"), "json", "artists.3.double"),
        (_with(("artists", 3, "double"), 3.0), "json", "artists.3.double"),
        (_with(("artists", 0, "open"), None, delete=True), "json", "artists.0.open"),
        (_with(("artists", 2, "colour"), "red"), "json", "artists.2.colour"),
        (_with(("artists", 4, "name"), ""), "json", "artists.4.name"),
        (_with(("artists",), []), "json", "artists"),
        (_with(("name",), None, delete=True), "json", "name"),
        (SEED_002_TOML.replace("hidden = 3\nfixed-price = 3\ndouble = 2\n\n[[artists]]\n"
                               "name = \"Daniel", "hidden = -3\nfixed-price = 3\ndouble = 2\n\n"
                               "[[artists]]\nname = \"Daniel", 1), "toml", "artists.1.hidden"),
    ],
)
def test_R1_bad_edition_file_names_the_field(text: str, fmt: str, where: str) -> None:
    """R1: a bad user edition gives EditionError whose message names the bad field."""
    with pytest.raises(EditionError) as info:
        parse_edition(text, fmt)
    assert f"edition field {where}:" in str(info.value)


def test_R1_a_mistyped_edition_key_is_named_with_the_key_meant() -> None:
    """R1: `fixed-prize` for `fixed-price` names the mistyped key and the one meant, not
    the key then missing."""
    text = SEED_002_TOML.replace("fixed-price = 3", "fixed-prize = 3", 1)
    with pytest.raises(EditionError) as info:
        parse_edition(text, "toml")
    assert str(info.value).endswith(".fixed-prize: Extra inputs are not permitted (did you "
                                    "mean 'fixed-price'?)"), str(info.value)


@pytest.mark.parametrize(("text", "fmt"), [("name = ", "toml"), ("{\"name\": ", "json")])
def test_R1_edition_file_that_does_not_parse(text: str, fmt: str) -> None:
    """R1: text that is not TOML/JSON at all is an EditionError too, naming the format."""
    with pytest.raises(EditionError, match=f"not valid {fmt.upper()}"):
        parse_edition(text, fmt)


@pytest.mark.parametrize(("text", "fmt", "says"), [
    ('{"name": "x", "artists": ' + "[" * 5000, "json", "not valid JSON: nested too deeply"),
    ("x = " + "[" * 100000, "toml", "not valid TOML: nested too deeply"),
    ('{"name": "x", "name": "y", "artists": []}', "json", "the key 'name' appears twice"),
    ("[1, 2]", "json", "an edition is a table with a name and its artists, not list"),
    (_with(("artists", 1, "name"), "A\u0000\nX"), "json", "holds a control character"),
    (_with(("artists", 1, "name"), "Sigrid Thaler "), "json", "starts or ends with spaces"),
    (_with(("artists", 0, "name"), "\uff33igrid thaler"), "json",
     "'\uff33igrid thaler' and 'Sigrid Thaler' are the same name"),
])
def test_R1_an_edition_file_a_user_could_get_wrong_is_one_error(text: str, fmt: str,
                                                                 says: str) -> None:
    """Each mistake is one EditionError saying what is wrong: nesting too deep (not a
    RecursionError traceback), a key given twice (not its last value kept), a newline in an
    artist's name (which would split transcript lines), 'A ' or a full-width A beside 'A'."""
    with pytest.raises(EditionError, match=re.escape(says)):
        parse_edition(text, fmt)


def test_R1_duplicate_artist_names_rejected() -> None:
    """R1: artists are told apart by name, so a name may appear once."""
    with pytest.raises(EditionError, match=r"artists.*'Sigrid Thaler' appears twice"):
        parse_edition(_with(("artists", 0, "name"), "Sigrid Thaler"), "json")


def test_R1_edition_with_more_cards_than_the_protocol_can_name_rejected() -> None:
    """R1: bots name cards by id, 0-999 in the protocol; a larger deck would fault every bot's
    play, so the edition file is refused."""
    artist = {"open": 40, "once-around": 40, "hidden": 40, "fixed-price": 40, "double": 40}
    data = {"name": "huge", "artists": [{"name": f"A{i}", **artist} for i in range(6)]}
    with pytest.raises(EditionError, match=r"1200 cards, more than 1000: card ids run from 0"):
        parse_edition(json.dumps(data), "json")
    data["artists"] = data["artists"][:5]  # 1000 cards: ids 0-999
    assert parse_edition(json.dumps(data), "json").n_cards == 1000


# --------------------------------------------------------------------------- R2 setup


@pytest.mark.parametrize("players", [3, 4, 5])
def test_R2_1_three_to_five_players_each_start_with_100(players: int) -> None:
    """R2.1: 3, 4 or 5 players, 100 each."""
    state = GameState(GameConfig(players), seed=1)
    assert state.money == [100] * players
    assert all(seat_view(state, s)["money"] == [100] * players for s in range(players))


@pytest.mark.parametrize("players", [0, 1, 2, 6, 7])
def test_R2_1_no_other_player_counts(players: int) -> None:
    """R2.1: there is no two-player (or six-player) game."""
    with pytest.raises(ValueError, match=r"3, 4 or 5 players.*R2\.1"):
        GameConfig(players)


def _deals_by_round(config: GameConfig, seed: int) -> tuple[dict[int, list[CardsDealt]],
                                                          dict[int, RoundStarted],
                                                          dict[int, list[int]]]:
    """Drive a game by defaults; per round, the deals, the RoundStarted and hand sizes before."""
    state = GameState(config, seed=seed)
    deals: dict[int, list[CardsDealt]] = {}
    starts: dict[int, RoundStarted] = {}
    before: dict[int, list[int]] = {}
    first = state.take_events()
    starts[1] = of(RoundStarted, first)[0]
    deals[1] = of(CardsDealt, first)
    before[1] = [0] * config.players
    while not state.is_over:
        sizes = [len(h) for h in state.hands]
        events = run(state, state.default_action())
        for e in events:
            if isinstance(e, CardPlayed):
                sizes[e.seat] -= 1
            if isinstance(e, RoundStarted):
                starts[e.round] = e
                before[e.round] = list(sizes)
                deals[e.round] = []
            if isinstance(e, CardsDealt):
                deals[max(starts)].append(e)
    return deals, starts, before


@pytest.mark.parametrize(
    ("players", "schedule"), [(3, (10, 6, 6, 0)), (4, (9, 4, 4, 0)), (5, (8, 3, 3, 0))]
)
def test_R2_2_deal_sizes_per_round(players: int, schedule: tuple[int, ...]) -> None:
    """R2.2: each round deals the table's number of cards, added to what is still in hand."""
    for seed in (1, 2):
        deals, starts, before = _deals_by_round(GameConfig(players), seed)
        assert sorted(starts) == [1, 2, 3, 4], "the defaults game reaches round 4"
        for rnd in (1, 2, 3, 4):
            got = {e.seat: len(e.cards) for e in deals[rnd]}
            if schedule[rnd - 1]:
                assert got == {s: schedule[rnd - 1] for s in range(players)}, rnd
            else:
                assert got == {}, rnd
            assert starts[rnd].hand_sizes == tuple(
                before[rnd][s] + got.get(s, 0) for s in range(players)
            )
            assert starts[rnd].mystery_size == 0


def test_R2_2_mystery_deals_as_for_four_players() -> None:
    """R2.2 with R7: three players with `mystery` get 9/4/4, and so does the mystery hand."""
    config = GameConfig(3, mystery=MysteryTrigger.AUCTIONEER)
    deals, starts, before = _deals_by_round(config, seed=3)
    assert sorted(starts) == [1, 2, 3, 4]
    for rnd, n in zip((1, 2, 3, 4), (9, 4, 4, 0), strict=True):
        got = {e.seat: len(e.cards) for e in deals[rnd]}
        assert got == ({s: n for s in range(3)} if n else {}), rnd
        assert starts[rnd].hand_sizes == tuple(before[rnd][s] + n for s in range(3))
    # Nobody turned a mystery card (the default is not to), so the hand only grows by 9, 4, 4.
    assert [starts[r].mystery_size for r in (1, 2, 3, 4)] == [9, 13, 17, 17]


def test_R2_3_same_seed_same_deal_other_seed_other_deal() -> None:
    """R2.3: the deal is a function of the seed."""
    config = GameConfig(4)
    a, b, c = (GameState(config, seed=s) for s in (11, 11, 12))
    assert a.hands == b.hands and a.deck == b.deck
    assert a.hands != c.hands
    # The whole game replays identically from the seed.
    assert drive(GameState(config, seed=5)) == drive(GameState(config, seed=5))


def test_R2_3_explicit_deck_order_is_honoured() -> None:
    """R2.3: a given deck is dealt top first, one card at a time from seat 0, every round."""
    deck = list(range(69, -1, -1))  # top card 69
    state = GameState(GameConfig(3), deck=deck)
    for seat in range(3):
        assert state.hands[seat] == sorted(deck[seat:30:3])
    dealt_r2: dict[int, tuple[int, ...]] = {}
    while state.round == 1:
        for e in of(CardsDealt, run(state, state.default_action())):
            dealt_r2[e.seat] = e.cards
    assert {s: sorted(cs) for s, cs in dealt_r2.items()} == {
        s: sorted(deck[30 + s:48:3]) for s in range(3)
    }


def test_R2_3_explicit_hands_are_honoured() -> None:
    """R2.3: given hands are the round-1 hands, whatever their order."""
    hands = [[50, 3, 20], [7, 1], [69, 0, 33, 12]]
    state = GameState(GameConfig(3), hands=hands, deck=[])
    assert state.hands == [[3, 20, 50], [1, 7], [0, 12, 33, 69]]
    for seat in range(3):
        assert seat_view(state, seat)["hand"] == sorted(hands[seat])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_R2_4_seat_0_starts_and_left_is_seat_plus_one(players: int) -> None:
    """R2.4: seat 0 is round 1's first auctioneer; turns go seat + 1, wrapping to 0."""
    seeded = GameState(GameConfig(players), seed=4)
    assert of(RoundStarted, seeded.take_events())[0].first_seat == 0
    assert seeded.pending_seats() == (0,)
    cards = Cards()
    hands = [[cards(s % 5), cards((s + 2) % 5)] for s in range(players)]
    state = table(hands)
    order = []
    for _ in range(players + 1):
        seat = pending(state)
        order.append(seat)
        play(state, seat, state.hands[seat][0])
    assert order == [*range(players), 0]


# --------------------------------------------------------------------------- R3 turns


def test_R3_1_auctioneer_may_play_any_card_but_only_its_own() -> None:
    """R3.1: any card of one's own hand, not another seat's, and only when it is one's turn."""
    cards = Cards()
    hands = [[cards(0, OPEN), cards(1, OPEN), cards(2, HIDDEN)], [cards(3, OPEN)],
             [cards(4, OPEN)]]
    state = table(hands)
    assert state.decision(0) == Decision(DecisionKind.PLAY, 0, cards=tuple(sorted(hands[0])))
    assert_rejected(state, Play(0, hands[1][0]))  # another seat's card
    assert_rejected(state, Play(1, hands[1][0]))  # not seat 1's turn
    with pytest.raises(IllegalAction):
        state.decision(1)
    events = run(state, Play(0, hands[0][2]))  # the last card, not the first
    assert of(AuctionStarted, events) == [AuctionStarted(0, (hands[0][2],), "hidden")]


def test_R3_1_empty_hand_is_skipped_as_auctioneer_but_still_bids() -> None:
    """R3.1: seat 1 has no cards: it bids in seat 0's auction, then seat 2 is auctioneer."""
    cards = Cards()
    a, b, c = cards(0, OPEN), cards(1, OPEN), cards(2, OPEN)
    state = table([[a, b], [], [c]])
    run(state, Play(0, a))
    assert pending(state) == 1 and kind_now(state) is DecisionKind.BID
    events = run(state, Bid(1, 5), Pass(2), Pass(0))
    assert of(AuctionWon, events) == [AuctionWon(1, (a,), 5, 0)]
    assert state.money == [105, 95, 100]
    assert pending(state) == 2 and kind_now(state) is DecisionKind.PLAY
    run(state, Play(2, c), Pass(0), Pass(1), Pass(2))
    assert pending(state) == 0  # seat 1 skipped again, left of seat 2 is seat 0


def test_R3_2_turn_passes_left_of_the_auctioneer_not_the_winner() -> None:
    """R3.2: seat 1 runs an auction that seat 3 wins; seat 2 plays next."""
    cards = Cards()
    hands = [[cards(0)], [cards(1, ONCE)], [cards(2)], [cards(3)]]
    state = table(hands)
    play(state, 0, hands[0][0])
    run(state, Play(1, hands[1][0]), Pass(2), Bid(3, 9), Pass(0), Pass(1))
    assert state.money == [100, 109, 100, 91]
    assert pending(state) == 2 and kind_now(state) is DecisionKind.PLAY


def test_R3_3_fifth_card_of_an_artist_ends_the_round_at_once() -> None:
    """R3.3: the 5th Carvalho played this round ends the round in the same step."""
    cards = Cards()
    mc = cards.many(0, 5)
    filler = [cards(4) for _ in range(3)]
    state = table([[mc[0], mc[3], filler[0]], [mc[1], mc[4], filler[1]], [mc[2], filler[2]]])
    for seat, card in [(0, mc[0]), (1, mc[1]), (2, mc[2]), (0, mc[3])]:
        play(state, seat, card)
    assert state.round == 1
    events = run(state, Play(1, mc[4]))
    assert [type(e).__name__ for e in events[:2]] == ["CardPlayed", "RoundEnded"]
    assert events[0] == CardPlayed(1, mc[4], 5)
    assert not of(AuctionStarted, events)
    assert state.round == 2


# --------------------------------------------------------------------------- R4 auctions


def open_auction(players: int = 4, auctioneer: int = 0) -> tuple[GameState, int]:
    """A game where `auctioneer` has just put an open card up for auction."""
    cards = Cards()
    hands = [[cards(s % 5, HIDDEN), cards((s + 1) % 5, HIDDEN)] for s in range(players)]
    card = cards(0, OPEN)
    hands[auctioneer].append(card)
    state = table(hands)
    for seat in range(auctioneer):
        play(state, seat, hands[seat][0])
    run(state, Play(auctioneer, card))
    return state, card


def test_R4_bid_must_exceed_the_high_bid_and_the_message_says_so() -> None:
    """R4: a bid equal to the high bid is refused, naming both numbers and the rule; so is one
    of 0 (a bot's misread minimum), which is below the high bid before it is below 1."""
    state, _ = open_auction()
    run(state, Bid(1, 12))
    err = assert_rejected(state, Bid(2, 12), "bid 12 must exceed the high bid 12 (R4)")
    assert err.rule == "R4"
    assert_rejected(state, Bid(2, 5), "bid 5 must exceed the high bid 12 (R4)")
    assert_rejected(state, Bid(2, 0), "bid 0 must exceed the high bid 12 (R4)")  # not "at least 1"
    assert state.decision(2).min_amount == 13
    run(state, Bid(2, 13))
    assert state.decision(3).min_amount == 14


def test_R4_bid_at_most_the_bidders_money() -> None:
    """R4: 101 is refused with both numbers; exactly all one's money is allowed."""
    state, card = open_auction()
    assert state.decision(1).max_amount == 100
    assert_rejected(state, Bid(1, 101), "bid 101 is more than seat 1's money 100 (R4)")
    events = run(state, Bid(1, 100))  # nobody can outbid it: the auction is over at once
    assert [Passed(s, True) for s in (2, 3, 0)] == of(Passed, events)
    assert of(AuctionWon, events) == [AuctionWon(1, (card,), 100, 0)]
    assert state.money == [200, 0, 100, 100]


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "amount 0 must be at least 1 (R4)"),
        (-5, "amount -5 must be at least 1 (R4)"),
        (12.5, "amount 12.5 is not a whole number (R4)"),
        (12.0, "amount 12.0 is not a whole number (R4)"),
        (True, "amount True is not a whole number (R4)"),
        ("12", "amount '12' is not a whole number (R4)"),
        (None, "amount None is not a whole number (R4)"),
        (10**100, f"bid {10**100} is more than seat 1's money 100 (R4)"),
    ],
)
def test_R4_bids_are_whole_numbers_from_1_to_money(amount: Any, message: str) -> None:
    """R4: floats, bools, strings, zero, negatives and huge numbers are refused, state kept."""
    state, _ = open_auction()
    assert_rejected(state, Bid(1, amount), message)


def test_R4_auctioneer_who_wins_pays_the_bank() -> None:
    """R4: the auctioneer outbids everyone in its own open auction and pays the bank."""
    state, card = open_auction()
    events = run(state, Bid(1, 10), Pass(2), Pass(3), Bid(0, 11), Pass(1), Pass(2), Pass(3))
    assert of(AuctionWon, events) == [AuctionWon(0, (card,), 11, 0)]
    assert of(Payment, events) == [Payment(0, None, 11)]
    assert state.money == [89, 100, 100, 100]
    assert state.bank_in == 11


def test_R4_actions_out_of_turn_or_of_the_wrong_kind_are_refused() -> None:
    """R4 (R4.1): only the asked seat may act, and only by bidding or passing."""
    state, _ = open_auction()
    assert_rejected(state, Bid(2, 5))
    assert_rejected(state, Pass(0))
    assert_rejected(state, Buy(1))
    assert_rejected(state, Price(1, 5))
    assert_rejected(state, HiddenBids((0, 0, 0, 0)))


def test_R4_1_open_asks_clockwise_skips_high_bidder_and_allows_bidding_after_a_pass() -> None:
    """R4.1: ask order from the auctioneer's left, auctioneer included, round again."""
    state, card = open_auction(players=4, auctioneer=1)
    asked = [pending(state)]

    def act(action: Any) -> list[Event]:
        events = run(state, action)
        if not of(AuctionWon, events):
            asked.append(pending(state))
        return events

    act(Pass(2))
    act(Bid(3, 5))
    act(Pass(0))
    act(Pass(1))  # the auctioneer may bid but passes
    act(Bid(2, 7))  # seat 2 passed before and may still bid
    act(Pass(3))
    act(Pass(0))
    events = act(Pass(1))
    # Seat 3 (high bidder) was not asked after its bid, nor seat 2 after its bid.
    assert asked == [2, 3, 0, 1, 2, 3, 0, 1]
    assert of(AuctionWon, events) == [AuctionWon(2, (card,), 7, 1)]
    assert of(Payment, events) == [Payment(2, 1, 7)]
    assert pending(state) == 2  # R3.2: left of the auctioneer


def test_R4_1_open_does_not_end_while_someone_has_not_passed_since_the_last_bid() -> None:
    """R4.1: three passes after a bid end it with four players, not fewer."""
    state, card = open_auction()
    run(state, Bid(1, 3), Pass(2), Pass(3))
    assert pending(state) == 0 and kind_now(state) is DecisionKind.BID
    run(state, Bid(0, 4))  # a new bid restarts the count
    run(state, Pass(1), Pass(2))
    assert pending(state) == 3
    events = run(state, Pass(3))
    assert of(AuctionWon, events) == [AuctionWon(0, (card,), 4, 0)]


def test_R4_1_open_with_no_bid_ends_after_everyone_passed_once_auctioneer_free() -> None:
    """R4.1: all four pass once (the auctioneer last): the auctioneer takes it free."""
    state, card = open_auction()
    events = run(state, Pass(1), Pass(2), Pass(3))
    assert pending(state) == 0 and kind_now(state) is DecisionKind.BID
    events += run(state, Pass(0))
    assert of(AuctionWon, events) == [AuctionWon(0, (card,), 0, 0)]
    assert not of(Payment, events)
    assert state.money == [100] * 4
    assert seat_view(state, 2)["bought"][0] == [card]


def test_R4_1_player_who_cannot_outbid_is_not_asked() -> None:
    """R4.1 with R4: a seat whose money does not exceed the high bid passes without a question."""
    state, _card = open_auction(players=3)
    run(state, Bid(1, 100))
    # Nobody can bid 101, so the auction closes at once.
    assert not state.is_over
    assert pending(state) == 1 and kind_now(state) is DecisionKind.PLAY
    assert state.money == [200, 0, 100]


def once_around(players: int = 4, auctioneer: int = 1) -> tuple[GameState, int]:
    cards = Cards()
    hands = [[cards(s % 5, HIDDEN), cards((s + 1) % 5, HIDDEN)] for s in range(players)]
    card = cards(0, ONCE)
    hands[auctioneer].append(card)
    state = table(hands)
    for seat in range(auctioneer):
        play(state, seat, hands[seat][0])
    run(state, Play(auctioneer, card))
    return state, card


def test_R4_2_once_around_each_once_clockwise_auctioneer_last() -> None:
    """R4.2: seats 2, 3, 0, then the auctioneer 1; nobody twice, bids must rise."""
    state, card = once_around()
    assert pending(state) == 2
    run(state, Bid(2, 5))
    assert pending(state) == 3
    assert_rejected(state, Bid(3, 5))
    run(state, Pass(3))
    assert pending(state) == 0
    run(state, Bid(0, 8))
    assert pending(state) == 1 and kind_now(state) is DecisionKind.BID  # auctioneer last
    events = run(state, Pass(1))
    # It ended: seats 2 and 3 are not asked again though seat 2 was outbid.
    assert of(AuctionWon, events) == [AuctionWon(0, (card,), 8, 1)]
    assert of(Payment, events) == [Payment(0, 1, 8)]
    assert pending(state) == 2 and kind_now(state) is DecisionKind.PLAY


def test_R4_2_once_around_auctioneer_outbids_last_and_pays_the_bank() -> None:
    """R4.2 with R4: the auctioneer, asked last, wins and pays the bank."""
    state, card = once_around()
    events = run(state, Bid(2, 5), Bid(3, 6), Bid(0, 7), Bid(1, 30))
    assert of(AuctionWon, events) == [AuctionWon(1, (card,), 30, 1)]
    assert of(Payment, events) == [Payment(1, None, 30)]


def test_R4_2_once_around_nobody_bids_auctioneer_free() -> None:
    """R4.2: four passes, the auctioneer takes it for nothing."""
    state, card = once_around()
    events = run(state, Pass(2), Pass(3), Pass(0), Pass(1))
    assert of(AuctionWon, events) == [AuctionWon(1, (card,), 0, 1)]
    assert not of(Payment, events)


def hidden_auction(players: int = 4, auctioneer: int = 2) -> tuple[GameState, int]:
    cards = Cards()
    hands = [[cards(s % 5, OPEN), cards((s + 1) % 5, OPEN)] for s in range(players)]
    card = cards(0, HIDDEN)
    hands[auctioneer].append(card)
    state = table(hands)
    for seat in range(auctioneer):
        play(state, seat, hands[seat][0])
    run(state, Play(auctioneer, card))
    return state, card


def test_R4_3_hidden_bids_are_one_simultaneous_step() -> None:
    """R4.3: every seat, the auctioneer included, is asked at once for 0..its money."""
    state, _ = hidden_auction()
    assert state.pending_seats() == (0, 1, 2, 3)
    for seat in range(4):
        assert state.decision(seat) == Decision(
            DecisionKind.HIDDEN_BID, seat, min_amount=0, max_amount=100
        )
    assert_rejected(state, Bid(0, 5))  # one seat alone cannot bid
    assert_rejected(state, HiddenBids((1, 2, 3)))  # every seat's bid is needed
    too_much = "hidden bid 101 of seat 1 is more than its money 100 (R4.3)"
    assert_rejected(state, HiddenBids((0, 101, 0, 0)), too_much)
    assert_rejected(state, HiddenBids((0, -1, 0, 0)))
    assert_rejected(state, HiddenBids((0, 1.5, 0, 0)))
    assert_rejected(state, HiddenBids((0, True, 0, 0)))


def test_R4_3_hidden_tie_goes_clockwise_from_auctioneer() -> None:
    """R4.3: seats 0 and 3 tie at 10, auctioneer 2: seat 3 is reached first and wins."""
    state, card = hidden_auction()
    events = run(state, HiddenBids((10, 0, 5, 10)))
    assert of(HiddenBidsRevealed, events) == [HiddenBidsRevealed((10, 0, 5, 10))]
    assert of(AuctionWon, events) == [AuctionWon(3, (card,), 10, 2)]
    assert of(Payment, events) == [Payment(3, 2, 10)]
    assert pending(state) == 3 and kind_now(state) is DecisionKind.PLAY


def test_R4_3_hidden_tie_with_the_auctioneer_goes_to_the_auctioneer() -> None:
    """R4.3: the auctioneer counts first in a tie, and then pays the bank."""
    state, card = hidden_auction()
    events = run(state, HiddenBids((10, 0, 10, 10)))
    assert of(AuctionWon, events) == [AuctionWon(2, (card,), 10, 2)]
    assert of(Payment, events) == [Payment(2, None, 10)]


def test_R4_3_hidden_tie_wraps_round_the_table() -> None:
    """R4.3: auctioneer 2, tie between seats 0 and 1: seat 0 comes first after 3."""
    state, card = hidden_auction()
    events = run(state, HiddenBids((40, 40, 3, 39)))
    assert of(AuctionWon, events) == [AuctionWon(0, (card,), 40, 2)]


def test_R4_3_hidden_all_zero_auctioneer_free() -> None:
    """R4.3: nobody bids: the auctioneer takes it free."""
    state, card = hidden_auction()
    events = run(state, HiddenBids((0, 0, 0, 0)))
    assert of(AuctionWon, events) == [AuctionWon(2, (card,), 0, 2)]
    assert not of(Payment, events)
    assert state.money == [100] * 4


def fixed_price(players: int = 4, auctioneer: int = 1) -> tuple[GameState, int]:
    cards = Cards()
    hands = [[cards(s % 5, OPEN), cards((s + 1) % 5, OPEN)] for s in range(players)]
    card = cards(0, FIXED)
    hands[auctioneer].append(card)
    state = table(hands)
    for seat in range(auctioneer):
        play(state, seat, hands[seat][0])
    run(state, Play(auctioneer, card))
    return state, card


def test_R4_4_price_from_1_to_money() -> None:
    """R4.4: 0 and more than one's money are refused; 100 is allowed."""
    state, _ = fixed_price()
    assert state.decision(1) == Decision(DecisionKind.PRICE, 1, min_amount=1, max_amount=100)
    assert_rejected(state, Price(1, 0), "a fixed price must be at least 1 (R4.4)")
    assert_rejected(
        state, Price(1, 101), "price 101 is more than the auctioneer's money 100 (R4.4)"
    )
    assert_rejected(state, Price(1, -1))
    assert_rejected(state, Price(1, 7.0))
    assert_rejected(state, Bid(1, 7))
    events = run(state, Price(1, 100))
    assert of(PriceSet, events) == [PriceSet(1, 100)]


def test_R4_4_offered_clockwise_first_buyer_pays_the_auctioneer() -> None:
    """R4.4: seats 2, 3, 0 in turn; seat 3 buys, seat 0 is never asked."""
    state, card = fixed_price()
    run(state, Price(1, 15))
    assert pending(state) == 2
    assert state.decision(2) == Decision(DecisionKind.BUY, 2, price=15, can_pass=True)
    run(state, Pass(2))
    assert pending(state) == 3
    events = run(state, Buy(3))
    assert of(AuctionWon, events) == [AuctionWon(3, (card,), 15, 1)]
    assert of(Payment, events) == [Payment(3, 1, 15)]
    assert state.money == [100, 115, 100, 85]
    assert pending(state) == 2 and kind_now(state) is DecisionKind.PLAY


def test_R4_4_all_pass_auctioneer_pays_the_bank() -> None:
    """R4.4: nobody buys: the auctioneer pays the price to the bank and takes the painting."""
    state, card = fixed_price()
    events = run(state, Price(1, 15), Pass(2), Pass(3), Pass(0))
    assert of(AuctionWon, events) == [AuctionWon(1, (card,), 15, 1)]
    assert of(Payment, events) == [Payment(1, None, 15)]
    assert state.money == [100, 85, 100, 100]


def test_R4_4_player_who_cannot_afford_is_skipped_and_broke_auctioneer_names_0() -> None:
    """R4.4: seat 0 spends all its money; it is not offered a price of 50 and, broke,
    names the price 0, which everyone can afford."""
    cards = Cards()
    h0 = cards(2, HIDDEN)
    f0 = cards(0, FIXED)
    f1 = cards(1, FIXED)
    state = table([[h0, f0, cards(4)], [f1, cards(3)], [cards(3), cards(4)]])
    run(state, Play(0, h0), HiddenBids((100, 0, 0)))  # seat 0 wins its own: pays the bank 100
    assert state.money == [0, 100, 100]
    events = run(state, Play(1, f1), Price(1, 50))
    assert Passed(0, True) not in events  # seat 2 is asked first
    assert pending(state) == 2
    events = run(state, Pass(2))
    assert Passed(0, True) in events  # seat 0 cannot afford 50 and is not asked
    assert of(AuctionWon, events) == [AuctionWon(1, (f1,), 50, 1)]
    assert state.money == [0, 50, 100]
    hand_2 = state.hands[2][0]
    play(state, 2, hand_2)
    assert pending(state) == 0
    run(state, Play(0, f0))
    decision = state.decision(0)
    assert decision == Decision(DecisionKind.PRICE, 0, min_amount=0, max_amount=0)
    assert decision.default_action() == Price(0, 0)
    assert_rejected(state, Price(0, 1))
    events = run(state, Price(0, 0), Buy(1))
    assert of(AuctionWon, events) == [AuctionWon(1, (f0,), 0, 0)]
    assert not of(Payment, events)


def test_R4_4_price_exactly_a_players_money_is_affordable() -> None:
    """R4.4: a seat with exactly the price is asked and can buy."""
    state, card = fixed_price(players=3, auctioneer=0)
    run(state, Price(0, 100))
    assert pending(state) == 1
    events = run(state, Buy(1))
    assert of(AuctionWon, events) == [AuctionWon(1, (card,), 100, 0)]
    assert state.money == [200, 0, 100]


# ---- R4.5-R4.7 doubles


def double_table(split: bool = False) -> tuple[GameState, dict[str, int]]:
    """Four players; seat 0 holds a Carvalho double and no other Carvalho; seat 1 an open
    Carvalho, seat 2 none, seat 3 a fixed-price Carvalho and another Carvalho double."""
    cards = Cards()
    c = {
        "double": cards(0, DOUBLE),
        "s1_open": cards(0, OPEN),
        "s3_fixed": cards(0, FIXED),
        "s3_double": cards(0, DOUBLE),
        "s1_other": cards(1, OPEN),  # Thaler: another artist
    }
    hands = [
        [c["double"], cards(2), cards(2)],
        [c["s1_open"], c["s1_other"], cards(3)],
        [cards(3), cards(4), cards(4)],
        [c["s3_fixed"], c["s3_double"], cards(4)],
    ]
    return table(hands, split_double=split), c


def test_R4_5_double_offered_owner_first_then_clockwise_skipping_seats_without_a_card() -> None:
    """R4.5: seat 0 has no eligible card and seat 2 none: both 'declined' without a question."""
    state, c = double_table()
    events = run(state, Play(0, c["double"]))
    assert events == [CardPlayed(0, c["double"], 1), SecondCardDeclined(0)]
    assert state.decision(1) == Decision(
        DecisionKind.OFFER, 1, cards=(c["s1_open"],), can_pass=True
    )
    assert seat_view(state, 2)["double"] == {"seat": 0, "card": c["double"]}
    events = run(state, Pass(1))
    assert events == [SecondCardDeclined(1), SecondCardDeclined(2)]
    assert state.decision(3).cards == (c["s3_fixed"],)  # its double is not addable


def test_R4_5_owner_is_offered_first_when_it_has_a_card() -> None:
    """R4.5: the double's player may add its own second card and runs the auction."""
    cards = Cards()
    d, o, x = cards(0, DOUBLE), cards(0, ONCE), cards(0, OPEN)
    state = table([[d, o, cards(3)], [x, cards(3)], [cards(4)]])
    events = run(state, Play(0, d))
    assert events == [CardPlayed(0, d, 1)]
    assert state.decision(0) == Decision(DecisionKind.OFFER, 0, cards=(o,), can_pass=True)
    events = run(state, Offer(0, o))
    assert events[:2] == [CardPlayed(0, o, 2), AuctionStarted(0, (d, o), "once-around")]
    events = run(state, Bid(1, 20), Pass(2), Pass(0))
    assert of(AuctionWon, events) == [AuctionWon(1, (d, o), 20, 0)]
    assert of(Payment, events) == [Payment(1, 0, 20)]
    assert pending(state) == 1


def test_R4_5_only_a_non_double_of_the_same_artist_may_be_added() -> None:
    """R4.5: another artist's card, a second double, or a card not in hand are refused."""
    state, c = double_table()
    run(state, Play(0, c["double"]))
    assert_rejected(state, Offer(1, c["s1_other"]))
    assert_rejected(state, Offer(1, c["s3_fixed"]))  # not in seat 1's hand
    assert_rejected(state, Offer(2, c["s1_open"]))  # not seat 2's turn
    assert_rejected(state, Bid(1, 3))
    run(state, Pass(1))
    err = assert_rejected(state, Offer(3, c["s3_double"]))
    assert err.rule == "R4.5"


def test_R4_5_adder_becomes_auctioneer_under_second_cards_type_and_gets_the_proceeds() -> None:
    """R4.5: seat 3 adds a fixed-price card, names the price; seat 1 buys and pays seat 3.
    R4.6: play resumes left of seat 3; seats 1 and 2 lose their turn."""
    state, c = double_table()
    run(state, Play(0, c["double"]), Pass(1))
    events = run(state, Offer(3, c["s3_fixed"]))
    pair = (c["double"], c["s3_fixed"])
    assert events == [CardPlayed(3, c["s3_fixed"], 2), AuctionStarted(3, pair, "fixed-price")]
    assert state.decision(3) == Decision(DecisionKind.PRICE, 3, min_amount=1, max_amount=100)
    run(state, Price(3, 24))
    assert pending(state) == 0  # clockwise from seat 3: the double's player may buy too
    events = run(state, Pass(0), Buy(1))
    assert of(AuctionWon, events) == [AuctionWon(1, pair, 24, 3)]
    assert of(Payment, events) == [Payment(1, 3, 24)]
    assert state.money == [100, 76, 100, 124]
    assert sorted(seat_view(state, 0)["bought"][1]) == sorted(pair)
    assert pending(state) == 0 and kind_now(state) is DecisionKind.PLAY


def test_R4_5_nobody_adds_owner_takes_double_free_and_it_counts() -> None:
    """R4.5: all decline: seat 0 gets the double for nothing; R5.2: it counts and sells."""
    cards = Cards()
    d = cards(0, DOUBLE)
    s1, s2 = cards(0, OPEN), cards(0, HIDDEN)
    t = cards.many(1, 5, PLAIN)  # Thaler cards to end the round
    state = table([[d, t[0], t[3]], [s1, t[1], t[4]], [s2, t[2], cards(4)]])
    events = run(state, Play(0, d), Pass(1), Pass(2))
    assert of(SecondCardDeclined, events) == [SecondCardDeclined(0), SecondCardDeclined(1),
                                              SecondCardDeclined(2)]
    assert of(AuctionWon, events) == [AuctionWon(0, (d,), 0, 0)]
    assert not of(Payment, events)
    assert pending(state) == 1  # left of the double's player
    events = []
    for seat, card in [(1, t[1]), (2, t[2]), (0, t[0]), (1, t[4])]:
        events += play(state, seat, card)
    events += play(state, 2, s2)  # the 2nd Carvalho
    events += play(state, 0, t[3])  # 5th Thaler ends the round
    ended = of(RoundEnded, events)
    assert len(ended) == 1
    assert ended[0].counts[:2] == (2, 5)
    assert ended[0].ranking == (1, 0)
    sold = {e.seat: e for e in of(PaintingsSold, events)}
    assert d in sold[0].cards
    assert sorted(sold[0].cards) == sorted((d, t[0]))  # t[3] ended the round, unsold
    assert sold[0].amount == 20 + 30  # the double (Carvalho 2nd) and a Thaler (1st)


def test_R4_6_players_between_double_owner_and_adder_lose_their_turn() -> None:
    """R4.6: owner seat 0, adder seat 2 (4 players): seat 1 loses its turn, seat 3 is next."""
    cards = Cards()
    d, x = cards(2, DOUBLE), cards(2, HIDDEN)
    state = table([[d, cards(0)], [cards(0), cards(1)], [x, cards(1)], [cards(3), cards(3)]])
    run(state, Play(0, d), Offer(2, x))
    events = run(state, HiddenBids((5, 0, 0, 0)))
    assert of(AuctionWon, events) == [AuctionWon(0, (d, x), 5, 2)]
    assert of(Payment, events) == [Payment(0, 2, 5)]
    assert pending(state) == 3 and kind_now(state) is DecisionKind.PLAY


def test_R4_6_adder_left_of_the_owner_wraps_round() -> None:
    """R4.6: owner seat 2, adder seat 1 (3 players): seat 0 loses its turn, seat 2 is next."""
    cards = Cards()
    d, x = cards(2, DOUBLE), cards(2, OPEN)
    c0, t1 = cards(0), cards(1)
    state = table([[c0, cards(0)], [x, t1], [d, cards(1), cards(3)]])
    play(state, 0, c0)
    play(state, 1, t1)
    events = run(state, Play(2, d))  # seat 2 has no other Melim, nor has seat 0
    assert of(SecondCardDeclined, events) == [SecondCardDeclined(2), SecondCardDeclined(0)]
    assert pending(state) == 1
    run(state, Offer(1, x), Pass(2), Pass(0), Pass(1))
    assert pending(state) == 2 and kind_now(state) is DecisionKind.PLAY


def split_game(adder_buys: bool | None) -> tuple[GameState, list[Event], tuple[int, int]]:
    """split-double: owner seat 0, adder seat 1 (open card); 15 paid by seat 2, 0 or 1."""
    cards = Cards()
    d, x = cards(0, DOUBLE), cards(0, OPEN)
    state = table([[d, cards(3)], [x, cards(3)], [cards(4), cards(4)]], split_double=True)
    run(state, Play(0, d), Offer(1, x))
    if adder_buys is None:
        events = run(state, Pass(2), Bid(0, 15), Pass(1), Pass(2))  # the double's player buys
    elif adder_buys:
        events = run(state, Pass(2), Pass(0), Bid(1, 15), Pass(2), Pass(0))
    else:
        events = run(state, Bid(2, 15), Pass(0), Pass(1))
    return state, events, (d, x)


def test_R4_7_split_double_proceeds_odd_unit_to_the_adder() -> None:
    """R4.7: 15 from seat 2 is split 8 to the adder (seat 1), 7 to the double's player."""
    state, events, pair = split_game(adder_buys=False)
    assert of(AuctionWon, events) == [AuctionWon(2, pair, 15, 1)]
    assert sorted(of(Payment, events), key=lambda p: p.amount) == [Payment(2, 0, 7),
                                                                  Payment(2, 1, 8)]
    assert state.money == [107, 108, 85]


def test_R4_7_split_double_seller_who_buys_pays_its_share_to_the_bank() -> None:
    """R4.7: the double's player buys for 15: 7 to the bank, 8 to the adder."""
    state, events, _ = split_game(adder_buys=None)
    assert sorted(of(Payment, events), key=lambda p: p.amount) == [Payment(0, None, 7),
                                                                  Payment(0, 1, 8)]
    assert state.money == [85, 108, 100]
    assert state.bank_in == 7


def test_R4_7_split_double_adder_who_buys_pays_its_share_to_the_bank() -> None:
    """R4.7: the adder (the auctioneer) buys for 15: 8 to the bank, 7 to the double's player."""
    state, events, _ = split_game(adder_buys=True)
    assert sorted(of(Payment, events), key=lambda p: p.amount) == [Payment(1, 0, 7),
                                                                  Payment(1, None, 8)]
    assert state.money == [107, 85, 100]


def test_R4_7_split_double_fixed_price_nobody_buys() -> None:
    """R4.7 with R4.4: the adder names 9 and nobody buys, so the adder is the buyer: it pays
    its share (5) to the bank and the double's player its share (4)."""
    cards = Cards()
    d, x = cards(0, DOUBLE), cards(0, FIXED)
    state = table([[d, cards(3)], [x, cards(3)], [cards(4), cards(4)]], split_double=True)
    events = run(state, Play(0, d), Offer(1, x), Price(1, 9), Pass(2), Pass(0))
    assert of(AuctionWon, events) == [AuctionWon(1, (d, x), 9, 1)]
    assert sorted(of(Payment, events), key=lambda p: p.amount) == [Payment(1, 0, 4),
                                                                  Payment(1, None, 5)]
    assert state.money == [104, 91, 100]


def test_R4_7_without_the_variant_the_adder_gets_everything() -> None:
    """R4.5 vs R4.7: without split-double all 15 go to the adder."""
    cards = Cards()
    d, x = cards(0, DOUBLE), cards(0, OPEN)
    state = table([[d, cards(3)], [x, cards(3)], [cards(4), cards(4)]])
    events = run(state, Play(0, d), Offer(1, x), Bid(2, 15), Pass(0), Pass(1))
    assert of(Payment, events) == [Payment(2, 1, 15)]


def test_R4_7_split_double_with_one_players_two_cards_is_not_split() -> None:
    """R4.7: both cards from the double's player: nothing to split."""
    cards = Cards()
    d, x = cards(0, DOUBLE), cards(0, OPEN)
    state = table([[d, x, cards(3)], [cards(3)], [cards(4), cards(4)]], split_double=True)
    events = run(state, Play(0, d), Offer(0, x), Bid(1, 15), Pass(2), Pass(0))
    assert of(Payment, events) == [Payment(1, 0, 15)]


# --------------------------------------------------------------------------- R5 rounds


def test_R5_1_fifth_card_not_auctioned_and_owned_by_nobody() -> None:
    """R5.1: the 5th Melim ends the round, is not auctioned, is not sold to anyone."""
    cards = Cards()
    dm = cards.many(2, 5)
    state = table([[dm[0], dm[3], cards(4)], [dm[1], dm[4], cards(4)], [dm[2], cards(4)]])
    for seat, card in [(0, dm[0]), (1, dm[1]), (2, dm[2]), (0, dm[3])]:
        play(state, seat, card)
    events = run(state, Play(1, dm[4]))
    ended = of(RoundEnded, events)[0]
    assert ended.ender == 1
    assert ended.unsold == (dm[4],)
    assert ended.counts == (0, 0, 5, 0, 0)
    assert not of(AuctionStarted, events) and not of(AuctionWon, events)
    sold_cards = [c for e in of(PaintingsSold, events) for c in e.cards]
    assert sorted(sold_cards) == sorted(dm[:4])
    assert dm[4] not in sold_cards
    assert {e.seat: e.amount for e in of(PaintingsSold, events)} == {0: 60, 1: 30, 2: 30}


def test_R5_1_double_that_is_the_fifth_gets_no_second_card() -> None:
    """R5.1: a Carvalho double as the 5th ends the round though seat 1 could add a card."""
    cards = Cards()
    mc = cards.many(0, 4)
    d = cards(0, DOUBLE)
    extra = cards(0, HIDDEN)
    state = table([[mc[0], mc[3], cards(4)], [mc[1], d, extra, cards(4)], [mc[2], cards(4)]])
    for seat, card in [(0, mc[0]), (1, mc[1]), (2, mc[2]), (0, mc[3])]:
        play(state, seat, card)
    events = run(state, Play(1, d))
    assert not of(SecondCardDeclined, events)
    ended = of(RoundEnded, events)[0]
    assert ended.unsold == (d,)
    assert extra in state.hands[1]  # never added
    assert state.round == 2 and pending(state) == 2


def test_R5_1_second_card_that_is_the_fifth_leaves_both_unsold() -> None:
    """R5.1: the double is the 4th Carvalho, the added card the 5th: both go unsold; the
    adder ended the round, so R5.5 starts round 2 on its left."""
    cards = Cards()
    mc = cards.many(0, 3)
    d, x = cards(0, DOUBLE), cards(0, FIXED)
    state = table([[mc[0], d, cards(4)], [mc[1], cards(4)], [mc[2], x, cards(4)]])
    for seat, card in [(0, mc[0]), (1, mc[1]), (2, mc[2])]:
        play(state, seat, card)
    events = run(state, Play(0, d), Offer(2, x))
    assert of(CardPlayed, events) == [CardPlayed(0, d, 4), CardPlayed(2, x, 5)]
    assert not of(AuctionStarted, events)
    ended = of(RoundEnded, events)[0]
    assert ended.ender == 2
    assert sorted(ended.unsold) == sorted((d, x))
    assert ended.counts[0] == 5
    assert all(d not in e.cards and x not in e.cards for e in of(PaintingsSold, events))
    assert state.round == 2 and pending(state) == 0


def test_R5_2_counts_every_card_played_this_round() -> None:
    """R5.2: auctioned cards, a double taken free and the unsold round-ender all count."""
    cards = Cards()
    d = cards(1, DOUBLE)
    st = cards.many(1, 2)
    mc = cards.many(0, 5)
    state = table([[d, mc[0], mc[3]], [st[0], mc[1], mc[4]], [st[1], mc[2], cards(4)]])
    events = run(state, Play(0, d), Pass(1), Pass(2))  # Thaler double, nobody adds
    events += play(state, 1, st[0]) + play(state, 2, st[1])
    for seat, card in [(0, mc[0]), (1, mc[1]), (2, mc[2]), (0, mc[3]), (1, mc[4])]:
        events += play(state, seat, card)
    ended = of(RoundEnded, events)[0]
    assert ended.counts == (5, 3, 0, 0, 0)
    assert seat_view(state, 0)["played"] == [0] * 5  # counts start again in round 2


def test_R5_3_ties_go_to_the_artist_further_left() -> None:
    """R5.3: counts 5, 2, 2, 2 for Silveira, Martins, Melim, Thaler: Melim and Thaler
    outrank Martins because they are further left."""
    cards = Cards()
    rs = cards.many(4, 5)
    st, dm, rm = cards.many(1, 2), cards.many(2, 2), cards.many(3, 2)
    plays = [rm[0], dm[0], st[0], rm[1], dm[1], st[1], rs[0], rs[1], rs[2], rs[3], rs[4]]
    hands: list[list[int]] = [[], [], []]
    for i, card in enumerate(plays):
        hands[i % 3].append(card)
    for h in hands:
        h.append(cards(0))
    state = table(hands)
    events: list[Event] = []
    for i, card in enumerate(plays):
        events += play(state, i % 3, card)
    ended = of(RoundEnded, events)[0]
    assert ended.counts == (0, 2, 2, 2, 5)
    assert ended.ranking == (4, 1, 2)
    assert ended.tiles == (0, 20, 10, 0, 30)
    assert ended.values == (0, 20, 10, 0, 30)
    # Seat 0 owns both Martins (unranked: 0) and two Silveiras; seat 1 two Melims and a
    # Silveira (its second Silveira ended the round); seat 2 two Thalers and a Silveira.
    sold = {e.seat: e.amount for e in of(PaintingsSold, events)}
    assert sold == {0: 0 + 0 + 30 + 30, 1: 10 + 10 + 30, 2: 20 + 20 + 30}


def test_R5_3_fewer_than_three_artists_only_those_rank() -> None:
    """R5.3: only Carvalho and Thaler were played: 30 and 20, nobody gets 10."""
    cards = Cards()
    mc = cards.many(0, 5)
    st = cards(1)
    state = table([[st, mc[2], cards(4)], [mc[0], mc[3], cards(4)], [mc[1], mc[4], cards(4)]])
    events: list[Event] = []
    for seat, card in [(0, st), (1, mc[0]), (2, mc[1]), (0, mc[2]), (1, mc[3]), (2, mc[4])]:
        events += play(state, seat, card)
    ended = of(RoundEnded, events)[0]
    assert ended.ranking == (0, 1)
    assert ended.tiles == (30, 20, 0, 0, 0)
    assert sorted(state.tiles[0]) == [0, 0, 0, 20, 30]


def two_round_game(deck: Sequence[int] = ()) -> tuple[GameState, dict[str, list[int]]]:
    """Three players; round 1 ranks A (Melim) 5, B (Carvalho) 2, C (Martins) 1; round 2
    ranks C 5, D (Thaler) 3, A 2, with B 1 unranked."""
    cards = Cards()
    a, b, c, d = cards.many(2, 7), cards.many(0, 3), cards.many(3, 6), cards.many(1, 3)
    script = {
        1: [(0, a[0]), (1, b[0]), (2, c[0]), (0, a[1]), (1, b[1]), (2, a[2]), (0, a[3]),
            (1, a[4])],
        2: [(2, c[1]), (0, d[0]), (1, a[5]), (2, b[2]), (0, d[1]), (1, a[6]), (2, c[2]),
            (0, d[2]), (1, c[3]), (2, c[4]), (0, c[5])],
    }
    hands: list[list[int]] = [[cards(4)], [cards(4)], [cards(4)]]
    for steps in script.values():
        for seat, card in steps:
            hands[seat].append(card)
    state = table(hands, deck=deck)
    return state, {"r1": [c for _, c in script[1]], "r2": [c for _, c in script[2]],
                   "seats1": [s for s, _ in script[1]], "seats2": [s for s, _ in script[2]]}


def play_script(state: GameState, seats: list[int], cards: list[int]) -> list[Event]:
    events: list[Event] = []
    for seat, card in zip(seats, cards, strict=True):
        events += play(state, seat, card)
    return events


def test_R5_4_values_are_cumulative_tiles_only_for_this_rounds_top_three() -> None:
    """R5.4: round 2 sells Martins 10+30, Thaler 20, Melim 30+10, Carvalho 0 (20 earlier,
    unranked now)."""
    state, s = two_round_game()
    ev1 = play_script(state, s["seats1"], s["r1"])
    end1 = of(RoundEnded, ev1)[0]
    assert end1.ranking == (2, 0, 3)
    assert end1.values == (20, 0, 30, 10, 0)
    assert {e.seat: e.amount for e in of(PaintingsSold, ev1)} == {0: 90, 1: 40, 2: 40}
    ev2 = play_script(state, s["seats2"], s["r2"])
    end2 = of(RoundEnded, ev2)[0]
    assert end2.round == 2
    assert end2.counts == (1, 3, 2, 5, 0)
    assert end2.ranking == (3, 1, 2)
    assert end2.tiles == (0, 20, 10, 30, 0)
    assert end2.values == (0, 20, 40, 40, 0)
    assert state.tiles[:2] == [[20, 0, 30, 10, 0], [0, 20, 10, 30, 0]]
    # Seat 2 bought 3 Martins and 1 Carvalho, seat 0 3 Thaler, seat 1 2 Melim and 1 Martins.
    assert {e.seat: e.amount for e in of(PaintingsSold, ev2)} == {0: 60, 1: 120, 2: 120}
    assert state.money == [100 + 90 + 60, 100 + 40 + 120, 100 + 40 + 120]
    # Round 1's paintings were sold once only and left the game.
    assert all(set(e.cards) <= set(s["r2"]) for e in of(PaintingsSold, ev2))


def test_R5_5_next_round_deals_then_starts_left_of_the_round_ender() -> None:
    """R5.5: seat 1 played the 5th Melim: the round-2 deal comes, then seat 2 plays."""
    state, s = two_round_game()
    used = {c for h in state.hands for c in h}
    deck = [c for c in range(CMON.n_cards) if c not in used][:18]
    state, s = two_round_game(deck=deck)
    events = play_script(state, s["seats1"], s["r1"])
    names = [type(e).__name__ for e in events]
    i = names.index("RoundEnded")
    assert names.index("RoundStarted") > i
    assert names[i:].count("CardsDealt") == 3
    started = of(RoundStarted, events)[0]
    assert started.round == 2 and started.first_seat == 2
    assert pending(state) == 2 and kind_now(state) is DecisionKind.PLAY
    assert sorted(c for e in of(CardsDealt, events) for c in e.cards) == sorted(deck)
    assert {e.seat: len(e.cards) for e in of(CardsDealt, events)} == {0: 6, 1: 6, 2: 6}


def test_R5_5_first_auctioneer_with_an_empty_hand_is_skipped() -> None:
    """R5.5 with R3.1: seat 1 ends the round; seat 2, on its left, has no cards (and no deal
    in this game), so seat 0 starts round 2."""
    cards = Cards()
    mc = cards.many(0, 5)
    state = table([[mc[0], mc[3], cards(4)], [mc[1], mc[4], cards(4)], [mc[2]]])
    for seat, card in [(0, mc[0]), (1, mc[1]), (2, mc[2]), (0, mc[3])]:
        play(state, seat, card)
    events = run(state, Play(1, mc[4]))
    assert of(RoundEnded, events)[0].ender == 1
    assert of(RoundStarted, events)[0].first_seat == 0
    assert pending(state) == 0


def test_R5_6_play_that_empties_every_hand_counts_is_scored_and_ends_the_game() -> None:
    """R5.6: seat 2 plays the last card in any hand: not auctioned, counted, game over."""
    cards = Cards()
    a0, a1, b = cards(0), cards(0), cards(1)
    state = table([[a0], [a1], [b]])
    play(state, 0, a0)
    play(state, 1, a1)
    assert not state.is_over
    events = run(state, Play(2, b))
    assert not of(AuctionStarted, events)
    ended = of(RoundEnded, events)
    assert len(ended) == 1
    assert ended[0].round == 1 and ended[0].ender == 2
    assert ended[0].counts == (2, 1, 0, 0, 0)
    assert ended[0].unsold == (b,)
    assert ended[0].ranking == (0, 1)
    assert {e.seat: e.amount for e in of(PaintingsSold, events)} == {0: 30, 1: 30}
    assert state.is_over and state.pending_seats() == ()
    assert isinstance(events[-1], GameEnded)
    assert not of(RoundStarted, events)
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(Pass(0))


def test_R5_6_in_round_4_the_last_card_ends_the_game() -> None:
    """R5.6 where the rules expect it: round 4 (no deal) ends when the last card in any hand
    is played; that card counts and is scored."""
    cards = Cards()
    rounds = [cards.many(a, 5) for a in (0, 1, 2)]  # rounds 1-3: five of one artist each
    last = [cards(3), cards(4, OPEN), cards(4, OPEN)]  # round 4
    hands: list[list[int]] = [[], [], []]
    order: list[int] = []
    seat = 0
    for five in rounds:
        for card in five:
            hands[seat].append(card)
            order.append(card)
            seat = (seat + 1) % 3
        # the 5th card's player ended the round; its left neighbour starts the next
    for card in last:
        hands[seat].append(card)
        order.append(card)
        seat = (seat + 1) % 3
    state = table(hands)
    events: list[Event] = []
    for card in order:
        events += play(state, pending(state), card)
    assert [e.round for e in of(RoundEnded, events)] == [1, 2, 3, 4]
    final = of(RoundEnded, events)[-1]
    assert final.counts == (0, 0, 0, 1, 2)
    assert final.unsold == (last[2],)
    assert final.ranking == (4, 3)
    assert state.is_over and isinstance(events[-1], GameEnded)


def test_R5_6_second_card_that_empties_every_hand_leaves_both_unsold() -> None:
    """R5.6: seat 1 adds the last card in any hand to seat 0's double: both unsold, scored,
    game over."""
    cards = Cards()
    a, b = cards(2), cards(3)
    d, x = cards(0, DOUBLE), cards(0)
    state = table([[a, d], [b, x], []])
    play(state, 0, a)
    play(state, 1, b)
    assert pending(state) == 0  # seat 2 has no cards
    run(state, Play(0, d))
    assert pending(state) == 1 and kind_now(state) is DecisionKind.OFFER
    events = run(state, Offer(1, x))
    assert not of(AuctionStarted, events)
    ended = of(RoundEnded, events)[0]
    assert sorted(ended.unsold) == sorted((d, x))
    assert ended.counts == (2, 0, 1, 1, 0)
    assert ended.ranking == (0, 2, 3)
    assert {e.seat: e.amount for e in of(PaintingsSold, events)} == {0: 20, 1: 10}
    assert state.is_over
    assert of(GameEnded, events) == [GameEnded((120, 110, 100), (1, 2, 3), (0,))]


def test_R6_1_after_round_4_most_money_wins() -> None:
    """R6.1: a full defaults game ends after round 4 with the richest seat(s) winning."""
    state = GameState(GameConfig(4), seed=9)
    steps = drive(state)
    events = [e for step in steps for e in step]
    assert [e.round for e in of(RoundEnded, events)] == [1, 2, 3, 4]
    end = of(GameEnded, events)
    assert len(end) == 1 and isinstance(events[-1], GameEnded)
    assert end[0].money == tuple(state.money)
    best = max(state.money)
    assert end[0].winners == tuple(s for s in range(4) if state.money[s] == best)
    assert all(end[0].ranks[s] == 1 + sum(m > state.money[s] for m in state.money)
               for s in range(4))
    assert state.pending_seats() == ()
    assert_money_conserved(state)


def test_R6_1_tied_players_share_the_win() -> None:
    """R6.1: seats 0 and 1 end with 130 each: both win, both rank 1; seat 2 ranks 3."""
    cards = Cards()
    a0, a1, b = cards(0), cards(0), cards(1)
    state = table([[a0], [a1], [b]])
    events = play(state, 0, a0) + play(state, 1, a1) + run(state, Play(2, b))
    assert of(GameEnded, events) == [GameEnded((130, 130, 100), (1, 1, 3), (0, 1))]


# --------------------------------------------------------------------------- R7 mystery


def test_R7_mystery_is_for_three_players_and_has_two_triggers() -> None:
    """R7: `mystery` (cmon: the auctioneer) and `mystery-winner` (classic), three players."""
    with pytest.raises(ValueError, match="R7"):
        GameConfig(4, mystery=MysteryTrigger.AUCTIONEER)
    assert GameConfig.from_variants(3, variants=("mystery",)).mystery is MysteryTrigger.AUCTIONEER
    winner = GameConfig.from_variants(3, variants=("mystery-winner",))
    assert winner.mystery is MysteryTrigger.WINNER
    with pytest.raises(ValueError, match="unknown variant"):
        GameConfig.from_variants(3, variants=("mystery-loser",))


def mystery_game(trigger: MysteryTrigger) -> tuple[GameState, dict[str, int]]:
    """Seat 0 auctions a Carvalho that seat 2 wins for 5; the mystery hand holds a Thaler and
    a Carvalho double, in that order."""
    cards = Cards()
    c = {"a": cards(0, OPEN), "m1": cards(1), "m2": cards(0, DOUBLE), "b": cards(0, OPEN)}
    hands = [[c["a"], cards(3)], [c["b"], cards(3)], [cards(4), cards(4)]]
    state = table(hands, mystery_hand=[c["m1"], c["m2"]], mystery=trigger)
    events = run(state, Play(0, c["a"]), Pass(1), Bid(2, 5), Pass(0), Pass(1))
    assert of(AuctionWon, events) == [AuctionWon(2, (c["a"],), 5, 0)]
    return state, c


def test_R7_cmon_trigger_the_auctioneer_may_turn_up_the_next_mystery_card() -> None:
    """R7: after seat 0's auction, seat 0 (not the winner) decides; the card counts, is
    owned by nobody, and play goes on left of the auctioneer."""
    state, c = mystery_game(MysteryTrigger.AUCTIONEER)
    assert state.pending_seats() == (0,)
    assert state.decision(0) == Decision(DecisionKind.MYSTERY, 0, can_pass=True)
    assert seat_view(state, 1)["mystery_size"] == 2
    assert_rejected(state, Reveal(2))
    events = run(state, Reveal(0))
    assert events == [MysteryRevealed(0, c["m1"], 1)]
    view = seat_view(state, 1)
    assert view["played"] == [1, 1, 0, 0, 0]
    assert view["mystery_size"] == 1
    assert c["m1"] in view["unsold"]
    assert all(c["m1"] not in b for b in view["bought"])
    assert pending(state) == 1 and kind_now(state) is DecisionKind.PLAY


def test_R7_classic_trigger_the_winner_decides_and_may_decline() -> None:
    """R7 (`classic` trigger): the auction's winner, seat 2, decides; passing turns nothing."""
    state, _ = mystery_game(MysteryTrigger.WINNER)
    assert state.pending_seats() == (2,)
    assert state.decision(2).kind is DecisionKind.MYSTERY
    assert_rejected(state, Reveal(0))
    events = run(state, Pass(2))
    assert not of(MysteryRevealed, events)
    assert seat_view(state, 0)["mystery_size"] == 2
    assert pending(state) == 1 and kind_now(state) is DecisionKind.PLAY


def test_R7_mystery_double_gets_no_second_card() -> None:
    """R7: a turned-up double is not offered, though seat 1 holds a Carvalho to add."""
    state, c = mystery_game(MysteryTrigger.AUCTIONEER)
    run(state, Reveal(0))
    run(state, Play(1, c["b"]), Pass(2), Pass(0), Pass(1))  # seat 1 keeps its Carvalho
    assert pending(state) == 1 and kind_now(state) is DecisionKind.MYSTERY
    events = run(state, Reveal(1))
    assert events == [MysteryRevealed(1, c["m2"], 3)]
    assert not of(SecondCardDeclined, events)
    assert state.double is None and c["m2"] in seat_view(state, 0)["unsold"]
    assert pending(state) == 2 and kind_now(state) is DecisionKind.PLAY


def test_R7_mystery_card_can_end_the_round_next_starts_left_of_the_revealer() -> None:
    """R7 with R5.5: after four Melims, the winner (seat 2) of seat 0's auction turns up the
    5th: the round ends, the card is unsold, and round 2 starts with seat 0, not seat 1."""
    cards = Cards()
    dm = cards.many(2, 5)
    hands = [[dm[0], dm[3], cards(4)], [dm[1], cards(4)], [dm[2], cards(4)]]
    state = table(hands, mystery_hand=[dm[4], cards(3)], mystery=MysteryTrigger.WINNER)
    for seat, card in [(0, dm[0]), (1, dm[1]), (2, dm[2])]:
        play(state, seat, card)  # every mystery decision is passed by default
    run(state, Play(0, dm[3]), Pass(1), Bid(2, 1), Pass(0))  # dm[3] is once-around
    assert pending(state) == 2 and kind_now(state) is DecisionKind.MYSTERY
    events = run(state, Reveal(2))
    assert events[0] == MysteryRevealed(2, dm[4], 5)
    ended = of(RoundEnded, events)[0]
    assert ended.ender == 2
    assert ended.counts == (0, 0, 5, 0, 0)
    assert ended.unsold == (dm[4],)
    assert {e.seat: len(e.cards) for e in of(PaintingsSold, events)} == {0: 1, 1: 1, 2: 2}
    assert of(RoundStarted, events)[0].first_seat == 0
    assert pending(state) == 0 and kind_now(state) is DecisionKind.PLAY


def test_R7_no_mystery_decision_once_the_mystery_hand_is_empty() -> None:
    """R7: with nothing left to turn up, nobody is asked."""
    cards = Cards()
    a, m = cards(0), cards(1)
    state = table([[a, cards(3)], [cards(3)], [cards(4)]], mystery_hand=[m],
                  mystery=MysteryTrigger.AUCTIONEER)
    run(state, Play(0, a), Pass(1), Pass(2), Pass(0), Reveal(0))
    assert pending(state) == 1
    play(state, 1, state.hands[1][0])
    assert pending(state) == 2 and kind_now(state) is DecisionKind.PLAY


# --------------------------------------------------------------------------- R8 views


def test_R8_1_a_view_never_shows_another_seats_hand() -> None:
    """R8.1: two games that differ only in seats 1 and 2's hands, the mystery hand and the
    deck look exactly the same to seat 0, before and after a public auction."""
    cards = Cards()
    h0 = [cards(0, OPEN), cards(1)]
    x = [cards(2), cards(3), cards(4)]
    y = [cards(3), cards(4), cards(2)]
    m1, m2 = [cards(0, DOUBLE), cards(1, DOUBLE)], [cards(4, DOUBLE), cards(3, DOUBLE)]
    rest = cards.unused()
    config = GameConfig(3, mystery=MysteryTrigger.AUCTIONEER)
    a = GameState(config, hands=[h0, x, y], mystery_hand=m1, deck=rest)
    b = GameState(config, hands=[h0, y, x], mystery_hand=m2, deck=rest[::-1])
    mine = [e for e in a.take_events() if e.private_to in (None, 0)]
    assert mine == [e for e in b.take_events() if e.private_to in (None, 0)]
    for action in [None, Play(0, h0[0]), Pass(1), Bid(2, 3), Pass(0), Pass(1), Pass(0)]:
        if action is not None:
            assert a.apply(action) == b.apply(action)
        assert seat_view(a, 0) == seat_view(b, 0)
        assert seat_view(a, 0)["hand"] == a.hands[0]
        assert seat_view(a, 1) != seat_view(b, 1)  # the hands do differ
    dealt = [e for e in GameState(GameConfig(4), seed=2).take_events() if isinstance(e, CardsDealt)]
    assert [e.private_to for e in dealt] == [0, 1, 2, 3]


def test_R8_1_everything_public_is_in_every_view() -> None:
    """R8.1: bids, prices, the lot, hand sizes and purchases are shown to every seat."""
    state, card = fixed_price(players=3, auctioneer=0)
    run(state, Price(0, 12))
    for seat in range(3):
        view = seat_view(state, seat)
        assert view["auction"] == {"cards": [card], "type": "fixed-price", "auctioneer": 0,
                                   "high_bid": 0, "high_bidder": None, "price": 12}
        assert view["hand_sizes"] == [len(h) for h in state.hands]
    run(state, Buy(1))
    assert all(seat_view(state, s)["bought"][1] == [card] for s in range(3))


def test_R8_2_hidden_money_shows_only_ones_own_money() -> None:
    """R8.2: by default every seat's money is shown; with hidden-money only one's own."""
    for hidden in (False, True):
        cards = Cards()
        a = cards(0)
        state = table([[a, cards(3)], [cards(3)], [cards(4)]], hidden_money=hidden)
        run(state, Play(0, a), Bid(1, 30), Pass(2), Pass(0))
        assert state.money == [130, 70, 100]
        for seat in range(3):
            shown = seat_view(state, seat)["money"]
            if hidden:
                assert shown == [m if s == seat else None for s, m in enumerate(state.money)]
            else:
                assert shown == [130, 70, 100]


# --------------------------------------------------------------------------- defaults


def test_default_actions_for_every_decision() -> None:
    """Defaults (what a silent player does): play the lowest card id, pass a bid, bid 0 in a
    hidden auction, price 1, pass a fixed price, decline a double, leave the mystery hand."""
    hands = [[50, 3, 20, 10, 2], [7, 1, 0], [69, 33, 12, 55, 17]]
    state = GameState(GameConfig(3, mystery=MysteryTrigger.AUCTIONEER), hands=hands,
                      mystery_hand=[60], deck=[])
    assert state.decision(0).cards == (2, 3, 10, 20, 50)
    assert state.decision(0).default_action() == Play(0, 2) == state.default_action()
    run(state, Play(0, 2))  # open Carvalho
    assert state.decision(1).default_action() == Pass(1) == state.default_action()
    run(state, Pass(1), Pass(2), Pass(0))
    assert state.decision(0).kind is DecisionKind.MYSTERY
    assert state.default_action() == Pass(0)
    run(state, Pass(0))
    # Seat 1 plays 7 (hidden Carvalho).
    run(state, Play(1, 7))
    assert [state.decision(s).default_action() for s in range(3)] == [Bid(0, 0), Bid(1, 0),
                                                                      Bid(2, 0)]
    assert state.default_action() == HiddenBids((0, 0, 0))
    run(state, state.default_action(), Pass(1))
    # Seat 2 plays 17 (hidden Thaler), then seat 0 a fixed price and a double.
    run(state, Play(2, 17), HiddenBids((0, 0, 0)), Pass(2))
    run(state, Play(0, 20))  # fixed-price Thaler
    assert state.default_action() == Price(0, 1)
    run(state, Price(0, 1))
    assert state.default_action() == Pass(1)
    events = run(state, Pass(1), Pass(2))
    assert of(Payment, events) == [Payment(0, None, 1)]  # nobody bought: 1 to the bank
    run(state, Pass(0))
    run(state, Play(1, 0))  # open Carvalho
    run(state, Pass(2), Pass(0), Pass(1), Pass(1))
    run(state, Play(2, 12), Pass(0), Pass(1), Pass(2), Pass(2))  # open Thaler
    run(state, Play(0, 10))  # a Carvalho double; seat 0 could add its once-around Carvalho
    assert state.decision(0) == Decision(DecisionKind.OFFER, 0, cards=(3,), can_pass=True)
    assert state.default_action() == Pass(0)
    events = run(state, Pass(0))  # seat 1 could add its open Carvalho
    assert events == [SecondCardDeclined(0)]
    assert state.default_action() == Pass(1)
    events = run(state, Pass(1))  # seat 2 has no Carvalho
    assert of(SecondCardDeclined, events) == [SecondCardDeclined(1), SecondCardDeclined(2)]
    assert of(AuctionWon, events) == [AuctionWon(0, (10,), 0, 0)]
