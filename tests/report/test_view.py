"""`referee view` and `referee play --html`: one game as one HTML file that opens in headless
Chromium from file:// with the network off, shows the board and the step counter, steps, and
shows what the bots wrote (names, fault reasons) as text; every mistake is one error line."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.match.record import read_record
from referee.tournament.store import open_store

from .. import in_process
from ..processes import BOT_PYTHON
from .browser import Page
from .conftest import Made

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_bots" / "python"
EVIL_NAME = "<b>evil&amp;"
EVIL_STDERR = '<img src=x onerror="document.title=1">'
CRASH_BOT = f"""import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({{"type": "hello", "name": "crash", "protocol": 1}}), flush=True)
    elif message["type"] == "request":
        sys.stderr.write({EVIL_STDERR!r} + "\\n")
        sys.exit(1)
"""


def referee(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` inside the test process (its bots are processes as ever)."""
    return in_process.referee(*args, cwd=cwd, timeout=120)


@dataclass
class Played:
    folder: Path
    log: Path
    html: Path  # written by `referee play --html`


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """A game between the sample random and baseline bots and a bot named with markup that
    crashes at its first request, its stderr markup too."""
    folder = tmp_path_factory.mktemp("view")
    (folder / "crash.py").write_text(CRASH_BOT)
    done = referee("play", f"{BOT_PYTHON} {SAMPLE / 'random_bot.py'}",
                   f"{BOT_PYTHON} {SAMPLE / 'baseline_bot.py'}",
                   f"{EVIL_NAME}={BOT_PYTHON} crash.py", "--seed", "7",
                   "--log", "game.jsonl", "--html", "played.html", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "crash" in done.stdout  # the fault, in the standings
    yield Played(folder, folder / "game.jsonl", folder / "played.html")


def game_doc(path: Path) -> dict[str, Any]:
    match = re.search(r'id="game-data">(.*?)</script>', path.read_text(), re.S)
    assert match
    return json.loads(match.group(1))  # type: ignore[no-any-return]


def assert_self_contained(path: Path) -> None:
    """Nothing the page needs is outside it: no link, source, import or URL but `data:,`."""
    text = path.read_text()
    assert "http:" not in text and "https:" not in text
    assert "url(" not in text and "@import" not in text
    assert re.findall(r'(?:src|href)="([^"]*)"', text) == ["data:,"]
    assert text.count("</script>") == 2  # the data, the viewer
    assert text.count("</style>") == 1


def test_view_writes_the_page_beside_the_log_as_play_html_does(played: Played) -> None:
    done = referee("view", "game.jsonl", cwd=played.folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "game.html\n"
    page = played.folder / "game.html"
    assert page.read_bytes() == played.html.read_bytes()
    assert_self_contained(page)
    text = page.read_text()
    assert EVIL_NAME not in text and EVIL_STDERR not in text  # never as markup
    assert "&lt;b&gt;evil&amp;amp;" in text
    assert "&lt;img src=x onerror=&quot;document.title=1&quot;&gt;" in text
    record = read_record(played.log.read_bytes())
    assert game_doc(page)["result"]["money"] == list(record.result.money)


@pytest.mark.parametrize("written_by", ["view", "play --html"])
def test_the_page_shows_the_board_and_steps_with_the_network_off(
        browser: Any, played: Played, tmp_path: Path, written_by: str) -> None:
    if written_by == "view":
        path = tmp_path / "viewed.html"
        done = referee("view", str(played.log), "-o", str(path), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout == f"{path}\n"
    else:
        path = played.html
    record = read_record(played.log.read_bytes())
    doc = game_doc(path)
    steps = len(doc["steps"])
    page = Page(browser, path, offline=True)
    assert page.step() == 0
    assert page.page.inner_text("#step-counter") == f"1 / {steps}"
    board = page.page.inner_text("#board")
    assert all(artist in board for artist in doc["artists"])
    assert page.page.locator("#board tbody tr").count() == len(doc["artists"])
    page.page.click("#next")
    page.page.click("#next")
    assert page.step() == 2
    assert page.page.inner_text("#step-counter") == f"3 / {steps}"
    page.page.keyboard.press("End")
    assert page.page.inner_text("#step-counter") == f"{steps} / {steps}"
    names = record.spec.names
    assert [int(page.page.inner_text(f"#money-{s}")) for s in range(len(names))] \
        == list(record.result.money)
    assert EVIL_NAME in page.page.inner_text("#players")  # the name as text, not markup
    assert EVIL_STDERR in page.page.inner_text("table.result")  # so is the fault's reason
    assert page.page.locator("img").count() == 0
    assert page.page.locator("b", has_text="evil").count() == 0
    assert page.page.title() == "Game play-7"
    page.done(tmp_path / "view.png")


def test_a_stored_game_renders(browser: Any, made: Made, tmp_path: Path) -> None:
    store = open_store(made.db)
    game_id = next(r.game_id for r in store.results() if any(r.faults))
    record = store.record(game_id)
    store.close()
    assert record is not None
    done = referee("view", "--db", str(made.db), game_id, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    path = tmp_path / f"{game_id}.html"
    assert done.stdout == f"{path.name}\n"
    assert_self_contained(path)
    steps = len(game_doc(path)["steps"])
    page = Page(browser, path, offline=True)
    assert page.page.inner_text("#step-counter") == f"1 / {steps}"
    assert page.page.locator("#board tbody tr").count() == len(record.spec.edition_obj().artists)
    page.page.keyboard.press("End")
    assert [int(page.page.inner_text(f"#money-{s}")) for s in range(len(record.spec.names))] \
        == list(record.result.money)
    assert "is more than seat" in page.page.inner_text("table.result")  # the illegal bid
    page.done(tmp_path / "stored.png")


def one_error(done: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1, done.stderr
    for part in expected:
        assert part in done.stderr, done.stderr


def test_each_mistake_is_one_error_line(made: Made, played: Played, tmp_path: Path) -> None:
    def view(*args: str) -> subprocess.CompletedProcess[str]:
        return in_process.referee("view", *args, cwd=tmp_path)

    one_error(view("nope.jsonl"), "nope.jsonl: no such game log", "--db")
    one_error(view(str(tmp_path)), "a directory, not a game log")
    (tmp_path / "notes.txt").write_text("hello\n")
    one_error(view("notes.txt"), "notes.txt: not a game record")
    lines = [json.loads(line) for line in played.log.read_text().splitlines()]
    for line in lines:
        if line["type"] == "fault":
            line["seat"] = 9
    (tmp_path / "edited.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    one_error(view("edited.jsonl"), "edited.jsonl: its lines name seats")
    one_error(view("--db", str(made.db), "no-such-game"), "'no-such-game' is not in")
    one_error(view("--db", str(made.db), "--superseded", "no-such-game"),
              "as a superseded game")
    one_error(view("--db", str(tmp_path / "none.db"), "g1"), "no results store at")
    one_error(view("--db", "notes.txt", "g1"))
    one_error(view("--superseded", str(played.log)), "--superseded goes with --db")
    one_error(view(str(played.log), "-o", str(tmp_path / "missing" / "x.html")),
              "cannot write the page to", "No such file or directory")
    one_error(view(str(played.log), "-o", str(tmp_path)), "cannot write the page to")
    own = tmp_path / "game.html"  # a game log whose name already ends in .html
    own.write_bytes(played.log.read_bytes())
    one_error(view("game.html"), "written over by its own page")
    assert own.read_bytes() == played.log.read_bytes()
    one_error(referee("play", *[f"{BOT_PYTHON} {SAMPLE / 'random_bot.py'}"] * 3,
                      "--html", str(tmp_path / "notes.txt" / "x.html"), cwd=tmp_path),
              "notes.txt is a file, not a folder")
