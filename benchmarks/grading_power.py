"""How many deals a class needs: what `referee grade`'s paired test finds, and how often.

Run: python benchmarks/grading_power.py [--deals 200] [--sims 1000]
Plays the gauntlet of tournaments/classroom.toml (its baselines: the Python baseline sample and
two random bots) in-process, for three candidates: a copy of the random bot, a copy of the
baseline, and "mixed" (the random bot, following the baseline's choice in 20% of its
decisions), every seat order of `--deals` deals.  In-process means the sample bots' own Python
code behind the Player interface, fed the very messages a bot process reads, so each game is
the game `referee grade` plays (the same ids, decks and seeds).  Then prints:

1. for each set of seat orders, each candidate's mean difference of placement points from each
   baseline with its standard error (a copy should show none: a set of seat orders that favours
   one seat shows one) and the standard deviation of one deal's difference;
2. at the classroom's seat orders and confidence, for 5 to 16 deals, how often a class finds a
   copy of the random bot beating or below a random baseline, or not level with both, and how
   often it finds the baseline and "mixed" beating both random bots (classes drawn from the
   deals played; the copy's differences centred on zero, which a copy's true difference is);
3. for a difference of mean placement points, the fewest deals that find it 4 times in 5
   (80% power), against a random baseline and against the baseline: a copy's deal differences
   shifted by the difference (the shape of real deals; a better bot's spread is much the same).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from referee.game import Decision, Event  # noqa: E402
from referee.leaderboard.pairs import paired_test  # noqa: E402
from referee.leaderboard.stats import placement_points  # noqa: E402
from referee.match.game import play_game  # noqa: E402
from referee.match.player import Answer, Fault, GameInfo  # noqa: E402
from referee.match.policy_player import PolicyPlayer  # noqa: E402
from referee.match.result import GameResult  # noqa: E402
from referee.protocol import codec  # noqa: E402
from referee.tournament.config import (  # noqa: E402
    TournamentConfig,
    load_tournament,
    tournament_edition,
)
from referee.tournament.schedule import (  # noqa: E402
    BALANCED_ORDERS,
    game_spec,
    order_patterns,
    schedule,
)

CLASSROOM = ROOT / "tournaments" / "classroom.toml"
MIX = 0.2  # "mixed" follows the baseline in this share of its decisions
DIFFERENCES = (0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3)
MAX_DEALS = 400
# The seat orders of a deal counted, as patterns over the baselines then the candidate (None:
# every order).
Orders = Callable[[int], "set[tuple[int, ...]] | None"]


def sample_bot(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        name, ROOT / "sample_bots" / "python" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BASELINE = sample_bot("baseline_bot")
RANDOM = sample_bot("random_bot")
RANDOM.log = lambda *parts: None  # type: ignore[attr-defined]  # quiet on stderr


class SampleBot(PolicyPlayer):
    """baseline_bot.py or random_bot.py (or a mix of the two) as an in-process player: each
    message as the JSON a bot process would read, each reply decoded as the referee does.
    The rest of the `Player` interface is PolicyPlayer's (nothing to do in-process)."""

    def __init__(self, name: str, baseline: float, seed: int | None = None) -> None:
        super().__init__(name, lambda d, v, r: d.default_action())  # decide is our own
        self.baseline, self.bot_seed = baseline, seed  # baseline: share of choices

    async def begin_game(self, info: GameInfo) -> Fault | None:
        message = json.loads(codec.encode(codec.new_game(
            info.game_id, info.seat, info.names, info.edition_info,
            list(info.config.variants), info.move_time, info.time_bank, info.seed)))
        self.seat = info.seat
        self.base = BASELINE.Game(message) if self.baseline > 0 else None
        self.rand = RANDOM.RandomBot(self.bot_seed) if self.baseline < 1 else None
        if self.rand is not None:
            self.rand.new_game(message)
        self.coin = random.Random(f"mix:{info.seed}")  # as the seat's bot would seed it
        return None

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        if self.base is not None:
            for line in lines:
                self.base.seen_event(json.loads(line)["event"])

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        request = json.loads(codec.encode(codec.request(1, decision, view, 1.0, 10.0)))
        if self.base is not None and (self.rand is None or self.coin.random() < self.baseline):
            reply = self.base.decide(request["decision"], request["view"], request["legal"])
        else:
            assert self.rand is not None
            reply = self.rand.decide(request)
        reply["id"] = 1
        return Answer(codec.reply_to_action(codec.decode_reply(json.dumps(reply).encode()),
                                            self.seat))


CANDIDATES = {"random-copy": SampleBot("random-copy", 0.0),
              "baseline-copy": SampleBot("baseline-copy", 1.0),
              "mixed": SampleBot("mixed", MIX, 7)}


async def play(config: TournamentConfig, players: dict[str, SampleBot]
               ) -> list[tuple[str, list[str], GameResult]]:
    edition = tournament_edition(config, CLASSROOM)
    games = []
    for game in schedule(config):
        record = await play_game(game_spec(config, game, edition),
                                 [players[n] for n in game.seats])
        games.append((game.game_id, list(game.seats), record.result))
    return games


def deal_differences(games: list[tuple[str, list[str], GameResult]], baselines: list[str],
                     orders: Orders) -> dict[tuple[str, str], np.ndarray]:
    """(candidate, baseline) -> per deal, the candidate's placement points less the
    baseline's, over the games of that deal in `orders(deal)` (seat patterns; None: all)."""
    sums: dict[tuple[str, str], dict[int, list[float]]] = {}
    for game_id, seats, result in games:
        candidate = next(s for s in seats if s not in baselines)
        pattern = tuple([*baselines, candidate].index(s) for s in seats)
        deal = int(game_id.split("-d")[1].split("-")[0])
        chosen = orders(deal)
        if chosen is not None and pattern not in chosen:
            continue
        points = dict(zip(seats, placement_points(list(result.ranks)), strict=True))
        for b in baselines:
            sums.setdefault((candidate, b), {}).setdefault(deal, []).append(
                points[candidate] - points[b])
    return {k: np.array([np.mean(v[d]) for d in sorted(v)]) for k, v in sums.items()}


def verdicts(rng: np.random.Generator, pools: list[np.ndarray], deals: int, sims: int,
             alpha: float, shift: float = 0.0) -> np.ndarray:
    """(sims x len(pools) x 2): for classes of `deals` deals drawn from the deals played (the
    same deals for every pool), whether each comparison is separated above and below."""
    out = np.zeros((sims, len(pools), 2), dtype=bool)
    weights = np.ones(deals)
    for s in range(sims):
        drawn = rng.integers(0, len(pools[0]), deals)
        for i, pool in enumerate(pools):
            t = paired_test(pool[drawn] + shift, weights)
            out[s, i] = (t.p_above <= alpha, t.p_below <= alpha)
    return out


def fewest_deals(rng: np.random.Generator, pool: np.ndarray, shift: float, sims: int,
                 alpha: float) -> int | None:
    """The fewest deals (at least 5) with which `pool + shift` is separated above in 80% of
    classes (power grows with deals: a bisection), or None beyond MAX_DEALS."""

    def power(n: int) -> float:
        return float(verdicts(rng, [pool], n, sims, alpha, shift)[:, 0, 0].mean())

    low, high = 4, 5
    while power(high) < 0.8:
        low, high = high, high * 2
        if high > MAX_DEALS:
            return None
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if power(mid) >= 0.8 else (mid, high)
    return high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals played")
    parser.add_argument("--sims", type=int, default=1000, help="classes drawn per figure")
    args = parser.parse_args()
    classroom = load_tournament(CLASSROOM)
    baselines = classroom.baselines
    alpha = 1 - classroom.grading.confidence
    config = classroom.model_copy(update={
        "deals": args.deals, "seat_orders": "all",
        "bots": [b for b in classroom.bots if b.name in baselines] + [
            b.model_copy(update={"name": n}) for n, b in
            zip(CANDIDATES, [classroom.bots[0]] * len(CANDIDATES), strict=True)]})
    players: dict[str, SampleBot] = {  # the classroom's: the baseline, random --seed 1 and 2
        baselines[0]: SampleBot(baselines[0], 1.0),
        baselines[1]: SampleBot(baselines[1], 0.0, 1),
        baselines[2]: SampleBot(baselines[2], 0.0, 2), **CANDIDATES}
    start = time.perf_counter()
    games = trio.run(play, config, players)
    print(f"{len(games)} games ({args.deals} deals, every seat order, 3 candidates) in "
          f"{time.perf_counter() - start:.0f} s; classroom: {classroom.deals} deals, "
          f"{classroom.seat_orders} seat orders, confidence {classroom.grading.confidence:g}")

    k = classroom.table_size

    def patterns(how: str, fixed: bool = False) -> Orders:
        return lambda deal: set(order_patterns(k, how, 0 if fixed else deal))
    # "one cycle": rotations as they were before their cyclic order changed from deal to deal
    sets: dict[str, Orders] = {"all": lambda deal: None, "balanced": patterns("balanced"),
                               "rotations": patterns("rotations"),
                               "one cycle": patterns("rotations", fixed=True)}
    print("\n1. Placement points less each baseline's, by seat orders: mean ± standard error "
          "over deals, and one deal's standard deviation")
    for name, orders in sets.items():
        diffs = deal_differences(games, baselines, orders)
        for candidate in CANDIDATES:
            cells = []
            for b in baselines:
                d = diffs[candidate, b]
                cells.append(f"{b} {d.mean():+.3f} ± {d.std(ddof=1) / len(d) ** 0.5:.3f} "
                             f"(sd {d.std(ddof=1):.3f})")
            print(f"  {name:10} {candidate:13} " + "; ".join(cells))

    diffs = deal_differences(games, baselines, sets[classroom.seat_orders])
    rng = np.random.default_rng(1)
    randoms = baselines[1:]
    won = {c: [int((diffs[c, b] > 0).sum()) for b in randoms] for c in CANDIDATES}
    print(f"\n2. Classes drawn from the {args.deals} deals, {args.sims} per line, "
          f"at {classroom.seat_orders} seat orders; verdicts at {alpha:.3g} one-sided "
          f"(binomial error about {(0.05 * 0.95 / args.sims) ** 0.5:.3f} at 5%)")
    print(f"  deals won (of {args.deals}) against {' and '.join(randoms)}: " + "; ".join(
        f"{c} {' and '.join(map(str, won[c]))}" for c in CANDIDATES))
    # A copy is as strong as the bot it copies: its deals, drawn as they came, would carry
    # their own mean's noise (about 0.01 here) into every class, so they are centred on zero.
    copies = [diffs["random-copy", b] - diffs["random-copy", b].mean() for b in randoms]
    print("  deals  copy beats a random  copy below a random  copy not level with both  "
          "baseline beats both  mixed beats both")
    for n in (5, 6, 8, 10, 12, 16):
        copy = verdicts(rng, copies, n, args.sims, alpha)
        base = verdicts(rng, [diffs["baseline-copy", b] for b in randoms], n, args.sims, alpha)
        mixed = verdicts(rng, [diffs["mixed", b] for b in randoms], n, args.sims, alpha)
        print(f"  {n:5}  {copy[:, :, 0].mean():19.3f}  {copy[:, :, 1].mean():19.3f}  "
              f"{copy.any(axis=(1, 2)).mean():24.3f}  {base[:, :, 0].all(axis=1).mean():19.3f}"
              f"  {mixed[:, :, 0].all(axis=1).mean():16.3f}")
    print("  (a copy's rates are per random baseline; not level with both: either verdict "
          "against either)")

    null_random = np.concatenate([diffs["random-copy", b] for b in randoms])
    null_random -= null_random.mean()
    null_base = diffs["baseline-copy", baselines[0]] - diffs["baseline-copy",
                                                             baselines[0]].mean()
    mixed = diffs["mixed", randoms[0]]
    shift = float(np.concatenate([diffs["mixed", b] for b in randoms]).mean())
    per_deal = {"all": math.factorial(k), "balanced": len(BALANCED_ORDERS[k]),
              "rotations": k}[classroom.seat_orders]
    print(f"\n3. Fewest deals to find a difference 4 times in 5 (80% power, one-sided "
          f"{alpha:.3g}), {classroom.seat_orders} seat orders ({per_deal} games a deal); "
          f"one deal's sd: {null_random.std(ddof=1):.3f} against a random bot, "
          f"{null_base.std(ddof=1):.3f} against the baseline")
    print("  difference  against a random bot (games)  against the baseline (games)")
    for delta in DIFFERENCES:
        cells = []
        for pool in (null_random, null_base):
            fewest = fewest_deals(rng, pool, delta, args.sims, alpha)
            cells.append(f"> {MAX_DEALS}" if fewest is None else
                         f"{fewest} ({fewest * per_deal})")
        print(f"  {delta:10.3f}  {cells[0]:>28}  {cells[1]:>28}")
    found = [float(verdicts(rng, [mixed], n, args.sims, alpha)[:, 0, 0].mean()) for n in (5, 8)]
    model = [float(verdicts(rng, [null_random], n, args.sims, alpha, shift)[:, 0, 0].mean())
             for n in (5, 8)]
    print(f"  check: mixed is {shift:+.3f} above the random bots, and beats {randoms[0]} in "
          f"{found[0]:.2f} of classes of 5 deals, {found[1]:.2f} of 8; a copy's deals shifted "
          f"by {shift:+.3f}: {model[0]:.2f} and {model[1]:.2f}")

if __name__ == "__main__":
    main()
