"""How many deals a platform's grading file needs: grading_power.py's third table, for any
gauntlet of Python sample bots (tournaments/gradescope.toml's by default).

Run: python benchmarks/platform_power.py [--config tournaments/gradescope.toml] [--deals 72]
Plays a copy of the Python baseline (the candidate) against the file's baselines, every deal
in the file's seat orders, as `referee grade` plays it (bot processes, through the tournament's
own executor); then, as grading_power.py does, shifts the copy's deal differences against each
baseline (centred on zero) by a difference and finds the fewest deals with which the file's
paired test at its confidence finds it 4 times in 5 (1000 classes drawn per count).
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
sys.path.insert(0, str(ROOT / "benchmarks"))
from grading_power import fewest_deals  # noqa: E402

from referee.leaderboard.stats import Games  # noqa: E402
from referee.tournament.config import BotEntry, load_tournament  # noqa: E402
from referee.tournament.executors.local import LocalExecutor  # noqa: E402
from referee.tournament.session import run_tournament  # noqa: E402
from referee.tournament.store import Store  # noqa: E402

DIFFERENCES = (0.1, 0.15, 0.2)


async def play(config_path: Path, deals: int, workers: int) -> tuple[Games, list[str], float]:
    file = load_tournament(config_path)
    copy = BotEntry(name="copy", command="python3 ../sample_bots/python/baseline_bot.py")
    config = file.model_copy(update={
        "deals": deals, "bots": [b for b in file.bots if b.name in file.baselines] + [copy]})
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.for_writing(Path(tmp) / "power.db")
        try:
            start = time.perf_counter()
            await run_tournament(config, config_path, store, LocalExecutor(workers),
                                 lambda _m: None)
            return Games.from_store(store), file.baselines, time.perf_counter() - start
        finally:
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "tournaments" / "gradescope.toml")
    parser.add_argument("--deals", type=int, default=72)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    games, baselines, elapsed = trio.run(play, args.config, args.deals, args.workers)
    alpha = 1 - load_tournament(args.config).grading.confidence
    print(f"{len(games.game_ids)} games, {games.deals} deals, in {elapsed:.0f} s; the fewest "
          f"deals for 80% power at one-sided {alpha:.3g}:")
    rng = np.random.default_rng(1)
    u = games.names.index("copy")
    for name in baselines:
        d = games.points[:, u] - games.points[:, games.names.index(name)]
        per_deal = np.array([d[games.deal == k].mean() for k in range(games.deals)])
        need = {s: fewest_deals(rng, per_deal - per_deal.mean(), s, 1000, alpha)
                for s in DIFFERENCES}
        print(f"  against {name}: the copy {per_deal.mean():+.3f}, one deal's sd "
              f"{per_deal.std(ddof=1):.3f}; " + ", ".join(
                  f"{s:g}: {n} deals" for s, n in need.items()))


if __name__ == "__main__":
    main()
