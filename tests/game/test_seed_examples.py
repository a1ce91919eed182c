"""R9: the worked examples of the seed rulebooks, played through the public interface."""

from __future__ import annotations

from referee.game import (
    CLASSIC,
    CMON,
    AuctionType,
    Bid,
    Buy,
    GameConfig,
    GameState,
    HiddenBids,
    Offer,
    Pass,
    Play,
    Price,
)
from referee.game.events import PaintingsSold, RoundEnded

OPEN, ONCE, HIDDEN, FIXED, DOUBLE = (
    AuctionType.OPEN,
    AuctionType.ONCE_AROUND,
    AuctionType.HIDDEN,
    AuctionType.FIXED_PRICE,
    AuctionType.DOUBLE,
)
A, B, C, D = 0, 1, 2, 3  # Axel, Beatrix, Clemens, Doris


class Picker:
    """Hands out distinct card ids of the classic deck by artist and auction type."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, artist: str, kind: AuctionType) -> int:
        for card in CLASSIC.cards_of(artist, kind):
            if card not in self.used:
                self.used.add(card)
                return card
        raise AssertionError(f"no {kind.label} card of {artist} left")


def seed_003_game() -> tuple[GameState, dict[str, int]]:
    """Four players, classic deck, hands that let round 1 and round 2 go as in seed 003."""
    pick = Picker()
    c = {
        # round 1
        "A_krypto": pick("Krypto", OPEN),
        "B_lm_once": pick("Lite Metal", ONCE),
        "C_lm_hidden": pick("Lite Metal", HIDDEN),
        "D_yoko_fixed": pick("Yoko", FIXED),
        "A_lm_double": pick("Lite Metal", DOUBLE),
        "A_lm_open": pick("Lite Metal", OPEN),
        "B_cp_double": pick("Christin P.", DOUBLE),
        "B_cp_hidden": pick("Christin P.", HIDDEN),
        "C_lm_fifth": pick("Lite Metal", FIXED),
        # round 2, in play order from Doris
        "r2_1": pick("Karl Gitter", OPEN),
        "r2_2": pick("Christin P.", OPEN),
        "r2_3": pick("Yoko", OPEN),
        "r2_4": pick("Karl Gitter", ONCE),
        "r2_5": pick("Christin P.", ONCE),
        "r2_6": pick("Yoko", ONCE),
        "r2_7": pick("Karl Gitter", HIDDEN),
        "r2_8": pick("Christin P.", HIDDEN),
        "r2_9": pick("Yoko", HIDDEN),
        "r2_10": pick("Lite Metal", FIXED),
        "r2_11": pick("Krypto", OPEN),
        "r2_12": pick("Christin P.", FIXED),
        "r2_13": pick("Karl Gitter", FIXED),
        "r2_14": pick("Karl Gitter", OPEN),
    }
    junk = [pick("Krypto", t) for t in (ONCE, HIDDEN, FIXED) for _ in range(3)]
    junk += [pick("Krypto", DOUBLE) for _ in range(3)] + [pick("Karl Gitter", DOUBLE)]
    seats = {A: "A_", B: "B_", C: "C_", D: "D_"}
    r2_seat = [D, A, B, C] * 4
    hands: list[list[int]] = [[] for _ in range(4)]
    for name, card in c.items():
        if name.startswith("r2_"):
            hands[r2_seat[int(name[3:]) - 1]].append(card)
        else:
            hands[next(s for s, p in seats.items() if name.startswith(p))].append(card)
    for seat in range(4):
        while len(hands[seat]) < 9:
            hands[seat].append(junk.pop())
    rest = [x for x in range(CLASSIC.n_cards) if x not in pick.used]
    state = GameState(GameConfig(4, CLASSIC), hands=hands, deck=rest)
    return state, c


def play_round_1(state: GameState, c: dict[str, int]) -> list[object]:
    """Seed 003's first round, move by move."""
    events: list[object] = []
    script = [
        Play(A, c["A_krypto"]),  # open: Doris 14, Clemens 15, Doris 17, Axel 18, Doris 19
        Pass(B), Pass(C), Bid(D, 14), Pass(A), Pass(B), Bid(C, 15), Bid(D, 17), Bid(A, 18),
        Pass(B), Pass(C), Bid(D, 19), Pass(A), Pass(B), Pass(C),
        Play(B, c["B_lm_once"]),  # once around: Clemens 8, Doris pass, Axel 12, Beatrix 13
        Bid(C, 8), Pass(D), Bid(A, 12), Bid(B, 13),
        Play(C, c["C_lm_hidden"]),  # hidden: Clemens 11, Doris 12, Axel 12, Beatrix 0
        HiddenBids((12, 0, 11, 12)),
        Play(D, c["D_yoko_fixed"]), Price(D, 14), Pass(A), Buy(B),
        Play(A, c["A_lm_double"]), Offer(A, c["A_lm_open"]),  # Clemens wins with 33
        Pass(B), Bid(C, 26), Pass(D), Pass(A), Bid(B, 27), Bid(C, 33), Pass(D), Pass(A), Pass(B),
        Play(B, c["B_cp_double"]), Offer(B, c["B_cp_hidden"]),
        HiddenBids((16, 22, 22, 33)),
        Play(C, c["C_lm_fifth"]),  # the fifth Lite Metal ends the round
    ]
    for action in script:
        events += state.apply(action)
    return events


def test_R9_1_seed_003_round_one_money() -> None:
    """R9.1: seed 003's round 1 ends with 152, 146, 139, 120 (the seed misprints two)."""
    state, c = seed_003_game()
    events = play_round_1(state, c)
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert len(ended) == 1
    assert ended[0].ranking == (0, 2, 1)  # Lite Metal, Christin P., Yoko (left of Krypto)
    assert ended[0].unsold == (c["C_lm_fifth"],)
    assert state.money == [152, 146, 139, 120]
    assert state.round == 2
    assert state.pending_seats() == (D,)  # R5.5: left of Clemens


def test_R9_2_seed_003_round_two_values() -> None:
    """R9.2: round-2 counts KG 5, CP 4, Yoko 3 after round 1's tiles sell for 30, 40, 20."""
    state, c = seed_003_game()
    play_round_1(state, c)
    events: list[object] = []
    for i in range(1, 15):
        seat = state.pending_seats()[0]
        events += state.apply(Play(seat, c[f"r2_{i}"]))
        while state.round == 2 and state.decisions()[0].kind.value != "play":
            events += state.apply(state.default_action())
    ended = next(e for e in events if isinstance(e, RoundEnded))
    _lm, yoko, cp, kg, _krypto = range(5)
    assert ended.counts == (1, 3, 4, 5, 1)
    assert ended.ranking == (kg, cp, yoko)
    assert ended.values == (0, 20, 40, 30, 0)
    sold = {e.seat: e for e in events if isinstance(e, PaintingsSold)}
    for sale in sold.values():
        assert sale.amount == sum(ended.values[CLASSIC.card_artist[x]] for x in sale.cards)
    # Doris auctioned and kept KG (2), CP (1), Yoko (1): 30 + 30 + 40 + 20.
    assert sold[D].amount == 120


def test_R9_3_seed_000_rafael_silveira_values() -> None:
    """R9.3: Rafael Silveira 1st, 3rd, unplaced, 2nd sells for 30, 40, 0, 60."""
    names = CMON.artists
    mc, st, dm, rm, rs = names
    plan = {
        1: [rs] * 5,
        2: [st, st, rs, mc, mc, mc, mc, mc],
        3: [dm, rm, rs, st, st, st, st, st],
        4: [rs, rm, rs, dm, dm, dm, dm, dm],
    }
    hands: list[list[int]] = [[], [], []]
    for card in range(CMON.n_cards):
        hands[card % 3].append(card)
    state = GameState(GameConfig(3, CMON), hands=hands, deck=[])
    ended: list[RoundEnded] = []
    sales: list[PaintingsSold] = []
    while not state.is_over:
        todo = plan[state.round]
        seat = state.pending_seats()[0]
        want = names.index(todo.pop(0))
        card = next(x for x in state.hands[seat] if CMON.card_artist[x] == want)
        events = state.apply(Play(seat, card))
        while not state.is_over and state.phase.name != "PLAY":
            events += state.apply(state.default_action())
        ended += [e for e in events if isinstance(e, RoundEnded)]
        sales += [e for e in events if isinstance(e, PaintingsSold)]
    assert [e.values[4] for e in ended] == [30, 40, 0, 60]
    assert [e.ranking for e in ended] == [(4,), (0, 1, 4), (1, 2, 3), (2, 4, 3)]
    rs_sold = [x for s in sales for x in s.cards if CMON.card_artist[x] == 4]
    assert len(rs_sold) == 4 + 1 + 1 + 2  # every auctioned Rafael Silveira was sold
    assert all(not plan[r] for r in plan)
