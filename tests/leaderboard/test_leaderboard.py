"""Leaderboards a contest can trust: intervals that separate only real differences."""

from __future__ import annotations

import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.bots.player import BotPlayer, BotSpec
from referee.leaderboard import Games, by_seat, head_to_head, leaderboard
from referee.leaderboard.stats import placement_points
from referee.match.players import PolicyPlayer, random_player
from referee.player import Player
from referee.tournament.config import TournamentConfig
from referee.tournament.runner import run_tournament
from referee.tournament.store import open_store

from .. import terminal

ROOT = Path(__file__).resolve().parents[2]


def play(tmp: Path, seed: int, names: list[str], make: Any, **extra: Any) -> Games:
    config = TournamentConfig.model_validate({
        "name": "t", "seed": seed, "bots": [{"name": n, "command": "unused"} for n in names],
        **extra,
    })
    store = open_store(tmp / f"s{seed}.db")
    trio.run(lambda: run_tournament(config, tmp / "t.toml", store, 2, lambda m: None,
                                    player_factory=make))
    games = Games.load(store.results())
    store.close()
    return games


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["low"] <= b["high"] and b["low"] <= a["high"]


def test_placement_points_share_tied_places() -> None:
    assert placement_points([1, 2, 3, 4]) == [1.0, 2 / 3, 1 / 3, 0.0]
    assert placement_points([1, 1, 3, 4]) == [5 / 6, 5 / 6, 1 / 3, 0.0]
    assert placement_points([2, 1, 2]) == [0.25, 1.0, 0.25]


def test_two_copies_of_one_bot_are_not_separated(tmp_path: Path) -> None:
    """The same deterministic-random bot under two names, round robin, duplicate deals:
    their intervals overlap in at least 19 of 20 master seeds."""

    def make(name: str, worker: int) -> Player:
        # copy-a and copy-b share one policy and one seed: the same bot under two names
        seed = 7 if name.startswith("copy") else zlib.crc32(name.encode()) % 1000
        return random_player(name, seed)

    overlapping = 0
    for seed in range(20):
        games = play(tmp_path, seed, ["copy-a", "copy-b", "other-1", "other-2"], make,
                     table_size=3, deals=2)
        rows = {r["name"]: r for r in leaderboard(games, samples=400)}
        a, b = rows["copy-a"], rows["copy-b"]
        assert a["games"] == b["games"] == 3 * 6 * 2  # every table each is at, 6 orders, 2 deals
        overlapping += overlaps(a["placement"], b["placement"]) and overlaps(a["money"],
                                                                             b["money"])
    assert overlapping >= 19


def test_the_baseline_is_separated_from_random_bots(tmp_path: Path) -> None:
    """Strong baseline against random bots: the intervals do not overlap, within 400 games."""
    command = f"{sys.executable} {ROOT / 'sample_bots/python/baseline_bot.py'}"

    def make(name: str, worker: int) -> Player:
        if name == "baseline":
            return BotPlayer(BotSpec(name, command))
        return random_player(name, zlib.crc32(name.encode()) % 1000)

    names = ["baseline", "random-1", "random-2", "random-3", "random-4"]
    games = play(tmp_path, 3, names, make, seat_orders="rotations", deals=10)
    assert len(games.game_ids) == 5 * 4 * 10 <= 400
    rows = leaderboard(games)
    assert rows[0]["name"] == "baseline"
    assert all(r["separated"] for r in rows)
    second = rows[1]
    assert rows[0]["placement"]["low"] > second["placement"]["high"]
    assert rows[0]["money"]["low"] > max(r["money"]["high"] for r in rows[1:])


def test_head_to_head_and_seats_count_every_pairing(tmp_path: Path) -> None:
    games = play(tmp_path, 1, ["a", "b", "c", "d"],
                 lambda n, w: PolicyPlayer(n, lambda d, v, r: d.default_action()),
                 table_size=3)
    h2h = head_to_head(games)
    for a in "abcd":
        for b in "abcd":
            if a != b:
                ab, ba = h2h[a][b], h2h[b][a]
                assert ab["above"] == ba["below"] and ab["level"] == ba["level"]
                assert ab["above"] + ab["below"] + ab["level"] == 2 * 6  # 2 tables x 6 orders
    seats = by_seat(games)
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert all(s["games"] == 4 * 6 for s in seats)
    assert abs(sum(s["win_share"] for s in seats) - 1.0) < 1e-9


def test_every_format_counts_stderr_over_its_limit() -> None:
    """The table, Markdown, CSV and JSON give the same fault counts (before: the stderr
    faults were in JSON and the report only)."""
    import csv
    import io
    import json

    from referee.leaderboard.render import render

    noisy = {"kind": "stderr", "reason": "wrote 2000000 bytes to stderr in this game"}
    results = [(f"g{i}", ["noisy", "quiet", "other"],
                {"money": [10, 20, 30], "ranks": [3, 2, 1], "retired": [],
                 "faults": [[noisy], [], []]}) for i in range(3)]
    rows = leaderboard(Games.load(results))
    by_name = {r["name"]: r for r in json.loads(render(rows, "json"))["entrants"]}
    assert by_name["noisy"]["faults"]["stderr_over_limit"] == 3
    table = render(rows, "table").splitlines()
    header = table[0]
    noisy_line = next(line for line in table if " noisy" in line)
    start = header.index("stderr cut")
    assert noisy_line[start:start + len("stderr cut")].strip() == "3", (header, noisy_line)
    assert "stderr cut |" in render(rows, "markdown")
    csv_rows = {r["name"]: r for r in csv.DictReader(io.StringIO(render(rows, "csv")))}
    assert csv_rows["noisy"]["stderr_over_limit"] == "3"
    assert csv_rows["quiet"]["stderr_over_limit"] == "0"


def test_markdown_shows_names_as_they_are_and_the_legend_as_text() -> None:
    """`__dunder__` rendered bold and `_under_` italic; the legend's leading "* " made a
    bullet, losing the key to the marks."""
    from referee.leaderboard.render import render

    results = [(f"g{i}", ["__dunder__", "_under_", "plain"],
                {"money": [10 + i % 2, 10, 10], "ranks": [1 + i % 2, 1, 3], "retired": [],
                 "faults": [[], [], []]}) for i in range(4)]
    text = render(leaderboard(Games.load(results)), "markdown")
    assert "\\_\\_dunder\\_\\_" in text and "\\_under\\_" in text
    assert "\n\n\\* not separated from the leader" in text


def test_head_to_head_follows_the_standings(tmp_path: Path) -> None:
    """The matrix listed bots in the order they first appeared; the standings' order is what
    a reader compares it with (the report uses it too)."""
    from referee.leaderboard import board

    store = open_store(tmp_path / "s.db")
    store.bind("t", "f", "{}")
    for i in range(6):
        seats = ["last", "middle", "first"]
        result = {"money": [1, 2, 3], "ranks": [3, 2, 1], "retired": [], "faults": [[], [], []]}
        store.save(f"g{i}", seats, i, result, b"", 0.0, 1)
    text = board(store, "table", with_head_to_head=True)
    store.close()
    matrix = text.split("games in which the row's bot finished above")[1].splitlines()
    assert [line.split()[0] for line in matrix[3:6]] == ["first", "middle", "last"]


@pytest.mark.parametrize(("fmt", "shown"), [
    ("table", "\\x1b]0;pwned\\x07\\rALL BOTS PASSED\\u202e"),
    ("markdown", "\\\\x1b\\]0;pwned\\\\x07\\\\rALL BOTS PASSED\\\\u202e"),
    ("csv", "\\x1b]0;pwned\\x07\\rALL BOTS PASSED\\u202e"),
    ("json", "\\u001b]0;pwned\\u0007\\rALL BOTS PASSED\\u202e"),
])
def test_a_name_with_escape_sequences_is_shown_as_escapes(tmp_path: Path, fmt: str,
                                                          shown: str) -> None:
    """A stored name that would set the window title, overwrite its row with "ALL BOTS
    PASSED" and reverse the rest: every format of `referee leaderboard` (and the head-to-head
    matrix) shows it as escapes, and the table's columns still line up."""
    evil = "\x1b]0;pwned\x07\rALL BOTS PASSED\u202e"
    store = open_store(tmp_path / "s.db")
    store.bind("t", "f", "{}")
    for i in range(4):
        result = {"money": [1, 2, 3], "ranks": [3, 2, 1], "retired": [], "faults": [[], [], []]}
        store.save(f"g{i}", ["last", evil, "first"], i, result, b"", 0.0, 1)
    store.close()
    extra = [] if fmt == "csv" else ["--head-to-head"]
    out = terminal.referee("leaderboard", str(tmp_path / "s.db"), "--format", fmt, *extra,
                           cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = out.stdout.replace("\r\n", "\n") if fmt == "csv" else out.stdout  # CSV's line ends
    terminal.assert_shown_safely(text + out.stderr, shown)
    if fmt == "table":
        lines = text.split("\n")
        header, row = lines[0], next(x for x in lines if "pwned" in x)
        end = header.index("games") + len("games")
        assert row[end - 2:end + 1] == " 4 ", (header, row)  # its games under "games"


def test_a_timeout_is_not_a_response_time() -> None:
    """A bot that never answered showed a median response of its move time: the time a
    timeout or a crash was given is left out; a malformed reply's time stays (it answered)."""
    from referee.match.runner import GameRecord
    from referee.match.spec import GameSpec
    from referee.tournament.runner import response_histogram

    record = GameRecord(GameSpec.make("g", 1, ["a", "b", "c"]))
    record.lines = [
        {"type": "fault", "seat": 0, "kind": "timeout", "reason": "no reply"},
        {"type": "apply", "seat": 0, "source": "default", "action": {}, "seconds": 1.0},
        {"type": "fault", "seat": 1, "kind": "malformed", "reason": "not JSON"},
        {"type": "apply", "seat": 1, "source": "default", "action": {}, "seconds": 0.001},
        {"type": "apply", "seat": 0, "source": "bot", "action": {}, "seconds": 0.002},
    ]
    hist = response_histogram(record, 3)
    assert sum(hist[0].values()) == 1 and sum(hist[1].values()) == 1 and hist[2] == {}
