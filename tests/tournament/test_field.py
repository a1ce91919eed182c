"""A field that changes between runs, through the command line with real bots: a changed bot
has exactly its games played again, a newcomer plays only its new tables, a withdrawn bot's
games leave the leaderboard, a left-out bot is listed everywhere, and `plan` counts what `run`
plays.  Each entrant is a folder of its own holding a copy of a sample bot."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from referee.tournament.field import withdrawn_shown

from .. import in_process
from ..processes import BOT_PYTHON
from .test_user_errors import refused

ROOT = Path(__file__).resolve().parents[2]
FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"
RANDOM = ROOT / "sample_bots" / "python" / "random_bot.py"
GAMES_PER_TABLE = 3  # tables of three, one deal, in rotations
SHORT = f'edition = "{ROOT / "protocol" / "examples" / "tiny.toml"}"'


def entrant(folder: Path, name: str, script: Path = FIRST_LEGAL) -> None:
    (folder / name).mkdir(exist_ok=True)
    shutil.copy(script, folder / name / "bot.py")


def write_file(folder: Path, names: list[str], extra: str = "") -> Path:
    lines = ['name = "field"', "seed = 11", "table_size = 3", 'seat_orders = "rotations"',
             extra]
    for name in names:
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{BOT_PYTHON} bot.py"',
                  f'dir = "{name}"']
    path = folder / "field.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def field_file(folder: Path, names: list[str], extra: str = "") -> Path:
    """`write_file` with short games (the tiny edition, named by its absolute path, so that
    a copy of the file run elsewhere finds it): these tests assert which games are played
    and stored, not how they went."""
    return write_file(folder, names, f"{SHORT}\n{extra}")


def stored(db: Path, table: str = "games") -> dict[str, tuple[str, str]]:
    """game id -> (seats, result) of every game in `table`, the result without its response
    times (which no two runs share)."""
    con = sqlite3.connect(db)
    try:
        return {r[0]: (r[1], json.dumps({k: v for k, v in json.loads(r[2]).items()
                                         if k != "response_us"}))
                for r in con.execute(f"SELECT game_id, seats, result FROM {table}")}
    finally:
        con.close()


def run(file: Path, *more: str, cwd: Path | None = None) -> str:
    """`referee tournament run FILE MORE`, in-process (its games' bots are processes as ever):
    what it said, its exit status 0."""
    out = in_process.referee("tournament", "run", str(file), *more, cwd=cwd or file.parent,
                             timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stderr + out.stdout


def forget_last(db: Path, count: int) -> None:
    """Delete the `count` games stored last, as if a stopped run had not played them."""
    with sqlite3.connect(db) as con:
        last = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY finished")]
        con.executemany("DELETE FROM games WHERE game_id = ?", [(g,) for g in last[-count:]])


def board(db: Path, fmt: str = "json") -> str:
    out = in_process.referee("leaderboard", str(db), "--format", fmt, cwd=db.parent)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_changed_bot_has_exactly_its_games_played_again(tmp_path: Path) -> None:
    """Editing one entrant's file re-plays the games it sat in, and only those (`plan` says
    so first, and counts them as to play, as `run` does): the others keep their stored games;
    the old ones stay in the store as superseded (and `replay --db` still shows one), out of
    the leaderboard, which now shows the new bot's results. `--frozen` refuses to do it, in one
    line, and changes nothing.  A build cache in the folder (Go's, which the Go kit keeps
    there and each build rewrites) is not a change.  The run counts the games it supersedes
    once each: two entrants changed, the games either sat in."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names)
    run(file)
    db = tmp_path / "field.db"
    before = stored(db)
    assert len(before) == 4 * GAMES_PER_TABLE
    assert {r["name"]: r["games"] for r in json.loads(board(db))["entrants"]}["dan"] == 9

    entrant(tmp_path, "dan", RANDOM)  # dan resubmits another bot
    refused(in_process.referee("tournament", "run", str(file), "--frozen", "-q", cwd=tmp_path),
            "dan changed since the store's last run", "--frozen")
    assert stored(db) == before

    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert "changed since the store's last run: dan" in planned.stdout, planned.stdout
    assert "stored already: 3 of them; 9 to play" in planned.stdout, planned.stdout
    said = run(file)
    assert "changed since the last run: dan; its 9 stored games are superseded" in said
    assert "stored already: 3 of them; 9 to play" in said, said
    assert "9 games played, 3 were already stored" in said, said  # as `plan` said
    after = stored(db)
    assert after.keys() == before.keys()
    replayed = {g for g in after if after[g] != before[g]}
    dans = {g for g, (seats, _) in before.items() if "dan" in json.loads(seats)}
    assert replayed <= dans and len(dans) == 9
    assert {g: after[g] for g in after if g not in dans} == \
        {g: before[g] for g in before if g not in dans}
    assert set(stored(db, "superseded")) == dans
    dan_money = [json.loads(r)["money"][json.loads(seats).index("dan")]
                 for g, (seats, r) in after.items() if g in dans]
    row = {r["name"]: r for r in json.loads(board(db))["entrants"]}["dan"]
    assert row["games"] == 9 and row["money"]["mean"] == pytest.approx(sum(dan_money) / 9)
    old_dan = next(iter(dans))
    out = in_process.referee("replay", "--db", str(db), old_dan, "--superseded", "-q",
                             cwd=tmp_path)
    assert out.returncode == 0 and "superseded" in out.stderr, out.stderr
    for cache in (".gocache", ".mypy_cache"):  # rewritten by a build or a tool
        (tmp_path / "dan" / cache).mkdir()
        (tmp_path / "dan" / cache / "trim.txt").write_text("a build's time stamp")
    assert "0 games played, 12 were already stored" in run(file)

    for n in ("ann", "ben"):  # two change: each sat in 9 games, and every table holds one
        with (tmp_path / n / "bot.py").open("a") as f:
            f.write("# changed\n")
    said = run(file)
    assert "changed since the last run: ann, ben; the 12 stored games any of them sat in are " \
           "superseded and played again\n" in said, said
    assert "12 games played, 0 were already stored" in said, said


def test_a_newcomer_plays_only_its_new_tables_and_a_withdrawn_bot_leaves_the_board(
        tmp_path: Path) -> None:
    """Adding an entrant plays only the tables with it, and the grown store holds, game for
    game, what the grown file played from scratch holds; removing one keeps its games in the
    store but out of the leaderboard, which lists it with why, and the run says how many
    games each other entrant loses with it; back unchanged, its games count again, which the
    run says."""
    names = ["ann", "ben", "cal", "dan"]
    for n in [*names, "eve"]:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names)
    run(file)
    db = tmp_path / "field.db"
    first = stored(db)

    file = field_file(tmp_path, [*names, "eve"])
    said = run(file)
    assert "new in the field: eve" in said
    grown = stored(db)
    new = set(grown) - set(first)
    assert len(new) == 6 * GAMES_PER_TABLE  # C(4, 2) tables with eve
    assert all("eve" in json.loads(grown[g][0]) for g in new)
    assert {g: grown[g] for g in first} == first

    fresh = tmp_path / "fresh.db"
    run(file, "--db", str(fresh))
    assert stored(fresh) == grown

    file = field_file(tmp_path, ["ann", "ben", "cal", "eve"])
    said = run(file)
    lost = 3 * GAMES_PER_TABLE  # of each other entrant: dan's tables with it
    assert (f"withdrawn (in the store, not in the file): dan; its {6 * GAMES_PER_TABLE} stored "
            "games are kept, out of the leaderboard, and so out of 4 other entrants' records "
            f"too (games each loses: ann {lost}, ben {lost}, cal {lost} and 1 more); they "
            "count again if the file names it again, unchanged") in said, said
    assert "beyond this run's schedule" not in said, said  # dan's games, said once
    assert stored(db) == grown  # nothing deleted
    shown = json.loads(board(db))
    rows = shown["entrants"]
    assert "dan" not in {r["name"] for r in rows}
    assert {"name": "dan", "reason": withdrawn_shown(6 * GAMES_PER_TABLE)} in shown["left_out"]
    assert {r["name"]: r["games"] for r in rows}["ann"] == 3 * GAMES_PER_TABLE
    again = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert "withdraws" not in again, again  # withdrawn once, not by each run
    assert (f"note: withdrawn by an earlier run: dan; its {6 * GAMES_PER_TABLE} stored games "
            "are kept, out of the leaderboard; they count again") in again, again
    listed = json.loads(in_process.referee("tournament", "plan", str(file), "--json",
                                           cwd=tmp_path).stdout)
    assert (listed["withdrawn"], listed["withdrawn_before"]) == ([], ["dan"])
    back = field_file(tmp_path, [*names, "eve"])
    planned = in_process.referee("tournament", "plan", str(back), cwd=tmp_path).stdout
    assert ("note: a run brings back dan: withdrawn before, unchanged: its stored games count "
            "again") in planned, planned
    said = run(back)  # back, unchanged: its games count again
    assert ("back in the field (withdrawn before, unchanged): dan; its stored games count "
            "again") in said, said
    assert {r["name"]: r["games"] for r in json.loads(board(db))["entrants"]}["dan"] == \
        6 * GAMES_PER_TABLE


def test_a_withdrawn_entrant_is_listed_with_its_stored_games_in_every_format(
        tmp_path: Path) -> None:
    """An entrant withdrawn from the file: its CSV row's games are its stored games (9), not
    0, and the table, Markdown, JSON and CSV all say in its reason that those 9 stored games
    are out of the standings."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    run(field_file(tmp_path, names))
    run(field_file(tmp_path, names[:3]))
    db = tmp_path / "field.db"
    reason = ("withdrawn: in the store, not in its last run's file; its 9 stored games are "
              "out of these standings, and count again if it comes back unchanged")
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(board(db, "csv")))}
    assert rows["dan"]["games"] == "9" and rows["dan"]["left_out"] == reason, rows["dan"]
    assert rows["dan"]["rank"] == "" and rows["ann"]["games"] == "3"
    assert f"left out: dan: {reason}" in board(db, "table")
    assert f"- left out: **dan**: {reason}" in board(db, "markdown")
    assert json.loads(board(db))["left_out"] == [{"name": "dan", "reason": reason}]


def test_a_left_out_bot_is_listed_everywhere_and_a_finished_run_exits_0(
        tmp_path: Path) -> None:
    """A bot whose build fails is listed with its reason in every leaderboard format and in
    the report; running the file again, with only its games left, prints the leaderboard and
    exits 0; the progress and `plan` count what can be played."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names)
    text = file.read_text().replace('dir = "dan"', 'dir = "dan"\nbuild = "false"')
    file.write_text(text)
    run(file)
    db = tmp_path / "field.db"
    assert len(stored(db)) == 1 * GAMES_PER_TABLE  # only the table without dan
    assert json.loads(board(db))["left_out"] == [
        {"name": "dan", "reason": "its build failed (exit status 1)"}]
    assert "left out: dan: its build failed" in board(db, "table")
    assert "left out: **dan**" in board(db, "markdown")
    csv_rows = board(db, "csv").splitlines()
    assert csv_rows[0].endswith(",left_out") and csv_rows[-1].startswith(",dan,0,")
    out = in_process.referee("report", str(db), "--out", "site", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "its build failed (exit status 1)" in (tmp_path / "site" / "index.html").read_text()

    again = in_process.referee("tournament", "run", str(file), cwd=tmp_path, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "0 games played, 3 were already stored, 9 skipped" in again.stderr
    assert "ann" in again.stdout


def test_shards_that_left_out_the_same_bot_merge(tmp_path: Path) -> None:
    """Two shards that both left out a bot merge into a store of every game the others
    could play."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names)
    file.write_text(file.read_text().replace('dir = "dan"', 'dir = "dan"\nbuild = "false"'))
    for i in (1, 2):
        run(file, "--shard", f"{i}/2", "--db", f"s{i}.db", "-q")
    out = in_process.referee("tournament", "merge", "s1.db", "s2.db", "--out", "all.db",
                             cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert len(stored(tmp_path / "all.db")) == GAMES_PER_TABLE
    assert json.loads(board(tmp_path / "all.db"))["left_out"][0]["name"] == "dan"


def test_shards_run_from_different_files_are_refused_naming_what_differs(
        tmp_path: Path) -> None:
    """Shards run from files that differ in `deals`, or in their entrants: the merge is
    refused in one line naming that setting and each shard's value, in whichever order the
    shards are given (not as a shard holding games that are not its own, or lacking some);
    shards of different seeds are refused as of different files, naming the seeds."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)

    def shard(label: str, db: str, field: list[str], extra: str) -> None:
        run(field_file(tmp_path, field, extra), "--shard", label, "--db", db, "-q")

    def merged(*shards: str) -> str:
        out = in_process.referee("tournament", "merge", *shards, "--out", "all.db",
                                 cwd=tmp_path)
        assert out.returncode == 2 and not (tmp_path / "all.db").exists(), out.stderr
        return out.stderr

    shard("1/2", "s1.db", names[:3], "deals = 1")
    shard("2/2", "s2.db", names[:3], "deals = 2")
    again = "; run the shards again with the same file\n"
    assert merged("s1.db", "s2.db") == \
        f"error: the shards differ in deals: 1 in s1.db, 2 in s2.db{again}"
    assert merged("s2.db", "s1.db") == \
        f"error: the shards differ in deals: 2 in s2.db, 1 in s1.db{again}"
    shard("1/2", "s3.db", names, "deals = 2")
    assert merged("s3.db", "s2.db") == \
        f"error: the shards differ in entrants: dan is not in every shard{again}"
    file = field_file(tmp_path, names[:3], "deals = 2")
    file.write_text(file.read_text().replace("seed = 11", "seed = 12"))
    run(file, "--shard", "1/2", "--db", "s4.db", "-q")
    said = merged("s4.db", "s2.db")
    assert said.startswith("error: the stores come from different tournament files: ") and \
        said.endswith(" (the shards differ in seed: 12 in s4.db, 11 in s2.db)\n"), said


def test_plan_counts_what_run_plays_and_the_store_is_found_from_anywhere(
        tmp_path: Path) -> None:
    """`tournament plan` counts the games, tables and seats that `run` then plays; the store
    lies beside the file, so the same command run from another folder resumes it.  With
    games stored, `plan` says its time bound is of all the games, and gives the time of the
    games left at their pace."""
    names = ["ann", "ben", "cal", "dan", "eve"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names)
    out = in_process.referee("tournament", "plan", str(file), "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    plan = json.loads(out.stdout)
    assert (plan["games"], plan["tables"], plan["seat_orders_per_table"]) == (30, 10, 3)
    assert plan["games_per_entrant"] == dict.fromkeys(names, 18)
    assert plan["seats"]["ann"] == [6, 6, 6]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run(file, cwd=elsewhere)
    assert len(stored(tmp_path / "field.db")) == plan["games"]
    assert not list(elsewhere.iterdir())
    assert "0 games played, 30 were already stored" in run(file, cwd=tmp_path.parent)
    out = in_process.referee("tournament", "plan", str(file), cwd=elsewhere)
    assert "stored already: 30 of them; 0 to play" in out.stdout
    assert "10 tables of 3, 1 deal, 3 seat orders per table" in out.stdout, out.stdout
    assert "time: at most" in out.stdout and "time: at most" not in run(file)
    assert " for all 30 games on " in out.stdout, out.stdout  # the bound's, not those left
    assert "at the pace of the games stored" not in out.stdout  # nothing left to play
    with sqlite3.connect(tmp_path / "field.db") as con:
        con.execute("UPDATE games SET seconds = 0.5")
    file.write_text(file.read_text().replace("seed = 11", "seed = 11\ndeals = 2"))
    paced = in_process.referee("tournament", "plan", str(file), "--workers", "2", cwd=tmp_path)
    assert ("time at the pace of the games stored (0.50 s a game): about 8 s for the 30 to "
            "play\n" in paced.stdout), paced.stdout  # 30 games to play, 0.5 s each, 2 at a time
    as_json = in_process.referee("tournament", "plan", str(file), "--json", "--workers", "2",
                                 cwd=tmp_path)
    assert json.loads(as_json.stdout)["seconds_at_stored_pace"] == 8


def test_a_leaderboard_of_a_store_a_run_has_not_finished_says_so(tmp_path: Path) -> None:
    """A store holding 9 of its tournament's 12 games (as a stopped run leaves it):
    `leaderboard` and `report` say on stderr how many games it holds of how many, and that
    the places may change, and so do what is published: the Markdown, the JSON (`unfinished`)
    and the report's first page; once a run has played the rest, none says it."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names, "deals = 1")
    db = tmp_path / "field.db"
    run(file)
    forget_last(db, 3)  # as a run stopped before them leaves the store
    says = (f"note: {db} holds 9 of the 12 games of tournament 'field': a run of its file "
            "plays the rest, and the places may change\n")
    for command in (["leaderboard", str(db)], ["report", str(db), "--out", "site"]):
        out = in_process.referee(*command, cwd=tmp_path)
        assert out.returncode == 0 and out.stderr == says, out.stderr
    markdown = in_process.referee("leaderboard", str(db), "--format", "markdown", cwd=tmp_path)
    assert markdown.stderr == "" and " ".join(says.split()) in " ".join(
        markdown.stdout.split()).replace("\\", ""), markdown.stdout  # published with it
    assert json.loads(board(db))["unfinished"] == says.strip()
    index = " ".join((tmp_path / "site" / "index.html").read_text().split())
    assert "The store field.db holds 9 of the 12 games of tournament &#x27;field&#x27;" in index
    note = next(n for n in re.findall(r'<p class="note">(.*?)</p>', index) if "The store" in n)
    assert "may change. No pair" in note and not re.search(r"\. [a-z]", note), note
    assert "3 games played, 9 were already stored" in run(file)
    for command in (["leaderboard", str(db)], ["report", str(db), "--out", "site"]):
        out = in_process.referee(*command, cwd=tmp_path)
        assert out.returncode == 0 and out.stderr == "", out.stderr
    assert json.loads(board(db))["unfinished"] is None
    assert "holds 9 of the 12" not in (tmp_path / "site" / "index.html").read_text()


def test_a_gauntlets_leaderboard_names_its_baselines(tmp_path: Path) -> None:
    """A gauntlet's baselines are its yardstick, not placed: the table says under it which
    they are and that the places rank the candidates alone, the JSON lists them, and so does
    the report's leaderboard page; a round robin's says nothing of baselines."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names, 'format = "gauntlet"\nbaselines = ["ben", "ann"]')
    run(file)
    db = tmp_path / "field.db"
    says = ("baselines (at every candidate's table, the yardstick of this gauntlet, shown "
            "for their figures and not placed: the places rank the candidates alone, by the "
            "pairs of candidates): ben, ann")  # as the file names them
    assert says in " ".join(board(db, "table").split()), board(db, "table")
    assert json.loads(board(db))["baselines"] == ["ben", "ann"]
    out = in_process.referee("report", str(db), "--out", "site", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert says in html.unescape((tmp_path / "site" / "index.html").read_text())
    (tmp_path / "rr").mkdir()
    for n in names[:3]:
        entrant(tmp_path / "rr", n)
    run(field_file(tmp_path / "rr", names[:3]))
    assert "baselines" not in board(tmp_path / "rr" / "field.db", "table")
    assert json.loads(board(tmp_path / "rr" / "field.db"))["baselines"] == []


def test_a_candidate_that_joins_late_with_fewer_games_is_marked_on_the_board(
        tmp_path: Path) -> None:
    """A gauntlet whose first run plays cal and dan together marks nobody as late; eve,
    added in a second run stopped by max_games after 1 of her 3 games, is marked in every
    format: a line under the table, `joined_late` in JSON (run 2 of 2, 1 of the 3 games
    most candidates have) and CSV, and the report's first page.  A store made before runs
    were counted (no runs in its meta) is read as before, marking nobody."""
    names = ["ann", "ben", "cal", "dan"]
    for n in [*names, "eve"]:
        entrant(tmp_path, n)
    extra = 'format = "gauntlet"\nbaselines = ["ann", "ben"]'
    run(field_file(tmp_path, names, extra))
    db = tmp_path / "field.db"
    assert json.loads(board(db))["joined_late"] == []
    assert "joined late" not in board(db, "table")
    run(field_file(tmp_path, [*names, "eve"], extra + "\nmax_games = 7"))
    assert json.loads(board(db))["joined_late"] == [
        {"name": "eve", "run": 2, "runs": 2, "games": 1, "usual_games": 3}]
    says = ("joined late, with fewer games than any entrant there from the start (their "
            "intervals wider, their places less settled): eve (run 2 of 2, 1 of the 3 games "
            "most entrants have)")
    assert says in " ".join(board(db, "table").split())
    assert says in " ".join(board(db, "markdown").split())
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(board(db, "csv")))}
    assert (rows["eve"]["joined_late"], rows["cal"]["joined_late"]) == ("2", "")
    out = in_process.referee("report", str(db), "--out", "site", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    index = " ".join(html.unescape((tmp_path / "site" / "index.html").read_text()).split())
    assert "J" + says[1:] in index
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM meta WHERE key IN ('joined', 'runs')")
    assert json.loads(board(db))["joined_late"] == []


def test_a_mistyped_entrant_is_said_to_look_like_the_one_that_withdrew(tmp_path: Path) -> None:
    """After a run, the file names `dann` (no such folder) where it named `dan`: plan and run
    warn that dann has no folder and dan, in the store, is no longer in the file, likely one
    entrant mistyped, whose games are out of the leaderboard until it is named again."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names, "deals = 1")
    run(file)
    file.write_text(file.read_text().replace('"dan"', '"dann"'))
    warning = ("warning: dann has no folder and dan, in the store, is no longer in the file: "
               "one entrant whose name or dir is mistyped? Until the file names dan again, its "
               "games are out of the leaderboard")
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path)
    assert warning in planned.stdout, planned.stdout
    assert warning in run(file)
    from referee.tournament.field import renamed

    assert renamed({"dann": "its build `javac Bot.java` failed (exit status 1): package "
                    "org.json does not exist"}, ["dan"]) == []  # its folder is there


def test_an_entrant_withdrawn_in_an_earlier_run_still_has_its_games_stored(
        tmp_path: Path) -> None:
    """The runs and plans after the one that withdrew an entrant still say its games are kept
    in the store (not that it has none): the earlier withdrawal took them out of the
    leaderboard, and they count again if it comes back."""
    names = ["ann", "ben", "cal", "dan"]
    for n in names:
        entrant(tmp_path, n)
    run(field_file(tmp_path, names))
    file = field_file(tmp_path, ["ann", "ben", "cal"])
    assert "dan; its 9 stored games are kept, out of the leaderboard, and so out of 3 other" \
        in run(file)
    said = run(file)
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path)
    assert planned.returncode == 0, planned.stderr
    for text in (" ".join(said.split()), " ".join(planned.stdout.split())):
        assert "no games stored" not in text, text
        assert "its 9 stored games are kept, out of the leaderboard; they count again" in text, text


def test_a_file_run_away_from_every_entrants_folder_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    """A finished store, and a copy of its file in a folder without the entrants' folders,
    run on it: refused in one line, saying where each dir is looked for; the store is as it
    was, with nobody recorded as left out (an organiser's re-run from another folder marked
    all eight finalists left out on every later leaderboard)."""
    names = ["ann", "ben", "cal"]
    for n in names:
        entrant(tmp_path, n)
    db = tmp_path / "field.db"
    run(field_file(tmp_path, names))
    before = stored(db)
    away = tmp_path / "away"
    away.mkdir()
    copy = field_file(away, names)
    out = in_process.referee("tournament", "run", str(copy), "--db", str(db), cwd=away)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith(f"error: none of the 3 entrants is there (each `dir`, and each "
                                 f"command's program, is found from {away}, the tournament "
                                 "file's folder)"), out.stderr
    planned = in_process.referee("tournament", "plan", str(copy), "--db", str(db), cwd=away)
    assert planned.returncode == 2 and planned.stderr == out.stderr, planned.stderr
    assert stored(db) == before
    assert json.loads(board(db))["left_out"] == []


def test_a_refused_run_away_from_the_entrants_folders_leaves_the_stores_file_as_it_was(
        tmp_path: Path) -> None:
    """A copy of the file, renamed and with more deals, run away from every entrant's folder:
    refused, and the store keeps the name and the deals of its last run (the refused run had
    renamed it and raised its deals, so that the leaderboard named the copy's tournament and
    said the store held part of it)."""
    names = ["ann", "ben", "cal"]
    for n in names:
        entrant(tmp_path, n)
    db = tmp_path / "field.db"
    run(field_file(tmp_path, names))
    away = tmp_path / "away"
    away.mkdir()
    copy = field_file(away, names, "deals = 3")
    copy.write_text(copy.read_text().replace('name = "field"', 'name = "copy"'))
    out = in_process.referee("tournament", "run", str(copy), "--db", str(db), cwd=away)
    assert out.returncode == 2 and "none of the 3 entrants is there" in out.stderr, out.stderr
    with sqlite3.connect(db) as con:
        meta = dict(con.execute("SELECT key, value FROM meta"))
    assert meta["name"] == "field" and json.loads(meta["config"])["deals"] == 1, meta
    shown = in_process.referee("leaderboard", str(db), cwd=tmp_path)
    assert shown.returncode == 0 and shown.stderr == "", shown.stderr


def test_a_gauntlet_run_away_from_its_candidates_folders_is_refused(tmp_path: Path) -> None:
    """A gauntlet whose baselines are commands found from anywhere (absolute paths) and whose
    candidates are folders: its file copied to a folder without the candidates' folders is
    refused by plan and run in one line, and the finished store records no candidate as left
    out (such a run recorded every candidate as left out, the baselines being there)."""
    names = ["ann", "ben"]
    for n in names:
        entrant(tmp_path, n)
    lines = ['name = "gauntlet"', "seed = 11", "table_size = 3", 'format = "gauntlet"',
             'baselines = ["r1", "r2"]']
    for base, script in (("r1", RANDOM), ("r2", FIRST_LEGAL)):
        lines += ["[[bots]]", f'name = "{base}"', f'command = "{BOT_PYTHON} {script}"']
    for name in names:
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{BOT_PYTHON} bot.py"',
                  f'dir = "{name}"']
    file = tmp_path / "gauntlet.toml"
    file.write_text("\n".join(lines) + "\n")
    db = tmp_path / "gauntlet.db"
    run(file)
    before = stored(db)
    away = tmp_path / "away"
    away.mkdir()
    copy = away / file.name
    copy.write_text(file.read_text())
    for command in ("plan", "run"):
        out = in_process.referee("tournament", command, str(copy), "--db", str(db), cwd=away)
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert out.stderr.startswith(
            "error: none of the 2 entrants with a folder or program of their own is there "
            f"(each `dir`, and each command's program, is found from {away}, "), out.stderr
    assert stored(db) == before
    assert json.loads(board(db))["left_out"] == []


def test_a_file_of_commands_run_away_from_their_scripts_is_refused(tmp_path: Path) -> None:
    """Entrants given by commands alone (`python3 bots/ann.py`), the file copied to a folder
    where those scripts are not: plan and run refuse it in one line, and the finished store
    records nobody as left out; plan no longer takes their games for superseded."""
    (tmp_path / "bots").mkdir()
    names = ["ann", "ben", "cal"]
    lines = ['name = "field"', "seed = 11", "table_size = 3", 'seat_orders = "rotations"']
    for name in names:
        shutil.copy(FIRST_LEGAL, tmp_path / "bots" / f"{name}.py")
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{BOT_PYTHON} bots/{name}.py"']
    file = tmp_path / "field.toml"
    file.write_text("\n".join(lines) + "\n")
    db = tmp_path / "field.db"
    run(file)
    away = tmp_path / "away"
    away.mkdir()
    copy = away / "field.toml"
    copy.write_text(file.read_text())
    for command in ("plan", "run"):
        out = in_process.referee("tournament", command, str(copy), "--db", str(db), cwd=away)
        assert out.returncode == 2 and out.stderr.startswith(
            "error: none of the 3 entrants is there"), out.stderr
    assert json.loads(board(db))["left_out"] == []
    (tmp_path / "bots" / "cal.py").unlink()  # one script gone: left out, its games kept
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path)
    assert "warning: run would leave out cal: its command cannot run" in planned.stdout
    assert "changed since" not in planned.stdout and "0 to play" in planned.stdout, \
        planned.stdout


def test_a_time_budget_spent_on_builds_says_so(tmp_path: Path) -> None:
    """A time budget that runs out while the entrants build, before any game: the stop says
    how much of it the builds took (an organiser read `after 0 games` and nothing of why)."""
    names = ["ann", "ben", "cal"]
    for n in names:
        entrant(tmp_path, n)
    file = field_file(tmp_path, names)
    file.write_text(file.read_text().replace(
        'dir = "cal"', 'dir = "cal"\nbuild = \'python3 -c "import time; time.sleep(1.5)"\''))
    said = run(file, "--time-budget", "1s")
    assert re.search(r"stopped when the time budget of 1 s ran out \(\d+ s of it building the "
                     r"entrants before the first game\), after 0 games", said), said
