"""Strength of the Python baseline bot against three random bots.

Run: python benchmarks/baseline_strength.py [--deals 100]
Each deal is played four times, the baseline in each seat (duplicate deals, every seat order
of the baseline); prints its win share and mean final money with 95% intervals.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
from referee.bots.launch import BotSpec  # noqa: E402
from referee.match.bot_player import BotPlayer  # noqa: E402
from referee.match.game import play_game  # noqa: E402
from referee.match.spec import GameSpec  # noqa: E402


def interval(xs: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
    return mean, mean - half, mean + half


async def run(deals: int) -> None:
    py = sys.executable
    base = BotPlayer(BotSpec("baseline", f"{py} {ROOT / 'sample_bots/python/baseline_bot.py'}"))
    randoms = [BotPlayer(BotSpec(f"random{i}",
                                 f"{py} {ROOT / 'sample_bots/python/random_bot.py'} --seed {i}"))
               for i in range(3)]
    share: list[float] = []
    base_money: list[float] = []
    rand_money: list[float] = []
    faults = 0
    try:
        for deal in range(deals):
            for seat in range(4):
                players = list(randoms)
                players.insert(seat, base)
                spec = GameSpec.make(f"deal{deal}-seat{seat}", 1000 + deal,
                                     [p.name for p in players])
                r = (await play_game(spec, players)).result
                faults += sum(len(f) for f in r.faults)
                best = max(r.money)
                winners = [s for s, m in enumerate(r.money) if m == best]
                share.append(1 / len(winners) if seat in winners else 0.0)
                base_money.append(r.money[seat])
                rand_money += [m for s, m in enumerate(r.money) if s != seat]
    finally:
        for p in [base, *randoms]:
            await p.aclose()
    games = len(share)
    m, lo, hi = interval(base_money)
    rm, rlo, rhi = interval(rand_money)
    print(f"games: {games} (4 players, cmon, {deals} deals x 4 seats for the baseline)")
    print(f"baseline win share: {sum(share) / games:.1%}  (fair share 25%)")
    print(f"baseline mean money: {m:.1f}  95% CI [{lo:.1f}, {hi:.1f}]")
    print(f"random   mean money: {rm:.1f}  95% CI [{rlo:.1f}, {rhi:.1f}]")
    print(f"intervals overlap: {'yes' if lo <= rhi else 'no'}; faults: {faults}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    trio.run(run, parser.parse_args().deals)
