"""When to stop a tournament that plays until its question is settled.

Looking at the standings after every deal and stopping at the first separation would call
identical entrants different far more often than the 5% a single look allows.  The looks are
therefore few and fixed in advance: after FIRST_LOOK deals, then at every doubling of the
deals, and at `max_deals`; the familywise error is split equally between them (Bonferroni over
the looks), so the chance that any look separates entrants that are equally strong is at most
ALPHA whatever the data.  Doubling keeps the number of looks, and so the price of the split,
logarithmic in `max_deals`.  `benchmarks/verdict.py` measures the false stops and the deals used.
"""

from __future__ import annotations

from typing import Literal

from .pairs import ALPHA
from .stats import Games, order, verdicts

Until = Literal["separated", "ranked"]
FIRST_LOOK = 8  # deals: fewer cannot separate anything at the split error (exact test)


def looks(max_deals: int, first: int = FIRST_LOOK) -> list[int]:
    """The deal counts at which the standings are looked at, the last being `max_deals`."""
    out = []
    n = min(first, max_deals)
    while n < max_deals:
        out.append(n)
        n *= 2
    return [*out, max_deals]


def look_alpha(max_deals: int, alpha: float = ALPHA) -> float:
    """The familywise error each look is tested at."""
    return alpha / len(looks(max_deals))


def settled(games: Games, until: Until, primary: str, alpha: float) -> bool:
    """At familywise error `alpha`: is the leader separated from every other entrant
    ("separated"), or is every entrant's place known ("ranked")?"""
    names = order(games, primary)
    if len(names) < 2:
        return False
    _, places = verdicts(games, names, primary, alpha)
    if until == "separated":
        return places[names[0]] == (1, 1)
    return all(best == worst for best, worst in places.values())
