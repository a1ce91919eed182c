"""An adaptive tournament through the command line with real bots (copies of the sample random
bot, tiny edition): a run killed with SIGKILL and resumed, at a round's end and inside one,
plays the same rounds and games as a run never stopped; `plan` says how rounds are chosen and
the budget; a shard is refused in one line."""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from .. import in_process
from ..processes import wait_until
from .test_field import RANDOM, board, entrant, forget_last, run, stored, write_file
from .test_user_errors import refused

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "protocol" / "examples" / "tiny.toml"
NAMES = [f"e{i}" for i in range(6)]
PER_ROUND = 2 * 3  # rounds of 6 // 3 tables, each in its 3 rotations


def adaptive_file(folder: Path, budget: str = "rounds = 2") -> Path:
    for name in NAMES:
        entrant(folder, name, RANDOM)
    return write_file(folder, NAMES, f'schedule = "adaptive"\n{budget}\nedition = "{TINY}"')


def rounds(db: Path) -> list[tuple[int, int, str]]:
    with sqlite3.connect(db) as con:
        return list(con.execute("SELECT * FROM rounds ORDER BY round, position"))


class Played:
    """Stores of the adaptive file's rounds = 1, 2 and 3, each played once for the session, the
    first time a test asks for it (a run is most of a test's CPU): under pytest-xdist the
    workers share them, the first to ask playing it while the others wait on its lock.  The
    tests that go on from one copy it first.  Rounds = 1 and 2 are each run into a new store;
    rounds = 3 goes on from a copy of the second (a resumed run plays the games a run never
    stopped plays: the first test)."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        base = factory.getbasetemp()  # a worker's; their parent is the session's
        self.root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
        self.root = self.root / "adaptive-stores"
        self.root.mkdir(exist_ok=True)

    @property
    def said(self) -> str:
        """What the uninterrupted run of rounds = 2, into a new store, said."""
        return (self.folder(2).parent / "rounds2.said").read_text()

    def folder(self, played: int) -> Path:
        """The folder of the file and store of `played` rounds, played now if not yet."""
        folder = self.root / f"rounds{played}"
        with open(self.root / f"rounds{played}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
            if (self.root / f"rounds{played}.said").exists():
                return folder
            shutil.rmtree(folder, ignore_errors=True)  # a worker's that failed
            folder.mkdir()
            if played == 3:
                file = self.copy(2, folder, "rounds = 3")
            else:
                file = adaptive_file(folder, f"rounds = {played}")
            out = in_process.referee("tournament", "run", str(file), "--workers", "1",
                                     cwd=folder, timeout=300)
            assert out.returncode == 0, out.stderr
            (self.root / f"rounds{played}.said").write_text(out.stderr)
        return folder

    def copy(self, played: int, dest: Path, budget: str = "") -> Path:
        """The folder of `played` rounds copied into `dest`; the file asking for `budget`
        (by default the rounds it was played with)."""
        shutil.copytree(self.folder(played), dest, dirs_exist_ok=True)
        return write_file(dest, NAMES, f'schedule = "adaptive"\n'
                          f'{budget or f"rounds = {played}"}\nedition = "{TINY}"')


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return Played(tmp_path_factory)


def count(db: Path) -> int:
    """Games stored so far by a run that may be writing; 0 before it has made its tables."""
    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_a_killed_adaptive_run_resumes_into_the_same_rounds_and_games(
        tmp_path: Path, played: Played) -> None:
    """Killed once a round's games are all stored (before or as the next round is chosen)
    and once inside a round, then run again: the same rounds, each chosen from the games
    before it, and the same games with the same results as a run never stopped.  Before,
    `plan` names the rounds, how they are chosen and the budget's games, and `--shard` is
    refused in one line by both; the run's progress counts to the budget, not to the round."""
    killed_dir = tmp_path / "killed"
    killed_dir.mkdir()
    file = adaptive_file(killed_dir)
    out = in_process.referee("tournament", "plan", str(file), cwd=killed_dir)
    assert out.returncode == 0, out.stderr
    assert "adaptive: rounds of 2 tables of 3" in out.stdout
    assert "new entrants first, then the entrants whose places are in doubt" in out.stdout
    assert "budget: rounds = 2: at most 12 games" in out.stdout
    for command in ("run", "plan"):
        refused(in_process.referee("tournament", command, str(file), "--shard", "1/2",
                                   cwd=killed_dir),
                "--shard: an adaptive schedule chooses each round")
    played.copy(2, tmp_path / "whole")  # the run never stopped, into a new store
    whole = tmp_path / "whole" / "field.db"
    assert "1/12 games" in played.said, played.said  # the progress counts to the budget
    assert len(rounds(whole)) == 2 * 2 and len(stored(whole)) == 2 * PER_ROUND

    db = killed_dir / "field.db"
    for target in (PER_ROUND, PER_ROUND + 2):
        proc = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "run",
                                 str(file), "-q", "--workers", "1"], cwd=killed_dir,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda target=target: count(db) >= target,  # type: ignore[misc]
                   f"{target} games stored", process=proc)
        proc.kill()
        proc.wait(timeout=30)
    assert count(db) < 2 * PER_ROUND
    out = in_process.referee("tournament", "run", str(file), "--workers", "1",
                             cwd=killed_dir, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "played 2 rounds (4 tables): the budget, rounds = 2, is spent" in out.stderr
    assert rounds(db) == rounds(whole)
    assert stored(db) == stored(whole)



def test_the_plan_says_what_the_budget_leaves_and_who_has_not_played(
        tmp_path: Path, played: Played) -> None:
    """After a round, with its budget spent the plan says to raise it, and gives no time for
    games a run would not play; with a late entrant and the budget raised, it says how many
    games the budget leaves for the rounds to come, about how long those take at the stored
    games' pace, and names the entrant at no table
    yet, which the next rounds seat first.  Rotations over one deal are not warned of, as
    they are in a fixed schedule: each adaptive table draws its cyclic order.  The budget's
    games count the rounds played at their size, and those to come at the grown field's."""
    file = played.copy(1, tmp_path)
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert (f"stored already: {PER_ROUND} of them; the budget is spent: raise it to play on\n"
            in planned), planned
    for name in ("late", "later", "latest"):
        entrant(tmp_path, name, RANDOM)
    file = write_file(tmp_path, [*NAMES, "late", "later", "latest"],
                      f'schedule = "adaptive"\nrounds = 1\nedition = "{TINY}"')
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert (f"stored already: {PER_ROUND} of them; the budget is spent: raise it to play on\n"
            in planned), planned  # late entrants make rounds larger, not more of them
    assert "at the pace of the games stored" not in planned, planned  # it would play none
    file = write_file(tmp_path, [*NAMES, "late", "later", "latest"],
                      f'schedule = "adaptive"\nrounds = 2\nedition = "{TINY}"')
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    # the round played of 2 tables, and one to come of 3: not 2 rounds of 3 tables
    assert f"budget: rounds = 2: at most {PER_ROUND + 9} games, about 5 per entrant" in planned
    # the time bound is of those games too: as a fresh store's bound of its budget's games
    grown = json.loads(in_process.referee("tournament", "plan", str(file), "--json",
                                          cwd=tmp_path).stdout)
    fresh = json.loads(in_process.referee("tournament", "plan", str(file), "--json", "--db",
                                          str(tmp_path / "fresh.db"), cwd=tmp_path).stdout)
    per_game = fresh["time_bound_seconds"] / fresh["budget_games"]
    assert abs(grown["time_bound_seconds"] - (PER_ROUND + 9) * per_game) <= 1, (grown, fresh)
    file = write_file(tmp_path, [*NAMES, "late"],
                      f'schedule = "adaptive"\nrounds = 3\nedition = "{TINY}"')
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert f"stored already: {PER_ROUND} of them; 0 to play before the next round\n" in planned
    assert "the budget leaves " in planned and " games for the rounds to come\n" in planned
    assert "at no table yet: late: the next rounds seat it first\n" in planned, planned
    paced = re.search(r"\ntime at the pace of the games stored \([\d.]+ s a game\): about "
                      r"[\d hmins]+ for the (\d+) the budget leaves\n", planned)
    left = re.search(r"\nthe budget leaves (\d+) games for the rounds to come\n", planned)
    assert paced and left and paced[1] == left[1], planned  # one count of what a run plays
    assert "warning" not in planned, planned


def test_the_plan_warns_when_the_budget_left_gives_late_entrants_few_games(
        tmp_path: Path, played: Played) -> None:
    """Three rounds played (each entrant 9 games), then a late entrant with one more round in
    the budget: the plan warns that it gets about 3 games against the others' median of 9, and
    by how much to raise the budget to give it as many."""
    played.copy(3, tmp_path)
    entrant(tmp_path, "late", RANDOM)
    file = write_file(tmp_path, [*NAMES, "late"],
                      f'schedule = "adaptive"\nrounds = 4\nedition = "{TINY}"')
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert ("warning: the budget leaves the entrant at no table yet about 3 games against a "
            "median of 9 for the others, so its place will be far wider: raise rounds by about 2 "
            "rounds to give it as many\n") in planned, planned


def test_a_board_after_a_round_names_the_entrants_at_no_table_and_says_more_rounds_help(
        tmp_path: Path, played: Played) -> None:
    """One round played, then `late` added with the budget (rounds = 1) spent: the run seats
    it at no table, and its board, like `referee leaderboard` in every format, still names it
    (no games yet: a line under the table and Markdown, `no_games` in JSON, a row of its own
    in CSV).  The note of a board that separates nothing says what helps an adaptive run,
    more rounds and its budget, not the deals of a table a fixed schedule would need."""
    played.copy(1, tmp_path)
    entrant(tmp_path, "late", RANDOM)
    said = " ".join(run(write_file(tmp_path, [*NAMES, "late"], f'schedule = "adaptive"\n'
                                   f'rounds = 1\nedition = "{TINY}"'), "--workers", "1").split())
    db = tmp_path / "field.db"
    for text in (said, " ".join(board(db, "table").split())):
        assert ("no games yet: late: in the last run's file, at no table of the games stored "
                "so far, so not placed") in text, text
        assert ("the exact test's smallest p-value is above 0.05/15; an adaptive run "
                "separates pairs by playing more rounds: raise its budget (rounds = 1) to play "
                "on. Entrants at tables that share no entrant are not compared: no game links "
                "them yet; more rounds will") in text, text
        assert "deals of a table" not in text, text
    assert "no games yet: late:" in board(db, "markdown")
    assert json.loads(board(db))["no_games"] == ["late"]
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(board(db, "csv")))}
    assert (rows["late"]["games"], rows["late"]["rank"], rows["late"]["left_out"]) == ("0", "", "")


def test_the_plan_counts_an_entrant_the_last_run_left_out_apart_from_the_newcomers(
        tmp_path: Path, played: Played) -> None:
    """Three rounds played, then `late` added and `broken` at no table, left out by the last
    run (its build failed; plan builds nothing, so it cannot say whether it works now): the
    plan says late is at no table yet, broken apart as seated only if a run builds it now,
    and the warning of few games names broken apart from the one newcomer; with broken alone
    at no table, the warning is of broken alone."""
    from referee.tournament.store import LEFT_OUT, Entrant, Store

    played.copy(3, tmp_path)
    for name in ("late", "broken"):
        entrant(tmp_path, name, RANDOM)
    store = Store.for_writing(tmp_path / "field.db")
    try:  # as the run that left it out recorded it
        store.record_field([Entrant("broken", None, LEFT_OUT, "its build failed")], [], {})
    finally:
        store.close()
    budget = f'schedule = "adaptive"\nrounds = 4\nedition = "{TINY}"'
    planned = in_process.referee("tournament", "plan", str(write_file(
        tmp_path, [*NAMES, "late", "broken"], budget)), cwd=tmp_path).stdout
    assert "at no table yet: late: the next rounds seat it first\n" in planned, planned
    assert ("at no table yet, left out by the last run: broken: the next rounds seat it "
            "first if a run builds it now\n") in planned, planned
    assert ("warning: the budget leaves the entrant at no table yet (and broken, left out by "
            "the last run, if a run builds it now) about 3 games each against a median of 9 "
            "for the others, so their places will be far wider: raise rounds by about 2 "
            "rounds to give them as many\n") in planned, planned
    planned = in_process.referee("tournament", "plan", str(write_file(
        tmp_path, [*NAMES, "broken"], budget)), cwd=tmp_path).stdout
    assert "at no table yet: " not in planned, planned
    assert ("warning: the budget leaves broken, left out by the last run and at no table yet, "
            "if a run builds it now, about 3 games against a median of 9 for the others, so "
            "its place will be far wider: raise rounds by about 2 rounds to give it as "
            "many\n") in planned, planned


def played_then_changed(played: Played, folder: Path, before: int, after: int) -> Path:
    """A copy of the store of `before` rounds, then entrant e0 edited: the file asking for
    `after` rounds, for the next run."""
    file = played.copy(before, folder, f"rounds = {after}")
    with (folder / "e0" / "bot.py").open("a") as bot:
        bot.write("# changed\n")
    return file

def test_a_resumed_runs_progress_counts_every_stored_game_from_its_first_line(
        tmp_path: Path, played: Played) -> None:
    """Run again after an entrant changed, with a larger budget: the changed entrant's games
    in the first round are played first, and the progress counts from all the games still
    stored, not from the first round's alone; it never goes back."""
    file = played_then_changed(played, tmp_path, 2, 3)
    out = in_process.referee("tournament", "run", str(file), "--workers", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    superseded = int(re.search(r"its (\d+) stored games are superseded", out.stderr)[1])
    done = [int(n) for n in re.findall(r"^(\d+)/18 games", out.stderr, re.M)]
    assert done and done[0] == 2 * PER_ROUND - superseded + 1, out.stderr
    assert done == sorted(done), done


def test_a_run_with_fewer_rounds_than_stored_counts_to_the_rounds_it_replays(
        tmp_path: Path, played: Played) -> None:
    """Three rounds stored, then an entrant changes and the file asks for one: plan says the
    budget is below what the rounds chosen hold, which a run plays out; the run plays the
    changed entrant's games of all three kept rounds, and its progress counts to their 18
    games from its first line, never past its total."""
    file = played_then_changed(played, tmp_path, 3, 1)
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert ("budget: rounds = 1: 6 games, fewer than the rounds already chosen hold (18): a run "
            "plays those out, and no more rounds") in planned, planned
    out = in_process.referee("tournament", "run", str(file), "--workers", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    shown = [(int(a), int(b)) for a, b in re.findall(r"^(\d+)/(\d+) games", out.stderr, re.M)]
    assert shown and {total for _, total in shown} == {3 * PER_ROUND}, out.stderr
    assert shown[-1][0] == 3 * PER_ROUND and not re.search(r"left -\d", out.stderr), out.stderr


def test_the_plan_of_a_store_of_other_entrants_says_its_rounds_seat_none_of_them(
        tmp_path: Path, played: Played) -> None:
    """A store whose rounds were chosen among other entrants (another tournament's `--db`):
    `plan` counts those rounds but says none of their tables is of this file's entrants, and
    warns that a run withdraws the store's own."""
    played.copy(1, tmp_path)
    others = [f"x{i}" for i in range(6)]
    for name in others:
        entrant(tmp_path, name, RANDOM)
    file = write_file(tmp_path, others, f'schedule = "adaptive"\nrounds = 3\nedition = "{TINY}"')
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert "chosen so far: 1 round, none of their tables of this file's entrants\n" in planned, \
        planned
    assert "warning: a run withdraws e0, e1, e2 and 3 more (6)" in planned, planned


def test_a_round_is_sized_by_the_entrants_that_can_play(tmp_path: Path) -> None:
    """Six entrants at tables of three make rounds of two tables; with one left out (its
    folder gone), a round is one table of the five that can play, not two that would seat
    one of them twice; `plan` and the run's budget count rounds so.  The run, into a new
    store, says nothing is stored yet (not "0 to play before the next round")."""
    file = adaptive_file(tmp_path, "rounds = 1")
    shutil.rmtree(tmp_path / NAMES[-1])
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert "adaptive: rounds of 1 table of 3," in planned, planned
    assert f"budget: rounds = 1: at most {PER_ROUND // 2} games" in planned, planned
    out = in_process.referee("tournament", "run", str(file), "--workers", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert f"left out {NAMES[-1]}: its directory" in out.stderr, out.stderr
    assert ("chosen so far: 0 rounds, 0 tables, 0 games\nnothing stored yet: the first round "
            "is chosen as play begins\n") in out.stderr, out.stderr
    chosen = rounds(tmp_path / "field.db")
    assert len(chosen) == 1 and NAMES[-1] not in chosen[0][2], chosen
    assert count(tmp_path / "field.db") == PER_ROUND // 2


def test_a_leaderboard_of_an_adaptive_store_short_of_its_budget_says_so(
        tmp_path: Path, played: Played) -> None:
    """An adaptive store of 2 rounds whose last 3 games were never played (as a run stopped
    inside a round leaves it): `leaderboard` says on stderr that it holds 9 of the 12 games
    its budget allows and that the places may change; after a run plays them, it says
    nothing."""
    file = played.copy(2, tmp_path)
    db = tmp_path / "field.db"
    forget_last(db, 3)
    out = in_process.referee("leaderboard", str(db), cwd=tmp_path)
    assert out.returncode == 0
    assert out.stderr == (f"note: {db} holds 9 of the 12 games of tournament 'field': a run "
                          "of its file plays the rest, and the places may change\n"), out.stderr
    assert in_process.referee("tournament", "run", str(file), "-q", cwd=tmp_path).returncode == 0
    assert count(db) == 12
    assert in_process.referee("leaderboard", str(db), cwd=tmp_path).stderr == ""


def test_a_leaderboard_of_an_adaptive_store_stopped_between_rounds_says_it_plays_on(
        tmp_path: Path, played: Played) -> None:
    """An adaptive store of rounds = 2 stopped after its first round (Ctrl-C or a time budget
    between two rounds: every game of the rounds chosen stored, the second not chosen yet):
    `leaderboard` says that it holds 6 of the 12 games, 6 of them in rounds its budget leaves,
    and that the places may change, where it said nothing, as if the contest were over.  With
    all but two entrants left out, fewer than a table can play and a run chooses no round:
    it says nothing of rounds to come, nor that a run plays on."""
    played.copy(2, tmp_path)
    db = tmp_path / "field.db"
    forget_last(db, PER_ROUND)
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM rounds WHERE round >= 1")
    out = in_process.referee("leaderboard", str(db), cwd=tmp_path)
    assert out.returncode == 0
    assert out.stderr == (f"note: {db} holds 6 of the 12 games of tournament 'field' (about 6 "
                          "of them in rounds not chosen yet: its budget is rounds = 2): a run "
                          "of its file plays the rest, and the places may change\n"), out.stderr
    with sqlite3.connect(db) as con:
        con.execute("UPDATE entrants SET status = 'left out', reason = 'its build failed' "
                    "WHERE name NOT IN ('e0', 'e1')")
    out = in_process.referee("leaderboard", str(db), cwd=tmp_path)
    assert out.returncode == 0 and out.stderr == "", out.stderr


def test_the_progress_counts_to_what_the_budget_leaves_after_the_field_grew(
        tmp_path: Path, played: Played) -> None:
    """A round of 6 entrants (6 games), then 3 late entrants and rounds = 3: the rounds to
    come are of 9 games, so the run counts to 6 + 2 x 9 = 24, as `plan` says the budget
    leaves 18, and its last line is 24/24 (not a total of 3 rounds of 9 it never reaches)."""
    played.copy(1, tmp_path)
    late = ["late", "later", "latest"]
    for name in late:
        entrant(tmp_path, name, RANDOM)
    file = write_file(tmp_path, [*NAMES, *late],
                      f'schedule = "adaptive"\nrounds = 3\nedition = "{TINY}"')
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert "the budget leaves 18 games for the rounds to come" in planned, planned
    out = in_process.referee("tournament", "run", str(file), "--workers", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    shown = re.findall(r"^(\d+)/(\d+) games", out.stderr, re.M)
    assert shown and {total for _, total in shown} == {"24"}, out.stderr
    assert shown[-1] == ("24", "24") and count(tmp_path / "field.db") == 24, out.stderr


def test_a_max_games_reached_inside_a_round_is_planned_as_the_run_stops(
        tmp_path: Path) -> None:
    """max_games = 4 stops the run 4 games into its first round of 6: `plan` then says a run
    plays the rounds chosen only until the store holds 4 (not that it plays them out), and
    that the budget is spent, as a run that plays nothing more shows."""
    file = adaptive_file(tmp_path, "max_games = 4")
    out = in_process.referee("tournament", "run", str(file), "-q", "--workers", "1",
                             cwd=tmp_path)
    assert out.returncode == 0 and len(stored(tmp_path / "field.db")) == 4, out.stderr
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path).stdout
    assert (f"budget: max_games = 4: 4 games, fewer than the rounds already chosen hold "
            f"({PER_ROUND}): a run plays them until the store holds 4, and no more rounds\n"
            in planned), planned
    assert "the budget is spent: raise it to play on (the 2 games left" in planned, planned
    again = in_process.referee("tournament", "run", str(file), "--workers", "1", cwd=tmp_path)
    assert "0 games played, 4 were already stored" in again.stderr, again.stderr


def test_a_run_stopped_in_an_early_round_counts_every_round_stored_before_it(
        tmp_path: Path, played: Played) -> None:
    """Two rounds stored, less two games of the first; the budget then lets a run play one,
    so that it stops inside the first round: its last line counts the 10 games stored before
    it (not the first round's alone), and it says nothing of games beyond its schedule, as
    there are none."""
    file = played.copy(2, tmp_path, "max_games = 12")  # its two rounds' games
    db = tmp_path / "field.db"
    with sqlite3.connect(db) as con:
        ids = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY finished")]
        con.executemany("DELETE FROM games WHERE game_id = ?", [(ids[0],), (ids[1],)])
    file.write_text(file.read_text().replace("max_games = 12", "max_games = 11"))
    out = in_process.referee("tournament", "run", str(file), "--workers", "1", cwd=tmp_path)
    assert "1 games played, 10 were already stored" in out.stderr, out.stderr
    assert "beyond this run's schedule" not in out.stderr, out.stderr
