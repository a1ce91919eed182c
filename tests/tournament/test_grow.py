"""A sampled tournament that grows and stops early, through the command line with real bots
(copies of the sample random bot): more tables or a late entrant play only the new games,
fewer tables play nothing and leave the leaderboard with the tables the file names, `plan`
says what `run` then plays, and `max_games` or `--time-budget` stop a run with every entrant
within about one table of every other."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from referee.tournament.config import load_tournament, tournament_edition
from referee.tournament.schedule import fingerprint

from .. import in_process
from .test_field import RANDOM, ROOT, board, entrant, run, stored, write_file
from .test_user_errors import refused

GAMES_PER_TABLE = 3  # tables of three, one deal, in rotations
# At a stop, the stored games are a prefix of the play order: whole tables, each entrant
# within one table of every other, then part of the table in flight (one worker).
WITHIN = 2 * GAMES_PER_TABLE - 1
# Short games (the tiny edition), where what is asserted is which games are played, not how.
TINY = ROOT / "protocol" / "examples" / "tiny.toml"
SHORT = 'edition = "tiny.toml"'


def names(n: int) -> list[str]:
    return [f"e{i}" for i in range(n)]


def field(folder: Path, n: int, extra: str) -> Path:
    for name in names(n):
        entrant(folder, name, RANDOM)
    return write_file(folder, names(n), extra)


def plan(file: Path) -> tuple[dict[str, object], str]:
    as_json = in_process.referee("tournament", "plan", str(file), "--json", cwd=file.parent)
    assert as_json.returncode == 0, as_json.stderr
    return json.loads(as_json.stdout), plan_text(file)


def plan_text(file: Path) -> str:
    text = in_process.referee("tournament", "plan", str(file), cwd=file.parent)
    assert text.returncode == 0, text.stderr
    return text.stdout


def to_play(text: str) -> int:
    found = re.search(r"stored already: [\d,]+ of them; ([\d,]+) to play", text)
    assert found, text
    return int(found[1].replace(",", ""))


def played(said: str) -> int:
    found = re.search(r"(\d+) games played, (\d+) were already stored", said)
    assert found, said
    return int(found[1])


def per_entrant(db: Path) -> Counter[str]:
    """Each entrant's games in the store (all of them, counted or not)."""
    with sqlite3.connect(db) as con:
        return Counter(n for (seats,) in con.execute("SELECT seats FROM games")
                       for n in json.loads(seats))


def board_games(db: Path) -> dict[str, int]:
    return {r["name"]: r["games"] for r in json.loads(board(db))["entrants"]}


@pytest.mark.slow
def test_a_sample_grows_by_tables_and_entrants_and_plays_only_the_new_games(
        tmp_path: Path) -> None:
    """`tables` up plays only the new tables' games; `tables` down plays nothing, says the
    games of the tables no longer named are left out, and the leaderboard counts the tables
    the file now names; a late entrant plays only tables of
    its own, which bring it level with the field; each time `plan` says beforehand how many
    games `run` plays, and each entrant's games."""
    db = tmp_path / "field.db"
    shutil.copy(TINY, tmp_path / "tiny.toml")
    file = field(tmp_path, 8, f"tables = 6\n{SHORT}")
    run(file)
    first = stored(db)
    assert len(first) == 6 * GAMES_PER_TABLE

    file = write_file(tmp_path, names(8), f"tables = 9\n{SHORT}")
    text = plan_text(file)
    assert to_play(text) == 3 * GAMES_PER_TABLE
    assert played(run(file)) == 3 * GAMES_PER_TABLE
    grown = stored(db)
    assert {g: grown[g] for g in first} == first and len(grown) == 9 * GAMES_PER_TABLE
    assert sum(board_games(db).values()) == 9 * GAMES_PER_TABLE * 3

    file = write_file(tmp_path, names(8), f"tables = 4\n{SHORT}")
    text = plan_text(file)
    assert to_play(text) == 0
    said = run(file)
    assert played(said) == 0
    assert (f"note: the store also holds {5 * GAMES_PER_TABLE} games of tables the sample no "
            "longer names (`tables` lowered); the leaderboard leaves them out" in said), said
    assert stored(db) == grown  # nothing removed: the other tables' games stay stored
    counted = board_games(db)
    assert sum(counted.values()) == 4 * GAMES_PER_TABLE * 3
    assert max(counted.values()) - min(counted.values()) <= GAMES_PER_TABLE

    entrant(tmp_path, "late", RANDOM)
    file = write_file(tmp_path, [*names(8), "late"], f"tables = 9\n{SHORT}")
    expected, text = plan(file)
    new = to_play(text)
    said = run(file)
    assert "new in the field: late" in said and played(said) == new > 0
    after = stored(db)
    assert {g: after[g] for g in grown} == grown
    assert all("late" in json.loads(after[g][0]) for g in set(after) - set(grown))
    counted = board_games(db)
    assert counted == expected["games_per_entrant"]
    assert max(counted.values()) - min(counted.values()) <= GAMES_PER_TABLE


def test_max_games_stops_every_entrant_within_one_table_and_plays_on_when_raised(
        tmp_path: Path) -> None:
    """`max_games = 10`: the run stops with 10 games stored, every entrant within one table
    of every other (games round by round, not in file order); raised to 20, the next run
    plays 10 more, and `plan` counts them beforehand."""
    db = tmp_path / "field.db"
    shutil.copy(TINY, tmp_path / "tiny.toml")
    file = field(tmp_path, 9, f"tables = 12\nmax_games = 10\n{SHORT}")
    said = run(file)
    assert "stopped at max_games = 10" in said
    counts = per_entrant(db)
    assert sum(counts.values()) == 10 * 3 and len(counts) == 9
    assert max(counts.values()) - min(counts.values()) <= WITHIN

    file = write_file(tmp_path, names(9), f"tables = 12\nmax_games = 20\n{SHORT}")
    text = plan_text(file)
    assert to_play(text) == 10
    assert played(run(file)) == 10
    counts = per_entrant(db)
    assert sum(counts.values()) == 20 * 3
    assert max(counts.values()) - min(counts.values()) <= WITHIN


@pytest.mark.slow
def test_a_time_budget_stops_every_entrant_within_one_table_and_the_next_run_plays_on(
        tmp_path: Path) -> None:
    """`--time-budget 3s` on a run of 273 games (far more than 3 s of play on any machine)
    stops it, exit 0, saying so, with every entrant within one table of every other; the
    next run resumes from there, and stops as fairly.  (15 entrants, 91 tables: a fifth of
    all, the density up to which the draw keeps everyone within one table at every table.)"""
    db = tmp_path / "field.db"
    file = field(tmp_path, 15, "tables = 91")
    first = 0
    for budget in ("3s", "0.05m"):
        said = run(file, "--workers", "1", "--time-budget", budget)
        assert "stopped when the time budget of 3 s ran out" in said
        assert f"{first} were already stored" in said
        assert played(said) + first == len(stored(db))
        counts = per_entrant(db)
        counts.update(dict.fromkeys(names(15), 0))
        first = sum(counts.values()) // 3
        assert first < 91 * GAMES_PER_TABLE
        assert max(counts.values()) - min(counts.values()) <= WITHIN, counts


def test_a_bad_time_budget_is_refused_in_one_line(tmp_path: Path) -> None:
    """A budget that is not a number and a unit is refused in one line saying how to write
    one; "0s" is written well, and is told it gives no time."""
    file = field(tmp_path, 3, "")
    for text, says in (*((t, "write a number and a unit") for t in ("soon", "15", "-3m", "2d")),
                       ("0s", "give more than no time"), ("0.0m", "give more than no time")):
        refused(in_process.referee("tournament", "run", str(file), "--time-budget", text,
                                   cwd=tmp_path),
                f"--time-budget {text!r}: {says}")
    assert not (tmp_path / "field.db").exists()


def test_a_store_whose_sample_was_drawn_all_at_once_is_taken_over(tmp_path: Path) -> None:
    """A store begun before samples grew (its whole sample drawn at once, `tables` in its
    fingerprint, no tables drawn kept): `plan` and `run` take it over, its played tables
    kept as the first drawn, and nothing played again; more tables then add only theirs."""
    db = tmp_path / "field.db"
    shutil.copy(TINY, tmp_path / "tiny.toml")
    file = field(tmp_path, 8, f"tables = 6\n{SHORT}")
    run(file)
    before = stored(db)
    config = load_tournament(file)
    earlier = fingerprint(config, tournament_edition(config, file), sampled=6)
    with sqlite3.connect(db) as con:  # as the referee before samples grew left it
        con.execute("DROP TABLE draws")
        con.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (earlier,))
    text = plan_text(file)
    assert to_play(text) == 0
    said = run(file)
    assert "taken over a sample drawn by an earlier version of the referee: its 6 played " \
        "tables are kept" in said and played(said) == 0
    assert stored(db) == before
    file = write_file(tmp_path, names(8), f"tables = 8\n{SHORT}")
    assert played(run(file)) == 2 * GAMES_PER_TABLE


def test_the_plan_of_a_large_field_lists_its_kinds_of_entrant_not_every_entrant(
        tmp_path: Path) -> None:
    """24 entrants, 16 sampled tables of three: the plan shows a row per kind of entrant (the
    same games in the same seats), naming the first three with their count, not 24 rows
    alike; --json still gives every entrant's."""
    file = field(tmp_path, 24, "tables = 16")
    out = in_process.referee("tournament", "plan", str(file), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    rows = out.stdout.split("\n\n")[-1].splitlines()[2:]  # the table, under its header
    assert 1 <= len(rows) < 24 and rows[0].startswith("e0, e1, e2 and "), out.stdout
    shown = sum(int(row.split("(")[1].split(")")[0]) if "(" in row else
                len(row.split("  ")[0].split(", ")) for row in rows)
    assert shown == 24, out.stdout
    as_json, _ = plan(file)
    assert len(as_json["games_per_entrant"]) == 24  # type: ignore[arg-type]


def test_durations_under_ten_minutes_keep_their_seconds() -> None:
    """What a run and plan say of a time: a time budget of 75 s is '1 min 15 s', not '1 min';
    whole minutes and times of 10 minutes or more are said in minutes, hours in hours."""
    from referee.tournament.budget import duration

    assert [duration(s) for s in (40, 60, 75, 599, 600, 754, 3725)] == [
        "40 s", "1 min", "1 min 15 s", "9 min 59 s", "10 min", "12 min", "1 h 02 min"]
