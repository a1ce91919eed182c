"""An entrant that started in none of its games holds the last place by rule (docs/rules.md
D9), in the standings and in the places the adaptive schedule reads; the others' places stop
above it."""

from __future__ import annotations

import csv
import io
from typing import Any

import numpy as np

from referee.leaderboard import pairs as paired
from referee.leaderboard import sequential, standings, uncertainty
from referee.leaderboard.render import render
from referee.leaderboard.stats import Games, order, verdicts
from referee.tournament.until import unsettled

from .test_leaderboard import all_stored

START = {"kind": "start", "reason": "closed its output before its hello; exit status 3"}


def field_with(crashers: list[str], rounds: int = 3, seed: int = 5, size: int = 16,
               gap: float = 0.0) -> Games:
    """`size` entrants shuffled into tables of four each round, each table's deal in its 4
    rotations; the `crashers` among them fail to start in every game (retired, last), the
    others of one strength with noise, so that few pairs are separated (or, with a `gap`,
    e00 the strongest, each next one `gap` weaker)."""
    names = [*(f"e{i:02d}" for i in range(size - len(crashers))), *crashers]
    rng = np.random.default_rng(seed)
    results: list[tuple[str, list[str], dict[str, Any]]] = []
    seeds: dict[str, int] = {}
    for r in range(rounds):
        order = rng.permutation(len(names))
        for t in range(len(names) // 4):
            table = order[4 * t:4 * t + 4]
            for k in range(4):
                seats = [names[e] for e in np.roll(table, k)]
                score = [-99.0 - i if n in crashers else -gap * int(n[1:]) + float(rng.normal())
                         for i, n in enumerate(seats)]
                ranks = [1 + sum(o > s for o in score) for s in score]
                game_id = f"r{r}-t{t}-o{k}"
                results.append((game_id, seats, {
                    "money": [100 * (5 - x) for x in ranks], "ranks": ranks,
                    "retired": [i for i, n in enumerate(seats) if n in crashers],
                    "faults": [[START] if n in crashers else [] for n in seats]}))
                seeds[game_id] = 1000 * r + t
    return Games.load(all_stored(results), seeds)


def test_a_bot_that_never_started_is_placed_last_and_the_others_above_it() -> None:
    """The tests alone leave the crasher's place open well above the last (too few games in
    common with each, over 120 pairs); by rule it holds place 16, every other entrant's
    range ends at 15, the adaptive schedule reads the same places, and the board says why, in
    the CSV too (a column of its own, beside the one that marks a gauntlet's baselines)."""
    games = field_with(["crash"])
    tested = paired.places(games.names, paired.compare(games.names, games.deal, games.points,
                                                       games.present))
    assert tested["crash"][0] < 16  # what the tests alone would publish
    board = standings(games)
    places = {r.name: (r.place.best, r.place.worst) for r in board.rows}
    assert board.rows[-1].name == "crash" and places["crash"] == (16, 16)
    assert max(worst for name, (_, worst) in places.items() if name != "crash") == 15
    assert uncertainty(games).places() == places
    assert board.never_started == ("crash",) and board.rows[-1].separated  # from the leader
    text = render(board, "table")
    assert ("started in none of its games: crash; placed below every bot that started, by rule "
            "(docs/rules.md D9)") in " ".join(text.split()), text
    rows = list(csv.DictReader(io.StringIO(render(board, "csv", baselines=["e00"]))))
    assert {r["name"] for r in rows if r["never_started"] == "True"} == {"crash"}
    assert {r["name"] for r in rows if r["baseline"] == "True"} == {"e00"}
    assert list(rows[0])[-3:] == ["baseline", "never_started", "left_out"]


def test_bots_that_never_started_share_the_last_places_as_the_tests_place_them() -> None:
    """Two bots that never started hold places 15-16 between them, the others end at 14."""
    board = standings(field_with(["crash", "dead"]))
    places = {r.name: (r.place.best, r.place.worst) for r in board.rows}
    assert {r.name for r in board.rows[-2:]} == {"crash", "dead"}
    assert places["crash"] == places["dead"] == (15, 16)
    assert max(worst for name, (_, worst) in places.items() if name not in board.never_started
               ) == 14
    assert "and among themselves by the tests" in " ".join(render(board, "table").split())


def test_when_no_bot_started_none_is_said_to_be_placed_below_those_that_did() -> None:
    """A field none of whose bots started (a missing interpreter, say) has no bot that
    started to place the others below: the board names no one as placed last by rule, and
    its places are the tests' alone."""
    games = field_with([f"x{i:02d}" for i in range(16)], rounds=1)
    _, tested = verdicts(games, games.names)
    board = standings(games)
    assert board.never_started == ()
    assert "placed below every bot that started" not in " ".join(render(board, "table").split())
    assert {r.name: (r.place.best, r.place.worst) for r in board.rows} == tested


def test_a_gauntlet_baseline_that_never_started_is_named_with_what_it_cost() -> None:
    """A gauntlet's baseline holds no place, but one that started in none of its games is
    still named under the board, apart from any candidate placed last by rule: the candidates
    were measured without it; JSON's never_started and CSV's column name it too."""
    games = field_with(["crash", "down"])
    board = standings(games, baselines={"down"})
    assert board.never_started == ("crash", "down")
    text = " ".join(render(board, "table", baselines=["down"]).split())
    assert ("started in none of its games: crash; placed below every bot that started, by rule "
            "(docs/rules.md D9); the baseline down started in none of its games: its seat was "
            "retired at the start of every game, so the candidates were measured without it"
            ) in text, text
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(render(board, "csv",
                                                                     baselines=["down"])))}
    assert rows["down"]["never_started"] == "True" and rows["down"]["rank"] == ""


def test_a_run_with_until_does_not_wait_to_separate_a_bot_that_never_started() -> None:
    """A run's looks read the places the leaderboard shows: a bot that never started is below
    the leader and below its neighbour by rule, so `until = "separated"` does not name it among
    those the leader is not found stronger than, and `until = "ranked"` does not call it and
    the bot above it "not separated" when the board shows them at places 7 and 8."""
    few = field_with(["crash"], rounds=2, size=8, gap=3.0)
    names = order(few)
    assert names[-1] == "crash"
    assert "crash" not in sequential.leader_open(few, names, "placement", 0.05)
    more = field_with(["crash"], rounds=6, size=8, gap=3.0)
    places = {r.name: (r.place.best, r.place.worst) for r in standings(more).rows}
    assert places["e06"] == (7, 7) and places["crash"] == (8, 8)
    why = unsettled(more, order(more), "ranked", "placement", 0.05)
    assert why is not None and "crash" not in why, why
