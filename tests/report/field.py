"""A large field as a results store, without playing: synthetic four-player results laid out
as a tournament stores them (no game records), for the report's tests and benchmark at tens to
a thousand entrants, where playing the games would take minutes."""

from __future__ import annotations

import random
from pathlib import Path

from referee.match.result import StoredResult
from referee.tournament.store import Store

SEATS = 4


def names(entrants: int) -> list[str]:
    width = len(str(entrants - 1))
    return [f"bot{i:0{width}d}" for i in range(entrants)]


def fill_field(path: Path, entrants: int, rounds: int, orders: int = 4,
               seed: int = 1) -> int:
    """A store at `path` of `rounds` rounds in which the entrants (a multiple of 4, stronger
    with the number in their name) are shuffled into tables of four, each table's deal played
    in `orders` rotations of its seats with one deck: entrants * rounds / 4 * orders games,
    `rounds * orders` for each entrant.  Returns the games stored."""
    assert entrants % SEATS == 0
    rng = random.Random(seed)
    field = names(entrants)
    store = Store.for_writing(path)
    stored = 0
    with store.transaction():
        for r in range(rounds):
            shuffled = field[:]
            rng.shuffle(shuffled)
            for t in range(entrants // SEATS):
                table = shuffled[t * SEATS:(t + 1) * SEATS]
                deck = rng.randrange(2 ** 31)
                luck = {n: rng.randint(-60, 60) for n in table}
                for k in range(orders):
                    seats = table[k % SEATS:] + table[:k % SEATS]
                    money = [rng.randint(150, 500) + luck[n] + 300 * field.index(n) // entrants
                             for n in seats]
                    ranks = [1 + sum(1 for m in money if m > mine) for mine in money]
                    game_id = f"r{r:03d}-t{t:04d}-o{k}"
                    result = StoredResult(game_id=game_id, names=tuple(seats),
                                          money=tuple(money), ranks=tuple(ranks), retired=(),
                                          faults=((),) * SEATS,
                                          response_us=({"36": 3, "40": 1},) * SEATS)
                    store.save(game_id, seats, deck, result, b"", 0.1, 1, ["v1"] * SEATS)
                    stored += 1
    store.close()
    return stored
