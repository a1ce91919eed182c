"""The starter kits play real games cleanly: every kit at a table of up to five (over three
seeds, each with other rules, so that they meet every auction and the variants), two copies
of each kit at one table, each keeping its process from game to game; and the folders that
need no build, with the random bot given by its command, through `referee play --json`.

A kit whose toolchain is missing leaves its seat to `first_legal`, so that the others still
play (its own check test says why it is skipped).
"""

from __future__ import annotations

import json
import math
import shlex
from typing import Any

import pytest
import trio

from referee.bots.launch import BotSpec
from referee.bots.manifest import read_bot_folder
from referee.edition_files import load_edition
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.result import GameResult
from referee.match.spec import GameSpec

from .. import in_process
from ..processes import BOT_PYTHON
from .kits import KITS, ROOT, Checked, built_kit, kits_without_build

FIRST_LEGAL = f"{BOT_PYTHON} {shlex.quote(str(ROOT / 'tests/scripted_bots/first_legal.py'))}"
TABLE = 5  # seats at most
SETTINGS = [  # seed, edition, variants
    (3, "cmon", ()),
    (4, "cmon", ("split-double", "hidden-money")),
    (5, "classic", ("split-double",)),
]
AGAIN = 6  # the seed of a second game with the same players


def tables(kits: list[str]) -> list[list[str]]:
    """The kits at as few tables of at most five as hold them all, of even sizes."""
    count = max(1, math.ceil(len(kits) / TABLE))
    return [kits[i::count] for i in range(count)]


def available(kit: str, tmp_path_factory: pytest.TempPathFactory) -> Checked | None:
    """The kit built, or None when its toolchain is missing (its check test is skipped)."""
    try:
        return built_kit(kit, tmp_path_factory)
    except pytest.skip.Exception:
        return None


def seated(kits: list[str], tmp_path_factory: pytest.TempPathFactory,
           least: int = 3) -> list[BotSpec]:
    """The kits that can play, then `first_legal` for the seats missing up to `least`."""
    specs = [c.spec(kit) for kit in kits if (c := available(kit, tmp_path_factory))]
    if not specs:
        pytest.skip(f"no toolchain for {', '.join(kits)}")
    fill = [BotSpec(f"first_legal-{i}", FIRST_LEGAL) for i in range(least - len(specs))]
    return specs + fill


def assert_clean(result: GameResult, where: str) -> None:
    """No fault and no retirement for any seat; each has its money and its rank."""
    seats = result.seats()
    for s in seats:
        assert s.faults == (), f"{where}: {s.name} faulted: {s.faults}"
        assert not s.retired, f"{where}: {s.name} was retired"
        assert s.money >= 0, (where, s)
        assert 1 <= s.rank <= len(seats), (where, s)


def play(specs: list[BotSpec], games: list[GameSpec]) -> tuple[list[GameResult],
                                                                list[BotPlayer]]:
    """Play `games` in turn with one player per bot (as in a tournament), then close them."""
    players = [BotPlayer(s) for s in specs]

    async def run() -> list[GameResult]:
        try:
            return [(await play_game(g, players)).result for g in games]
        finally:
            for player in players:
                await player.aclose()

    return trio.run(run), players


@pytest.mark.parametrize("setting", range(len(SETTINGS)))
@pytest.mark.parametrize("table", range(len(tables(KITS))))
def test_kits_play_together_without_faults(table: int, setting: int,
                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    seed, edition, variants = SETTINGS[setting]
    specs = seated(tables(KITS)[table], tmp_path_factory)
    names = [s.name for s in specs]
    ed = load_edition(edition)
    seeds = [seed, AGAIN] if setting == 0 else [seed]
    games = [GameSpec.make(f"kits-{s}", s, names, ed, variants) for s in seeds]
    results, players = play(specs, games)
    for game, result in zip(games, results, strict=True):
        assert list(result.names) == names
        assert_clean(result, f"{names} seed {game.seed} {edition} {' '.join(variants)}")
    # One process each for both games, and each said its name in its hello.
    assert [p.starts for p in players] == [1] * len(players)
    assert all(p.hello_name for p in players), [p.hello_name for p in players]


@pytest.mark.parametrize("kit", KITS)
def test_two_copies_of_a_kit_play_the_three_player_variants(
        kit: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Two processes of one kit in one folder at one table, with mystery decisions, split
    doubles and others' money hidden (null in the view), on the classic deck."""
    checked = built_kit(kit, tmp_path_factory)
    specs = [checked.spec(f"{kit}-a"), checked.spec(f"{kit}-b"),
             BotSpec("first_legal", FIRST_LEGAL)]
    variants = ("mystery", "split-double", "hidden-money")
    game = GameSpec.make("copies", 3, [s.name for s in specs], load_edition("classic"), variants)
    [result], _ = play(specs, [game])
    assert_clean(result, f"{kit} twice, classic, {' '.join(variants)}")


@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_kit_folders_and_the_random_bot_play_through_the_cli(
        setting: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    """`referee play FOLDER ... NAME=COMMAND --json`: each folder's seat named after it (or
    by NAME=), the random bot run by its command, no fault."""
    seed, edition, variants = SETTINGS[setting]
    python = built_kit("python", tmp_path_factory)
    folders = [c.folder for kit in kits_without_build()[:TABLE - 2]
               if (c := available(kit, tmp_path_factory))]
    random_bot = f"{BOT_PYTHON} {shlex.quote(str(python.folder / 'random_bot.py'))}"
    bots = [str(f) for f in folders] + [f"random-a={random_bot}", f"random-b={random_bot}"]
    bots[0] = f"first={bots[0]}"
    options = ["--edition", edition, *(a for v in variants for a in ("--variant", v))]
    done = in_process.referee("play", *bots, "--json", "--seed", str(seed), *options,
                              cwd=python.folder.parent, timeout=300)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    seats = result["seats"]
    # Named after its folder, unless its bot.toml says a name (the python kit's: baseline).
    names = ["first", *(read_bot_folder(f).name or f.name for f in folders[1:]),
             "random-a", "random-b"]
    assert [s["name"] for s in seats] == names
    for s in seats:
        assert s["faults"] == [], f"seed {seed}: {s['name']} faulted: {s['faults']}"
        assert not s["retired"], f"seed {seed}: {s['name']} was retired"
        assert isinstance(s["money"], int) and s["money"] >= 0, s
        assert isinstance(s["rank"], int) and 1 <= s["rank"] <= len(seats), s
