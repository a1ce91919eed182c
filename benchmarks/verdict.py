"""Verdicts under simulation: false separations and place ranges that miss, the power to find a
real gap, and `until`'s early stops, by the block model against today's paired tests.

Run: python benchmarks/verdict.py [--part false|false40|false200|split|power|until] [--sims 200]
         [--quick] [--large]

The games come from a pool of played blocks (`block_pool.py`: the sample bots in-process, one
deck at one table in its balanced seat orders, common random numbers as the referee seeds
them), built once and cached (`--pool`).  A simulated tournament takes for each of its tables a
block of the table's mix (B the baseline bot, R the random bot, D the "bidder": the random bot,
except that half its bids and purchases stay within what the lot would sell for now), each
table on its own deck, and enters each block as one game holding its means; tables are sampled
by `referee.tournament.sampling.sample_tables` as the schedule samples them (one of 8
schedules per size, in turn).  Each tournament is judged by `referee.leaderboard.pairs.compare`
as the leaderboard does ("new": the block model wherever the design is not complete) and with
`method="paired"` ("today's": the paired tests over shared deals in every design, as before the
block model); in a complete design (one table, a gauntlet) the two are the same method.

1. False verdicts (`--part false`; `false40`: 40 entrants; `false200`: 200, where the
   leaderboard uses the lower bound on the degrees of freedom of `satterthwaite.py`): the
   share of tournaments in which
   some pair of equally strong entrants is separated, or some pair the wrong way round, and in
   which some entrant's place range misses its true places (all of its group's: identical
   entrants may take any order among themselves), each k/n with its binomial standard error.
   `split`: the same for tables that never meet (a sampled final of one table an entrant)
   and a gauntlet stopped in mid-deal, judged pair by pair on their own deals.
2. Power (`--part power`): the share of tournaments in which the bidder is placed 1-1 (found
   stronger than every other entrant), or every baseline bot is separated from every random bot.
3. `until = "separated"` (`--part until`): one table of four, deals as blocks; the looks and
   error spending of `referee.leaderboard.sequential`, against playing the most deals and
   testing once at the full 5% with the same leader test.
`--large` judges every field as one of more than `satterthwaite.EXACT_ENTRANTS` entrants (the
lower bound in place of the exact degrees of freedom), to measure what the bound costs.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import block_pool

from referee.leaderboard import satterthwaite, sequential
from referee.leaderboard.pairs import ALPHA, Method, compare, places
from referee.leaderboard.stats import Games, order
from referee.tournament.sampling import sample_tables

SCHEDULES = 8  # sampled schedules per field and size, used in turn
STRENGTH = {"D": 0, "B": 1, "R": 2}  # the true order of the kinds (D and B never meet)
Field = tuple[np.ndarray, np.ndarray, np.ndarray]  # deal, values, present


@dataclass(frozen=True)
class Design:
    """A kind of tournament: its entrants' kinds and, for each size, how its games are drawn."""

    label: str
    kinds: str
    sizes: tuple[int, ...]
    unit: str  # what a size counts: deals, rounds, tables
    games: Callable[[int], int]  # games per entrant at a size
    draw: Callable[[block_pool.Draws, int, int], Field]  # (draws, size, sim) -> the games
    placed: int | None = None  # the entrants placed, the first of `kinds`: a gauntlet's
    # candidates, whose pairs alone its board judges (its baselines hold no place)


def mix_label(kinds: str) -> str:
    """How many of each kind: "6B 6R"."""
    return " ".join(f"{kinds.count(k)}{k}" for k in "DBR" if k in kinds)


@cache
def schedule(entrants: int, tables: int, which: int) -> list[tuple[int, ...]]:
    return sample_tables(entrants, 4, tables, random.Random(f"verdict:{which}"))


def one_table(kinds: str) -> Design:
    return Design(f"4 at one table ({mix_label(kinds)})", kinds, (2, 4, 8, 20, 40), "deals",
                  lambda n: 12 * n,
                  lambda d, n, s: d.field(kinds, [tuple(range(4))] * n))


def every_table(kinds: str) -> Design:
    full = list(combinations(range(len(kinds)), 4))
    return Design(f"{len(kinds)} at all {len(full)} tables ({mix_label(kinds)})", kinds,
                  (1, 2, 4), "rounds",
                  lambda n: 12 * n * math.comb(len(kinds) - 1, 3),
                  lambda d, n, s: d.field(kinds, full * n))


def sampled(kinds: str, sizes: tuple[int, ...]) -> Design:
    e = len(kinds)
    return Design(f"{e} sampled ({mix_label(kinds)})", kinds, sizes, "tables",
                  lambda n: 48 * n // e,
                  lambda d, n, s: d.field(kinds, schedule(e, n, s % SCHEDULES)))


def gauntlet(candidates: int, sizes: tuple[int, ...]) -> Design:
    return Design(f"gauntlet {candidates} vs B+R, tables of 3", "R" * candidates + "BR", sizes,
                  "deals", lambda n: 6 * n, lambda d, n, s: d.gauntlet(n, candidates),
                  candidates)


def never_meet(kinds: str, sizes: tuple[int, ...]) -> Design:
    """Tables of four that never meet, each played `size` deals on decks of its own: a
    sampled final that seats each entrant at one table."""
    tables = [tuple(range(t, t + 4)) for t in range(0, len(kinds), 4)]
    return fixed_tables(f"{len(tables)} tables never meeting", kinds, tables, sizes)


def fixed_tables(label: str, kinds: str, tables: list[tuple[int, ...]],
                 sizes: tuple[int, ...]) -> Design:
    """These tables, each played `size` deals on decks of its own."""
    return Design(f"{label} ({mix_label(kinds)})", kinds, sizes, "deals",
                  lambda n: 12 * n * max(sum(e in t for t in tables) for e in range(len(kinds))),
                  lambda d, n, s: d.field(kinds, [t for t in tables for _ in range(n)]))


def stopped_gauntlet(candidates: int, sizes: tuple[int, ...]) -> Design:
    """A gauntlet stopped in its last deal after half its candidates' tables (a time
    budget's stop): the other half a deal short."""
    def draw(d: block_pool.Draws, n: int, s: int) -> Field:
        deal, values, present = d.gauntlet(n, candidates)
        keep = (deal < n - 1) | (np.arange(len(deal)) % candidates < candidates // 2)
        return deal[keep], values[keep], present[keep]
    return Design(f"gauntlet {candidates}, stopped mid-deal", "R" * candidates + "BR", sizes,
                  "deals", lambda n: 6 * n, draw, candidates)


def split_designs(quick: bool) -> list[Design]:
    """Part 1 for the designs judged on each pair's own deals outside a complete design
    (tables that never meet, and a gauntlet stopped in mid-deal), and for fields of few
    tables where some pairs rest on one table's deals (`allpairs.MIN_DF`)."""
    out = [never_meet("R" * 8, (2, 4, 12)), never_meet("BBRR" * 2, (2, 12)),
           fixed_tables("3 tables, one linking", "R" * 8,
                        [(0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5)], (2, 4)),
           fixed_tables("3 tables, one apart", "R" * 10,
                        [(0, 1, 2, 3), (4, 5, 6, 7), (6, 7, 8, 9)], (2, 4)),
           stopped_gauntlet(6, (4, 8, 12))]
    return [shrink(d) for d in out] if quick else out


def false_designs(quick: bool) -> list[Design]:
    """Part 1: identical random bots (every pair equal), then fields of known strengths.  The
    sampled sizes give each pair about 1, 2 and 4 shared tables (tables * 6 / pairs)."""
    out = [one_table("RRRR"), every_table("R" * 6), sampled("R" * 12, (11, 22, 44)),
           gauntlet(10, (5, 10, 20, 40)), sampled("B" * 6 + "R" * 6, (12, 24, 48, 96))]
    return [shrink(d) for d in out] if quick else out


def false200_designs(quick: bool) -> list[Design]:
    """Part 1 for 200 entrants at 600 tables, 12 an entrant (the bound's field)."""
    out = [sampled("R" * 200, (600,)), sampled("B" * 80 + "R" * 120, (600,))]
    return [shrink(d) for d in out] if quick else out


def false40_designs(quick: bool) -> list[Design]:
    """Part 1 for 40 entrants (seconds a tournament: a run of its own)."""
    out = [sampled("R" * 40, (130, 260, 520)), sampled("B" * 16 + "R" * 24, (130, 260, 520))]
    return [shrink(d) for d in out] if quick else out


def power_designs(quick: bool) -> list[Design]:
    out = [one_table("DRRR"), sampled("D" + "R" * 11, (24, 48, 96, 192)),
           sampled("B" * 16 + "R" * 24, (20, 40, 80, 130)),
           sampled("B" * 6 + "R" * 6, (12,))]
    return [shrink(d) for d in out] if quick else out


def runs_of(d: Design, size: int, sims: int) -> int:
    """Tournaments of a design at a size: for 40 entrants, whose block model takes seconds,
    `sims` / (2 + the size's index): a half at its first size, a third at its second ..."""
    return max(2, sims // (2 + d.sizes.index(size))) if len(d.kinds) >= 40 else sims


def shrink(d: Design) -> Design:
    return Design(d.label, d.kinds, d.sizes[:1], d.unit, d.games, d.draw, d.placed)


@dataclass(frozen=True)
class Verdict:
    """One tournament judged by one method."""

    false: bool  # some pair of equals separated, or some pair the wrong way round
    miss: bool  # some entrant's place range excludes one of its true places
    top: bool  # the strongest kind's single entrant (the bidder) is placed 1-1
    apart: bool  # every baseline bot separated from (above) every random bot
    calm: bool  # no two random bots separated


Found = dict[tuple[int, int], list[tuple[Verdict, Verdict]]]  # (design, size): its runs


def judge(kinds: str, field: Field, method: Method, placed: int | None = None) -> Verdict:
    """The verdicts of one simulated tournament, of its first `placed` entrants (all if
    None): a gauntlet's board places its candidates by their pairs alone."""
    deal, values, present = field
    if placed is not None:
        kinds, values, present = kinds[:placed], values[:, :placed], present[:, :placed]
    names = [f"{k}{i}" for i, k in enumerate(kinds)]
    pairs = compare(names, deal, values, present, ALPHA, method)
    ranges = places(names, pairs)
    strength = [STRENGTH[k] for k in kinds]
    false = apart_pairs = random_pairs = 0
    for p in pairs:
        if not p.separated:
            continue
        a, b = names.index(p.a), names.index(p.b)
        better, worse = (a, b) if p.test.diff > 0 else (b, a)
        false += strength[better] >= strength[worse]
        apart_pairs += kinds[better] == "B" and kinds[worse] == "R"
        random_pairs += kinds[better] == kinds[worse] == "R"
    miss = False
    for i, n in enumerate(names):
        above = sum(s < strength[i] for s in strength)
        low, high = above + 1, above + strength.count(strength[i])
        best, worst = ranges[n]
        miss |= not (best <= low and worst >= high)
    top = "D" in kinds and ranges[names[kinds.index("D")]] == (1, 1)
    return Verdict(bool(false), miss, top, apart_pairs == kinds.count("B") * kinds.count("R"),
                   random_pairs == 0)


# What the leaderboard is compared with, by part: the paired tests over shared deals in every
# design (before the block model), or for `split` the block model (before its pairs were
# judged on their own deals).
OTHER: dict[str, Method] = {"split": "model"}
DESIGNS = {"false": false_designs, "false40": false40_designs, "false200": false200_designs,
           "split": split_designs, "power": power_designs}
_POOL: dict[str, np.ndarray] = {}


def _init(path: str, large: bool) -> None:
    _POOL.update(np.load(path))
    if large:  # the bound on the degrees of freedom in every field
        satterthwaite.EXACT_ENTRANTS = 0


def simulate(job: tuple[str, int, int, int, int]) -> tuple[Verdict, Verdict]:
    """One tournament of design `index` of `part` at `size`: (new, the other method's:
    `OTHER`)."""
    part, index, size, sim, seed = job
    design = DESIGNS[part](False)[index]
    draws = block_pool.Draws(_POOL, np.random.default_rng([seed, index, size, sim]))
    field = design.draw(draws, size, sim)
    new = judge(design.kinds, field, "auto", design.placed)
    return new, judge(design.kinds, field, OTHER.get(part, "paired"), design.placed)


def until_run(job: tuple[str, int, int, int]) -> tuple[int | None, bool, bool, bool]:
    """One table of four, at most `max_deals`: (deals at which `until` stopped or None, its
    leader right, the single test at max_deals settled, its leader right)."""
    mix, max_deals, sim, seed = job
    draws = block_pool.Draws(_POOL, np.random.default_rng([seed, len(mix), max_deals, sim]))
    _, values, present = draws.field(mix, [(0, 1, 2, 3)] * max_deals)
    names = [f"{k}{i}" for i, k in enumerate(mix)]
    strongest = names[0] if mix[0] == "D" else None

    def games(n: int) -> Games:
        return Games(names, [f"g{g}" for g in range(n)], [[0, 1, 2, 3]] * n,
                     [[1, 2, 3, 4]] * n, np.arange(n), present[:n], values[:n],
                     np.zeros((n, 4)), np.zeros((n, 4)), [{} for _ in names], [0] * 4,
                     [{} for _ in names])

    stop, right = None, False
    errors = sequential.spending(max_deals, "separated", 4, True)
    for n, alpha in zip(sequential.looks(max_deals), errors, strict=True):
        played = games(n)
        if sequential.settled(played, "separated", "placement", alpha):
            stop, right = n, order(played)[0] == strongest
            break
    every = games(max_deals)
    once = sequential.settled(every, "separated", "placement", ALPHA)
    return stop, right, once, once and order(every)[0] == strongest


def rate(k: int, n: int) -> str:
    """k of n as a percentage with its binomial standard error."""
    p = k / n
    return f"{k:3d}/{n} = {100 * p:5.1f}% ± {100 * math.sqrt(p * (1 - p) / n):3.1f}%"


def print_false(designs: list[Design], found: Found, head: bool = True,
                other: str = "today") -> None:
    if head:
        print("1. False verdicts: some pair of equals separated (or the wrong way round), and "
              "some place range missing its true places")
    print(f"{'design':32s} {'size':>11s} {'games/e':>7s}  {'false: new':>22s}  "
          f"{'false: ' + other:>22s}  {'miss: new':>22s}  {'miss: ' + other:>22s}")
    for i, d in enumerate(designs):
        for size in d.sizes:
            runs = found[i, size]
            n = len(runs)
            cells = [rate(sum(getattr(v[m], what) for v in runs), n)
                     for what in ("false", "miss") for m in (0, 1)]
            print(f"{d.label:32s} {size:4d} {d.unit:6s} {d.games(size):7d}  "
                  + "  ".join(f"{c:>22s}" for c in cells))


def print_power(designs: list[Design], found: Found, edge: str) -> None:
    print(f"2. Power: the bidder ({edge}) placed 1-1; every baseline bot separated from every "
          "random bot (and no two random bots separated)")
    print(f"{'design':32s} {'size':>11s} {'games/e':>7s}  {'question':16s} {'new':>22s}  "
          f"{'today':>22s}")
    for i, d in enumerate(designs):
        for size in d.sizes:
            runs = found[i, size]
            n = len(runs)
            questions: list[tuple[str, Callable[[Verdict], bool]]] = [
                ("bidder 1-1", lambda v: v.top)] if "D" in d.kinds else [
                ("B > R all", lambda v: v.apart),
                ("B > R, R calm", lambda v: v.apart and v.calm)]
            for q, test in questions:
                new, old = (rate(sum(test(v[m]) for v in runs), n) for m in (0, 1))
                print(f"{d.label:32s} {size:4d} {d.unit:6s} {d.games(size):7d}  {q:16s} "
                      f"{new:>22s}  {old:>22s}")


def bidder_edge(pool: dict[str, np.ndarray]) -> str:
    """The bidder's mean placement points less the random bots', per block, with its error."""
    blocks = pool["DRRR"][:, 0]
    d = blocks[:, 0] - blocks[:, 1:].mean(axis=1)
    return f"edge {d.mean():+.3f} ± {d.std(ddof=1) / math.sqrt(len(d)):.3f} placement points"


def print_until(runs: dict[tuple[str, int], list[tuple[int | None, bool, bool, bool]]]) -> None:
    print("3. until = \"separated\", one table of four (deals of 12 games), against the most "
          "deals tested once at 5%")
    print(f"{'players':8s} {'most':>4s}  {'looks (error)':32s} {'rule':8s} "
          f"{'stopped (false for RRRR)':>24s}  {'leader right':>22s}  {'mean deals':>10s}")
    for (mix, most), found in runs.items():
        n = len(found)
        errors = sequential.spending(most, "separated", 4, True)
        at = ", ".join(f"{k} ({e:.2%})" for k, e in zip(sequential.looks(most), errors,
                                                          strict=True))
        used = sum(s if s is not None else most for s, *_ in found) / n
        print(f"{mix:8s} {most:4d}  {at:32s} {'until':8s} "
              f"{rate(sum(s is not None for s, *_ in found), n):>24s}  "
              f"{rate(sum(r for _, r, _, _ in found), n):>22s}  {used:10.1f}")
        print(f"{mix:8s} {most:4d}  {'all deals, once (5.00%)':32s} {'once':8s} "
              f"{rate(sum(o for *_, o, _ in found), n):>24s}  "
              f"{rate(sum(r for *_, r in found), n):>22s}  {most:10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=(*DESIGNS, "until"), action="append",
                        help="what to measure (repeatable; default all but false200; "
                             "false40, false200: part 1 for 40 and 200 entrants)")
    parser.add_argument("--sims", type=int, default=None,
                        help="tournaments per design and size (default 200; fewer for 40 "
                             "entrants: `runs_of`; 2 with --quick)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pool", type=Path, default=None,
                        help="the block pool's cache (default: in the temporary directory)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: a small pool, each design's first size, 2 runs")
    parser.add_argument("--large", action="store_true",
                        help="the large-field lower bound on the degrees of freedom everywhere")
    args = parser.parse_args()
    sims = args.sims or (2 if args.quick else 200)
    parts = args.part or [*(p for p in DESIGNS if p != "false200"), "until"]
    blocks, decks, candidates = (6, 6, 10) if args.quick else (300, 120, 20)
    path = args.pool or Path(tempfile.gettempdir()) / (
        f"referee-block-pool-{blocks}-{decks}x{candidates}.npz")
    started = time.perf_counter()
    pool = block_pool.load(path, blocks, decks, candidates, args.workers)
    print(f"pool: {', '.join(f'{m} {len(v)}' for m, v in pool.items() if m in block_pool.MIXES)}"
          f" blocks of 12 games; gauntlet {pool[block_pool.GAUNTLET].shape[0]} decks x "
          f"{pool[block_pool.GAUNTLET].shape[1]} candidates of 6 games; {sims} tournaments a "
          f"line (seed {args.seed})" + (
              "; --large: the lower bound on the degrees of freedom in every field"
              if args.large else ""))
    with multiprocessing.Pool(args.workers, _init, (str(path), args.large)) as workers:
        for part in DESIGNS:
            if part not in parts:
                continue
            designs = DESIGNS[part](args.quick)
            jobs = [(part, i, size, s, args.seed) for i, d in enumerate(designs)
                    for size in d.sizes for s in range(runs_of(d, size, sims))]
            results = workers.map(simulate, jobs, chunksize=4)
            found: Found = {}
            for (_, i, size, _, _), r in zip(jobs, results, strict=True):
                found.setdefault((i, size), []).append(r)
            print()
            if part != "power":
                print_false(designs, found, part == "false" or "false" not in parts,
                            "model" if OTHER.get(part) == "model" else "today")
            else:
                print_power(designs, found, bidder_edge(pool))
        if "until" in parts:
            cases = [(mix, most) for most in ((8,) if args.quick else (16, 32))
                     for mix in ("RRRR", "DRRR")]
            jobs2 = [(mix, most, s, args.seed) for mix, most in cases for s in range(sims)]
            out = workers.map(until_run, jobs2, chunksize=4)
            runs: dict[tuple[str, int], list[tuple[int | None, bool, bool, bool]]] = {}
            for (mix, most, _, _), run in zip(jobs2, out, strict=True):
                runs.setdefault((mix, most), []).append(run)
            print()
            print_until(runs)
    print(f"\n{time.perf_counter() - started:.0f} s ({args.workers} workers)", file=sys.stderr)


if __name__ == "__main__":
    main()
