"""Leaderboards a contest can trust: intervals that separate only real differences."""

from __future__ import annotations

import shutil
import zlib
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.leaderboard import Games, by_seat, head_to_head, standings
from referee.leaderboard.render import rating_text
from referee.leaderboard.rows import Place
from referee.leaderboard.stats import placement_points
from referee.match.player import Player
from referee.match.policy_player import PolicyPlayer, random_player
from referee.tournament.config import TournamentConfig
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

from .. import terminal
from ..in_process_bot import BaselineInProcess
from .support import a_tournament, all_stored, stored

ROOT = Path(__file__).resolve().parents[2]


def play(tmp: Path, seed: int, names: list[str], make: Any, **extra: Any) -> Games:
    config = TournamentConfig.model_validate({
        "name": "t", "seed": seed, "bots": [{"name": n, "command": "unused"} for n in names],
        **extra,
    })
    store = open_store(tmp / f"s{seed}.db")
    trio.run(lambda: run_tournament(config, tmp / "t.toml", store, LocalExecutor(2, make),
                                    lambda m: None))
    games = Games.load(store.results(), store.seeds())
    store.close()
    return games


def by_hand(results: list[tuple[str, list[str], dict[str, Any]]]) -> Games:
    """Games written out by hand, each dealt its own deck."""
    return Games.load(all_stored(results), {gid: i for i, (gid, _, _) in enumerate(results)})


def in_seat_order() -> dict[str, Any]:
    """The result of a three-seat game finished in seat order, without faults."""
    return {"money": [30, 20, 10], "ranks": [1, 2, 3], "retired": [], "faults": [[], [], []]}


def one_clear_leader() -> list[tuple[str, list[str], dict[str, Any]]]:
    """20 deals in which `top` always wins and `a` and `b` take turns in second place: top
    holds place 1, and a and b places 2-3."""
    return [(f"g{i:02d}", ["top", *(("a", "b") if i % 2 else ("b", "a"))], in_seat_order())
            for i in range(20)]


def test_placement_points_share_tied_places() -> None:
    assert placement_points([1, 2, 3, 4]) == [1.0, 2 / 3, 1 / 3, 0.0]
    assert placement_points([1, 1, 3, 4]) == [5 / 6, 5 / 6, 1 / 3, 0.0]
    assert placement_points([2, 1, 2]) == [0.25, 1.0, 0.25]


@pytest.mark.slow
def test_two_copies_of_one_bot_are_not_separated(tmp_path: Path) -> None:
    """The same deterministic-random bot under two names, with two more random bots, round
    robin, duplicate deals (short games of the tiny edition): no pair is separated in at least
    17 of 20 master seeds (at the board's familywise error of 5%, 4 or more of 20 come 1.6% of
    the time), and the copies' place ranges always overlap.  The block model
    compares each pair over every block either played (32 deals), through the others as well
    as where they met."""

    def make(name: str, worker: int) -> Player:
        # copy-a and copy-b share one policy and one seed: the same bot under two names
        seed = 7 if name.startswith("copy") else zlib.crc32(name.encode()) % 1000
        return random_player(name, seed)

    shutil.copy(ROOT / "protocol" / "examples" / "tiny.toml", tmp_path / "tiny.toml")
    calm = 0
    for seed in range(20):
        games = play(tmp_path, seed, ["copy-a", "copy-b", "other-1", "other-2"], make,
                     table_size=3, seat_orders="rotations", deals=8, edition="tiny.toml")
        board = standings(games, samples=50)  # the intervals' samples: no part in the pairs
        rows = {r.name: r for r in board.rows}
        a, b = rows["copy-a"], rows["copy-b"]
        assert a.games == b.games == 3 * 3 * 8  # the tables each is at, 3 orders, 8 deals
        copies = next(p for p in board.pairs if {p.a, p.b} == {"copy-a", "copy-b"})
        assert copies.paired == "model"
        assert copies.test.deals == 4 * 8  # every table of either, 8 deals each
        assert a.place.best <= b.place.worst
        assert b.place.best <= a.place.worst
        calm += not any(p.separated for p in board.pairs)
    assert calm >= 17


def test_the_baseline_is_separated_from_random_bots(tmp_path: Path) -> None:
    """Strong baseline against four random bots, 200 games: the baseline holds place 1,
    separated from each random bot by the paired test, with a rating interval above all of
    theirs; the random bots, one policy, are not separated from each other (places 2-5).
    (The baseline's own code, in-process: the games its process plays, move for move.)"""

    def make(name: str, worker: int) -> Player:
        if name == "baseline":
            return BaselineInProcess(name)
        return random_player(name, zlib.crc32(name.encode()) % 1000)

    names = ["baseline", "random-1", "random-2", "random-3", "random-4"]
    games = play(tmp_path, 3, names, make, seat_orders="rotations", deals=10)
    assert len(games.game_ids) == 5 * 4 * 10
    board = standings(games)
    rows = board.rows
    assert rows[0].name == "baseline"
    assert rows[0].place == Place(best=1, worst=1)
    assert all(r.separated for r in rows)
    assert all(r.place == Place(best=2, worst=5) for r in rows[1:])
    assert [p.separated for p in board.pairs] == [p.a == "baseline" for p in board.pairs]
    assert all(p.test.low is not None and p.test.low > 0 for p in board.pairs
               if p.a == "baseline")
    assert rows[0].rating.low > max(r.rating.high for r in rows[1:])
    assert rows[0].money.low > max(r.money.high for r in rows[1:])


def test_a_sampled_field_separates_baselines_from_random_bots(tmp_path: Path) -> None:
    """Six copies of the baseline and six random bots, 12 sampled tables of four in the 12
    balanced seat orders (144 games, each entrant at 4 tables, a pair at 0 to 2 of them):
    every baseline is separated above every random bot, and no two random bots are
    separated, by the block model over all 12 blocks.  (The baseline's own code, in-process:
    the games its processes play, move for move.)"""

    def make(name: str, worker: int) -> Player:
        if name.startswith("baseline"):
            return BaselineInProcess(name)
        return random_player(name, zlib.crc32(name.encode()) % 1000)

    baselines = [f"baseline-{i}" for i in range(6)]
    randoms = [f"random-{i}" for i in range(6)]
    # Four tables an entrant make this a close thing: the sample of seed 2026 as drawn
    # since samples grow leaves two baselines level with a random bot; 2027 and 7 do not.
    games = play(tmp_path, 2027, baselines + randoms, make, tables=12,
                 seat_orders="balanced")
    assert len(games.game_ids) == 144
    board = standings(games)
    rows = {r.name: r for r in board.rows}
    assert {rows[b].place.worst for b in baselines} == {6}
    assert {rows[r].place.best for r in randoms} == {7}
    for pair in board.pairs:
        assert pair.paired == "model"
        if {pair.a[:4], pair.b[:4]} == {"base", "rand"}:
            assert pair.separated and pair.a.startswith("baseline"), pair
        elif pair.a.startswith("random"):
            assert not pair.separated, pair


def test_head_to_head_and_seats_count_every_pairing(tmp_path: Path) -> None:
    games = play(tmp_path, 1, ["a", "b", "c", "d"],
                 lambda n, w: PolicyPlayer(n, lambda d, v, r: d.default_action()),
                 table_size=3)
    h2h = head_to_head(games)
    for a in "abcd":
        for b in "abcd":
            if a != b:
                ab, ba = h2h[a][b], h2h[b][a]
                assert ab.above == ba.below and ab.level == ba.level
                assert ab.above + ab.below + ab.level == 2 * 6  # 2 tables x 6 orders
    seats = by_seat(games)
    assert [s.seat for s in seats] == [0, 1, 2]
    assert all(s.games == 4 * 6 for s in seats)
    assert abs(sum(s.win_share for s in seats) - 1.0) < 1e-9


def test_every_format_counts_stderr_over_its_limit() -> None:
    """The table, Markdown, CSV and JSON give the same fault counts, the stderr faults
    included (not in JSON and the report only)."""
    import csv
    import io
    import json

    from referee.leaderboard.render import render

    noisy = {"kind": "stderr", "reason": "wrote 2000000 bytes to stderr in this game"}
    results = [(f"g{i}", ["noisy", "quiet", "other"],
                {"money": [10, 20, 30], "ranks": [3, 2, 1], "retired": [],
                 "faults": [[noisy], [], []]}) for i in range(3)]
    board = standings(by_hand(results))
    by_name = {r["name"]: r for r in json.loads(render(board, "json"))["entrants"]}
    assert by_name["noisy"]["faults"]["stderr_over_limit"] == 3
    table = render(board, "table", wide=True).splitlines()
    header = table[0]
    noisy_line = next(line for line in table if " noisy" in line)
    start = header.index("stderr cut")
    assert noisy_line[start:start + len("stderr cut")].strip() == "3", (header, noisy_line)
    assert "stderr cut |" in render(board, "markdown", wide=True)
    narrow = render(board, "table").splitlines()
    start = narrow[0].index("faults")
    noisy_line = next(line for line in narrow if " noisy" in line)
    assert noisy_line[start:start + len("faults")].strip() == "3", (narrow[0], noisy_line)
    csv_rows = {r["name"]: r for r in csv.DictReader(io.StringIO(render(board, "csv")))}
    assert csv_rows["noisy"]["stderr_over_limit"] == "3"
    assert csv_rows["quiet"]["stderr_over_limit"] == "0"


def test_markdown_shows_names_as_they_are_and_the_note_as_text() -> None:
    """Markdown shows `__dunder__` and `_under_` as written, not bold or italic, and the note
    on places as a paragraph of its own, not a row of the table."""
    from referee.leaderboard.render import render

    results = [(f"g{i}", ["__dunder__", "_under_", "plain"],
                {"money": [10 + i % 2, 10, 10], "ranks": [1 + i % 2, 1, 3], "retired": [],
                 "faults": [[], [], []]}) for i in range(4)]
    text = render(standings(by_hand(results)), "markdown")
    assert "\\_\\_dunder\\_\\_" in text and "\\_under\\_" in text
    assert "|\n\nplace: the places a bot could hold" in text


def test_head_to_head_follows_the_standings(tmp_path: Path) -> None:
    """The matrix listed bots in the order they first appeared; the standings' order is what
    a reader compares it with (the report uses it too)."""
    from referee.leaderboard import standings_text

    store = open_store(tmp_path / "s.db")
    store.bind(a_tournament(), "f")
    for i in range(6):
        seats = ["last", "middle", "first"]
        result = {"money": [1, 2, 3], "ranks": [3, 2, 1], "retired": [], "faults": [[], [], []]}
        store.save(f"g{i}", seats, i, stored(f"g{i}", seats, result), b"", 0.0, 1,
                   ["v1"] * len(seats))
    text = standings_text(Games.from_store(store), "placement", "table", with_head_to_head=True)
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
    store.bind(a_tournament(), "f")
    for i in range(4):
        result = {"money": [1, 2, 3], "ranks": [3, 2, 1], "retired": [], "faults": [[], [], []]}
        seats = ["last", evil, "first"]
        store.save(f"g{i}", seats, i, stored(f"g{i}", seats, result), b"", 0.0, 1,
                   ["v1"] * len(seats))
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
    """A bot that never answers has no response time, not a median of its move time: the
    time a timeout or a crash is given is left out; a malformed reply's time stays (it
    answered)."""
    from referee.game import Pass
    from referee.match.record import ApplyLine, FaultLine, GameRecord
    from referee.match.spec import GameSpec
    from referee.protocol.messages import FaultKind
    from referee.tournament.executors.worker import response_histogram

    lines = (
        FaultLine(seat=0, kind=FaultKind.TIMEOUT, reason="no reply"),
        ApplyLine(seat=0, source="default", action=Pass(0), seconds=1.0),
        FaultLine(seat=1, kind=FaultKind.MALFORMED, reason="not JSON"),
        ApplyLine(seat=1, source="default", action=Pass(1), seconds=0.001),
        ApplyLine(seat=0, source="bot", action=Pass(0), seconds=0.002),
    )
    result = stored("g", ["a", "b", "c"], in_seat_order())
    record = GameRecord(GameSpec.make("g", 1, ["a", "b", "c"]), lines, result)
    hist = response_histogram(record, 3)
    assert sum(hist[0].values()) == 1 and sum(hist[1].values()) == 1 and hist[2] == {}


def test_every_format_shows_the_place_range_and_the_rating_interval() -> None:
    """The table, Markdown, CSV and JSON give each bot its place ("1", or the range "2-3"
    when the paired tests cannot order it) and its Elo rating with the 95% interval."""
    import csv
    import io
    import json

    from referee.leaderboard.render import render

    board = standings(by_hand(one_clear_leader()))
    places = {"top": "1", "a": "2-3", "b": "2-3"}
    ratings = {r.name: r.rating for r in board.rows}
    assert ratings["top"].low <= ratings["top"].elo <= ratings["top"].high
    assert ratings["top"].low > ratings["a"].high
    for fmt in ("table", "markdown"):
        lines = render(board, fmt, wide=True).splitlines()
        for name, place in places.items():
            row = next(line for line in lines if f" {name} " in line)
            cells = row.replace("|", " ").split()
            assert cells[1] == place, (fmt, row)
            assert rating_text(ratings[name]) in row, (fmt, row)
        assert any(line.startswith("place: the places a bot could hold")
                   for line in lines), fmt  # the note under the table, wrapped in a terminal
    shown = {r["name"]: r for r in csv.DictReader(io.StringIO(render(board, "csv")))}
    for name, place in places.items():
        r = shown[name]
        assert "-".join(dict.fromkeys((r["place_best"], r["place_worst"]))) == place
        assert float(r["rating_low"]) < float(r["rating_elo"]) or name == "top"
        assert abs(float(r["rating_elo"]) - ratings[name].elo) < 0.1
        assert "rating_mu" not in r and "rating_sigma" not in r
    doc = json.loads(render(board, "json"))
    for entrant in doc["entrants"]:
        best, worst = {"1": (1, 1), "2-3": (2, 3)}[places[entrant["name"]]]
        assert entrant["place"] == {"best": best, "worst": worst}
        assert set(entrant["rating"]) == {"elo", "low", "high"}


def test_json_lists_every_pair_with_its_verdict() -> None:
    """JSON's `pairs` holds every pair in standings order with the documented keys: the
    leader separated from both others (the difference's interval above 0, LOS near 1), and
    the two that take turns not separated."""
    import json

    from referee.leaderboard.render import render

    doc = json.loads(render(standings(by_hand(one_clear_leader())), "json"))
    pairs = doc["pairs"]
    assert [(p["a"], p["b"]) for p in pairs] == [("top", "a"), ("top", "b"), ("a", "b")]
    for p in pairs:
        assert set(p) == {"a", "b", "games", "deals", "paired", "diff", "low", "high", "los",
                          "p", "separated"}
        assert p["games"] == p["deals"] == 20 and p["paired"] == "table"
    top_a, top_b, a_b = pairs
    for p in (top_a, top_b):
        assert p["separated"] and p["diff"] == 0.75 and 0 < p["low"] < 0.75 < p["high"]
        assert p["los"] > 0.99 and p["p"] < 0.05
    assert not a_b["separated"] and a_b["diff"] == 0 and a_b["low"] < 0 < a_b["high"]
    assert a_b["los"] == 0.5


def test_pairs_option_prints_the_pairs_and_is_refused_with_csv(tmp_path: Path) -> None:
    """`referee leaderboard --pairs` adds a table of every pair (difference and its
    simultaneous interval, LOS, separated) and names the method; with --format csv it is one
    error line."""
    store = open_store(tmp_path / "s.db")
    store.bind(a_tournament(), "f")
    for i, (gid, seats, result) in enumerate(one_clear_leader()):
        store.save(gid, seats, i, stored(gid, seats, result), b"", 0.0, 1,
                   ["v1"] * len(seats))
    store.close()
    db = str(tmp_path / "s.db")
    for fmt in ("table", "markdown"):
        out = terminal.referee("leaderboard", db, "--format", fmt, "--pairs", cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        header = next(i for i, line in enumerate(lines) if "a - b [95% CI]" in line)
        assert "LOS" in lines[header] and "separated" in lines[header]
        rows = [line.replace("|", " ").split() for line in lines[header + 2:header + 5]]
        assert [(r[0], r[1], r[-1]) for r in rows] == [("top", "a", "yes"), ("top", "b", "yes"),
                                                       ("a", "b", "no")]
        assert all(r[2] == r[3] == "20" for r in rows)  # games, deals
        assert "+0.750 [+0." in lines[header + 2] and "+0.000 [-0." in lines[header + 4]
        assert "Student's t over 20 deals" in out.stdout and "Holm over 3 pairs" in out.stdout
    plain = terminal.referee("leaderboard", db, cwd=tmp_path)
    assert plain.returncode == 0 and "a - b [95% CI]" not in plain.stdout
    refused = terminal.referee("leaderboard", db, "--format", "csv", "--pairs", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("error: --pairs")
    assert len(refused.stderr.strip().splitlines()) == 1


def test_the_default_table_fits_120_columns_and_wide_shows_every_column() -> None:
    """With names of 20 characters, every line of the default table and of its notes fits a
    120-column terminal, with the primary metric's interval; `--wide` adds the other
    intervals, each kind of fault and the response times (saying they come from
    histograms).  Each mean keeps its digits: money 25.0, not 25."""
    from referee.leaderboard.render import render

    names = [f"a_rather_long_name_{i}" for i in range(4)]
    results = [(f"g{i}", names[i % 4:] + names[:i % 4],
                {"money": [10, 20, 30, 40], "ranks": [4, 3, 2, 1], "retired": [],
                 "faults": [[], [], [], []]}) for i in range(8)]
    board = standings(by_hand(results))
    text = render(board, "table")
    assert max(len(line) for line in text.splitlines()) <= 120, text
    assert "placement [95% CI]" in text and "money [95% CI]" not in text
    assert all(line.split()[-4] == "25.0" for line in text.splitlines()[2:6]), text
    assert render(board, "table", primary="money").count("money [95% CI]") == 1
    wide = render(board, "table", wide=True)
    for column in ("money [95% CI]", "rating (Elo) [95% CI]", "timeouts", "ms median",
                   "ms: response times"):
        assert column in wide and column not in text


def test_a_strength_that_rounds_to_its_mean_is_not_shown_and_never_reads_minus_zero() -> None:
    """An entrant always last has a mean of 0; a fit that gives it a strength a hair below 0
    (-0.0000001) gives what the table shows as its mean: the table leaves the strength out,
    and neither it nor the CSV writes -0.000."""
    import dataclasses

    from referee.leaderboard.render import standings_csv, standings_table

    results = [(f"g{i:02d}", ["top", "mid", "last"], in_seat_order()) for i in range(10)]
    board = standings(by_hand(results))
    rows = [dataclasses.replace(r, strength=r.placement.mean - 1e-7) for r in board.rows]
    assert [r.placement.mean for r in rows][-1] == 0
    table = standings_table(rows)
    assert "strength" not in table and "-0.000" not in table, table
    assert "-0.0000" not in standings_csv(rows)


def test_intervals_from_one_deal_are_said_to_show_no_spread() -> None:
    """Six games of one deal (its seat orders) give intervals of no width, as every bootstrap
    resample is that deal: the note under the board says they show no spread, not certainty;
    with two deals or more it says nothing of it."""
    from referee.leaderboard.resolution import ONE_DEAL

    results = one_clear_leader()[:6]
    one = Games.load(all_stored(results), dict.fromkeys((gid for gid, _, _ in results), 0))
    board = standings(one)
    assert {(r.placement.low, r.placement.high) == (r.placement.mean,) * 2 for r in board.rows} \
        == {True}
    assert board.note is not None and board.note.endswith(ONE_DEAL)
    assert "no spread" in ONE_DEAL
    many = standings(by_hand(results))
    assert many.note is None or ONE_DEAL not in many.note


def test_a_sampled_field_shows_the_strength_that_orders_it_within_120_columns() -> None:
    """Where the opponents met make the adjusted strength differ from the plain means (a
    sampled field), the table shows it, in decreasing order, with a note saying what it is,
    and still fits 120 columns with names of 20 characters; CSV always has it; a complete
    design, where it is the plain mean, leaves it out of the table."""
    import csv
    import io

    from referee.leaderboard.render import render

    from .test_large_fields import field

    sampled = field(12, 3, 1.0, 4)
    long = {n: f"{n}_a_rather_long_name"[:20] for n in sampled.names}
    sampled.names = [long[n] for n in sampled.names]
    board = standings(sampled)
    text = render(board, "table")
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 120, text
    column = lines[0].index("strength")
    shown = [float(line[column - 2:column + len("strength")]) for line in lines[2:14]]
    assert shown == sorted(shown, reverse=True) and len(set(shown)) > 1, text
    assert ("strength: what each bot's placement points would be had every bot met the same "
            "opponents") in " ".join(lines)
    placement = [r.placement.mean for r in board.rows]
    assert placement != sorted(placement, reverse=True)  # the plain means would not order it
    rows = list(csv.DictReader(io.StringIO(render(board, "csv"))))
    assert [float(r["strength"]) for r in rows] == pytest.approx(shown, abs=5e-4)

    complete = standings(by_hand(one_clear_leader()))
    assert "strength" not in render(complete, "table")
    assert "strength" in render(complete, "csv").splitlines()[0]


def round_robin_of_five(money_of_table: bool = False) -> list[tuple[str, list[str],
                                                                      dict[str, Any]]]:
    """Every table of 4 of 5 bots, each in 4 rotations, with finishes drawn at random (a
    fixed seed); `money_of_table`: each table's total money differs (its cards)."""
    import itertools
    import random

    rng = random.Random(5)
    results = []
    for t, table in enumerate(itertools.combinations(["a", "b", "c", "d", "e"], 4)):
        for k in range(4):
            seats = list(table[k:] + table[:k])
            ranks = rng.sample([1, 2, 3, 4], 4)
            base = 100 * (t + 1) if money_of_table else 100
            results.append((f"t{t}-{k}", seats, {
                "money": [base + 10 * (5 - r) + rng.randrange(5) for r in ranks],
                "ranks": ranks, "retired": [], "faults": [[], [], [], []]}))
    return results


def test_the_strength_column_shows_where_bots_did_not_all_meet_alike() -> None:
    """A complete round robin of 5 bots at tables of 4, ranked by placement or win share:
    the strength orders as the means (on a wider scale), so the table leaves it and its note
    out, whatever the finishes; the same games less one table's, where the bots no longer
    met alike, show it with a note that says in plain words what it is and why it is shown;
    ranked by money, whose total differs from table to table, the complete round robin shows
    it too.  The CSV has it always."""
    from referee.leaderboard.render import render

    complete = by_hand(round_robin_of_five())
    for primary in ("placement", "win_share"):
        text = render(standings(complete, primary), "table", primary=primary)
        assert "strength" not in text, text
    assert "strength" in render(standings(complete), "csv").splitlines()[0]

    part = by_hand([r for r in round_robin_of_five() if not r[0].startswith("t0-")])
    text = " ".join(render(standings(part), "table").splitlines())
    assert "strength: what each bot's placement points would be had every bot met the same " \
           "opponents: its mean adjusted for whom it met. It orders the table, shown because " \
           "the bots did not all meet alike" in text, text
    assert "k(n-1)" not in text

    money = render(standings(by_hand(round_robin_of_five(True)), "money"), "table",
                   primary="money")
    assert "shown because the bots played at different tables" in " ".join(money.splitlines())


def test_a_left_out_entrants_csv_games_are_those_the_board_counts(tmp_path: Path) -> None:
    """An entrant left out (its build failed) whose stored games all sat with an entrant
    withdrawn since is not on the board: its CSV row's games are the board's, 0, not its 2
    stored games kept off it; the withdrawn entrant's row has its stored games, which its
    reason names."""
    import csv
    import io

    from referee.cli.common import stored_standings_text
    from referee.tournament.store import LEFT_OUT, PLAYING, Entrant

    db = tmp_path / "s.db"
    store = open_store(db)
    store.bind(a_tournament(), "f")
    result = {"money": [1, 2, 3], "ranks": [3, 2, 1], "retired": [], "faults": [[], [], []]}
    for i, seats in enumerate([["a", "b", "c"], ["a", "b", "c"], ["cal", "dan", "a"],
                               ["cal", "dan", "b"]]):
        store.save(f"g{i}", seats, i, stored(f"g{i}", seats, result), b"", 0.0, 1,
                   ["v1"] * len(seats))
    store.record_field([Entrant("cal", "v1", LEFT_OUT, "its build failed"),
                        Entrant("dan", "v1", PLAYING)], ["dan"], {})
    store.close()
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(stored_standings_text(db, "csv")))}
    assert rows["cal"]["rank"] == "" and rows["cal"]["left_out"] == "its build failed"
    assert rows["cal"]["games"] == "0", rows["cal"]
    assert rows["dan"]["games"] == "2" and "its 2 stored games are out of these standings" \
        in rows["dan"]["left_out"], rows["dan"]
    assert rows["a"]["games"] == "2"


def test_a_late_entrant_a_table_short_as_an_original_is_not_said_to_have_joined_late() -> None:
    """e joined in run 2 with 3 games, as many as c, there from the start (the others have
    4): being a table short is no mark of joining late, and the board names nobody.  With 2
    games, fewer than any entrant there from the start, e is named, beside the 3 games most
    of them have.  An original no longer in the field (left out after 1 game, still on the
    board) is no measure: e, with 2 games to the 4 of every original still playing, is named."""
    from referee.leaderboard.late import joined_late, late_line

    def said(tables: list[list[str]], field: tuple[str, ...] = ()) -> str:
        """The line under the board of these tables' games (none: '')."""
        games = by_hand([(f"g{i}", seats, in_seat_order()) for i, seats in enumerate(tables)])
        late = joined_late(standings(games, samples=10).rows, joined, 2, field)
        return late_line(late, str) if late else ""

    tables = [["a", "b", "c"], ["a", "b", "d"], ["a", "c", "d"], ["b", "d", "e"],
              ["a", "b", "e"], ["c", "d", "e"]]
    joined = {"a": 1, "b": 1, "c": 1, "d": 1, "e": 2}
    assert said(tables) == ""
    del tables[4]  # a, b and c 3 games each, d 4, e 2
    assert said(tables) == (
        "joined late, with fewer games than any entrant there from the start (their "
        "intervals wider, their places less settled): e (run 2 of 2, 2 of the 3 games most "
        "entrants have)")
    tables = [["a", "b", "c"], ["a", "b", "c"], ["a", "b", "d"], ["a", "c", "e"],
              ["b", "c", "e"]]  # a, b and c 4 games each, d 1, e 2
    assert said(tables) == ""
    assert said(tables, ("a", "b", "c", "e")) == (
        "joined late, with fewer games than any entrant there from the start (their "
        "intervals wider, their places less settled): e (run 2 of 2, 2 of the 4 games most "
        "entrants have)")


def test_the_wide_table_counts_a_malformed_reply_in_a_column_that_says_so() -> None:
    """A bot that printed debug lines to stdout has malformed faults: `--wide` counts them
    under `illegal/malformed`, not under a column named `illegal` alone, which sent its
    entrant looking for an illegal bid."""
    from referee.leaderboard.render import render

    chatty = {"kind": "malformed", "reason": "bad reply: Invalid JSON"}
    results = [(f"g{i}", ["chatty", "quiet", "other"],
                {"money": [10, 20, 30], "ranks": [3, 2, 1], "retired": [],
                 "faults": [[chatty], [], []]}) for i in range(3)]
    table = render(standings(by_hand(results)), "table", wide=True).splitlines()
    start = table[0].index("illegal/malformed")
    line = next(line for line in table if " chatty" in line)
    assert line[start:start + len("illegal/malformed")].strip() == "3", (table[0], line)


def test_the_table_of_a_store_with_faults_ends_saying_where_their_reasons_are(
        tmp_path: Path) -> None:
    """`referee leaderboard` of a store whose games hold faults ends, as `tournament run`
    does, with the `referee report` command whose bot pages list their reasons; Markdown,
    which is published, has it on stderr; CSV and JSON, which programs read, do not have it,
    nor does the table of a store without faults."""
    from .. import in_process

    def filled(name: str, faults: list[list[dict[str, str]]]) -> Path:
        db = tmp_path / name
        store = open_store(db)
        store.bind(a_tournament(), "f")
        result = {"money": [1, 2, 3], "ranks": [3, 2, 1], "retired": [], "faults": faults}
        for i in range(3):
            store.save(f"g{i}", ["a", "b", "c"], i, stored(f"g{i}", ["a", "b", "c"], result),
                       b"", 0.0, 1, ["v1"] * 3)
        store.close()
        return db

    timeout = {"kind": "timeout", "reason": "no reply within 1.0 s"}
    db = filled("bad.db", [[timeout], [], []])
    said = in_process.referee("leaderboard", str(db), cwd=tmp_path)
    assert said.returncode == 0, said.stderr
    assert said.stdout.splitlines()[-2:] == [
        "", f"note: to see why each of the 3 faults came: referee report {db} --out "
            f"{tmp_path / 'bad-report'} (each bot's page, bots/NAME.html, lists its faults "
            "with their reasons)"], said.stdout
    markdown = in_process.referee("leaderboard", str(db), "--format", "markdown", cwd=tmp_path)
    assert "report" not in markdown.stdout and markdown.stderr.startswith(
        "note: to see why each of the 3 faults came: referee report"), markdown.stderr
    for fmt in ("csv", "json"):
        out = in_process.referee("leaderboard", str(db), "--format", fmt, cwd=tmp_path)
        assert "report" not in out.stdout + out.stderr, (fmt, out.stdout, out.stderr)
    clean = in_process.referee("leaderboard", str(filled("ok.db", [[], [], []])), cwd=tmp_path)
    assert clean.returncode == 0 and "note: to see why" not in clean.stdout, clean.stdout


def test_a_board_whose_places_are_still_ranges_says_how_many_games_would_narrow_them() -> None:
    """A leader separated from two entrants the games cannot order (places 2-3): the table at
    the terminal says the places are still ranges, how many games a difference of 0.1
    placement points would need, and how to play them (the games stored kept); the
    Markdown, which is published, does not say it."""
    from referee.leaderboard.render import render

    board = standings(by_hand(one_clear_leader()))
    assert [r.place for r in board.rows][1:] == [Place(2, 3), Place(2, 3)]
    text = " ".join(render(board, "table").splitlines())
    assert ("some places are still ranges, where the games cannot order the entrants: a "
            "difference of 0.1 placement points would need about 69 games (69 deals of every "
            "table) to be separated 4 times in 5; raise deals (or, in a sampled field, tables) "
            "in the file and run it again: the games stored are kept.") in text, text
    assert "still ranges" not in render(board, "markdown")
