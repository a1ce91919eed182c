"""When to stop a tournament that plays until its question is settled.

Looking at the standings after every deal and stopping at the first separation would call
identical entrants different far more often than the 5% a single look allows.  The looks are
therefore fixed in advance: after FIRST_LOOK deals, then at every doubling, and at `max_deals`.
The familywise error ALPHA is spent over them by the spending function alpha(t) = ALPHA t**2 at
the share t of the most deals (Kim and DeMets' power family, between Pocock's, which spends
early, and O'Brien and Fleming's, which keeps almost everything for the end): a look gets the
growth of alpha(t) since the one before.  Measured on one table of four with a gap of 0.16
placement points (`benchmarks/verdict.py`, figures in benchmarks/README.md), it loses much
less power than Pocock's against one test at the end when the most deals are few, and saves
nearly as many games when they are many.  The looks' errors add up to at most ALPHA whatever
the dependence between them (a union bound), so the chance that any look stops a run of
equally strong entrants is at most ALPHA.  A look that cannot reject anything at its share
(the exact test's smallest p-value is 1 / 2**deals one-sided) gets none: its share is passed
on to the next look.

What a look tests:
- "separated": the leader L must be found stronger than every other entrant, each by a
  one-sided test at the look's error / entrants.  Fix in advance a strongest entrant S, and,
  if another is as strong, one such T.  A false stop names a leader not stronger than every
  other: either L is not S, and it beat S in a one-sided test of a true null, or L is S and it
  beat T, equally strong.  That is one of `entrants` fixed one-sided tests of true nulls
  (S against T, and each other entrant against S): at most their number times the level.
- "ranked": every place settled by the Holm-corrected pairs at the look's error.
- "top" (a cut of N): every entrant's range of places, by the same Holm-corrected pairs,
  within the first N or wholly below them.  A false stop puts an entrant on the wrong side of
  the cut, which needs a false verdict among the pairs: the same error as "ranked", and it
  stops sooner, as the places on either side of the cut may stay ranges.
`benchmarks/verdict.py` measures the false stops, the deals used and the leader found.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal

from .pairs import ALPHA, EXACT_DEALS, exact_floor
from .stats import Games, order, verdicts
from .unstarted import never_started

Until = Literal["separated", "ranked", "top"]
FIRST_LOOK = 8  # deals: fewer cannot separate anything among four entrants (exact test)
SPENDING_POWER = 2  # alpha(t) = ALPHA t**SPENDING_POWER


def looks(max_deals: int, first: int = FIRST_LOOK) -> list[int]:
    """The deal counts at which the standings are looked at, the last being `max_deals`."""
    out = []
    n = min(first, max_deals)
    while n < max_deals:
        out.append(n)
        n *= 2
    return [*out, max_deals]


def spent(share: float, alpha: float = ALPHA) -> float:
    """The error spent by the share `share` of the most deals (Kim-DeMets, power 2)."""
    return alpha * min(1.0, max(0.0, share)) ** SPENDING_POWER


def tests_per_look(until: Until, entrants: int) -> int:
    """How many one-sided tests share a look's error: the leader against each other entrant,
    or (Holm, two-sided) every pair ("ranked", "top")."""
    if until == "separated":
        return max(1, entrants)
    return max(1, entrants * (entrants - 1))  # two-sided over every pair: twice the pairs


@dataclass(frozen=True)
class Reach:
    """What one look of a complete design (one table, a gauntlet) can do on the exact test:
    its `deals`, the `error` it is offered (its share of the spending, with any share passed
    on to it) and the one-sided `tests` that share that error."""

    deals: int
    error: float
    tests: int

    @property
    def smallest(self) -> float:
        """The exact test's smallest one-sided p-value over these deals: 1 / 2**deals."""
        return exact_floor(self.deals)

    @property
    def level(self) -> float:
        """The level each one-sided test gets of the look's error."""
        return self.error / self.tests

    @property
    def possible(self) -> bool:
        """Whether the look could reject anything: past EXACT_DEALS the t test can."""
        return self.deals > EXACT_DEALS or self.smallest <= self.level


def reaches(max_deals: int, until: Until, entrants: int, alpha: float = ALPHA) -> list[Reach]:
    """The looks of `looks(max_deals)` as the exact test sees them, each offered the growth
    of the spending since the look before and the share of any look before it that could
    reject nothing (so, every look before the last that could reject nothing passes its
    share on)."""
    out: list[Reach] = []
    carried = 0.0
    before = 0
    tests = tests_per_look(until, entrants)
    for n in looks(max_deals):
        share = spent(n / max_deals, alpha) - spent(before / max_deals, alpha) + carried
        before = n
        out.append(Reach(n, share, tests))
        carried = 0.0 if out[-1].possible else share
    return out


def spending(max_deals: int, until: Until, entrants: int, exact: bool,
             alpha: float = ALPHA) -> list[float]:
    """The error of each look of `looks(max_deals)`.  `exact`: the field is one table (or a
    gauntlet) of at most EXACT_DEALS deals at that look, where the exact test's smallest
    one-sided p-value is 1 / 2**deals; a look at which that is above the look's error per test
    gets 0 and passes its share on (`reaches`); the last keeps its share whatever."""
    if not exact:
        return [spent(n / max_deals, alpha) - spent(b / max_deals, alpha)
                for b, n in itertools.pairwise([0, *looks(max_deals)])]
    found = reaches(max_deals, until, entrants, alpha)
    return [r.error if r.possible or i == len(found) - 1 else 0.0
            for i, r in enumerate(found)]


def first_possible(max_deals: int, until: Until, entrants: int, exact: bool,
                   alpha: float = ALPHA) -> int | None:
    """The deals of the first look that could settle anything (None: none could): in a
    complete design on the exact test, the first at which a test can reach its level; any
    look with an error otherwise."""
    if not exact:
        return looks(max_deals)[0]
    return next((r.deals for r in reaches(max_deals, until, entrants, alpha) if r.possible),
                None)


def deals_to_settle(until: Until, entrants: int, early: bool, exact: bool = True,
                    alpha: float = ALPHA) -> int:
    """The fewest most deals from which on, whatever more are given, a run could settle
    anything at a look (`early`: at a look before the last, and so stop early); `exact` as
    for `spending`.  Not merely the first such count: a larger one spreads the error thinner
    over the early looks, so a look the exact test reached with fewer most deals can be out
    of its reach with more (40 entrants, "ranked": 17 most deals can stop early, 24 to 32
    cannot).  Past the first look beyond EXACT_DEALS every count can (Student's t judges
    that look), so the search goes down from there."""
    def can(most: int) -> bool:
        first = first_possible(most, until, entrants, exact, alpha)
        return first is not None and (not early or first < most)

    most = next(n for n in looks(10 ** 6) if n > EXACT_DEALS) + 1
    while most > 1 and can(most - 1):
        most -= 1
    return most


def settled(games: Games, until: Until, primary: str, alpha: float,
            top: int | None = None) -> bool:
    """At the look's error `alpha`: is the leader stronger than every other entrant
    ("separated"), is every entrant's place known ("ranked"), or which are the `top` best
    ("top")?"""
    if alpha <= 0:
        return False
    names = order(games, primary)
    if len(names) < 2:
        return False
    if until == "separated":
        return not leader_open(games, names, primary, alpha)
    _, places = verdicts(games, names, primary, alpha)
    if until == "top":
        assert top is not None
        return not across_cut(places, top)
    return all(best == worst for best, worst in places.values())


def across_cut(places: dict[str, tuple[int, int]], top: int) -> list[str]:
    """The entrants whose range of places spans the cut after place `top`: each could be in
    the first `top`, or below them."""
    return [n for n, (best, worst) in places.items() if best <= top < worst]


def leader_open(games: Games, names: list[str], primary: str, alpha: float) -> list[str]:
    """The entrants the leader `names[0]` is not found stronger than, each by a one-sided test
    at alpha / entrants."""
    pairs, _ = verdicts(games, names, primary, alpha)
    level = alpha / len(names)
    beaten = {p.b for p in pairs if p.a == names[0] and p.test.p_above <= level + 1e-12}
    never = never_started(games.names, games.present, games.faults)
    if names[0] not in never:  # those that never started are below it by rule (D9)
        beaten |= never
    return [n for n in names[1:] if n not in beaten]
