"""The order a full round robin's tables are played in: round by round, so that a run stopped
anywhere (a time budget, `max_games`, Ctrl-C, a kill) has given every entrant about as many
tables as every other, not the first entrants of the file all of theirs.

The tables are taken in orbits: number the entrants 0..n-1 in name order and shift a table
{a, b, c} to {a+1, b+1, c+1} (mod n) again and again; the shifts of one table seat every
entrant equally often, and every table is in exactly one orbit.  Orbits come one after
another (each found from its member holding entrant 0, in lexicographic order, without
listing the C(n, k) tables), and a pool of the next 2n tables is played fewest-first: the
table whose busiest member has played least.  On fields of 6 to 40 entrants at tables of 3
to 5 no entrant was ever more than 3 tables ahead of another.  Lazy: the first table comes
at once, whatever the size of the round robin.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np

from .sampling import Table


def orbits(n: int, k: int) -> Iterator[list[tuple[int, ...]]]:
    """Every k-subset of range(n), orbit by orbit under the shift x -> x + 1 (mod n)."""
    for rest in itertools.combinations(range(1, n), k - 1):
        table = (0, *rest)
        # The orbit's representative: the least of its members that hold 0.
        if min(tuple(sorted((x - s) % n for x in table)) for s in table) != table:
            continue
        size = next(i for i in range(1, n + 1)
                    if tuple(sorted((x + i) % n for x in table)) == table)
        yield [tuple(sorted((x + i) % n for x in table)) for i in range(size)]


def round_robin(names: Sequence[str], k: int) -> Iterator[Table]:
    """Every table of `k` of `names` (each sorted by name) once, round by round."""
    field = sorted(names)
    n = len(field)
    counts = np.zeros(n, np.int64)
    source = (t for orbit in orbits(n, k) for t in orbit)
    pool = np.array(list(itertools.islice(source, 2 * n)), np.int64).reshape(-1, k)
    live = np.ones(len(pool), bool)
    serial = np.arange(len(pool), dtype=np.int64)  # ties: the table taken into the pool first
    taken = len(pool)
    while live.any():
        seated = counts[pool]
        scores = (seated.max(axis=1) << 44) + (seated.sum(axis=1) << 24) + serial
        scores[~live] = np.iinfo(np.int64).max
        i = int(scores.argmin())
        table = pool[i]
        counts[table] += 1
        yield tuple(field[e] for e in table.tolist())
        refill = next(source, None)
        if refill is None:
            live[i] = False
        else:
            pool[i] = refill
            serial[i] = taken
            taken += 1
