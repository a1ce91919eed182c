"""Each starter kit against two random bots: games, wins, mean place, mean money, faults.

Run: python benchmarks/kits.py [FOLDER ...] [--games 96] [--seed 1]
A kit is a bot folder (by default every `sample_bots/*/bot.toml`), built once in place as
`referee play` builds it.  It plays 3-player games against two copies of
sample_bots/python/random_bot.py (`--seed 1` and `--seed 2`, so that they play apart): each
deal in all six seat orders of the three, processes kept from game to game as in a tournament.
A win is a first place (shared ones included); a place is a rank, 1 to 3.
"""

from __future__ import annotations

import argparse
import itertools
import shlex
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

import trio
from tabulate import tabulate

from referee.bots.build import build_bot
from referee.bots.launch import BotArgumentError, BotSpec, given_bot, missing_program
from referee.bots.limits import DEFAULT_BUILD_TIME
from referee.bots.manifest import MANIFEST
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.spec import GameSpec

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot.py"
ORDERS = list(itertools.permutations(range(3)))  # seat orders of (kit, random-1, random-2)


@dataclass
class Tally:
    """One kit's games against the random bots."""

    places: list[int] = field(default_factory=list)
    money: list[int] = field(default_factory=list)
    random_money: list[int] = field(default_factory=list)
    faults: int = 0

    def row(self, kit: str) -> list[object]:
        return [kit, len(self.places), sum(p == 1 for p in self.places),
                statistics.fmean(self.places), statistics.fmean(self.money),
                statistics.fmean(self.random_money), self.faults]


async def built(folder: Path) -> BotSpec:
    """The folder's bot, built in place as `referee play FOLDER` builds it; ValueError says why
    it cannot play."""
    spec = given_bot(str(folder), str(folder))
    if spec.build is not None:
        assert spec.cwd is not None
        result = await build_bot(spec.build, spec.cwd, DEFAULT_BUILD_TIME)
        if not result.ok:
            tail = (result.stderr or result.stdout).decode("utf-8", "replace").strip()
            raise ValueError(f"its build {result.failure or 'failed'}: {tail[-500:]}")
        missing = missing_program(spec)
        if missing is not None:
            raise ValueError(missing)
    return spec


async def play_kit(spec: BotSpec, games: int, seed: int) -> Tally:
    """`games` games of the kit and the two random bots, each deal in every seat order."""
    randoms = [BotSpec(f"random-{i}", shlex.join([sys.executable, str(RANDOM_BOT), "--seed",
                                                   str(i)])) for i in (1, 2)]
    players = [BotPlayer(s) for s in (spec, *randoms)]
    tally = Tally()
    try:
        for game in range(games):
            deal, order = divmod(game, len(ORDERS))
            seated = [players[i] for i in ORDERS[order]]
            game_spec = GameSpec.make(f"{spec.name}-{deal}-{order}", seed + deal,
                                      [p.name for p in seated])
            result = (await play_game(game_spec, seated)).result
            for seat, player in enumerate(seated):
                if player is players[0]:
                    tally.places.append(result.ranks[seat])
                    tally.money.append(result.money[seat])
                    tally.faults += len(result.faults[seat])
                else:
                    tally.random_money.append(result.money[seat])
    finally:
        for player in players:
            await player.aclose()
    return tally


async def run(folders: list[Path], games: int, seed: int) -> None:
    rows = []
    for folder in folders:
        try:
            spec = await built(folder)
        except (BotArgumentError, ValueError) as exc:
            print(f"{folder}: cannot play: {exc}", file=sys.stderr)
            continue
        print(f"{folder.name}: playing {games} games", file=sys.stderr)
        rows.append((await play_kit(spec, games, seed)).row(folder.name))
    print(f"{games} games each, 3 players (the kit and two random bots), every seat order, "
          f"cmon, seeds from {seed}")
    print(tabulate(rows, headers=["kit", "games", "wins", "mean place", "mean money",
                                  "randoms' money", "faults"],
                   floatfmt=("", "", "", ".2f", ".1f", ".1f", "")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, metavar="FOLDER",
                        help="bot folders (default: every kit in sample_bots/)")
    parser.add_argument("--games", type=int, default=96, help="games per kit")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    args = parser.parse_args()
    folders = args.folders or sorted(p.parent for p in (ROOT / "sample_bots").glob(
        f"*/{MANIFEST}"))
    trio.run(run, folders, args.games, args.seed)


if __name__ == "__main__":
    main()
