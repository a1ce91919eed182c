"""The ladder of Python reference bots: random, baseline, strong, each against each lower rung.

Run: python benchmarks/ladder.py [--deals 50] [--workers 2] [--only strong] [--strong-args ..]

For each rung and each rung below it, a gauntlet as `referee grade` plays one: the upper bot
against three copies of the lower one (the random copies with seeds 1-3), every deal in the 4
rotations of the table (the upper bot in each seat), on duplicate decks.  Then the classroom's
table: the strong bot against `baseline`, `random-1` and `random-2` (tournaments/
classroom.toml's baselines) in its 12 balanced seat orders, on a third as many deals.
Each line is the referee's paired test over deals (`referee.leaderboard.pairs.versus`): the
upper bot's mean placement points (1 = always first, 0 = always last) less the lower's (the
mean of its copies), with its 95% interval and one-sided p, the upper bot's win share, the
games played per second, and the upper bot's reply time (median and 99th percentile, as the
referee measured it: the pipe included) and faults.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import trio

ROOT = Path(__file__).resolve().parent.parent
from referee.leaderboard import pairs  # noqa: E402
from referee.leaderboard.stats import Games, _quantile  # noqa: E402
from referee.tournament.config import BotEntry, TournamentConfig  # noqa: E402
from referee.tournament.executors.local import LocalExecutor  # noqa: E402
from referee.tournament.session import run_tournament  # noqa: E402
from referee.tournament.store import Store  # noqa: E402

PY = ROOT / "sample_bots" / "python"
RUNGS = ["random", "baseline", "strong"]


def command(rung: str, seed: int, strong_args: str) -> str:
    if rung == "random":
        return f"{sys.executable} {PY / 'random_bot.py'} --seed {seed}"
    if rung == "baseline":
        return f"{sys.executable} {PY / 'baseline_bot.py'}"
    return f"{sys.executable} {PY / 'strong_bot.py'} {strong_args}".strip()


def gauntlet(upper: str, lowers: list[tuple[str, str]], deals: int, orders: str,
             strong_args: str) -> TournamentConfig:
    bots = [BotEntry(name=name, command=command(rung, int(name[-1]) if name[-1].isdigit()
                                                 else 0, strong_args))
            for name, rung in lowers]
    bots.append(BotEntry(name=upper, command=command(upper, 0, strong_args)))
    return TournamentConfig(name=f"ladder-{upper}", seed=11, bots=bots, table_size=4,
                            format="gauntlet", baselines=[name for name, _ in lowers],
                            deals=deals, seat_orders=orders)


async def play(config: TournamentConfig, workers: int) -> tuple[Games, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.for_writing(Path(tmp) / "ladder.db")
        try:
            start = time.perf_counter()
            await run_tournament(config, ROOT / "benchmarks" / "ladder.toml", store,
                                 LocalExecutor(workers), lambda _m: None)
            elapsed = time.perf_counter() - start
            return Games.from_store(store), elapsed
        finally:
            store.close()


def line(games: Games, upper: str, lowers: list[str], elapsed: float) -> str:
    """The upper bot against the lowers' mean, paired over deals."""
    u = games.names.index(upper)
    low = [games.names.index(name) for name in lowers]
    present = games.present[:, u]
    lower_mean = games.points[:, low].sum(axis=1) / np.maximum(games.present[:, low].sum(1), 1)
    _pairing, test = pairs.versus(games.deal, (games.points[:, u], present),
                                  (lower_mean, present), alpha=0.05)
    share = float(games.wins[:, u].mean())
    median = _quantile(games.response[u], 0.5)
    p99 = _quantile(games.response[u], 0.99)
    faults = sum(games.faults[u].values())
    n = len(games.game_ids)
    interval = f"[{test.low:+.3f}, {test.high:+.3f}]" if test.low is not None else "[-, -]"
    return (f"{upper:>8} vs {'/'.join(lowers):<28} {test.diff:+.3f} {interval}"
            f"  p={test.p_above:.2g}"
            f"  win {share:5.1%}  {n} games, {games.deals} deals, {n / elapsed:.2f} games/s"
            f"  reply {median} / {p99} ms  faults {faults}")


async def main(deals: int, workers: int, only: str | None, strong_args: str) -> None:
    print(f"deals: {deals} per line; difference of mean placement points, 95% interval, "
          "one-sided p; reply median / p99")
    for i, upper in enumerate(RUNGS):
        if only is not None and upper != only:
            continue
        for lower in RUNGS[:i]:
            lowers = [(f"{lower}-{k}", lower) for k in (1, 2, 3)]
            games, elapsed = await play(gauntlet(upper, lowers, deals, "rotations",
                                                 strong_args), workers)
            print(line(games, upper, [n for n, _ in lowers], elapsed), flush=True)
        if upper == "strong":  # the classroom's table: strong in the student's seat
            classroom = [("baseline", "baseline"), ("random-1", "random"),
                         ("random-2", "random")]
            config = gauntlet(upper, classroom, max(1, deals // 3), "balanced", strong_args)
            games, elapsed = await play(config, workers)
            for lower in ("baseline", "random-1"):
                print(line(games, upper, [lower], elapsed), flush=True)

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=RUNGS, help="only the lines of this upper rung")
    parser.add_argument("--strong-args", default="", help="options for strong_bot.py")
    args = parser.parse_args()
    trio.run(main, args.deals, args.workers, args.only, args.strong_args)
