"""Runs that stop when their question is settled (`until`, `--until-separated`): they stop at
a look and say why, or play every deal and say what is still open; a resumed or extended run
keeps the games stored and stops where an uninterrupted run does."""

from __future__ import annotations

import html
import json
import random
import re
import sqlite3
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.game.actions import Action, Bid, Decision, DecisionKind, Pass, Price
from referee.game.random_policy import random_action
from referee.leaderboard import Games, standings
from referee.leaderboard.sequential import looks
from referee.match.player import Answer, Player
from referee.match.policy_player import PolicyPlayer, default_player, random_player
from referee.tournament.config import TournamentConfig
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.progress import Progress
from referee.tournament.running import RunSummary
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

from .. import in_process
from ..processes import BOT_PYTHON

ROOT = Path(__file__).resolve().parents[2]
ORDERS = 6  # seat orders of a table of three ("all")


def shrewd(decision: Decision, view: dict[str, Any], rng: random.Random) -> Action:
    """Sells dear, buys only cheap, never buys at a fixed price; random otherwise: far
    stronger than a random player, whose buys ignore the price."""
    seat, kind = decision.seat, decision.kind
    if kind is DecisionKind.PRICE:
        return Price(seat, max(decision.min_amount, min(decision.max_amount, 25)))
    if kind is DecisionKind.BUY:
        return Pass(seat)
    if kind is DecisionKind.HIDDEN_BID:
        return Bid(seat, min(decision.max_amount, rng.randint(0, 4)))
    if kind is DecisionKind.BID:
        cheap = decision.min_amount <= min(6, decision.max_amount)
        return Bid(seat, decision.min_amount) if cheap else Pass(seat)
    return random_action(decision, rng)


class Thinking(PolicyPlayer):
    """A policy player that yields to the event loop at every decision, as a bot process does
    while it waits for its answer (so that a run can be cancelled between them)."""

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        await trio.lowlevel.checkpoint()
        return await super().decide(decision, view, alone)


def make(name: str, worker: int) -> Player:
    if name == "shrewd":
        return Thinking(name, shrewd, 1)
    if name.startswith("passive"):
        return default_player(name)
    # the copies share one policy and one seed: the same player under three names
    return random_player(name, 1 if name.startswith("copy") else zlib.crc32(name.encode()))


def config(names: list[str], seed: int, **extra: Any) -> TournamentConfig:
    return TournamentConfig.model_validate({
        "name": "until", "seed": seed, "table_size": 3,
        "bots": [{"name": n, "command": "unused"} for n in names], **extra})


def run(cfg: TournamentConfig, db: Path, on_update: Callable[[Progress], None] | None = None
        ) -> tuple[RunSummary, list[str]]:
    said: list[str] = []
    store = open_store(db)
    try:
        summary = trio.run(lambda: run_tournament(cfg, db.with_suffix(".toml"), store,
                                                  LocalExecutor(2, make), said.append,
                                                  on_update))
    finally:
        store.close()
    return summary, said


def stored(db: Path) -> set[str]:
    with sqlite3.connect(db) as con:
        return {row[0] for row in con.execute("SELECT game_id FROM games")}


def deal(game_id: str) -> int:
    return int(game_id.split("-d")[1].split("-")[0])


def copy_store(played: Path, to: Path) -> Path:
    """A copy of a played store (SQLite's backup: whole, whatever its journal holds), for a
    test that writes to it or plays on in it."""
    source, copy = sqlite3.connect(played), sqlite3.connect(to)
    try:
        source.backup(copy)
    finally:
        source.close()
        copy.close()
    return to


class Played:
    """A run played once for the tests of this file that read it (each test that writes to
    its store or plays on in it takes a `copy_store`): its store, summary, what it said and
    the progress totals it counted."""

    def __init__(self, cfg: TournamentConfig, db: Path) -> None:
        self.db = db
        self.totals: set[int] = set()
        self.summary, self.said = run(cfg, db, lambda p: self.totals.add(p.total))


STRONG = config(["shrewd", "random-1", "random-2"], seed=0, deals=64, until="separated")
TOP = config(["shrewd", "random-1", "passive-a", "passive-b"], seed=0, deals=32, until="top",
             top=2)
COPIES = config(["copy-a", "copy-b", "copy-c"], seed=1, deals=16, until="separated")


@pytest.fixture(scope="module")
def strong(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """STRONG, played once."""
    return Played(STRONG, tmp_path_factory.mktemp("strong") / "strong.db")


@pytest.fixture(scope="module")
def top(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """TOP (a qualifier's cut), played once."""
    return Played(TOP, tmp_path_factory.mktemp("top") / "top.db")


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """COPIES (three copies of one player, all 16 deals), played once."""
    return Played(COPIES, tmp_path_factory.mktemp("copies") / "same.db")


def test_a_clearly_stronger_player_stops_the_run_at_a_look(strong: Played) -> None:
    """A player far stronger than two random ones: the run stops at a look well before its 64
    deals and names the leader found stronger than each other; the store holds exactly the
    games of the deals up to that look, the progress counted to each look in turn, and the
    leaderboard agrees."""
    db, totals, summary, said = strong.db, strong.totals, strong.summary, strong.said
    assert summary.verdict is not None
    found = re.fullmatch(r"stopped after (\d+) deals \((\d+) games\): the leader, shrewd, is "
                         r"found stronger than every other entrant", summary.verdict)
    assert found, summary.verdict
    deals = int(found[1])
    assert deals in looks(64) and deals < 64
    assert int(found[2]) == summary.total == summary.played == deals * ORDERS
    ids = stored(db)
    assert len(ids) == deals * ORDERS and max(map(deal, ids)) == deals - 1
    assert totals == {n * ORDERS for n in looks(64) if n <= deals}
    assert said[0].startswith("until the leader is found stronger than every other entrant: "
                              "looks after 8 (none: too few deals to stop), 16 (0.31%), "
                              "32 (0.94%), 64 (3.75%) deals (at most 384 games)"), said[0]
    assert said[-1] == summary.verdict
    store = open_store(db, read_only=True)
    rows = standings(Games.load(store.results(), store.seeds()), samples=200).rows
    store.close()
    assert rows[0].name == "shrewd" and rows[0].place.best == rows[0].place.worst == 1


def test_a_gauntlet_is_settled_by_its_candidates_not_by_a_strong_baseline(
        tmp_path: Path) -> None:
    """A gauntlet of a strong baseline (far stronger than random play) and two candidates
    that play alike at random: its looks judge the candidates alone, so the baseline, the
    strongest entrant, does not stop the run; it plays every deal and says which candidates
    the leading one is not found stronger than."""
    cfg = config(["shrewd", "random-1", "random-a", "random-b"], seed=0, deals=16,
                 until="separated", format="gauntlet", baselines=["shrewd", "random-1"],
                 seat_orders="rotations")
    summary, said = run(cfg, tmp_path / "gauntlet.db")
    assert said[0].startswith("until the leader is found stronger than every other "
                              "candidate: looks after 8 (1.25%), 16 (3.75%) deals"), said[0]
    assert summary.verdict is not None
    assert re.fullmatch(r"played all 16 deals \(96 games\): the leader, random-[ab], is not "
                        r"found stronger than random-[ab]", summary.verdict), summary.verdict


def test_identical_players_play_every_deal_and_the_run_says_so(copies: Played) -> None:
    """Three copies of one random player: no look separates them, so the run plays all 16
    deals, saying at the first look that it plays on, and at the end whom the leader is not
    found stronger than."""
    db, summary, said = copies.db, copies.summary, copies.said
    assert summary.verdict is not None
    assert re.fullmatch(r"played all 16 deals \(96 games\): the leader, copy-(.), is not "
                        r"found stronger than copy-(?!\1).(, copy-.)?", summary.verdict), \
        summary.verdict
    assert re.fullmatch(r"look after 8 deals \(48 games\): the leader, copy-., is not "
                        r"found stronger than .*; playing on to 16 deals", said[1]), said
    assert len(stored(db)) == summary.total == 16 * ORDERS


def test_until_ranked_stops_once_every_place_is_settled(tmp_path: Path) -> None:
    """A strong, a random and a passive player: the run stops once the standings are known
    from top to bottom, and says them.  Its first look, at 8 deals, cannot stop it (the
    exact test cannot separate three entrants on 8 deals at that look's share of the error)
    and says so."""
    cfg = config(["shrewd", "random-1", "passive"], seed=0, deals=64, until="ranked")
    summary, said = run(cfg, tmp_path / "ranked.db")
    assert summary.verdict is not None
    assert re.fullmatch(r"stopped after (16|32) deals \(\d+ games\): every place is settled: "
                        r"shrewd > random-1 > passive", summary.verdict), summary.verdict
    assert said[1] == ("look after 8 deals (48 games): too few deals for this look to stop the "
                       "run; playing on to 16 deals")


def test_until_top_stops_once_the_cut_is_known_though_places_below_it_are_not(
        top: Played) -> None:
    """A qualifier's cut, `until = "top"` with `top = 2`: a strong and a random player above
    two identical passive ones.  The run stops at a look once the two above the cut are known
    and names them, though the two below it can never be told apart (a run until "ranked"
    would play every deal); the plan's line names the cut."""
    summary, said = top.summary, top.said
    assert said[0].startswith("until the top 2 entrants are known: looks after 8"), said[0]
    assert summary.verdict is not None
    found = re.fullmatch(r"stopped after (\d+) deals \(\d+ games\): the top 2 are known: "
                         r"shrewd, random-1", summary.verdict)
    assert found and int(found[1]) < 32, summary.verdict


def test_the_leaderboard_and_report_of_a_qualifier_say_who_qualified_and_why_it_stopped(
        tmp_path: Path, top: Played) -> None:
    """After a qualifier's run (`until = "top"`), `referee leaderboard` and `referee report`
    say what it decided, as the run said it: where it stopped and the top 2 it found (the
    table and Markdown under the board, JSON as `until`, CSV on stderr, the report's first
    page), so that an organiser who publishes the board later knows who qualified.  A store
    without `until` says nothing of the kind (`until`: null)."""
    db, summary = copy_store(top.db, tmp_path / "top.db"), top.summary
    assert summary.verdict is not None and summary.verdict.startswith("stopped after ")
    decided = f"until the top 2 entrants are known: {summary.verdict} (this look's error: "
    table = in_process.referee("leaderboard", str(db), cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert decided in " ".join(table.stdout.split()), table.stdout
    markdown = in_process.referee("leaderboard", str(db), "--format", "markdown", cwd=tmp_path)
    assert decided in markdown.stdout, markdown.stdout
    doc = json.loads(in_process.referee("leaderboard", str(db), "--format", "json",
                                        cwd=tmp_path).stdout)
    assert doc["until"].startswith(decided), doc["until"]
    assert "the top 2 are known: shrewd, random-1 (this look's error: " in doc["until"]
    csv = in_process.referee("leaderboard", str(db), "--format", "csv", cwd=tmp_path)
    assert decided in csv.stderr and "until" not in csv.stdout, csv.stderr
    site = in_process.referee("report", str(db), "--out", "site", cwd=tmp_path)
    assert site.returncode == 0, site.stderr
    page = html.unescape((tmp_path / "site" / "index.html").read_text())
    assert "Until the top 2 entrants are known: stopped after " in page
    plain = tmp_path / "plain.db"
    run(config(["shrewd", "random-1", "passive-a"], seed=0, deals=2), plain)
    doc = json.loads(in_process.referee("leaderboard", str(plain), "--format", "json",
                                        cwd=tmp_path).stdout)
    assert doc["until"] is None


def test_a_cut_among_equals_plays_every_deal_and_says_how_to_settle_it(tmp_path: Path) -> None:
    """Four copies of one player with a cut after 2: no look can tell who is above it, so
    the run plays every deal and says who is across the cut, and that, if they differ, more
    deals or a play-off among them would settle it (of equals, nothing would)."""
    cfg = config(["copy-a", "copy-b", "copy-c", "copy-d"], seed=1, deals=8, until="top",
                 top=2)
    summary, _ = run(cfg, tmp_path / "equals.db")
    assert summary.verdict is not None
    assert re.fullmatch(r"played all 8 deals \(\d+ games\): the cut after place 2 is not "
                        r"settled: (copy-. \d-\d, ){3}copy-. \d-\d; if they differ, more deals "
                        r"\(raise deals: the next run plays on\) or a play-off of those across "
                        r"the cut would settle it \(of equals, nothing would\)", summary.verdict), \
        summary.verdict


@pytest.mark.parametrize(("extra", "expected"), [
    ({"until": "top"}, 'until = "top": give the cut, top = N'),
    ({"top": 2}, 'top: goes with until = "top"'),
    ({"until": "top", "top": 3}, "top: 3 of 3 entrants leaves nobody out"),
], ids=["no-cut", "cut-alone", "cut-of-all"])
def test_a_cut_that_cannot_be_is_refused(extra: dict[str, Any], expected: str) -> None:
    """until = "top" without its cut, a cut without it, and a cut that leaves nobody out are
    each refused, saying which."""
    with pytest.raises(ValueError, match=re.escape(expected)):
        config(["a", "b", "c"], seed=0, deals=16, **extra)


def test_the_runs_look_is_read_back_only_for_the_same_question_and_games(
        tmp_path: Path, strong: Played) -> None:
    """The look that stopped a run is kept in its store and read back as it was said (a
    leaderboard asks it again to tell a finished store); asked another question, or of
    games that changed, the store's games are judged again."""
    from referee.tournament.schedule import Schedule
    from referee.tournament.until import look, stages

    db, summary = copy_store(strong.db, tmp_path / "kept.db"), strong.summary
    store = open_store(db)
    try:
        stage = next(s for s in stages(STRONG) if summary.verdict and
                     f"after {s.deals} deals" in summary.verdict)
        games = Schedule(STRONG)
        assert look(STRONG, store, games, stage).text == summary.verdict
        ranked = STRONG.model_copy(update={"until": "ranked"})
        assert "every place" in look(ranked, store, games, stage).text or \
            "not separated" in look(ranked, store, games, stage).text
        kept = f"look after {stage.deals} deals"
        store.remember(kept, store.meta(kept).replace("is found", "IS FOUND"))  # type: ignore[union-attr]
        assert look(STRONG, store, games, stage).text == summary.verdict.replace(
            "is found", "IS FOUND")  # read back, not judged again
        with store.db:  # one game's result changed, as a game played again would be
            store.db.execute("UPDATE games SET result = replace(result, '\"money\":[', "
                             "'\"money\":[1') WHERE rowid = (SELECT min(rowid) FROM games)")
        assert look(STRONG, store, games, stage).text == summary.verdict  # judged again
    finally:
        store.close()


def test_an_interrupted_run_resumes_to_the_same_stop(tmp_path: Path, strong: Played) -> None:
    """Cancelled during its second stage and run again, the run takes the same looks on the
    stored games and stops where an uninterrupted run stops, with the same games."""
    whole = strong.summary
    part = tmp_path / "part.db"
    store = open_store(part)

    async def interrupted() -> None:
        with trio.CancelScope() as scope:
            def update(p: Progress) -> None:
                if p.played >= 8 * ORDERS + 12:  # past the first look
                    scope.cancel()

            await run_tournament(STRONG, part.with_suffix(".toml"), store,
                                 LocalExecutor(2, make), lambda m: None, update)

    try:
        trio.run(interrupted)
    finally:
        store.close()
    kept = len(stored(part))
    assert 8 * ORDERS + 12 <= kept < whole.total
    resumed, said = run(STRONG, part)
    assert resumed.verdict == whole.verdict
    assert (resumed.already, resumed.played) == (kept, whole.total - kept)
    assert stored(part) == stored(strong.db)
    assert said[1].startswith("look after 8 deals (48 games): ")  # taken again, the same


def test_a_store_is_extended_when_max_deals_grows(tmp_path: Path, copies: Played) -> None:
    """A run that played all its 16 deals, run again with max_deals = 32 on the same store:
    the store is not refused (the games keep their ids and seeds), its games are kept and only
    the new deals played; a run without until over the same 32 deals has nothing left."""
    db = copy_store(copies.db, tmp_path / "grow.db")
    names = ["copy-a", "copy-b", "copy-c"]
    assert copies.summary.total == 16 * ORDERS
    more, _ = run(config(names, seed=1, max_deals=32, until="separated"), db)
    assert (more.already, more.played) == (16 * ORDERS, 16 * ORDERS)
    assert more.verdict is not None and more.verdict.startswith("played all 32 deals (192 games)")
    plain, said = run(config(names, seed=1, deals=32), db)
    assert (plain.already, plain.played, plain.verdict) == (32 * ORDERS, 0, None)
    assert not said  # a run without until says nothing of looks


class Slow(PolicyPlayer):
    """A random player that takes 5 ms a decision, as a bot process's answer takes time: a
    stage of 96 games outlasts a time budget of seconds."""

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        await trio.sleep(0.005)
        return await super().decide(decision, view, alone)


def test_a_time_budget_after_a_look_says_so_and_the_store_is_unfinished(
        tmp_path: Path, copies: Played) -> None:
    """Sixteen deals stored, then max_deals = 32 with a time budget of 3 s: the look after
    16 deals says to play on, the budget runs out in the next stage, and the run says
    it stopped there (an organiser's run said nothing, its look the last line); the store is
    then said to hold part of the games up to the next look (`unfinished`), and the
    leaderboard's note says they are those up to its next look (not every game the store
    holds: one grown by a late entrant holds later deals of the others too); after the first
    run, whose last look played every deal, it is not."""
    from referee.tournament.tally import unfinished

    db = copy_store(copies.db, tmp_path / "grow.db")
    names = ["copy-a", "copy-b", "copy-c"]
    store = open_store(db, read_only=True)
    assert unfinished(store) is None
    store.close()
    said: list[str] = []
    store = open_store(db)
    try:
        summary = trio.run(lambda: run_tournament(
            config(names, seed=1, max_deals=32, until="separated"), db.with_suffix(".toml"),
            store, LocalExecutor(2, lambda n, w: Slow(n, lambda d, v, r: random_action(d, r), 1)),
            said.append,
            time_budget=3.0))
    finally:
        store.close()
    assert any(line.startswith("look after 16 deals") for line in said), said
    assert said[-1].startswith("stopped when the time budget of 3 s ran out"), said
    assert ", after " in said[-1], said
    assert summary.played < 16 * ORDERS  # a game of 5 ms decisions takes about a second
    store = open_store(db, read_only=True)
    try:
        assert unfinished(store) == (16 * ORDERS + summary.played, 32 * ORDERS)
    finally:
        store.close()
    note = in_process.referee("leaderboard", str(db), cwd=tmp_path).stderr
    assert note.strip() == (f"note: {db} holds {16 * ORDERS + summary.played} of the "
                            f"{32 * ORDERS} games of tournament 'until' up to its next look: a "
                            "run of its file plays the rest, and the places may change"), note


# ------------------------------------------------------------------ the command line


def sample_file(folder: Path, extra: str = "") -> Path:
    """The Python sample bots at tables of three in rotations, at most 16 deals."""
    bots = {"baseline": "baseline_bot.py", "random-1": "random_bot.py --seed 1",
            "random-2": "random_bot.py --seed 2"}
    lines = ['name = "until-cli"', "seed = 5", "table_size = 3", 'seat_orders = "rotations"',
             extra or "deals = 16"]
    for name, script in bots.items():
        lines += ["[[bots]]", f'name = "{name}"',
                  f'command = "{BOT_PYTHON} {ROOT / "sample_bots/python"}/{script}"']
    path = folder / "cup.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory: pytest.TempPathFactory
            ) -> tuple[Path, subprocess.CompletedProcess[str]]:
    folder = tmp_path_factory.mktemp("cli")
    path = sample_file(folder)
    out = in_process.referee("tournament", "run", str(path), "--until-separated", "--workers",
                             "2", "--db", "local.db", cwd=folder)
    return folder, out


STOP = ("stopped after 8 deals (24 games): the leader, baseline, is found stronger than every "
        "other entrant")


def test_until_separated_on_the_command_line_stops_and_resumes(
        cli_run: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """`--until-separated` with the sample bots: the baseline is separated at the first look,
    the run says so and stops there, the leaderboard follows; run again, it plays nothing and
    says the same."""
    folder, out = cli_run
    assert out.returncode == 0, out.stderr
    assert "looks after 8 (1.25%), 16 (3.75%) deals (at most 48 games)" in out.stderr
    assert STOP in out.stderr.splitlines()
    assert re.search(r"^ +1 +1 +baseline +24 ", out.stdout, re.MULTILINE), out.stdout
    ids = stored(folder / "local.db")
    assert len(ids) == 24 and max(map(deal, ids)) == 7
    again = in_process.referee("tournament", "run", "cup.toml", "--until-separated", "--db",
                               "local.db", cwd=folder)
    assert again.returncode == 0, again.stderr
    assert STOP in again.stderr.splitlines()
    assert "0 games played, 24 were already stored" in again.stderr


def test_the_dask_executor_stops_at_the_same_look(
        cli_run: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """The same run on a Dask LocalCluster, stage by stage: the same stop, the same games."""
    pytest.importorskip("distributed")
    folder, _ = cli_run
    out = in_process.referee("tournament", "run", "cup.toml", "--until-separated", "--executor",
                             "dask", "--workers", "1", "--db", "dask.db", cwd=folder)
    assert out.returncode == 0, out.stderr
    assert STOP in out.stderr.splitlines()
    assert stored(folder / "dask.db") == stored(folder / "local.db")


def test_a_look_with_games_missing_stops_the_run_and_says_why(tmp_path: Path) -> None:
    """A bot left out (its command is missing): the first look lacks its games, so the run
    stops there, saying how many could not be played, instead of judging without them."""
    bot = ROOT / "tests" / "scripted_bots" / "first_legal.py"
    lines = ['name = "missing"', "seed = 2", "table_size = 3", 'seat_orders = "rotations"',
             "deals = 32", 'until = "separated"']
    for i in range(3):
        lines += ["[[bots]]", f'name = "b{i}"', f'command = "{BOT_PYTHON} {bot}"']
    lines += ["[[bots]]", 'name = "gone"', 'command = "./no-such-bot"']
    (tmp_path / "t.toml").write_text("\n".join(lines) + "\n")
    out = in_process.referee("tournament", "run", "t.toml", "--db", "t.db", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    # 4 tables of 3, 3 orders, 8 deals; the 3 tables with "gone" are not played
    assert ("stopped at the look after 8 deals: 72 of its 96 games could not be played "
            "(left-out bots or void games); run again to play them") in out.stderr.splitlines()
    assert "24 games played, 0 were already stored, 72 skipped" in out.stderr
    assert len(stored(tmp_path / "t.db")) == 24


@pytest.mark.parametrize(("extra", "args", "expected"), [
    ('until = "separated"\nmax_deals = 16\ndeals = 8', (),
     "max_deals: another name for deals (the most deals a run with until plays); give only "
     "one of them"),
    ("max_deals = 16", ("--until-separated",),
     'max_deals: goes with until = "separated", "ranked" or "top"'),
    ('until = "ranked"\ndeals = 16', ("--shard", "1/2"),
     "--shard: a run with until looks at every game of the field"),
    ('until = "always"', (), "until: Input should be 'separated', 'ranked' or 'top'"),
], ids=["both-names", "max-deals-alone", "shard", "unknown-until"])
def test_contradictory_settings_are_refused_in_one_line(
        tmp_path: Path, extra: str, args: tuple[str, ...], expected: str) -> None:
    """Both names of the most deals, max_deals without until, a shard of a run that looks at
    the whole field, an unknown until: one error line, nothing stored."""
    path = sample_file(tmp_path, extra)
    out = in_process.referee("tournament", "run", str(path), "--db", "x.db", *args, cwd=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and expected in lines[0], lines
    assert not (tmp_path / "x.db").exists()
