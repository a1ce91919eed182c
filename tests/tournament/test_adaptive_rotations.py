"""An adaptive schedule of rotations draws each table's first cyclic order, so that no bot sits
right after the same neighbour at every table of theirs; a store of adaptive rotations made
before keeps its rounds and the games seated as now, and plays the others again."""

from __future__ import annotations

import itertools
import math
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from referee.tournament import schedule as schedule_module
from referee.tournament.schedule import Schedule

from .test_field import entrant, run, stored, write_file
from .test_grow import plan_text, played, to_play
from .test_schedule import adjacency, make, seat_counts, spread


def after_share(games: list[schedule_module.ScheduledGame]) -> dict[tuple[str, str], float]:
    """For each ordered pair (a, b) that shares tables: the share of those tables at which b
    sits right after a (each table seats a cyclic order, so its first game tells)."""
    firsts = {}
    for g in games:
        firsts.setdefault((g.table, g.deal), g.seats)
    met: Counter[tuple[str, str]] = Counter()
    after: Counter[tuple[str, str]] = Counter()
    for seats in firsts.values():
        for a, b in itertools.permutations(seats, 2):
            met[a, b] += 1
        after.update(adjacency([seats]))
    return {pair: after[pair] / met[pair] for pair in met}


@pytest.mark.parametrize(("k", "n"), [(3, 30), (4, 12), (5, 10)])
def test_each_bot_sits_right_after_each_other_at_about_one_table_in_k_minus_one(
        k: int, n: int) -> None:
    """Every table of k of n bots, one deal each, in one adaptive round: each table seats
    every bot in every seat once, and each bot sits right after each other at 1/(k-1) of
    their tables, names alike or not, within 4.5 standard errors of chance for every pair (by
    name, bot1 would sit right after bot0 at every table of theirs: many more)."""
    config = make(n, table_size=k, seat_orders="rotations", schedule="adaptive", rounds=1)
    field = [b.name for b in config.bots]
    games = list(Schedule(config, (), [list(itertools.combinations(field, k))]).games())
    for table in range(len(games) // k):
        assert spread(seat_counts(games[table * k:(table + 1) * k])) == 0
    shares = after_share(games)
    assert len(shares) == n * (n - 1)
    p, shared = 1 / (k - 1), math.comb(n - 2, k - 2)  # the tables each pair shares
    bound = 4.5 * math.sqrt(p * (1 - p) / shared)
    assert bound < 1 - p  # so that a pair seated by name would fail
    assert all(abs(share - p) < bound for share in shares.values()), shares


def test_by_name_one_bot_would_always_sit_right_after_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: every table in its order by name seats bot1 right after
    bot0 at every table of theirs."""
    monkeypatch.setattr(schedule_module, "spin", lambda master, entrants: 0)
    config = make(12, table_size=4, seat_orders="rotations", schedule="adaptive", rounds=1)
    field = [b.name for b in config.bots]
    games = list(Schedule(config, (), [list(itertools.combinations(field, 4))]).games())
    assert after_share(games)["bot0", "bot1"] == 1.0


def test_a_table_chosen_again_plays_the_reverse_order() -> None:
    """A table chosen in two rounds plays its next deal the second time, in the reverse
    cyclic order: whoever sat right before a neighbour then sits right after it."""
    config = make(4, table_size=4, seat_orders="rotations", schedule="adaptive", rounds=2)
    table = tuple(b.name for b in config.bots)
    games = list(Schedule(config, (), [[table], [table]]).games())
    assert [g.deal for g in games] == [0] * 4 + [1] * 4
    met = adjacency([g.seats for g in games])
    assert all(met[a, b] == met[b, a] for a, b in met), met


def test_an_earlier_store_of_adaptive_rotations_keeps_its_rounds_and_plays_the_reseated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store of adaptive rotations made before each table's cyclic order was drawn (made
    here by the same code with every table by name, as that referee played): `plan` says a
    run supersedes the games seated otherwise now and counts them as to play; the run says
    it took the store over, keeps the rounds and the games seated alike, plays the others
    again (kept as superseded), and the store then holds what a new store would."""
    names = [f"e{i}" for i in range(6)]
    for n in names:
        entrant(tmp_path, n)
    file = write_file(tmp_path, names, 'schedule = "adaptive"\nrounds = 2')
    db = tmp_path / "field.db"
    with monkeypatch.context() as earlier:
        earlier.setattr(schedule_module, "spin", lambda master, entrants: 0)
        earlier.setattr(schedule_module, "rotations_version", lambda config: 1)
        run(file, "--workers", "1")
    before = stored(db)
    with sqlite3.connect(db) as con:
        rounds = con.execute("SELECT * FROM rounds ORDER BY round, position").fetchall()
    plan = plan_text(file)
    assert "note: " in plan and "a run supersedes the " in plan, plan
    reseated = to_play(plan)
    assert 0 < reseated < len(before)

    said = run(file, "--workers", "1")
    assert "taken over a store of rotations made by an earlier version of the referee " \
        "(rotations now draw each adaptive table's first cyclic order" in said
    assert f"{len(before) - reseated} of its games are kept, and {reseated} seated otherwise " \
        "now are superseded and played again" in said
    assert played(said) == reseated
    after = stored(db)
    kept = [gid for gid in before if before[gid] == after[gid]]
    assert len(kept) == len(before) - reseated and len(after) == len(before)
    assert len(stored(db, "superseded")) == reseated
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT * FROM rounds ORDER BY round, position").fetchall() == rounds
        whys = {r[0] for r in con.execute("SELECT why FROM superseded")}
    assert whys == {"rotations now draw each adaptive table's first cyclic order"}

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    for n in names:
        entrant(fresh, n)
    run(write_file(fresh, names, 'schedule = "adaptive"\nrounds = 2'), "--workers", "1")
    assert {gid: seats for gid, (seats, _) in stored(fresh / "field.db").items()} == \
        {gid: seats for gid, (seats, _) in after.items()}
    assert "taken over" not in run(file, "--workers", "1")
