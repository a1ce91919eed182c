"""The schedule is fair, stable and a pure function of the tournament file."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from typing import Any

import pytest

from referee.game import BUILTIN_EDITIONS
from referee.tournament.config import TournamentConfig
from referee.tournament.merge import shard_games
from referee.tournament.preview import Plan, make_plan
from referee.tournament.schedule import (
    BALANCED_ORDERS,
    Schedule,
    ScheduledGame,
    fingerprint,
    game_spec,
    schedule,
    table_key,
    tables,
)


def names(n: int) -> list[str]:
    return [f"bot{i}" for i in range(n)]


def make(n: int, **keys: Any) -> TournamentConfig:
    data: dict[str, Any] = {"name": "test", "seed": 5,
                            "bots": [{"name": b, "command": f"./{b}"} for b in names(n)]}
    data.update(keys)
    return TournamentConfig.model_validate(data)


def seat_counts(games: list[ScheduledGame]) -> Counter[tuple[str, int]]:
    return Counter((name, seat) for g in games for seat, name in enumerate(g.seats))


def pair_counts(games: list[ScheduledGame], field: list[str]) -> Counter[tuple[str, str]]:
    met = Counter({p: 0 for p in itertools.combinations(sorted(field), 2)})
    for g in games:
        met.update(itertools.combinations(sorted(g.seats), 2))
    return met


def adjacency(orders: list[tuple[str, ...]]) -> Counter[tuple[str, str]]:
    """How often a sits immediately before b in turn order (b in a's seat + 1, cyclically)."""
    k = len(orders[0])
    return Counter((o[s], o[(s + 1) % k]) for o in orders for s in range(k))


def by_table_and_deal(games: list[ScheduledGame]) -> dict[tuple[int, int], list[ScheduledGame]]:
    out: dict[tuple[int, int], list[ScheduledGame]] = {}
    for g in games:
        out.setdefault((g.table, g.deal), []).append(g)
    return out


def spread(counts: Counter[Any] | list[int]) -> int:
    values = list(counts.values()) if isinstance(counts, Counter) else counts
    return max(values) - min(values)


CASES = [(n, k) for n in range(4, 8) for k in (3, 4, 5) if n >= k]


@pytest.mark.parametrize(("n", "k"), CASES)
def test_round_robin_seats_and_meetings_are_equal(n: int, k: int) -> None:
    games = schedule(make(n, table_size=k, deals=2))
    assert len(games) == math.comb(n, k) * math.factorial(k) * 2
    seats = seat_counts(games)
    assert set(seats) == {(b, s) for b in names(n) for s in range(k)}
    assert spread(seats) == 0
    assert spread(pair_counts(games, names(n))) == 0
    seated = {g.table: g.seats for g in games}
    assert sorted(tuple(sorted(t)) for t in seated.values()) == sorted(
        itertools.combinations(sorted(names(n)), k))
    for group in by_table_and_deal(games).values():
        assert len({g.seats for g in group}) == math.factorial(k)


@pytest.mark.parametrize(("n", "k"), CASES)
def test_every_seat_order_of_a_table_and_deal_gets_the_same_deck(n: int, k: int) -> None:
    games = schedule(make(n, table_size=k, deals=3, seat_orders="rotations"))
    seeds = {}
    for key, group in by_table_and_deal(games).items():
        assert len({g.seed for g in group}) == 1
        seeds[key] = group[0].seed
    assert len(set(seeds.values())) == len(seeds)  # other tables and deals: other decks
    assert all(0 <= s < 2**63 for s in seeds.values())


def test_a_table_gets_the_same_decks_whatever_else_is_in_the_file() -> None:
    small = {frozenset(g.seats): g.seed for g in schedule(make(4, table_size=4)) if g.deal == 0}
    large = {frozenset(g.seats): g.seed for g in schedule(make(6, table_size=4)) if g.deal == 0}
    table = frozenset(names(4))
    assert small[table] == large[table]
    other_seed = {frozenset(g.seats): g.seed for g in schedule(make(4, table_size=4, seed=6))}
    assert other_seed[table] != small[table]


@pytest.mark.parametrize(("n", "k"), CASES)
def test_rotations_put_every_entrant_in_every_seat_once_per_table(n: int, k: int) -> None:
    games = schedule(make(n, table_size=k, seat_orders="rotations"))
    assert len(games) == math.comb(n, k) * k
    for group in by_table_and_deal(games).values():
        assert len(group) == k
        first = group[0].seats
        assert {g.seats for g in group} == {first[r:] + first[:r] for r in range(k)}
        assert spread(seat_counts(group)) == 0 and len(seat_counts(group)) == k * k
    assert spread(seat_counts(games)) == 0


@pytest.mark.parametrize("k", [3, 4, 5])
def test_balanced_orders_balance_seats_and_neighbours_with_fewest_orders(k: int) -> None:
    patterns = BALANCED_ORDERS[k]
    # seats equally often needs a multiple of k orders, each ordered neighbour pair equally
    # often (k neighbour pairs per order, k*(k-1) pairs) a multiple of k-1: at least k*(k-1)
    assert len(patterns) == k * (k - 1) == {3: 6, 4: 12, 5: 20}[k]
    if k > 3:
        assert len(patterns) < math.factorial(k)
    assert len(set(patterns)) == len(patterns)
    assert all(sorted(p) == list(range(k)) for p in patterns)

    games = schedule(make(k + 2, table_size=k, seat_orders="balanced", deals=2))
    assert len(games) == math.comb(k + 2, k) * k * (k - 1) * 2
    for group in by_table_and_deal(games).values():
        orders = [g.seats for g in group]
        assert len(set(orders)) == k * (k - 1)
        seats = seat_counts(group)
        assert len(seats) == k * k and spread(seats) == 0
        neighbours = adjacency(orders)
        assert len(neighbours) == k * (k - 1) and spread(neighbours) == 0
    assert spread(seat_counts(games)) == 0
    assert spread(pair_counts(games, names(k + 2))) == 0


def test_balanced_five_balances_every_distance() -> None:
    orders = list(BALANCED_ORDERS[5])
    for d in range(1, 5):
        behind = Counter((o[s], o[(s + d) % 5]) for o in orders for s in range(5))
        assert len(behind) == 20 and set(behind.values()) == {5}


def test_all_orders_are_balanced_too() -> None:
    games = schedule(make(4, table_size=4))
    assert spread(adjacency([g.seats for g in games])) == 0


# (bots, table size, tables) -> the largest difference between pair meetings we assert.  Drawn
# one table at a time (so that a sample grows), fewest tables first: every entrant's count is
# within one of every other's after every table, and pairs meet about equally often: in sweeps
# over 13..40 bots with n/k to 10n tables at tables of 3 to 5, the pair meetings differed by
# at most 3 (most often 2), a few pairs in a hundred off the mean rounded either way.
SAMPLES = [(7, 3, 7, 2), (8, 4, 10, 2), (12, 3, 30, 1), (20, 4, 50, 2), (11, 4, 30, 2),
           (13, 4, 26, 2), (16, 4, 60, 2), (25, 3, 200, 2), (40, 4, 150, 3), (30, 5, 100, 3)]


def counts_by_prefix(tables: list[tuple[str, ...]], field: list[str]) -> list[int]:
    """The spread of the entrants' table counts after each table."""
    played = Counter(dict.fromkeys(field, 0))
    out = []
    for t in tables:
        played.update(t)
        out.append(spread(played))
    return out


@pytest.mark.parametrize(("n", "k", "count", "worst"), SAMPLES)
def test_sampled_tables_keep_table_counts_even_at_every_table_and_meetings_about_even(
        n: int, k: int, count: int, worst: int) -> None:
    """A sample of `tables = N` holds N distinct tables; after every table, in the order they
    are played, no entrant has played two tables more than another (a run stopped anywhere
    is fair); pairs meet about equally often; the seats are balanced."""
    config = make(n, table_size=k, tables=count, seat_orders="rotations")
    games = schedule(config)
    seated = {g.table: tuple(sorted(g.seats)) for g in games}
    assert sorted(seated) == list(range(count))
    assert len(set(seated.values())) == count  # distinct tables
    assert all(len(t) == k for t in seated.values())
    assert max(counts_by_prefix([seated[i] for i in range(count)], names(n))) <= 1
    met = pair_counts([g for g in games if g.order == 0], names(n))
    assert spread(met) <= worst
    assert spread(seat_counts(games)) <= 1  # rotations: each seat once per table played
    assert schedule(config) == games


def test_a_sample_grows_with_tables_and_shrinks_to_a_prefix() -> None:
    """Table t of a sample depends on the tables before it only: the sample of 30 is the
    first 30 tables of the sample of 45, drawing on from 30 stored tables gives the 45 drawn
    afresh, and lowering `tables` to 20 names the first 20 of those stored."""
    small = tables(make(12, tables=30))
    large = tables(make(12, tables=45))
    assert large[:30] == small
    grown = Schedule(make(12, tables=45), small)
    assert list(grown.tables()) == large and grown.drawn() == large[30:]
    shrunk = Schedule(make(12, tables=20), large)
    assert list(shrunk.tables()) == large[:20] and shrunk.drawn() == []


def test_a_late_entrant_gets_tables_of_its_own_that_meet_the_field_evenly() -> None:
    """A newcomer to a stored sample keeps every stored table; the tables drawn for it all
    seat it, until it has as many as the others (within one), and it meets the others about
    equally often."""
    before = tables(make(12, tables=40))
    grown = Schedule(make(13, tables=40), before)
    after = list(grown.tables())
    assert after[:40] == before
    new = after[40:]
    assert new == grown.drawn() and new and all("bot12" in t for t in new)
    played = Counter(name for t in after for name in t)
    assert spread(played) <= 1 and len(played) == 13
    met = Counter(other for t in new for other in t if other != "bot12")
    assert len(met) == 12 and spread(met) <= 1


def test_late_entrants_sit_beside_the_field_not_in_a_group_of_their_own() -> None:
    """Four newcomers to a stored sample of 40: every stored table is kept, each table drawn
    for them seats at most two of them beside the field (fewest tables first alone sat them
    three or four to a table: in a larger field, a group that met the field nowhere, which
    `plan` said the leaderboard could not compare), each meets several of the field, every
    entrant is linked to every other, so `plan` warns of no split, and all end within one
    table."""
    late = ["bot40", "bot41", "bot42", "bot43"]
    before = tables(make(40, tables=40))
    config = make(44, tables=40, deals=2)
    grown = Schedule(config, before)
    after = list(grown.tables())
    assert after[:40] == before
    assert all(1 <= len(set(late) & set(t)) <= 2 for t in grown.drawn())
    met = {n: {o for t in after if n in t for o in t if o not in late} for n in late}
    assert min(len(field) for field in met.values()) >= 4, met
    assert make_plan(config, grown, 1).few_deals is None
    assert spread(Counter(name for t in after for name in t)) <= 1


def test_a_withdrawn_entrants_tables_stop_counting() -> None:
    """Without an entrant, the stored tables it sat at are passed over, those without it are
    kept in their order, and those who sat with it get new tables until the field holds the
    file's count and every entrant is within one table of every other."""
    before = tables(make(12, tables=40))
    field = [b for b in names(12) if b != "bot3"]
    config = make(12, tables=40).model_copy(
        update={"bots": [b for b in make(12).bots if b.name != "bot3"]})
    after = Schedule(config, before)
    kept = [t for t in before if "bot3" not in t]
    named = list(after.tables())
    assert named[:len(kept)] == kept and len(named) >= 40
    assert all("bot3" not in t for t in named)
    assert max(counts_by_prefix(named, field)[39:]) <= 1


def test_the_plan_of_a_sample_after_a_withdrawal_counts_every_table_the_store_drew() -> None:
    """After a withdrawal, `plan` says the sample grows from all the tables the store drew
    before (40), not only those still counted, and how many of them are passed over; a lower
    `tables` with nothing drawn says which of them count."""
    before = tables(make(12, tables=40))
    config = make(12, tables=40).model_copy(
        update={"bots": [b for b in make(12).bots if b.name != "bot3"]})
    after = Schedule(config, before)
    passed = sum("bot3" in t for t in before)
    said = make_plan(config, after, workers=1).lines()
    assert (f"the sample grows from the 40 tables the store drew before ({passed} of them "
            "passed over: they seat an entrant no longer in the file): "
            f"{len(after.drawn())} drawn now") in said, said
    fewer = make(12, tables=20)
    said = make_plan(fewer, Schedule(fewer, before), workers=1).lines()
    assert "the sample is the first 20 of the 40 tables the store drew before: none drawn " \
        "now" in said, said


@pytest.mark.parametrize("keys", [{}, {"tables": 20},
                                  {"format": "gauntlet", "baselines": ["bot0", "bot2", "bot5"]}])
def test_the_plan_counts_the_games_of_left_out_entrants_as_skipped(keys: dict[str, Any]) -> None:
    """With entrants left out, the plan's games to play are those a run plays: not stored,
    and at no table with a left-out entrant; those are said as skipped.  Counted by formula
    for a full round robin, from the tables for a sample or a gauntlet, game by game for a
    shard: the same counts as going through the games."""
    config = make(8, seat_orders="rotations", deals=2, **keys)
    games = Schedule(config)
    out = {"bot1", "bot6"}
    every = list(games.games())
    for done in (None, set(), {g.game_id for g in every[::5]}):
        for shard in (None, (2, 3)):
            mine = list(shard_games(every, shard))
            held = sum(g.game_id in (done or ()) for g in mine)
            skipped = sum(1 for g in mine if out & set(g.seats)
                          and g.game_id not in (done or ()))
            plan = make_plan(config, games, 1, done, shard, left_out=out)
            assert isinstance(plan, Plan)
            assert (plan.skipped, plan.to_play) == (skipped, len(mine) - held - skipped)
            said = (f"{len(mine) - held - skipped} to play, {skipped} skipped: they need a "
                    "left-out entrant")
            assert any(line.endswith(said) for line in plan.lines()), plan.lines()


def test_max_games_is_said_of_the_games_a_run_can_play_where_entrants_are_left_out() -> None:
    """max_games counts the first N of the games a run can play: with entrants left out, the
    plan says it takes the first N of those not skipped, and says nothing of it when the
    playable games are N or fewer (the run plays them all)."""
    config = make(6, seat_orders="rotations", deals=1)
    games = Schedule(config)  # 20 tables of 4 rotations: 80 games, 20 at tables without bot1
    out = {"bot1"}
    skipped = sum(1 for g in games.games() if out & set(g.seats))
    playable = len(games) - skipped
    for cap, said in ((playable - 4, f"max_games = {playable - 4}: the first {playable - 4} "
                                      "of those not skipped, round by round"),
                      (playable, None)):
        capped = make(6, seat_orders="rotations", deals=1, max_games=cap)
        lines = make_plan(capped, Schedule(capped), 1, left_out=out).lines()
        found = [line for line in lines if "max_games =" in line]
        assert (found[0].startswith(said) if said else found == []), lines
    whole = make(6, seat_orders="rotations", deals=1, max_games=10)
    lines = make_plan(whole, Schedule(whole), 1).lines()
    assert any("max_games = 10: the first 10 of them, round by round" in line
               for line in lines), lines


def test_plan_names_the_groups_a_small_sample_splits_its_entrants_into() -> None:
    """Samples of 18 to 23 entrants at 8 to 11 tables of three over 2 deals, some linked, some
    split: the plan warns of each split one, naming as many groups as its tables form
    (counted here entrant by entrant), and of no linked one.  A union-find whose path halving
    was one chained assignment counted some a group short (a split field of 19 said nothing)."""
    def groups(tables: list[tuple[str, ...]]) -> int:
        neighbours: dict[str, set[str]] = {}
        for table in tables:
            for name in table:
                neighbours.setdefault(name, set()).update(table)
        seen: set[str] = set()
        count = 0
        for start in neighbours:
            if start in seen:
                continue
            count += 1
            todo = [start]
            while todo:
                name = todo.pop()
                if name not in seen:
                    seen.add(name)
                    todo.extend(neighbours[name] - seen)
        return count

    split = 0
    for n, count in itertools.product(range(18, 24), range(8, 12)):
        config = make(n, table_size=3, deals=2, tables=count)
        games = Schedule(config)
        want = groups(list(games.tables()))
        plan = make_plan(config, games, 1)
        said = re.search(r"split the entrants into (\d+) groups", plan.few_deals or "")
        assert (int(said[1]) if said else 1) == want, (n, count, plan.few_deals, want)
        split += want > 1
    assert split >= 10, split  # most of them are split: the count is what is tested


def test_a_full_round_robin_is_played_round_by_round() -> None:
    """Every table of the round robin once, in an order that never lets one entrant get more
    than a few tables ahead of another: not the file's first entrants first."""
    for n, k in ((6, 3), (9, 4), (12, 5)):
        order = tables(make(n, table_size=k))
        assert sorted(order) == sorted(itertools.combinations(sorted(names(n)), k))
        assert max(counts_by_prefix(order, names(n))) <= 2


def test_sampling_at_least_every_table_is_the_round_robin() -> None:
    full = schedule(make(6, table_size=3))
    assert schedule(make(6, table_size=3, tables=20)) == full
    assert schedule(make(6, table_size=3, tables=500)) == full
    assert len({g.table for g in schedule(make(6, table_size=3, tables=19))}) == 19


def test_sampled_tables_depend_on_the_seed() -> None:
    def drawn(seed: int) -> set[frozenset[str]]:
        return {frozenset(g.seats) for g in schedule(make(12, tables=20, seed=seed))}

    assert drawn(1) == drawn(1)
    assert drawn(1) != drawn(2)


def gauntlet(candidates: int, **keys: Any) -> TournamentConfig:
    n = candidates + 3
    bots = names(n)
    base = [bots[1], bots[3], bots[4]]  # anywhere in the file
    return make(n, format="gauntlet", baselines=base, **keys)


def test_gauntlet_games_hold_all_baselines_and_one_candidate() -> None:
    config = gauntlet(4, deals=2)
    games = schedule(config)
    base = set(config.baselines)
    candidates = [b for b in names(7) if b not in base]
    assert len(games) == 4 * 24 * 2
    per_candidate: Counter[str] = Counter()
    for g in games:
        assert base <= set(g.seats)
        (cand,) = set(g.seats) - base
        per_candidate[cand] += 1
    assert per_candidate == {c: 48 for c in candidates}
    # table i is the i-th candidate in file order
    assert [next(iter(set(g.seats) - base)) for g in games if g.order == 0 and g.deal == 0] \
        == candidates
    for group in by_table_and_deal(games).values():
        assert len({g.seats for g in group}) == 24 and len({g.seed for g in group}) == 1
        assert spread(seat_counts(group)) == 0
    # every candidate is dealt the same decks; the deals differ
    decks = {d: {g.seed for g in games if g.deal == d} for d in range(2)}
    assert all(len(s) == 1 for s in decks.values()) and decks[0] != decks[1]


@pytest.mark.parametrize(("how", "orders"), [("rotations", 4), ("balanced", 12)])
def test_gauntlet_seat_orders(how: str, orders: int) -> None:
    games = schedule(gauntlet(3, seat_orders=how))
    assert len(games) == 3 * orders
    for group in by_table_and_deal(games).values():
        assert len({g.seats for g in group}) == orders
        assert spread(seat_counts(group)) == 0
        assert spread(adjacency([g.seats for g in group])) == 0


@pytest.mark.parametrize("keys", [
    {"table_size": 3},
    {"table_size": 4, "seat_orders": "balanced", "deals": 3},
    {"table_size": 4, "tables": 12, "seat_orders": "rotations", "deals": 2},
])
def test_game_ids_are_unique_readable_and_stable(keys: dict[str, Any]) -> None:
    """A game id names the table (by its entrants), the deal and the seat order, is unique,
    and stays the same when the file is read again or gets a deal more."""
    config = make(8, **keys)
    games = schedule(config)
    ids = [g.game_id for g in games]
    assert len(set(ids)) == len(ids)
    for g in games:
        assert g.game_id == f"{table_key(g.seats)}-d{g.deal:02d}-o{g.order:02d}"
        assert re.fullmatch(r"t[0-9a-f]{12}-d\d{2}-o\d{2}", g.game_id)
    assert schedule(TournamentConfig.model_validate(config.model_dump())) == games
    # a deal more keeps every game already scheduled, with its id, seats and seed
    more = schedule(make(8, **{**keys, "deals": keys.get("deals", 1) + 1}))
    assert set(games) < set(more)
    assert len(more) == len(games) // keys.get("deals", 1) * (keys.get("deals", 1) + 1)


@pytest.mark.parametrize("fmt", ["round-robin", "gauntlet"])
def test_a_game_is_the_same_whoever_else_is_in_the_file_and_in_which_order(fmt: str) -> None:
    """A game's id, seats and seed depend on its table's entrants and its deal only: adding
    an entrant keeps every game of the old tables as it was (and adds only tables with the
    newcomer), and listing the entrants in another order changes no game."""
    extra = {"baselines": ["bot0", "bot1", "bot2"]} if fmt == "gauntlet" else {}
    base = make(6, table_size=4, format=fmt, deals=2, **extra)
    games = set(schedule(base))
    grown = make(7, table_size=4, format=fmt, deals=2, **extra)
    new = set(schedule(grown)) - games
    assert games < set(schedule(grown))
    assert new and all("bot6" in g.seats for g in new)
    shuffled = base.model_copy(update={"bots": list(reversed(base.bots))})
    assert set(schedule(shuffled)) == games


def test_game_spec_carries_the_files_limits_and_variants() -> None:
    config = make(5, table_size=3, variants=["mystery"],
                  limits={"move_time": 0.5, "time_bank": 4, "max_faults": 2})
    game = schedule(config)[7]
    spec = game_spec(config, game, BUILTIN_EDITIONS["classic"])
    assert spec.game_id == game.game_id and spec.seed == game.seed
    assert spec.names == list(game.seats)
    assert spec.variants == ["mystery"]
    assert (spec.move_time, spec.time_bank, spec.max_faults) == (0.5, 4.0, 2)
    assert spec.edition == BUILTIN_EDITIONS["classic"].to_data()


BASE: dict[str, Any] = {
    "name": "fp", "seed": 3, "table_size": 3,
    "bots": [{"name": b, "command": f"./{b}", "build": "make", "dir": "x"} for b in names(5)],
}


def fp(**changes: Any) -> str:
    return fingerprint(TournamentConfig.model_validate({**BASE, **changes}))


def with_bot(i: int, **changes: Any) -> list[dict[str, Any]]:
    bots = [dict(b) for b in BASE["bots"]]
    bots[i].update(changes)
    return bots


@pytest.mark.parametrize("changes", [
    {"seed": 4},
    {"table_size": 4},
    {"seat_orders": "rotations"},
    {"seat_orders": "balanced"},
    {"format": "gauntlet", "baselines": ["bot0", "bot1"]},
    {"edition": "classic"},
    {"variants": ["split-double"]},
    {"limits": {"move_time": 2.0}},
    {"limits": {"time_bank": 5.0}},
    {"limits": {"max_faults": 1}},
])
def test_fingerprint_changes_with_what_changes_the_games(changes: dict[str, Any]) -> None:
    """A setting that changes the games played gives another fingerprint: the store refuses
    to mix them."""
    assert fp(**changes) != fp()


@pytest.mark.parametrize("changes", [
    {"name": "another name"},
    {"bots": with_bot(1, build="make -j8")},
    {"bots": with_bot(1, build=None, dir=None)},
    {"limits": {"startup_time": 30.0, "build_time": 60.0}},
    {"primary_metric": "money"},
    {"deals": 2},  # more deals keep every game's id and seed: the store is extended
    {"tables": 4},  # a sample grows from the tables its store drew
    {"max_games": 10},
    {"until": "separated"},
    {"until": "ranked", "max_deals": 64},
    # the field: each game records its bots' versions, and its id names its table
    {"bots": with_bot(2, command="./other")},
    {"bots": with_bot(2, name="renamed")},
    {"bots": list(reversed(BASE["bots"]))},
    {"bots": BASE["bots"][:4]},
])
def test_fingerprint_ignores_what_does_not(changes: dict[str, Any]) -> None:
    """Settings that change no stored game (and the field, which a store follows game by
    game) keep the fingerprint: the store is resumed."""
    assert fp(**changes) == fp()
    assert re.fullmatch(r"[0-9a-f]{64}", fp())


# Fingerprints under schedule version 3, before gauntlets took their seat orders over the
# baselines then the candidate: a round robin's store stays valid, a gauntlet's is refused.
ROUND_ROBIN_V3 = "a48dc7f6429bbda5b943bd4917fce3c858e93e816dfc0753fd5b9183b1a5694d"
BALANCED_V3 = "4e9bf61bef927f63dd92dfbd99402605317885916f9618bde4435eb0a1cfb7f7"
GAUNTLET_V3 = "7c1c0d95def26abe09e3f7cc51d6f721d47762d82517b8fbd0e13972852a7cc6"


def test_only_a_gauntlets_fingerprint_changed_with_its_seating() -> None:
    """A round robin's store begun before gauntlets were seated around their candidate is
    resumed (its games did not change); a gauntlet's is refused, its games being others."""
    assert fp() == ROUND_ROBIN_V3
    assert fp(seat_orders="balanced") == BALANCED_V3
    assert fp(format="gauntlet", baselines=["bot0", "bot1"]) != GAUNTLET_V3


Slot = tuple[tuple[str, ...], int, tuple[int, ...]]


def slots(config: TournamentConfig) -> dict[str, dict[tuple[int, int], Slot]]:
    """Each candidate's games by deal and seat order: the seats (the candidate as "?"), the
    deck's seed and each seat's own seed."""
    base = set(config.baselines)
    out: dict[str, dict[tuple[int, int], Slot]] = {}
    for g in schedule(config):
        (cand,) = set(g.seats) - base
        spec = game_spec(config, g, BUILTIN_EDITIONS["cmon"])
        seats = tuple("?" if n == cand else n for n in g.seats)
        seat_seeds = tuple(spec.seat_seed(s) for s in range(spec.players))
        out.setdefault(cand, {})[g.deal, g.order] = (seats, g.seed, seat_seeds)
    return out


@pytest.mark.parametrize("how", ["all", "rotations", "balanced"])
def test_every_candidate_meets_the_baselines_in_the_same_way(how: str) -> None:
    """In a gauntlet, seat order k of deal d seats the baselines the same way around the
    candidate, with the same deck and the same seat seeds, whatever the candidate's name
    sorts before, between or after the baselines' (common random numbers)."""
    bots = ["m", "a", "c", "k", "x", "d", "z"]  # baselines c, k and x
    config = TournamentConfig.model_validate({
        "name": "g", "seed": 9, "table_size": 4, "format": "gauntlet", "deals": 2,
        "seat_orders": how, "baselines": ["x", "c", "k"],
        "bots": [{"name": b, "command": f"./{b}"} for b in bots]})
    games = slots(config)
    assert sorted(games) == ["a", "d", "m", "z"]
    assert games["a"] == games["d"] == games["m"] == games["z"]
    seat_seeds = [s for slot in games["a"].values() for s in slot[2]]
    decks = {slot[1] for slot in games["a"].values()}
    assert len(set(seat_seeds)) == len(seat_seeds)  # every seat of every game its own
    assert not decks & set(seat_seeds)
    assert all(0 <= s < 2**63 for s in seat_seeds)


def test_a_spec_keeps_its_seat_order_and_seat_seeds_ignore_the_names() -> None:
    """The seat order's index is in the spec, so a stored game's seat seeds can be derived
    again; the seeds depend on the deck's seed, the order and the seat, not on the names."""
    config = make(5, table_size=3, seat_orders="rotations")
    for game in schedule(config)[:6]:
        spec = game_spec(config, game, BUILTIN_EDITIONS["cmon"])
        assert spec.order == game.order
        renamed = spec.model_copy(update={"names": ["x", "y", "z"], "game_id": "other"})
        assert [renamed.seat_seed(s) for s in range(3)] == [spec.seat_seed(s) for s in range(3)]
        moved = spec.model_copy(update={"order": spec.order + 1})
        assert moved.seat_seed(0) != spec.seat_seed(0)
