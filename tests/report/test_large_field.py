"""The report of a field of 40 in headless Chromium: the standings fit a 1,400 px window,
sort by a column on a click and keep only the bots searched for; the pairs table finds a
bot's pairs; the grid keeps its labels in view; the chart names its top lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.report import write_report
from referee.tournament.store import Store

from .browser import Page
from .field import fill_field, names

ENTRANTS = 40


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("field")
    fill_field(folder / "f.db", ENTRANTS, rounds=4)
    store = Store.for_reading(folder / "f.db")
    write_report(store, folder / "site", games_sample=0)
    store.close()
    return folder / "site"


def test_standings_of_40_fit_1400px_and_sort_and_search(browser: Any, site: Path,
                                                        tmp_path: Path) -> None:
    """At 1,400 px the standings need no sideways scrolling, with the strength column a
    sampled field shows (its tables drawn, the bots did not all meet alike) and under them
    the note that says in plain words what it is and why it is shown; a click on "bot" sorts
    the rows by name, a second click the other way; typing a name leaves its row alone."""
    page = Page(browser, site / "index.html")
    p = page.page
    assert "strength" in p.inner_text("#standings thead")
    assert ("Strength: what each bot's placement points would be had every bot met the same "
            "opponents: its mean adjusted for whom it met. It orders the table, shown because "
            "the bots did not all meet alike") in p.inner_text("section:has(#standings)")
    p.set_viewport_size({"width": 1400, "height": 900})
    box = p.locator("#standings").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1400
    assert p.evaluate("document.documentElement.scrollWidth") <= 1400
    assert p.evaluate("""() => { const t = document.getElementById('standings');
        return t.parentElement.scrollWidth <= t.parentElement.clientWidth; }""")

    def bots() -> list[str]:
        return p.eval_on_selector_all("#standings tbody tr:not([hidden]) td:nth-child(3)",
                                      "cells => cells.map(c => c.textContent.trim())")

    ranked = bots()
    assert sorted(ranked) == names(ENTRANTS) and ranked != sorted(ranked)
    p.click("#standings th:nth-child(3)")
    assert bots() == sorted(ranked)
    p.click("#standings th:nth-child(3)")
    assert bots() == sorted(ranked, reverse=True)
    p.click("#standings th:nth-child(1)")  # back to the standings' order by rank
    assert bots() == ranked
    p.fill("input[data-for=standings]", ranked[7])
    assert bots() == [ranked[7]]
    assert p.inner_text("#standings-count") == f"1 of {ENTRANTS} rows"
    assert not p.is_visible("#standings th.more")
    p.click("button[data-for=standings]")  # the columns hidden by default
    assert p.is_visible("#standings th.more")
    p.fill("input[data-for=standings]", "")
    page.done(tmp_path / "standings.png")


def test_pairs_grid_and_chart_of_40(browser: Any, site: Path, tmp_path: Path) -> None:
    """The front page lists only neighbours' pairs and a search finds one bot's; the grid's
    column labels stay at the top as it scrolls; ten lines of the chart are named."""
    page = Page(browser, site / "index.html")
    p = page.page
    near = p.locator("#pairs tbody tr").count()
    assert 0 < near < ENTRANTS * (ENTRANTS - 1) // 2
    bot = names(ENTRANTS)[5]
    p.fill("input[data-for=pairs]", bot)
    shown = p.eval_on_selector_all("#pairs tbody tr:not([hidden])",
                                   "rows => rows.map(r => r.textContent)")
    assert 0 < len(shown) <= 6 and all(bot in row for row in shown)
    grid = p.locator("table.h2h")
    head = p.locator("table.h2h thead th").nth(3)
    before = head.bounding_box()
    grid.evaluate("t => { t.parentElement.scrollTop = 300; }")
    after = head.bounding_box()
    assert before is not None and after is not None and abs(after["y"] - before["y"]) < 1
    assert p.locator("svg.chart text.end").count() == 10
    page.done(tmp_path / "front.png")
    page = Page(browser, site / "pairs.html")
    assert page.page.locator("#pairs tbody tr").count() == ENTRANTS * (ENTRANTS - 1) // 2
    page.close()
