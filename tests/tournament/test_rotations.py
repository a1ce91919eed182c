"""`seat_orders = "rotations"` change their cyclic order from deal to deal, so that no entrant
always sits after the same neighbour; stores made before that keep the games seated as now
and play the others again."""

from __future__ import annotations

import json
import math
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from referee.game import BUILTIN_EDITIONS
from referee.tournament.config import load_tournament
from referee.tournament.schedule import ScheduledGame, fingerprint, schedule

from .. import in_process
from .test_field import entrant, run, stored, write_file
from .test_grow import plan_text, played, to_play
from .test_schedule import adjacency, by_table_and_deal, make, seat_counts, spread
from .test_user_errors import refused


def neighbours(games: list[ScheduledGame]) -> Counter[tuple[str, str]]:
    """How often a sits right before b, every ordered pair of the table counted."""
    names = sorted({n for g in games for n in g.seats})
    counts = Counter({(a, b): 0 for a in names for b in names if a != b})
    counts.update(adjacency([g.seats for g in games]))
    return counts


@pytest.mark.parametrize("k", [3, 4, 5])
def test_every_two_deals_reverse_the_order_and_all_cyclic_orders_seat_everyone_alike(
        k: int) -> None:
    """Each deal of a table seats every entrant in every seat once; the next deal reverses
    its cyclic order, so over every two deals whoever sat right before a neighbour sits right
    after it as often; over (k-1)! deals every entrant sits right before every other equally
    often, as in every seat order; the first deal keeps the table's order by name."""
    cycles = math.factorial(k - 1)
    games = schedule(make(k, table_size=k, seat_orders="rotations", deals=cycles))
    deals = by_table_and_deal(games)
    assert len(deals) == cycles
    for group in deals.values():
        assert len(group) == k and spread(seat_counts(group)) == 0
    assert len({frozenset(g.seats for g in group) for group in deals.values()}) == cycles
    for first in range(0, cycles, 2):
        pair = deals[0, first] + deals[0, first + 1]
        met = adjacency([g.seats for g in pair])
        assert all(met[a, b] == met[b, a] for a, b in met), met
    assert spread(neighbours(games)) == 0
    assert deals[0, 0][0].seats == tuple(sorted(g for g in games[0].seats))


def test_a_fixed_cyclic_order_would_not_seat_everyone_alike() -> None:
    """The check above can fail: the first deal alone, repeated, puts each entrant after one
    neighbour only."""
    games = schedule(make(4, table_size=4, seat_orders="rotations", deals=6))
    first = [g for g in games if g.deal == 0] * 6
    assert spread(neighbours(first)) > 0


def earlier(file: Path, db: Path) -> None:
    """Make the store at `db` look as a referee before rotations changed left it."""
    old = fingerprint(load_tournament(file), BUILTIN_EDITIONS["cmon"], rotations=0)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (old,))


def test_an_earlier_store_of_rotations_keeps_its_first_deal_and_plays_later_deals_again(
        tmp_path: Path) -> None:
    """A store of rotations made before their cyclic order changed from deal to deal: one
    that holds the first deal only (the same games now) is taken over, nothing played again,
    and grows by a deal; one that holds later deals is taken over too, `plan` counting their
    games (seated otherwise now) as to play, and the run plays them again, keeping the old
    ones as superseded: the store then holds what a new one would.  `--frozen` refuses to,
    in one line, and leaves the store as it was."""
    names = ["ann", "ben", "cal"]
    for n in names:
        entrant(tmp_path, n)
    file = write_file(tmp_path, names, "deals = 1")
    db = tmp_path / "field.db"
    run(file)
    earlier(file, db)
    before = stored(db)
    assert to_play(plan_text(file)) == 0
    said = run(file)
    assert "taken over a store of rotations made by an earlier version of the referee" in said
    assert played(said) == 0 and stored(db) == before

    file = write_file(tmp_path, names, "deals = 2")
    assert played(run(file)) == 3
    new = stored(db)
    earlier(file, db)
    with sqlite3.connect(db) as con:  # deal 1 as that referee seated it: deal 0's order
        for game_id, result in con.execute("SELECT game_id, result FROM games").fetchall():
            if "-d01-" in game_id:
                seats = new[game_id.replace("-d01-", "-d00-")][0]
                result = json.dumps({**json.loads(result), "names": json.loads(seats)})
                con.execute("UPDATE games SET seats = ?, result = ? WHERE game_id = ?",
                            (seats, result, game_id))
    planned = plan_text(file)
    assert to_play(planned) == 3, planned
    assert "note: " in planned and "a run supersedes the 3 of its games" in planned, planned
    faked = stored(db)
    refused(in_process.referee("tournament", "run", str(file), "--frozen", cwd=tmp_path),
            "was made by an earlier referee", "3 of its games would be played again, which "
            "--frozen refuses")
    assert stored(db) == faked and not stored(db, "superseded")
    said = run(file)
    assert "3 of its games are kept, and 3 seated otherwise now are superseded" in said, said
    assert played(said) == 3 and stored(db) == new
    assert sorted(stored(db, "superseded")) == sorted(g for g in new if "-d01-" in g)


def test_an_earlier_sample_of_rotations_is_refused_saying_why(tmp_path: Path) -> None:
    """A store of a sample drawn all at once (before samples grew) and of rotations before
    they changed from deal to deal: `plan` refuses it with the rotations' reason."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    file = write_file(tmp_path, names, "tables = 2")
    db = tmp_path / "field.db"
    run(file)
    old = fingerprint(load_tournament(file), BUILTIN_EDITIONS["cmon"], sampled=2, rotations=0)
    with sqlite3.connect(db) as con:  # as a referee before both changes left it
        con.execute("DROP TABLE draws")
        con.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (old,))
    refused(in_process.referee("tournament", "plan", str(file), cwd=tmp_path),
            "holds a sample drawn at once and rotations that kept one cyclic order")
