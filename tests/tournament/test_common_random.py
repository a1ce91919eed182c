"""Common random numbers in a gauntlet: every candidate meets the baselines in the same way,
the same cards, the same seating around it and the same seeds for the baselines' randomness,
so identical candidates get identical games and scores, whatever their names."""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from pathlib import Path

from referee.tournament.store import open_store

from .. import in_process
from ..processes import BOT_PYTHON

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "sample_bots" / "python" / "baseline_bot.py"
RANDOM = ROOT / "sample_bots" / "python" / "random_bot.py"
FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"
LOGS_SEED = ROOT / "tests" / "scripted_bots" / "logs_seed.py"
# Names that sort before, between and after the baselines' ("baseline", "random"): a
# candidate's name must not change where the baselines sit around it.
CANDIDATES = ["a0", "b0", "bz", "c1", "m3", "q4", "s5", "x6", "y7", "zz"]
# Five of them, two before the baselines, two between and one after: what a copy's games are
# does not depend on how many copies there are, and each copy's six games are bot processes.
COPIES = ["a0", "b0", "bz", "m3", "s5"]


def referee(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` in-process (a game's bots are processes as ever), exit status 0."""
    out = in_process.referee(*args, cwd=cwd, timeout=300)
    assert out.returncode == 0, out.stderr
    return out


def gauntlet(folder: Path, baselines: dict[str, str], candidate: str, deals: int,
             seat_orders: str, candidates: list[str] = CANDIDATES) -> Path:
    lines = ['name = "crn"', "seed = 3", f"table_size = {len(baselines) + 1}",
             'format = "gauntlet"', f"baselines = {json.dumps(list(baselines))}",
             f"deals = {deals}", f'seat_orders = "{seat_orders}"']
    for name, command in [*baselines.items(), *((c, candidate) for c in candidates)]:
        lines += ["[[bots]]", f'name = "{name}"', f"command = {json.dumps(command)}"]
    path = folder / "crn.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def by_slot(db: Path) -> dict[str, dict[tuple[str, str], tuple[object, ...]]]:
    """Each candidate's games by deal and seat order (the game id's tail), each as its seats'
    names (the candidate's as "?"), money, ranks, retired seats and faults."""
    games: dict[str, dict[tuple[str, str], tuple[object, ...]]] = defaultdict(dict)
    store = open_store(db, read_only=True)
    try:
        for r in store.results():
            (cand,) = set(r.names) & set(CANDIDATES)
            _, deal, order = r.game_id.split("-")
            seats = tuple("?" if n == cand else n for n in r.names)
            games[cand][deal, order] = (seats, r.money, r.ranks, r.retired, r.faults)
    finally:
        store.close()
    return games


def test_identical_candidates_get_identical_games_and_scores(tmp_path: Path) -> None:
    """Byte-identical copies of the (deterministic) baseline bot, under five names sorting
    before, between and after the baselines', each in a gauntlet against the baseline and the
    random bot: every copy plays the same games, seat for seat, money for money, and gets the
    same placement points, win share and money in the leaderboard."""
    py = BOT_PYTHON
    config = gauntlet(tmp_path, {"random": f"{py} {RANDOM}", "baseline": f"{py} {BASELINE}"},
                      f"{py} {BASELINE}", deals=2, seat_orders="rotations",
                      candidates=COPIES)
    db = tmp_path / "crn.db"
    referee("tournament", "run", str(config), "--db", str(db), "-q", cwd=tmp_path)

    games = by_slot(db)
    assert sorted(games) == COPIES
    first = games[COPIES[0]]
    assert len(first) == 2 * 3
    for cand in COPIES[1:]:
        assert games[cand] == first, cand
    # the games are real ones: the random bot's money differs from game to game
    assert len({g[1] for g in first.values()}) > 1

    board = json.loads(in_process.referee("leaderboard", str(db), "--format", "json",
                                          cwd=tmp_path).stdout)["entrants"]
    rows = {r["name"]: r for r in board}
    scores = {c: (rows[c]["games"], rows[c]["placement"], rows[c]["win_share"],
                  rows[c]["money"], rows[c]["faults"]) for c in COPIES}
    assert len(set(map(repr, scores.values()))) == 1, scores


def test_referee_play_plays_a_stored_gauntlet_game_again(tmp_path: Path) -> None:
    """`referee play --seed S --seat-order K`, with a stored game's deck seed, seat order and
    seats, gives every bot the seed it had in that game: the random bot plays as it did, and
    the game ends with the same money."""
    py = BOT_PYTHON
    config = gauntlet(tmp_path, {"random": f"{py} {RANDOM}", "baseline": f"{py} {BASELINE}"},
                      f"{py} {FIRST_LEGAL}", deals=1, seat_orders="rotations",
                      candidates=["c1"])
    db = tmp_path / "crn.db"
    referee("tournament", "run", str(config), "--db", str(db), "-q", cwd=tmp_path)
    store = open_store(db, read_only=True)
    try:
        (game,) = [r for r in store.results() if r.game_id.endswith("-o02")]
        record = store.record(game.game_id)
    finally:
        store.close()
    assert record is not None and record.spec.order == 2
    commands = {"random": RANDOM, "baseline": BASELINE, "c1": FIRST_LEGAL}
    bots = [f"{name}={py} {commands[name]}" for name in game.names]
    again = json.loads(referee("play", "--seed", str(record.spec.seed), "--seat-order", "2",
                               *bots, "--json", cwd=tmp_path).stdout)
    assert [s["money"] for s in again["seats"]] == list(game.money)
    # seat order 0's seeds are others: the random bot plays otherwise
    other = json.loads(referee("play", "--seed", str(record.spec.seed), *bots, "--json",
                               cwd=tmp_path).stdout)
    assert [s["money"] for s in other["seats"]] != list(game.money)


def test_a_baselines_seed_is_the_same_for_every_candidate(tmp_path: Path) -> None:
    """`new_game`'s `seed`, as the bots receive it: in the same game (deal, seat order) of
    every candidate's gauntlet, each seat gets the same seed; it differs between the seats
    of a game, between seat orders and between deals, and is never the deck's seed."""
    log = tmp_path / "seeds.jsonl"
    logger = f"{BOT_PYTHON} {LOGS_SEED} {log}"
    # baselines b, k and p; candidates before, between and after them
    config = gauntlet(tmp_path, {"p": logger, "b": logger, "k": logger}, logger, deals=2,
                      seat_orders="rotations", candidates=["a0", "c1", "m3", "q4"])
    db = tmp_path / "crn.db"
    referee("tournament", "run", str(config), "--db", str(db), "-q", cwd=tmp_path)

    sent = [json.loads(line) for line in log.read_text().splitlines()]
    store = open_store(db, read_only=True)
    try:
        results = {r.game_id: r for r in store.results()}
        deck_seeds = {gid: record.spec.seed for gid in results
                      if (record := store.record(gid)) is not None}
    finally:
        store.close()
    assert len(sent) == len(results) * 4 == 4 * 4 * 2 * 4  # every seat of every game

    seeds: dict[tuple[str, str, int], set[int]] = defaultdict(set)
    seated: dict[tuple[str, str, int], set[str]] = defaultdict(set)
    for entry in sent:
        gid, seat, seed = entry["game_id"], entry["seat"], entry["seed"]
        assert type(seed) is int and 0 <= seed < 2**63
        assert seed != deck_seeds[gid]
        _, deal, order = gid.split("-")
        seeds[deal, order, seat].add(seed)
        name = results[gid].names[seat]
        seated[deal, order, seat].add("?" if name in CANDIDATES else name)
    assert len(seeds) == 2 * 4 * 4
    # the same seat of the same game, whoever the candidate: one seat seed, one baseline (or
    # the candidate)
    assert all(len(s) == 1 for s in seeds.values())
    assert all(len(s) == 1 for s in seated.values())
    # and every seat of every game of a gauntlet gets a seed of its own
    assert len({next(iter(s)) for s in seeds.values()}) == len(seeds)
