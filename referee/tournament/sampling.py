"""Sampled round-robin tables: `tables = N` of the C(n, k) possible, chosen so that every pair of
entrants meets about equally often and every entrant plays about equally many tables.

A deterministic simulated annealing over table swaps, in integer arithmetic only (the
acceptance test uses a fixed-point table of powers of two), so that the same file picks the
same tables on every platform and the store can resume it.
"""

from __future__ import annotations

import itertools
import math
import operator
import random


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


def sample_tables(n: int, k: int, count: int, rng: random.Random) -> list[tuple[int, ...]]:
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
