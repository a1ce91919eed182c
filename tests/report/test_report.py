"""`referee report`: the files it writes, what they hold, and its command line."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

from referee.game.events import HiddenBidsRevealed
from referee.leaderboard.render import place_text
from referee.leaderboard.stats import Games, rating_history, ratings
from referee.match.record import EventLine
from referee.report import write_report
from referee.report.data import load, select_games
from referee.tournament.store import open_store

from .. import in_process
from ..leaderboard.support import a_tournament, stored
from .conftest import NAMES, Made

GAME_DATA = re.compile(r'<script type="application/json" id="game-data">(.*?)</script>', re.S)


def table_rows(page: str, css_class: str) -> list[list[str]]:
    """The text of each cell of each body row of the page's table of that class (without the
    bars' tooltips)."""
    table = re.search(rf'<table[^>]* class="{css_class}[ "].*?<tbody>(.*?)</tbody>', page, re.S)
    assert table, f"no table.{css_class}"
    body = re.sub(r"<title>.*?</title>", "", table.group(1))
    return [[" ".join(html.unescape(re.sub(r"<[^>]+>", " ", cell)).split())
             for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def game_doc(page: Path) -> dict:
    match = GAME_DATA.search(page.read_text())
    assert match, f"no game data in {page}"
    return json.loads(match.group(1))


def referee(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return in_process.referee(*args, cwd=cwd, timeout=120)


def test_the_site_has_every_page_and_nothing_from_outside(made: Made) -> None:
    out = made.out
    for name in ("index.html", "pairs.html", "games.html", "report.css", "report.js"):
        assert (out / name).is_file()
    assert sorted(p.stem for p in (out / "bots").glob("*.html")) == sorted(NAMES)
    store = open_store(made.db)
    results = list(store.results())
    store.close()
    faulty = {r.game_id for r in results if any(r.faults)}
    pages = {p.stem for p in (out / "games").glob("*.html")}
    assert faulty and faulty <= pages  # every game with a fault
    assert len(pages) <= len(faulty) + 2  # and the sample of 2
    assert made.summary.game_pages == len(pages)
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_text()
            assert "http:" not in text and "https:" not in text, path  # no CDN, no network
            assert "url(" not in text and "@import" not in text, path
            for ref in re.findall(r'(?:src|href)="([^"]*)"', text):
                assert ref == "data:," or not re.match(r"^([a-z]+:|//|/)", ref), (path, ref)


def test_game_pages_hold_public_steps_that_add_up_to_the_result(made: Made) -> None:
    store = open_store(made.db)
    for page in (made.out / "games").glob("*.html"):
        doc = game_doc(page)
        record = store.record(doc["game_id"])
        assert record is not None
        assert doc["result"]["money"] == list(record.result.money)
        money = [doc["start_money"]] * len(doc["names"])
        hidden_seen = 0
        sealed = False
        for step in doc["steps"]:
            assert step["t"]
            assert not (sealed and step["k"] == "fault")  # a rejected hidden bid waits too
            for ev in step["e"]:
                assert ev["type"] != "cards_dealt"  # private deals stay out
                if ev["type"] == "payment":
                    if ev["payer"] is not None:
                        money[ev["payer"]] -= ev["amount"]
                    if ev["payee"] is not None:
                        money[ev["payee"]] += ev["amount"]
                elif ev["type"] == "paintings_sold":
                    money[ev["seat"]] += ev["amount"]
                elif ev["type"] == "hidden_bids_revealed":
                    hidden_seen += 1
                    sealed = False
                elif ev["type"] == "auction_started":
                    sealed = ev["auction_type"] == "hidden"
        assert money == list(record.result.money)
        text = page.read_text()
        assert '"answer"' not in text and '"rejected"' not in text  # no hidden bid before reveal
        hidden = sum(1 for line in record.lines if isinstance(line, EventLine)
                     and isinstance(line.event, HiddenBidsRevealed))
        assert hidden_seen == hidden
    store.close()


def test_bot_pages_list_faults_with_links_and_stderr_excerpts(made: Made) -> None:
    """A bot page lists its faults, each linked to its game at that step; the last lines of
    its stderr logs; and how many lines of them look like errors it lived through."""
    page = (made.out / "bots" / "illegal.html").read_text()
    assert "is more than seat" in page  # the fault's reason
    rows = re.findall(r'href="\.\./games/([^"#]+)\.html#step=(\d+)".*?<td class="reason">'
                      r'(.*?)</td>', page)
    assert len(rows) >= 2
    for gid, step, reason in rows:  # each fault's link opens the game at that very fault
        doc = game_doc(made.out / "games" / f"{gid}.html")
        assert doc["steps"][int(step)]["k"] == "fault"
        assert doc["steps"][int(step)]["f"]["reason"] == html.unescape(reason)
    assert len({(gid, step) for gid, step, _ in rows}) == len(rows)  # not all the first one
    alpha = (made.out / "bots" / "alpha.html").read_text()
    assert "alpha thinking about move 99 &lt;b&gt;" in alpha
    assert "move 60 " in alpha and "move 59 " not in alpha  # the last 40 lines
    assert "No stderr log for beta" in (made.out / "bots" / "beta.html").read_text()
    # errors it lived through, out of the tail and no faults, counted over the whole log
    assert ("2 lines of its stderr look like errors it lived through, the first: <code>alpha: "
            "request 5 (bid): KeyError(&#x27;price&#x27;); falling back to the default</code>"
            ) in alpha, alpha


def test_without_stderr_dir_the_pages_say_so(made: Made, tmp_path: Path) -> None:
    out = tmp_path / "site"
    done = referee("report", str(made.db), "--out", str(out), "--games-sample", "0",
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Open " in done.stdout
    assert "not included" in (out / "index.html").read_text()
    assert "without <code>--stderr-dir</code>" in (out / "bots" / "alpha.html").read_text()


def test_rewriting_replaces_the_game_pages(made: Made, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert referee("report", str(made.db), "--out", str(out), "--all-games",
                   cwd=tmp_path).returncode == 0
    store = open_store(made.db)
    total = store.count()
    store.close()
    assert len(list((out / "games").glob("*.html"))) == total
    assert referee("report", str(made.db), "--out", str(out), "--games-sample", "1",
                   cwd=tmp_path).returncode == 0
    assert len(list((out / "games").glob("*.html"))) < total


def test_sample_is_spread_and_keeps_every_faulty_game(made: Made) -> None:
    store = open_store(made.db)
    data = load(store)
    store.close()
    ids = [r.game_id for r in data.results]
    faulty = set(data.faulty)
    assert select_games(data, 0, all_games=True) == ids
    assert set(select_games(data, 0, all_games=False)) == faulty
    picked = select_games(data, 4, all_games=False)
    assert faulty <= set(picked) and picked == sorted(picked)
    clean = [g for g in ids if g not in faulty]
    assert len(clean) == 4  # the one table without the illegal bot, four rotations
    assert select_games(data, 1000, all_games=False) == ids


def test_rating_history_ends_at_the_ratings(made: Made) -> None:
    store = open_store(made.db)
    games = Games.load(store.results(), store.seeds())
    store.close()
    history = rating_history(games, points=7)
    assert history[-1][0] == len(games.game_ids)
    assert history[-1][1] == ratings(games)
    assert [n for n, _ in history] == sorted({n for n, _ in history})
    assert len(history) == 7


def test_cli_errors_are_one_line(made: Made, tmp_path: Path) -> None:
    def report(*args: str) -> subprocess.CompletedProcess[str]:
        return in_process.referee("report", *args, cwd=tmp_path)

    missing = report(str(tmp_path / "nope.db"), "--out", str(tmp_path / "o"))
    assert missing.returncode == 2
    assert missing.stderr.strip() == f"error: no results store at {tmp_path / 'nope.db'}"
    (tmp_path / "cup.toml").write_text('name = "cup"\n')  # the file given for its store
    for args in (["report", "cup.toml", "--out", "o"], ["leaderboard", "cup.toml"]):
        toml = in_process.referee(*args, cwd=tmp_path)
        assert (toml.returncode, toml.stderr) == (2, "error: cup.toml is a tournament file, not "
                                                     "its results store: give the store, cup.db "
                                                     "unless its run was given --db\n")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for out in (a_file, a_file / "sub"):
        bad = report(str(made.db), "--out", str(out))
        assert bad.returncode == 2, bad.stderr
        assert bad.stderr.startswith("error: ") and len(bad.stderr.strip().splitlines()) == 1
    no_dir = report(str(made.db), "--out", str(tmp_path / "o"), "--stderr-dir",
                    str(tmp_path / "none"))
    assert no_dir.returncode == 2 and "error: --stderr-dir" in no_dir.stderr
    file_dir = report(str(made.db), "--out", str(tmp_path / "o"), "--stderr-dir",
                      str(a_file))  # not "no such folder"
    assert file_dir.stderr == f"error: --stderr-dir {a_file}: a file, not a folder\n"
    not_store = report(str(a_file), "--out", str(tmp_path / "o"))
    assert not_store.returncode == 2 and not_store.stderr.startswith("error: ")


def test_out_must_be_new_empty_or_an_earlier_report(made: Made, tmp_path: Path) -> None:
    """Someone's folder is never written over; an earlier report is rewritten."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "index.html").write_text("my page")
    out = in_process.referee("report", str(made.db), "--out", str(mine), cwd=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == (f"error: --out {mine} holds other files than an earlier "
                                  "report; give a new or empty folder")
    assert [p.name for p in mine.iterdir()] == ["index.html"]
    assert (mine / "index.html").read_text() == "my page"
    blank = in_process.referee("report", str(made.db), "--out", "", cwd=tmp_path)
    assert blank.returncode == 2 and blank.stderr.strip() == "error: --out: give a folder name"
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".gitkeep").write_text("")  # hidden files (a git checkout's) are not in the way
    for _ in range(2):  # an empty folder, then the report written there
        done = referee("report", str(made.db), "--out", str(empty), "--games-sample", "0",
                       cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    assert (empty / "index.html").is_file() and (empty / ".gitkeep").is_file()


def test_a_bot_named_like_another_bots_worker_log_is_shown_only_its_own(tmp_path: Path) -> None:
    """With bots `alpha` and `alpha.w1`, alpha's worker-1 log (alpha.w1.stderr.log) is
    alpha's, never shown on alpha.w1's page as its own."""
    from referee.report.stderr import log_files

    for file in ("alpha.w0.stderr.log", "alpha.w1.stderr.log", "alpha.w1.w0.stderr.log"):
        (tmp_path / file).write_text("x\n")
    others = frozenset({"alpha"})
    assert [p.name for p in log_files(tmp_path, "alpha.w1", others)] == [
        "alpha.w1.w0.stderr.log"]
    assert [p.name for p in log_files(tmp_path, "alpha", frozenset({"alpha.w1"}))] == [
        "alpha.w0.stderr.log", "alpha.w1.stderr.log"]


def test_the_leaderboard_page_shows_places_ratings_and_pairs(made: Made) -> None:
    """The standings give each bot its place range and its Elo rating with its interval, the
    pairs page every pair in standings order with its difference, interval, LOS and verdict
    (the front page those at most three places apart), and each bot's page its place and
    rating."""
    store = open_store(made.db)
    data = load(store)
    store.close()
    page = (made.out / "index.html").read_text()
    rows = table_rows(page, "standings")
    assert [r[2] for r in rows] == data.names
    for cells, row in zip(rows, data.rows, strict=True):
        assert cells[1] == place_text(row.place)
        rating = row.rating
        assert cells[5] == f"{round(rating.elo)} [{round(rating.low)}, {round(rating.high)}]"
    assert "Place: the places a bot could hold" in page
    near = table_rows(page, "pairs")
    assert [(r[1], r[3]) for r in near] == [(p.a, p.b) for p in data.pairs
                                            if (p.a, p.b) != (data.names[0], data.names[-1])]
    every = (made.out / "pairs.html").read_text()
    pairs = table_rows(every, "pairs")
    assert [(r[1], r[3]) for r in pairs] == [(p.a, p.b) for p in data.pairs]
    assert len(pairs) == len(NAMES) * (len(NAMES) - 1) // 2
    for cells, pair in zip(pairs, data.pairs, strict=True):
        t = pair.test
        assert cells[4:6] == [str(t.games), str(t.deals)]
        assert cells[7].startswith(f"{t.diff:+.3f} [")
        assert cells[8] == f"{t.los:.1%}" and cells[9] == ("yes" if pair.separated else "no")
    assert f"Holm over {len(pairs)} pairs" in page
    assert ">rating (Elo)</text>" in page  # the chart's axis
    for row in data.rows:
        bot = (made.out / "bots" / f"{row.name}.html").read_text()
        assert f"<dt>place</dt><dd>{place_text(row.place)}" in bot
        assert f"<dt>rating</dt><dd>{round(row.rating.elo)} <small>[" in bot


def test_the_report_shows_which_places_are_settled(tmp_path: Path) -> None:
    """A leader that wins all 20 deals holds place 1 and is separated from both others; the
    two that take turns behind it share places 2-3 and are not separated."""
    store = open_store(tmp_path / "s.db")
    store.bind(a_tournament(), "f")
    for i in range(20):
        seats = ["top", *(("a", "b") if i % 2 else ("b", "a"))]
        result = {"money": [30, 20, 10], "ranks": [1, 2, 3], "retired": [],
                  "faults": [[], [], []]}
        store.save(f"g{i:02d}", seats, i, stored(f"g{i:02d}", seats, result), b"", 0.0, 1,
                   ["v1"] * len(seats))
    write_report(store, tmp_path / "site", games_sample=0)
    store.close()
    page = (tmp_path / "site" / "index.html").read_text()
    assert [r[1:3] for r in table_rows(page, "standings")] == [["1", "top"], ["2-3", "a"],
                                                               ["2-3", "b"]]
    pairs = table_rows(page, "pairs")
    assert [(r[1], r[3], r[9]) for r in pairs] == [("top", "a", "yes"), ("top", "b", "yes"),
                                                   ("a", "b", "no")]
    assert pairs[0][7].startswith("+0.750 [") and pairs[2][7].startswith("+0.000 [-")
    assert page.count('<tr class="separated">') == 2
    bot = (tmp_path / "site" / "bots" / "a.html").read_text()
    assert "<dt>place</dt><dd>2-3 (the places it could hold" in bot


def test_a_crashed_bots_page_does_not_call_its_crash_an_error_it_lived_through(
        tmp_path: Path) -> None:
    """A bot whose process crashed once, its traceback in its stderr log: its page counts the
    lines that look like errors, but says its crash's are among its faults, not that they are
    errors it lived through and no faults (the crash is listed as a fault above them)."""
    from dataclasses import replace

    from referee.match.player import Fault
    from referee.protocol.messages import FaultKind
    from referee.report.bot_page import bot_page
    from referee.report.markup import Links
    from referee.report.stderr import excerpts
    from referee.tournament.store import Store

    from .conftest import make_store

    db, stderr_dir = make_store(tmp_path)
    (stderr_dir / "alpha.w0.stderr.log").write_text(
        "Traceback (most recent call last):\n  File \"bot.py\", line 3, in <module>\n"
        "KeyError: 'price'\n")
    crash = Fault(FaultKind.CRASH, "the process exited with status 1; its stderr ends: ...")
    store = Store.for_reading(db)
    try:
        data = load(store)
    finally:
        store.close()
    data.bot_games["alpha"] = [replace(data.bot_games["alpha"][0], faults=(crash,))]
    page = bot_page(data, Links(data.names, []), "alpha", stderr_dir,
                    excerpts(stderr_dir, "alpha"), {})
    assert "2 lines of its stderr look like errors, the first: <code>Traceback" in page, page
    assert "Those of its 1 crash (or failed starts) are among its faults" in page, page
    assert "They are no faults" not in page, page


def test_the_report_names_the_entrants_at_no_table_and_an_adaptive_runs_remedy(
        tmp_path: Path) -> None:
    """After an adaptive contest's first round, of two tables that share no entrant, with
    `late` in the run's field at no table yet and `broken` left out: the report's front page
    names `late` under "No games yet" (as `referee leaderboard` does, and `broken` only under
    "Left out"), its heading counts the 6 entrants in the standings of the file's 8, and its
    note that nothing is separated gives an adaptive run's remedy, more rounds, in the
    leaderboard's own words, not the deals of a table a fixed schedule needs."""
    from referee.cli.common import stored_standings_text
    from referee.tournament.config import TournamentConfig
    from referee.tournament.store import LEFT_OUT, PLAYING, Entrant

    names = ["a", "b", "c", "d", "e", "f", "late", "broken"]
    store = open_store(tmp_path / "s.db")
    store.bind(TournamentConfig.model_validate({
        "name": "ladder", "table_size": 3, "schedule": "adaptive", "rounds": 1,
        "bots": [{"name": n, "command": "unused"} for n in names]}), "f")
    store.record_field([Entrant(n, "v1", PLAYING) for n in names[:-1]]
                       + [Entrant("broken", None, LEFT_OUT, "its build failed")], [], {},
                       new_run=True)
    for i, seats in enumerate((["a", "b", "c"], ["d", "e", "f"])):
        result = {"money": [30, 20, 10], "ranks": [1, 2, 3], "retired": [],
                  "faults": [[], [], []]}
        store.save(f"g{i}", seats, i, stored(f"g{i}", seats, result), b"", 0.0, 1,
                   ["v1"] * 3)
    write_report(store, tmp_path / "site", games_sample=0)
    store.close()
    board = json.loads(stored_standings_text(tmp_path / "s.db", "json"))
    assert board["no_games"] == ["late"]
    page = html.unescape((tmp_path / "site" / "index.html").read_text())
    assert ("<h2>No games yet</h2><p class=\"note\">No games yet: late: in the last run's "
            "file, at no table of the games stored so far, so not placed.</p>") in page
    assert "<li><b>broken</b>: its build failed</li>" in page
    assert '<p class="meta">2 games, 6 of the 8 entrants in the standings, ranked by' in page
    assert "an adaptive run separates pairs by playing more rounds" in board["note"]
    assert board["note"][1:] in " ".join(page.split()), board["note"]
    assert "deals of a table" not in page and "never will" not in page
