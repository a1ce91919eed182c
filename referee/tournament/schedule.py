"""The schedule: which bots play which games, in which seats, with which deck.

`schedule(config)` is a pure function of the tournament file: no I/O, no clock, no global
randomness (hashlib and seeded `random.Random` only), so running a tournament again, on any
machine, yields the same games with the same ids and seeds, and the store can resume it.

Tables (the sets of entrants that play together):

* round-robin: every combination of `table_size` bots (`itertools.combinations` over the bots in
  file order), or with `tables = N` (N smaller than the number of combinations) a deterministic
  sample of N distinct tables in which every pair of bots meets as equally often as we can make
  it, and every bot plays as equally many tables (see `_sample_tables`).  N at least the number
  of combinations means every combination.
* gauntlet: one table per candidate (the bots not in `baselines`, in file order): the candidate
  and all the baselines.  `tables` does not apply to a gauntlet.

Each table plays `deals` deals, each deal in each of the table's seat orders:

* `all`: every permutation of the table's entrants (k!, `itertools.permutations` order).
* `rotations`: the k cyclic rotations of the entrants (each entrant in each seat once).
* `balanced`: a smallest set of seat orders in which every entrant sits in every seat equally
  often and, for every ordered pair (a, b), a sits immediately before b in turn order (b in
  a's seat + 1, cyclically) equally often.  A set of m orders of k entrants needs m = r*k for
  the seats and m*k = lam*k*(k-1) for the adjacencies, so m is a multiple of k*(k-1):
  k = 3: 6 orders (= 3!, every order); k = 4: 12 of 24 (an exhaustive search finds 48 such sets;
  we use the first in lexicographic order, which also has every entrant seated before every
  other -- seat number -- in 6 of the 12); k = 5: 20 of 120, seat j = (s + j*m) mod 5 for
  m = 1..4, s = 0..4, which balances not only the neighbour but every cyclic distance: a sits
  d seats before b exactly 5 times for each d = 1..4 (and before b by seat number 10 times).

Every seat order of one table and deal gets the same deck (duplicate format): a game's seed
depends on the master seed, the table's entrants (as a sorted set) and the deal only, so the
same table in another tournament file with the same seed gets the same decks.  In a gauntlet
the seed depends on the baselines instead of the whole table, so that every candidate is dealt
the same decks.

Game ids ("t0007-d02-o05": table, deal, seat order) do not depend on the number of deals, so
adding deals keeps the ids and seeds of the games already played.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass

from referee.game import Edition
from referee.match.spec import GameSpec

from .config import TournamentConfig

# Part of the fingerprint: bump when the schedule of an unchanged file changes, so that a store
# begun under the old schedule is refused rather than mixed.  2: gauntlet decks ignore the
# candidate; sampled tables keep table counts within 1.
SCHEDULE_VERSION = 2

# Balanced seat orders as index patterns into the table's entrants (see the module docstring).
BALANCED_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {
    3: tuple(itertools.permutations(range(3))),
    4: (
        (0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 1, 3), (1, 0, 2, 3), (1, 0, 3, 2), (1, 3, 0, 2),
        (2, 0, 3, 1), (2, 3, 0, 1), (2, 3, 1, 0), (3, 1, 2, 0), (3, 2, 0, 1), (3, 2, 1, 0),
    ),
    5: tuple(tuple((s + j * m) % 5 for j in range(5)) for m in range(1, 5) for s in range(5)),
}


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule."""

    game_id: str  # "t0007-d02-o05": table, deal, seat order; unique and stable
    table: int  # index of the table (the set of entrants) in the schedule
    deal: int  # 0..deals-1
    order: int  # index of this seat order among the table's seat orders
    seats: tuple[str, ...]  # bot names by seat, seat 0 first
    seed: int  # the deck: master seed, the table's entrants (as a set; a gauntlet: its
    # baselines) and the deal only, so every seat order of a table and deal gets the same deck


def game_id(table: int, deal: int, order: int) -> str:
    return f"t{table:04d}-d{deal:02d}-o{order:02d}"


def deal_seed(master: int, entrants: Sequence[str], deal: int) -> int:
    """The shuffle seed of one deal at one table, the same for every seat order: non-negative
    and below 2**63."""
    text = json.dumps(["deal", master, sorted(entrants), deal], separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seat_orders(entrants: tuple[str, ...], how: str) -> list[tuple[str, ...]]:
    """The table's seat orders: `all`, `rotations` or `balanced` (module docstring)."""
    k = len(entrants)
    if how == "rotations":
        return [entrants[r:] + entrants[:r] for r in range(k)]
    if how == "balanced":
        return [tuple(entrants[i] for i in pattern) for pattern in BALANCED_ORDERS[k]]
    return list(itertools.permutations(entrants))


def tables(config: TournamentConfig) -> list[tuple[str, ...]]:
    """The schedule's tables in index order, each one's entrants in file order."""
    names = [b.name for b in config.bots]
    if config.format == "gauntlet":
        base = set(config.baselines)
        return [tuple(n for n in names if n in base or n == cand)
                for cand in names if cand not in base]
    k = config.table_size
    if config.tables is not None and config.tables < math.comb(len(names), k):
        rng = random.Random(_derived_seed("tables", config.seed, len(names), k, config.tables))
        picked = _sample_tables(len(names), k, config.tables, rng)
        return [tuple(names[i] for i in t) for t in sorted(picked)]
    return list(itertools.combinations(names, k))


def schedule(config: TournamentConfig) -> list[ScheduledGame]:
    """Every game of the tournament: deal by deal, then table by table, then seat order."""
    table_list = tables(config)
    orders = [seat_orders(t, config.seat_orders) for t in table_list]
    games = []
    for deal in range(config.deals):
        for ti, entrants in enumerate(table_list):
            # A gauntlet deals every candidate the same cards: its seed ignores the candidate.
            dealt_to = config.baselines if config.format == "gauntlet" else entrants
            seed = deal_seed(config.seed, dealt_to, deal)
            for oi, seats in enumerate(orders[ti]):
                games.append(ScheduledGame(game_id(ti, deal, oi), ti, deal, oi, seats, seed))
    return games


def game_spec(config: TournamentConfig, game: ScheduledGame, edition: Edition) -> GameSpec:
    """The spec the referee plays for one scheduled game."""
    limits = config.limits
    return GameSpec.make(game.game_id, game.seed, list(game.seats), edition, config.variants,
                         move_time=limits.move_time, time_bank=limits.time_bank,
                         max_faults=limits.max_faults)


def fingerprint(config: TournamentConfig, edition: Edition | None = None,
                with_deals: int | None = None) -> str:
    """A hex digest of everything that changes the games; not of the name, the builds, the
    directories, the startup and build times or the primary metric, nor of the number of
    deals or `until`: a game's id and seed do not depend on them, so a store can be extended
    by more deals, or taken over by a run that stops early (runner, stages).  Given the loaded
    `edition`, its contents count too, so an edited edition file is noticed."""
    limits = config.limits
    data = {
        "schedule": SCHEDULE_VERSION,
        "seed": config.seed,
        "bots": [[b.name, b.command] for b in config.bots],
        "table_size": config.table_size,
        "format": config.format,
        "seat_orders": config.seat_orders,
        "tables": config.tables,
        "baselines": config.baselines,
        "edition": config.edition,
        "variants": config.variants,
        "limits": [limits.move_time, limits.time_bank, limits.max_faults],
    }
    if with_deals is not None:  # as stores made before version 0.2 were fingerprinted
        data["deals"] = with_deals
    if edition is not None:
        data["edition_data"] = edition.to_data()
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _derived_seed(*parts: object) -> int:
    text = json.dumps(list(parts), separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _pow2_table() -> list[int]:
    """POW2[j] = floor(2**32 * 2**(-j/16)) for j < 512, in integers only (so that the sampler
    makes the same choices on every platform)."""
    one = 1 << 64
    step = one >> 1  # 2**-1 in Q64; four square roots make 2**(-1/16)
    for _ in range(4):
        step = math.isqrt(step << 64)
    out = []
    value = one
    for _ in range(512):
        out.append(value >> 32)
        value = value * step >> 64
    return out


_POW2 = _pow2_table()
_BETA = (2, 20)  # inverse temperature, sixteenths of a bit per unit of cost: first, last
_BUDGET_BASE = 20_000  # annealing moves: this plus 50 per seat of the sample ...
_BUDGET_CAP = 200_000  # ... at most this


def _spread_bound(total: int, slots: int) -> int:
    """The least sum of squares of `slots` non-negative integers adding up to `total`."""
    q, r = divmod(total, slots)
    return r * (q + 1) ** 2 + (slots - r) * q * q


def _sample_tables(n: int, k: int, count: int, rng: random.Random) -> list[tuple[int, ...]]:
    """`count` distinct k-subsets of range(n) (0 < count < C(n, k)): every entrant's number of
    tables differs from every other's by at most 1, and pair meetings are as even as found.

    More than half of all subsets: the complement of a sample of the rest (which has the same
    spreads, since every pair and every entrant is in equally many of all the subsets).
    Otherwise a greedy start that already meets the table quotas is improved by simulated
    annealing on cost = 4 * sum(pair count**2) + sum(table count**2), stopping when pair counts
    and table counts both differ by at most 1 (the cost is then least) or after a budget of
    moves; a move replaces the table member that meets the others most by the best outsider.
    The state kept is the best by (table counts spread beyond 1, pair counts spread, cost); a
    last repair moves tables from entrants with the most to those with the fewest if needed.
    Integer arithmetic only, so that the sample is the same on every platform.
    """
    total = math.comb(n, k)
    if 2 * count > total:
        left = set(_anneal_tables(n, k, total - count, rng))
        return [c for c in itertools.combinations(range(n), k) if c not in left]
    return _anneal_tables(n, k, count, rng)


def _anneal_tables(n: int, k: int, count: int, rng: random.Random) -> list[tuple[int, ...]]:
    pairs = [[0] * n for _ in range(n)]
    seated = [0] * n
    used: set[tuple[int, ...]] = set()
    chosen: list[tuple[int, ...]] = []

    # Greedy start: quotas differing by at most one; each table takes the entrants that must
    # play every remaining table, then those meeting its members least.
    r, extra = divmod(count * k, n)
    quota = [r] * n
    lucky = list(range(n))
    rng.shuffle(lucky)
    for e in lucky[:extra]:
        quota[e] += 1
    for left in range(count, 0, -1):
        must = sorted((e for e in range(n) if quota[e] >= left), key=lambda e: -quota[e])[:k]
        free = [e for e in range(n) if e not in must]
        rng.shuffle(free)
        spent = [q <= 0 for q in quota]
        table: tuple[int, ...] | None = None
        for tries in range(8):
            pick = list(must)
            if tries:  # the greedy choice is taken: any entrants with tables to spare
                rng.shuffle(free)
                pick += sorted(free, key=spent.__getitem__)[:k - len(pick)]
            most, meets = [0] * n, [0] * n  # the most meetings with one member, and all
            seen = 0
            while len(pick) < k:
                for m in pick[seen:]:
                    most = list(map(max, most, pairs[m]))
                    meets = list(map(operator.add, meets, pairs[m]))
                seen = len(pick)
                order = list(zip(spent, most, meets, map(operator.neg, quota), strict=True))
                pick.append(min((e for e in free if e not in pick), key=order.__getitem__))
            table = tuple(sorted(pick))
            if table not in used:
                break
        else:  # only repeats: any unused table; the quotas give way (_even_out mends them)
            table = next(c for c in itertools.combinations(range(n), k) if c not in used)
        used.add(table)
        chosen.append(table)
        for a, b in itertools.combinations(table, 2):
            pairs[a][b] += 1
            pairs[b][a] += 1
        for e in table:
            seated[e] += 1
            quota[e] -= 1

    # how many pairs meet c times, and how many entrants play c tables: for the spreads
    hist: dict[int, int] = {}
    for a in range(n):
        for b in range(a + 1, n):
            _tally(hist, pairs[a][b], 1)
    seat_hist: dict[int, int] = {}
    for c in seated:
        _tally(seat_hist, c, 1)

    weight = 4
    fours = [weight] * n
    far = 1 << 62
    pair_cost = sum(c * c * v for c, v in hist.items())
    seat_cost = sum(s * s for s in seated)
    target = (_spread_bound(count * k * (k - 1) // 2, n * (n - 1) // 2),
              _spread_bound(count * k, n))

    def rank() -> tuple[int, int, int]:
        return (max(max(seat_hist) - min(seat_hist) - 1, 0), max(hist) - min(hist),
                weight * pair_cost + seat_cost)

    best_rank = rank()
    best = list(chosen)
    budget = min(_BUDGET_CAP, _BUDGET_BASE + 50 * count * k)
    step = 0
    while (pair_cost, seat_cost) != target and step < budget:
        step += 1
        i = rng.randrange(count)
        old = chosen[i]
        met = pairs[old[0]]  # meetings with the whole table
        for m in old[1:]:
            met = list(map(operator.add, met, pairs[m]))
        keys = [weight * met[m] + seated[m] for m in old]
        top = max(keys)
        outs = [m for m, key in zip(old, keys, strict=True) if key == top]
        out = outs[rng.randrange(len(outs))]
        met = list(map(operator.sub, met, pairs[out]))  # ... with the others
        keys = list(map(operator.add, map(operator.mul, met, fours), seated))
        for m in old:
            keys[m] = far
        low = min(keys)
        ins = list(itertools.compress(range(n), map(low.__eq__, keys)))
        into = ins[rng.randrange(len(ins))]
        rest = [m for m in old if m != out]
        new = tuple(sorted([*rest, into]))
        if new in used:
            continue
        d_pair = 2 * (k - 1) + 2 * (met[into] - met[out])
        d_seat = 2 * (seated[into] - seated[out]) + 2
        delta = weight * d_pair + d_seat
        if delta > 0:
            shift = delta * (_BETA[0] + (_BETA[1] - _BETA[0]) * step // budget)
            if shift >= len(_POW2) or rng.getrandbits(32) >= _POW2[shift]:
                continue
        used.discard(old)
        used.add(new)
        chosen[i] = new
        for m in rest:
            for a, d in ((out, -1), (into, 1)):
                c = pairs[a][m]
                _tally(hist, c, -1)
                _tally(hist, c + d, 1)
                pairs[a][m] = pairs[m][a] = c + d
        for a, d in ((out, -1), (into, 1)):
            _tally(seat_hist, seated[a], -1)
            seated[a] += d
            _tally(seat_hist, seated[a], 1)
        pair_cost += d_pair
        seat_cost += d_seat
        now = rank()
        if now < best_rank:
            best_rank = now
            best = list(chosen)
    return _even_out(n, k, best)


def _tally(hist: dict[int, int], value: int, change: int) -> None:
    left = hist.get(value, 0) + change
    if left:
        hist[value] = left
    else:
        del hist[value]


def _even_out(n: int, k: int, chosen: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Move tables from the entrants with most to those with fewest until the counts differ
    by at most 1, each time the move that adds least to the pair meetings."""
    pairs = [[0] * n for _ in range(n)]
    seated = [0] * n
    for t in chosen:
        for a, b in itertools.combinations(t, 2):
            pairs[a][b] += 1
            pairs[b][a] += 1
        for e in t:
            seated[e] += 1
    used = set(chosen)
    while max(seated) - min(seated) > 1:
        hi, lo = max(seated), min(seated)
        moves = []
        for i, t in enumerate(chosen):
            for out in t:
                if seated[out] != hi:
                    continue
                rest = [m for m in t if m != out]
                for into in range(n):
                    if seated[into] != lo or into in t:
                        continue
                    new = tuple(sorted([*rest, into]))
                    if new not in used:
                        cost = sum(pairs[into][m] - pairs[out][m] for m in rest)
                        moves.append((cost, i, out, into, new))
        if not moves:
            break
        _cost, i, out, into, new = min(moves)
        rest = [m for m in chosen[i] if m != out]
        used.discard(chosen[i])
        used.add(new)
        chosen[i] = new
        for m in rest:
            pairs[out][m] -= 1
            pairs[m][out] -= 1
            pairs[into][m] += 1
            pairs[m][into] += 1
        seated[out] -= 1
        seated[into] += 1
    return chosen
