"""Sampled round-robin tables (`tables = N`): drawn one at a time, so that a sample grows.

Each table is drawn from the tables before it, never from how many are wanted: the entrants
who have played fewest tables take its seats (so after every table each entrant's count is
within one of every other's, and a run stopped anywhere is fair; in a sample of more than a
fifth of all tables, of a small field, the tables left may force two), and among those, the
ones who have met the table's members least (so pairs meet about equally often: in fields of
13 to 40 the meetings of two pairs differ by at most 3, and 93% to 99.9% of the pairs meet
the mean number of times rounded either way).  Ties go by a hash of the master seed, the
table's position and the entrant's name: nothing depends on the file's order or on a
platform's randomness (integer arithmetic only, in numpy).  So the first N tables of a
sample of N + M are the sample of N: raising `tables` only adds tables.

The results store keeps every table drawn, in order (`Store.draws`), and a run walks them
before it draws on (`grow`): a late entrant, who has played none, takes a seat at each next
table until it has caught up with the field, beside the entrants it has met least; several
sit at most a few to a table, beside the field (`_Draw.catch_up`), not only with each other;
a withdrawn entrant's tables are passed over (they stop counting), and those who sat with it
catch up the same way.  A table once drawn is never drawn again.  The walk names the first
tables that hold `tables` of the field and leave no entrant more than one table behind
another, so lowering `tables` names a prefix of what was played, and a store grown table by
table names what the same file drawn afresh would.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Table = tuple[str, ...]  # entrants sorted by name
Ints = npt.NDArray[np.int64]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_TOP = np.iinfo(np.int64).max
_ATTEMPTS = 1000  # greedy tries per table: this over the field's size, 1 to 16 of them


@dataclass(frozen=True)
class Sample:
    """The tables a file names, in the order they are played, and those of them drawn
    now (after the store's), to be kept in the store; `before`: the tables the store drew
    before, a withdrawn entrant's among them (passed over, so not in `tables`)."""

    tables: list[Table]
    drawn: list[Table]
    before: int = 0


def grow(names: Sequence[str], k: int, count: int, seed: int,
         stored: Sequence[Table] = ()) -> Sample:
    """The first tables of the field `names` (k seats each) that hold at least `count` of
    its tables and keep every entrant within one table of every other: `stored` (the tables
    drawn before, in order) walked first, those with an entrant outside the field passed
    over, then tables drawn on.  Stops short only when no table of the field is left."""
    field = sorted(names)
    draw = _Draw(field, k, seed)
    for table in stored:
        draw.forbid(table)
    tables: list[Table] = []
    for table in stored:
        if draw.enough(len(tables), count):
            break
        if draw.admits(table):
            draw.seat(table)
            tables.append(table)
    drawn: list[Table] = []
    position = len(stored)
    draw.catch_up()
    while not draw.enough(len(tables), count):
        new = draw.next(position)
        if new is None:
            break
        draw.seat(new)
        tables.append(new)
        drawn.append(new)
        position += 1
    return Sample(tables, drawn, len(stored))


def sample_tables(n: int, k: int, count: int, rng: random.Random) -> list[tuple[int, ...]]:
    """`count` distinct k-subsets of range(n) as the schedule draws them, seeded from `rng`
    (for benchmarks and simulations, which number their entrants)."""
    names = [f"{i:08d}" for i in range(n)]
    sample = grow(names, k, count, rng.getrandbits(62))
    return [tuple(int(name) for name in table) for table in sample.tables[:count]]


def _mix_int(x: int) -> int:
    """splitmix64's finaliser: a bijection of 64-bit integers that scrambles every bit."""
    x &= _MASK
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    x = (x ^ (x >> 27)) * 0x94D049BB133111EB & _MASK
    return x ^ (x >> 31)


def _hash64(*parts: object) -> int:
    text = json.dumps(list(parts), separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass
class _Behind:
    """Entrants catching up (`_Draw.catch_up`): which, how many of them a table seats at
    most, and each entrant's level for the next table (`_Draw._catching_up`)."""

    mask: npt.NDArray[np.bool_]
    cap: int
    level: Ints


class _Draw:
    """The state of a draw over one field: each entrant's tables and each pair's meetings
    (entrants numbered in name order), and the tables that may not be drawn again."""

    def __init__(self, field: list[str], k: int, seed: int) -> None:
        self.field = field
        self.index = {name: i for i, name in enumerate(field)}
        self.k = k
        n = len(field)
        self.counts: Ints = np.zeros(n, np.int64)
        self.levels: Counter[int] = Counter({0: n})  # how many entrants have played c tables
        self.low = 0  # the fewest tables an entrant has played
        self.level: Ints = np.zeros(n, np.int64)  # tables above the fewest (at most 3), << 60
        self.pairs = np.zeros((n, n), np.int32)
        self.most = 0  # the most meetings of one pair
        self.used: set[tuple[int, ...]] = set()
        self.ids = np.array([_hash64("entrant", seed, name) for name in field], np.uint64)
        self.salt = _hash64("tables", seed)
        self.attempts = max(1, min(16, _ATTEMPTS // max(1, n)))
        self.behind: _Behind | None = None  # `catch_up`

    def admits(self, table: Table) -> bool:
        return len(table) == self.k and all(name in self.index for name in table)

    def forbid(self, table: Table) -> None:
        if self.admits(table):
            self.used.add(tuple(sorted(self.index[name] for name in table)))

    def enough(self, have: int, count: int) -> bool:
        return have >= count and max(self.levels, default=0) - self.low <= 1

    def seat(self, table: Table) -> None:
        seats = sorted(self.index[name] for name in table)
        counts, pairs, levels = self.counts, self.pairs, self.levels
        for e in seats:
            c = int(counts[e])
            counts[e] = c + 1
            levels[c] -= 1
            levels[c + 1] += 1
            if not levels[c]:
                del levels[c]
        for a, b in itertools.combinations(seats, 2):
            met = int(pairs[a, b]) + 1
            pairs[a, b] = pairs[b, a] = met
            self.most = max(self.most, met)
        self.used.add(tuple(seats))
        low = min(levels)
        if low != self.low:  # a round is done: every level drops by one
            self.low = low
            self.level = np.minimum(counts - low, 3) << 60
        else:
            self.level[seats] = np.minimum(counts[seats] - low, 3) << 60

    def next(self, position: int) -> Table | None:
        """The table drawn at `position` of the sequence; None when every table of the field
        has been drawn.  Of the greedy's tries, the table that leaves no dead end (the k
        entrants left with fewest tables having played together before), then at the
        lowest level, then with the fewest meetings."""
        best: tuple[tuple[int, int, int, int], tuple[int, ...]] | None = None
        lows: set[int] = set()
        if self.levels[self.low] <= 2 * self.k:  # a dead end is near: who is left lowest
            lows = set(np.flatnonzero(self.counts == self.low).tolist())
        salt = _mix_int(self.salt + position * _GOLDEN)
        behind = self._catching_up()
        level = self.level if behind is None else behind.level
        tries = self.attempts
        attempt = 0
        while attempt < tries:
            table = self._greedy(level | self._priorities(salt, attempt), behind)
            attempt += 1
            if table in self.used:
                continue
            rest = lows.difference(table)
            dead = int(len(rest) == self.k and tuple(sorted(rest)) in self.used)
            cost = (dead, *self._cost(table, level)) if self.attempts > 1 else (dead, 0, 0, 0)
            if best is None or cost < best[0]:
                best = (cost, table)
            if dead and tries < self.attempts + 8:
                tries += 1  # another try for a way out
        if best is None:  # every greedy choice was drawn before: the best one that is not
            found = self._search(self.level | self._priorities(salt, 0))
            if found is None:
                return None
            return tuple(self.field[i] for i in found)
        return tuple(self.field[i] for i in best[1])

    def _priorities(self, salt: int, attempt: int) -> Ints:
        """Each entrant's tie-break for one try at one table: 30 pseudo-random bits (the
        entrants' hashed ids scrambled by an odd multiplier, the top bits kept)."""
        key = _mix_int(salt + attempt * _GOLDEN)
        scrambled = (self.ids ^ np.uint64(key)) * np.uint64(_mix_int(key) | 1)
        return (scrambled >> np.uint64(34)).astype(np.int64)

    def catch_up(self) -> None:
        """Mark the entrants two or more tables behind the most, as drawing starts (late
        entrants, and those who sat with a withdrawn one), to be seated no more than a cap
        to a table until every one is within one table of the most.  Fewest tables first
        alone would seat them only with each other until they caught up: a group that
        meets the field nowhere, its places unbounded against it.  The cap, one more than
        their share of a table's seats rounded up, leaves the field a seat at every table and
        still brings them level, in at most k times the tables they would take alone; where
        they are so many that it leaves the field no seat, they sit as they come."""
        top = max(self.levels)
        behind = self.counts <= top - 2
        count = int(behind.sum())
        cap = -(-self.k * count // len(self.field)) + 1
        if count and cap < min(self.k, count):
            self.behind = _Behind(behind, cap, self.level)

    def _catching_up(self) -> _Behind | None:
        """The entrants marked by `catch_up`, while one of them is two or more tables behind
        the most, with each entrant's level for the next table: theirs (fewest tables
        first) below the field's, each side's counted from its own fewest, so that the
        field's seats beside them go to the field's fewest (the field is more than 3 tables
        above the fewest of all while they catch up: `level` would tell it none apart)."""
        behind = self.behind
        if behind is None:
            return None
        counts, mask = self.counts, behind.mask
        if int(counts[mask].min()) > max(self.levels) - 2:
            self.behind = None
            return None
        field = counts[~mask]
        behind.level = np.where(mask, np.minimum(counts - self.low, 1),
                                2 + np.minimum(counts - int(field.min()), 1)) << 60
        return behind

    def _greedy(self, base: Ints, behind: _Behind | None = None) -> tuple[int, ...]:
        """Seat by seat, the entrant with fewest tables (in `base`), then the fewest
        meetings with one member, then with them all, then the tie-break (the meetings
        capped to their bits, which only a field met thousands of times reaches); no more
        of the entrants `behind` than its cap (`catch_up`)."""
        capped = self.most * self.k >= 1 << 13
        first = int(base.argmin())
        picked = [first]
        most = self.pairs[first].astype(np.int64)
        met = most.copy()
        while len(picked) < self.k:
            if capped:
                scores = base | (np.minimum(most, (1 << 13) - 1) << 47) | (
                    np.minimum(met, (1 << 17) - 1) << 30)
            else:
                scores = base | (most << 47) | (met << 30)
            scores[picked] = _TOP
            if behind is not None and int(behind.mask[picked].sum()) >= behind.cap:
                scores[behind.mask] = _TOP
            e = int(scores.argmin())
            picked.append(e)
            row = self.pairs[e]
            np.maximum(most, row, out=most)
            met += row
        return tuple(sorted(picked))

    def _search(self, base: Ints) -> tuple[int, ...] | None:
        """The best table not drawn before among the m entrants the greedy prefers first
        (fewest tables, then the tie-break), m growing from k: for a field so small that
        the greedy keeps finding tables drawn before.  None when every table is drawn."""
        ranked = np.argsort(base, kind="stable").tolist()
        for m in range(self.k, len(ranked) + 1):
            new = ranked[m - 1]
            fresh = [tuple(sorted([*rest, new]))
                     for rest in itertools.combinations(ranked[:m - 1], self.k - 1)]
            fresh = [t for t in fresh if t not in self.used]
            if fresh:
                return min(fresh, key=lambda t: (*self._cost(t, self.level), t))
        return None

    def _cost(self, table: tuple[int, ...], level: Ints) -> tuple[int, int, int]:
        """A table's fewest-tables level (in `level`), then its most and total meetings so
        far."""
        pairs = self.pairs
        meetings = [pairs.item(a, b) for a, b in itertools.combinations(table, 2)]
        return (sum(int(level.item(e)) >> 60 for e in table), max(meetings), sum(meetings))
