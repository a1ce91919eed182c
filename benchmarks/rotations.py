"""Whether `seat_orders = "rotations"` can tell copies of one bot apart in a round robin.

Run: python benchmarks/rotations.py [--randoms 8] [--deals 2] [--seed 3] [--adaptive]
Plays a round robin at tables of four of four copies of the Python baseline sample and
`--randoms` random bots (each its own seed), in-process (`grading_power.SampleBot`: the sample
bots' own code fed the messages a bot process reads), twice: in rotations as the schedule
makes them (each deal's cyclic order reversed by the next), and with one cyclic order in every
deal (the rotations before that change).  For each it prints:

1. a copy's mean placement points when the seat right before it (the one that acts before it
   in turn order) holds another copy, and when it does not: an effect of the game, which a
   fair schedule shares out among the copies alike;
2. each copy's mean placement points, the share of its seats right after another copy (one
   cyclic order always seats the copy first by name after a random bot), and the
   leaderboard's verdicts among the copies (`referee.leaderboard.standings`: the block model,
   familywise error 5%): identical bots should come out level.

With `--adaptive`, the same tables as one round of `schedule = "adaptive"` (each table played
once, its `--deals` deals from the first), twice: each table's first cyclic order drawn, as the
schedule makes it (`schedule.spin`), and every table in its order by name (as before that).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grading_power import SampleBot

from referee.game import BUILTIN_EDITIONS
from referee.leaderboard import Games, standings
from referee.leaderboard.stats import placement_points
from referee.match.game import play_game
from referee.match.result import GameResult
from referee.tournament import schedule as schedule_module
from referee.tournament.config import TournamentConfig
from referee.tournament.schedule import Schedule, ScheduledGame, game_spec, schedule

COPIES = ("copy-a", "copy-b", "copy-c", "copy-d")


def field(randoms: int, deals: int, seed: int, adaptive: bool = False) -> TournamentConfig:
    names = [*COPIES, *(f"random-{i:02d}" for i in range(randoms))]
    return TournamentConfig.model_validate({
        "name": "rotations", "seed": seed, "table_size": 4, "deals": deals,
        "seat_orders": "rotations", "bots": [{"name": n, "command": "unused"} for n in names],
        **({"schedule": "adaptive", "rounds": 1} if adaptive else {})})


def adaptive_games(config: TournamentConfig) -> list[ScheduledGame]:
    """Every table of the round robin as one adaptive round."""
    names = sorted(b.name for b in config.bots)
    return list(Schedule(config, (), [list(itertools.combinations(names, 4))]).games())


async def play(config: TournamentConfig, games: list[ScheduledGame]) -> list[GameResult]:
    players = {b.name: SampleBot(b.name, 1.0) if b.name in COPIES else
               SampleBot(b.name, 0.0, int(b.name.split("-")[1]) + 1) for b in config.bots}
    edition = BUILTIN_EDITIONS[config.edition]
    return [(await play_game(game_spec(config, g, edition), [players[n] for n in g.seats])).result
            for g in games]


def report(label: str, games: list[ScheduledGame], results: list[GameResult]) -> None:
    after_copy: list[float] = []
    otherwise: list[float] = []
    by_copy: dict[str, list[float]] = {c: [] for c in COPIES}
    behind: dict[str, list[bool]] = {c: [] for c in COPIES}
    for result in results:
        points = placement_points(list(result.ranks))
        k = len(result.names)
        for seat, name in enumerate(result.names):
            if name in COPIES:
                after = result.names[seat - 1] in COPIES
                by_copy[name].append(points[seat])
                behind[name].append(after)
                (after_copy if after else otherwise).append(points[seat])
    board = standings(Games.load(results, {g.game_id: g.seed for g in games}))
    apart = [f"{p.a} above {p.b}" if p.test.diff > 0 else f"{p.b} above {p.a}"
             for p in board.pairs if p.separated and {p.a, p.b} <= set(COPIES)]
    places = {r.name: f"{r.place.best}-{r.place.worst}" for r in board.rows if r.name in COPIES}

    def mean(xs: list[float]) -> str:
        return (f"{statistics.fmean(xs):.3f} ± {statistics.stdev(xs) / len(xs) ** 0.5:.3f} "
                f"({len(xs)} seats)")

    print(f"{label}: {len(results)} games, tables of {k}")
    print(f"  a copy right after another copy: {mean(after_copy)}; otherwise {mean(otherwise)}")
    print("  each copy (mean, share of its seats right after a copy, place):")
    for c, v in by_copy.items():
        print(f"    {c} {statistics.fmean(v):.3f}, {statistics.fmean(behind[c]):.0%}, "
              f"{places[c]}")
    print(f"  copies the leaderboard separates: {', '.join(apart) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--randoms", type=int, default=8, help="random bots beside the copies")
    parser.add_argument("--deals", type=int, default=2, help="deals per table")
    parser.add_argument("--seed", type=int, default=3, help="the tournament's seed")
    parser.add_argument("--adaptive", action="store_true",
                        help="the tables as one adaptive round: drawn orders and by name")
    args = parser.parse_args()
    if args.adaptive:
        config = field(args.randoms, args.deals, args.seed, adaptive=True)
        drawn = schedule_module.spin
        for label, spin in (("adaptive, drawn per table", drawn),
                            ("adaptive, by name (before)", lambda master, entrants: 0)):
            schedule_module.spin = spin
            play_and_report(label, config, adaptive_games(config))
        schedule_module.spin = drawn
        return
    config = field(args.randoms, args.deals, args.seed)
    per_deal = schedule_module.CYCLES
    for label, cycles in (("rotations", per_deal),  # one cycle: its pair its own reverse
                          ("one cycle (before)", {k: v[:1] * 2 for k, v in per_deal.items()})):
        schedule_module.CYCLES = cycles
        play_and_report(label, config, schedule(config))
    schedule_module.CYCLES = per_deal


def play_and_report(label: str, config: TournamentConfig, games: list[ScheduledGame]) -> None:
    """Play `games` and print `report`'s lines for them, with the seconds they took."""
    start = time.perf_counter()
    results = trio.run(play, config, games)
    report(f"{label} [{time.perf_counter() - start:.0f} s]", games, results)


if __name__ == "__main__":
    main()
