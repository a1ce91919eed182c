"""Verdicts under simulation: how often equal players are called different, how soon a small
real gap is found, by the leaderboard's paired tests and by the rule they replaced.

Run: python benchmarks/verdict.py [--tournaments 200] [--deals 16] [--seed 1] [--quick]

Tournaments of four in-process players (`referee.match`), each deal played in all 24 seat
orders with one deck (duplicate format), up to `--deals` deals.  Four identical random players
measure the false verdicts: any pair separated at 24, 48, 96 and 240 games (each tournament's
first 1, 2, 4 and 10 deals: every prefix of a tournament is itself a tournament of that size,
so each size's rate is a fair estimate, over the same tournaments), and the false stops of
`--until-separated` with `max_deals` = `--deals`.  A "bidder" (random, except that half its
bids are capped at what the lot would sell for if the round ended now) with three random
players measures how soon a small real gap is found: the standings are looked at after every
deal up to `--deals` (a measure of speed, not a stopping rule), and `--until-separated` stops
at its own looks.  The old rule (before issue 25) is rebuilt here: a bootstrap over whole
games of each entrant's mean, separated from the leader when the 95% intervals do not overlap.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import resource
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import trio
from scipy import stats as scipy_stats

from referee.game import BUILTIN_EDITIONS
from referee.game.actions import Action, Bid, Buy, Decision, DecisionKind, Pass
from referee.game.random_policy import random_action
from referee.leaderboard.sequential import look_alpha, looks, settled
from referee.leaderboard.stats import Games, order, standings
from referee.match.game import play_game
from referee.match.policy_player import PolicyPlayer, random_player
from referee.match.record import GameResult
from referee.match.spec import GameSpec

SIZES = (1, 2, 4, 10)  # deals: 24, 48, 96 and 240 games
ORDERS = 24  # seat orders of four players: every deal is played in each
SHARE = 0.5  # the share of its decisions the bidder takes by the lot's value
TILES = (30, 20, 10)  # what a painting of the first three artists of a round sells for
EDITION = BUILTIN_EDITIONS["cmon"]  # GameSpec.make's default
BIDDER = "bidder"
Result = GameResult


def lot_value(view: dict[str, Any], cards: list[int]) -> int:
    """What the lot would sell for if the round ended now: the tile of its artist's place
    among the cards played this round, plus that artist's tiles of earlier rounds."""
    counts = view["played"]
    ranking = sorted((a for a in range(len(counts)) if counts[a]), key=lambda a: -counts[a])[:3]
    earlier = view["tiles"][: view["round"] - 1]
    value = 0
    for card in cards:
        artist = EDITION.card_artist[card]
        if artist in ranking:
            value += TILES[ranking.index(artist)] + sum(row[artist] for row in earlier)
    return value


def bidder_policy(decision: Decision, view: dict[str, Any], rng: random.Random) -> Action:
    """Random, except that a SHARE of its bids and purchases stay within the lot's value."""
    kind = decision.kind
    if rng.random() >= SHARE or kind not in (DecisionKind.BID, DecisionKind.HIDDEN_BID,
                                             DecisionKind.BUY):
        return random_action(decision, rng)
    seat = decision.seat
    value = lot_value(view, view["auction"]["cards"])
    if kind is DecisionKind.HIDDEN_BID:
        return Bid(seat, rng.randint(0, max(0, min(decision.max_amount, value))))
    if kind is DecisionKind.BUY:
        return Buy(seat) if decision.price < value else Pass(seat)
    low, high = decision.min_amount, min(decision.max_amount, value)
    if high < low or rng.random() < 0.55:  # the random player's own rate of passing
        return Pass(seat)
    return Bid(seat, rng.randint(low, high))


async def play(players: list[PolicyPlayer], deals: int, name: str
               ) -> tuple[list[Result], dict[str, int]]:
    """Every seat order of each deal, one deck per deal: the results and their deck seeds."""
    results: list[Result] = []
    seeds: dict[str, int] = {}
    for deal in range(deals):
        seed = random.Random(f"{name}:{deal}").randrange(2 ** 31)
        for k, seating in enumerate(itertools.permutations(players)):
            game_id = f"{name}-d{deal:02d}-o{k:02d}"
            spec = GameSpec.make(game_id, seed, [p.name for p in seating])
            record = await play_game(spec, list(seating))
            results.append(record.result)
            seeds[game_id] = seed
    return results, seeds


def old_rule(games: Games, samples: int = 1000) -> tuple[str, set[str]]:
    """The leaderboard before issue 25: per entrant, the 2.5-97.5 percentiles of its mean
    placement over `samples` resamples of whole games; an entrant is separated when its
    interval lies wholly below the leader's.  The leader, and the entrants separated from it."""
    g, e = games.points.shape
    draws = np.random.default_rng(0).integers(0, g, (samples, g))
    weights = np.bincount((np.arange(samples)[:, None] * g + draws).ravel(),
                          minlength=samples * g).reshape(samples, g).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = (weights @ games.points) / (weights @ games.present)
    low, high = np.nanpercentile(means, [2.5, 97.5], axis=0)
    mean = games.points.sum(axis=0) / games.present.sum(axis=0)
    ranked = sorted(range(e), key=lambda i: (-mean[i], games.names[i]))
    leader = ranked[0]
    return games.names[leader], {games.names[i] for i in ranked[1:] if high[i] < low[leader]}


def stop(results: list[Result], seeds: dict[str, int], max_deals: int) -> tuple[int | None, str]:
    """`--until-separated` as the tournament runs it: the deals at which it stops (None when
    it plays all `max_deals`), and the leader then."""
    alpha = look_alpha(max_deals)
    for n in looks(max_deals):
        games = Games.load(results[: n * ORDERS], seeds)
        if settled(games, "separated", "placement", alpha):
            return n, order(games)[0]
    return None, ""


@dataclass
class Identical:
    new: list[bool]  # per size in SIZES: any pair separated by the paired tests
    old: list[bool]  # ... by the old rule
    stopped: int | None


@dataclass
class Gap:
    new: int | None  # the first deal after which the bidder holds place 1 alone
    old: int | None  # ... is separated from all others by the old rule
    stopped: int | None
    leader: str  # the leader when `--until-separated` stopped
    edges: list[float]  # per deal: the bidder's mean placement less the random players'
    regrouped: list[float]  # the same, the games dealt into groups of ORDERS at random
    faults: int


def identical(args: tuple[int, int, int]) -> Identical:
    """Tournament `t` of four random players (the pairs of `standings` use no bootstrap:
    one sample skips the intervals they do not read)."""
    seed, t, deals = args
    players = [random_player(f"random{i}", seed) for i in range(1, 5)]
    results, seeds = trio.run(play, players, deals, f"{seed}-same{t:04d}")
    new, old = [], []
    for size in SIZES:
        games = Games.load(results[: size * ORDERS], seeds)
        new.append(any(p.separated for p in standings(games, samples=1).pairs))
        old.append(bool(old_rule(games)[1]))
    return Identical(new, old, stop(results, seeds, deals)[0])


def gap(args: tuple[int, int, int]) -> Gap:
    """Tournament `t` of the bidder and three random players, looked at after every deal."""
    seed, t, deals = args
    players = [PolicyPlayer(BIDDER, bidder_policy, seed),
               *(random_player(f"random{i}", seed) for i in range(1, 4))]
    results, seeds = trio.run(play, players, deals, f"{seed}-gap{t:04d}")
    new = old = None
    for n in range(1, deals + 1):
        games = Games.load(results[: n * ORDERS], seeds)
        if new is None:
            row = next(r for r in standings(games, samples=1).rows if r.name == BIDDER)
            new = n if row.place.best == row.place.worst == 1 else None
        if old is None:
            leader, apart = old_rule(games)
            old = n if leader == BIDDER and len(apart) == len(games.names) - 1 else None
    games = Games.load(results, seeds)
    i = games.names.index(BIDDER)
    others = [j for j in range(len(games.names)) if j != i]

    def edge(groups: Iterable[np.ndarray]) -> list[float]:
        return [float(p[:, i].mean() - p[:, others].mean()) for p in groups]

    shuffled = np.random.default_rng(t).permutation(len(games.deal)).reshape(-1, ORDERS)
    edges = edge(games.points[games.deal == c] for c in range(games.deals))
    regrouped = edge(games.points[g] for g in shuffled)
    stopped, leader = stop(results, seeds, deals)
    faults = sum(len(f) for r in results for f in r.faults)
    return Gap(new, old, stopped, leader, edges, regrouped, faults)


def rate(k: int, n: int) -> str:
    """k of n as a percentage with its binomial standard error and one-sided 95% upper bound
    (Clopper-Pearson)."""
    p = k / n
    upper = 1.0 if k == n else float(scipy_stats.beta.ppf(0.95, k + 1, n - k))
    return f"{k:3d}/{n} = {100 * p:4.1f}% ± {100 * math.sqrt(p * (1 - p) / n):3.1f}% " \
           f"(≤ {100 * upper:4.1f}%)"


def median_games(first: list[int | None], cap: int) -> str:
    """The games by which half the tournaments had separated it (looked at after each deal)."""
    done = sorted(d for d in first if d is not None)
    half = math.ceil(len(first) / 2)
    return f"{done[half - 1] * ORDERS}" if len(done) >= half else f"> {cap * ORDERS}"


def share(first: list[int | None], by: int) -> str:
    k = sum(1 for d in first if d is not None and d <= by)
    return f"{100 * k / len(first):5.1f}%"


def deals_used(runs: list[int | None], max_deals: int) -> str:
    used = [d if d is not None else max_deals for d in runs]
    return f"{statistics.fmean(used):5.1f} / {statistics.median(used):4.1f}"


def report(same: list[Identical], gaps: list[Gap], deals: int, seed: int) -> None:
    n, m = len(same), len(gaps)
    print(f"Four identical random players: {n} tournaments (seed {seed}), every deal in all "
          f"{ORDERS} seat orders")
    print("games  deals  any pair separated: paired tests + Holm    old rule (intervals vs "
          "leader)")
    for s, size in enumerate(SIZES):
        new = rate(sum(x.new[s] for x in same), n)
        old = rate(sum(x.old[s] for x in same), n)
        print(f"{size * ORDERS:5d}  {size:5d}  {new:38s}  {old}")
    edges = [e for g in gaps for e in g.edges]
    mean, sd = statistics.fmean(edges), statistics.stdev(edges)
    half = 1.96 * sd / math.sqrt(len(edges))
    print()
    print(f"A small real gap: '{BIDDER}' (random, {SHARE:.0%} of its bids capped at the lot's "
          f"value) and three random players, {m} tournaments")
    print(f"its edge in mean placement points over the random players: {mean:+.4f} "
          f"(95% {mean - half:+.4f} to {mean + half:+.4f}; {len(edges)} deals); faults: "
          f"{sum(g.faults for g in gaps)}")
    shuffled = statistics.stdev(e for g in gaps for e in g.regrouped)
    print(f"its sd per deal: {sd:.3f}; {shuffled:.3f} with the same games grouped in "
          f"{ORDERS}s at random (what the duplicate deal takes away)")
    print(f"standings looked at after every deal ({ORDERS} games), up to {deals} deals "
          f"({deals * ORDERS} games): '{BIDDER}' separated from all others (place 1-1)")
    print(f"method                      by 240 games  by {deals * ORDERS} games  "
          f"median games to separation")
    for label, first in (("paired tests + Holm (new)", [g.new for g in gaps]),
                         ("old rule", [g.old for g in gaps])):
        print(f"{label:26s}  {share(first, 10):>12s}  {share(first, deals):>12s}  "
              f"{median_games(first, deals):>10s}")
    at = ", ".join(map(str, looks(deals)))
    print()
    print(f"--until-separated, max_deals {deals}: looks after {at} deals, each at familywise "
          f"{100 * look_alpha(deals):.2f}%")
    print("players     stops                                 deals used: mean / median")
    stopped = [x.stopped for x in same]
    print(f"identical   false    {rate(sum(d is not None for d in stopped), n):30s}  "
          f"{deals_used(stopped, deals)}")
    runs = [g.stopped for g in gaps]
    right = sum(g.stopped is not None and g.leader == BIDDER for g in gaps)
    wrong = sum(g.stopped is not None and g.leader != BIDDER for g in gaps)
    print(f"skill gap   correct  {rate(right, m):30s}  {deals_used(runs, deals)}"
          f"   (wrong leader: {wrong})")

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=None,
                        help="of each kind (default 200; 10 with --quick)")
    parser.add_argument("--deals", type=int, default=None,
                        help=f"per tournament, and --until-separated's max_deals (default 16; "
                             f"{max(SIZES)} with --quick)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few tournaments")
    args = parser.parse_args()
    tournaments = args.tournaments or (10 if args.quick else 200)
    deals = args.deals or (max(SIZES) if args.quick else 16)
    if deals < max(SIZES):
        parser.error(f"--deals must be at least {max(SIZES)} (the largest size measured)")
    started = time.perf_counter()
    jobs = [(args.seed, t, deals) for t in range(tournaments)]
    with multiprocessing.Pool(args.workers) as pool:
        same = pool.map(identical, jobs, chunksize=1)
        gaps = pool.map(gap, jobs, chunksize=1)
    report(same, gaps, deals, args.seed)
    games = 2 * tournaments * deals * ORDERS
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    print(f"\n{games} games in {time.perf_counter() - started:.0f} s ({cpu:.0f} CPU s in "
          f"{args.workers} workers)", file=sys.stderr)


if __name__ == "__main__":
    main()
