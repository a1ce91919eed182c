"""The report in headless Chromium from file:// URLs: every entrant on the leaderboard and
every pair on the pairs page, the game viewer stepping to the end of a game and showing the
record's final money, arrow keys, hidden bids sealed until revealed, no console errors, no
request leaving the folder, and a screenshot of each kind of page that is not blank."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from referee.tournament.store import open_store

from .browser import Page
from .conftest import NAMES, Made


def game_doc(path: Path) -> dict[str, Any]:
    text = path.read_text()
    match = re.search(r'id="game-data">(.*?)</script>', text, re.S)
    assert match
    return json.loads(match.group(1))  # type: ignore[no-any-return]


def test_leaderboard_page_shows_every_entrant(browser: Any, made: Made, tmp_path: Path) -> None:
    """Every entrant in the standings, with a bar for each metric; no strength column nor its
    note, as the text board leaves them out of a complete round robin (every table of 4 of
    the 5, alike), where the strength orders them as their means do; the pairs, the
    head-to-head grid and a line of the ratings' chart for each."""
    page = Page(browser, made.out / "index.html")
    standings = page.page.inner_text("table.standings")
    for name in NAMES:
        assert name in standings
    assert "strength" not in page.page.inner_text("table.standings thead").lower()
    assert "Strength" not in page.page.inner_text("body")
    assert page.page.locator("table.standings svg.ibar").count() == 4 * len(NAMES)
    assert page.page.locator("table.standings .place").count() == len(NAMES)
    # The pairs at most three places apart: all but first against last.
    pairs = len(NAMES) * (len(NAMES) - 1) // 2
    assert page.page.locator("table.pairs tbody tr").count() == pairs - 1
    assert page.page.locator("table.h2h td[title]").count() > 0
    assert page.page.locator("svg.chart polyline").count() == len(NAMES)
    page.done(tmp_path / "leaderboard.png")
    page = Page(browser, made.out / "pairs.html")
    assert page.page.locator("table.pairs tbody tr").count() == pairs
    page.done(tmp_path / "pairs.png")


def test_replay_steps_to_the_end_and_shows_the_final_money(browser: Any, made: Made,
                                                           tmp_path: Path) -> None:
    path = sorted((made.out / "games").glob("*.html"))[0]
    doc = game_doc(path)
    store = open_store(made.db)
    record = store.record(doc["game_id"])
    store.close()
    assert record is not None
    final = list(record.result.money)
    page = Page(browser, path)
    steps = len(doc["steps"])
    assert page.step() == 0
    page.page.click("#next")
    page.page.click("#next")
    assert page.step() == 2
    page.page.click("#prev")
    assert page.step() == 1
    # The whole game, one play, bid or sale at a time, with the forward button.
    seen = page.page.evaluate("""(n) => {
        const steps = [];
        for (let i = 0; i < n; i++) {
            document.getElementById("next").click();
            steps.push(document.body.dataset.step);
        }
        return steps;
    }""", steps)
    assert seen[-1] == seen[-2] == str(steps - 1)  # the last step, and no further
    assert page.step() == steps - 1
    assert page.page.inner_text("#step-counter") == f"{steps} / {steps}"
    shown = [int(page.page.inner_text(f"#money-{s}")) for s in range(len(doc["names"]))]
    assert shown == final
    assert "Game over" in page.page.inner_text("#final")
    page.page.keyboard.press("ArrowLeft")
    assert page.step() == steps - 2
    page.page.keyboard.press("ArrowRight")
    assert page.step() == steps - 1
    page.page.keyboard.press("Home")
    assert page.step() == 0
    assert [int(page.page.inner_text(f"#money-{s}")) for s in range(len(doc["names"]))] \
        == [doc["start_money"]] * len(doc["names"])
    page.done(tmp_path / "game.png")


def test_hidden_bids_show_only_once_revealed(browser: Any, made: Made) -> None:
    for path in sorted((made.out / "games").glob("*.html")):
        doc = game_doc(path)
        starts = [i for i, s in enumerate(doc["steps"]) if any(
            e["type"] == "auction_started" and e["auction_type"] == "hidden" for e in s["e"])]
        if starts:
            break
    else:
        pytest.skip("no hidden auction in the published games")
    start = starts[0]
    reveal = next(i for i in range(start, len(doc["steps"])) if any(
        e["type"] == "hidden_bids_revealed" for e in doc["steps"][i]["e"]))
    amounts = next(e["amounts"] for e in doc["steps"][reveal]["e"]
                   if e["type"] == "hidden_bids_revealed")
    page = Page(browser, path)
    page.page.goto(f"{path.as_uri()}#step={start}")
    page.page.reload()
    assert page.step() == start
    text = page.page.inner_text("#auction")
    assert "sealed" in text and " bid " not in text
    for _ in range(reveal - start):
        page.page.keyboard.press("ArrowRight")
    text = page.page.inner_text("#auction")
    assert "sealed" not in text
    for seat, amount in enumerate(amounts):
        assert f"{doc['names'][seat]} bid {amount}" in text
    page.page.close()
    assert not page.errors


def test_bot_and_games_pages_render(browser: Any, made: Made, tmp_path: Path) -> None:
    page = Page(browser, made.out / "bots" / "illegal.html")
    assert "illegal" in page.page.inner_text("table.faults")
    link = page.page.locator("table.faults a").first
    step = int(link.get_attribute("href").split("#step=")[1])
    link.click()
    page.page.wait_for_load_state()
    assert page.step() == step  # the game opens at that fault
    assert "illegal fault" in page.page.inner_text("#step-text")
    page.done(tmp_path / "bot.png")
    page = Page(browser, made.out / "games.html")
    assert page.page.locator("table.games a").count() == made.summary.game_pages
    page.done(tmp_path / "games.png")
