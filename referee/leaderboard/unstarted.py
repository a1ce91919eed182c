"""Entrants that started in none of their games are placed below every entrant that did, by
rule (docs/rules.md D9), not by the tests.

Such a bot played no move: each of its seats was retired at the game's start and ranks below
every seat that was not (D8), so every entrant that met it finished above it every time. The
tests still need games in common to say so, and with Holm's correction over the pairs of a
large field a bot that crashed at start in 20 games held places "23-70" of 70 beside bots
that played. No evidence is needed to place a bot that never played below those that did;
among themselves, and above them, the tests' places stand.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import numpy as np

from referee.protocol.messages import FaultKind


def never_started(names: Sequence[str], present: np.ndarray,
                  faults: Sequence[Mapping[FaultKind, int]]) -> set[str]:
    """The entrants (`names`, their games by `present`, G x E, and their `faults` by kind)
    whose every game began with a failed start: a `start` fault retires the seat, so it is
    one a game.  None when no entrant started: there is no one to place them below."""
    played = present.sum(axis=0)
    never = {name for e, name in enumerate(names)
             if played[e] and faults[e].get(FaultKind.START, 0) >= played[e]}
    return never if len(never) < len(names) else set()


def below_the_rest(places: Mapping[str, tuple[int, int]], never: Collection[str]
                   ) -> dict[str, tuple[int, int]]:
    """The places with the `never` started entrants in the last len(never) places and the
    others above them."""
    n = len(places)
    last = n - sum(1 for name in places if name in never)  # the last place of those that did
    out = {}
    for name, (best, worst) in places.items():
        if name in never:
            out[name] = (max(best, last + 1), worst)
        else:
            worst = min(worst, last)
            out[name] = (min(best, worst), worst)
    return out


def below_the_rest_arrays(names: list[str], best: np.ndarray, worst: np.ndarray,
                          never: Collection[str]) -> tuple[np.ndarray, np.ndarray]:
    """`below_the_rest` over the arrays of places the adaptive schedule reads."""
    if not never:
        return best, worst
    placed = below_the_rest({n: (int(b), int(w)) for n, b, w in zip(names, best, worst,
                                                                    strict=True)}, never)
    return (np.array([placed[n][0] for n in names], dtype=np.int64),
            np.array([placed[n][1] for n in names], dtype=np.int64))
