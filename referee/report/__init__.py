"""`referee report`: a results store as a static site that works from file://.

The leaderboard (places, intervals as bars, the verdicts of neighbours in the standings with
every pair on a page of its own, the head-to-head grid for a field small enough to read it,
seat bias, ratings over the games), a page per bot (results, faults with links to where they
happened, stderr excerpts) and a game page for a sample of the games plus every game with a
fault.  Every page is plain HTML
with inline SVG; the game pages embed their data as JSON and share one script and one style
sheet copied into the folder, so nothing is fetched from anywhere.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from referee.tournament.store import DamagedRecord, Store

from .bot_page import bot_page
from .data import Tournament, load, select_games
from .game_pages import game_page, games_page, missing_game_page
from .leaderboard_page import leaderboard_page
from .leaderboard_sections import pairs_page
from .markup import Links
from .stderr import excerpts
from .viewer import fault_steps, game_document

STATIC = Path(__file__).with_name("static")
ASSETS = ("report.css", "report.js")
MARKER = ".referee-report"


@dataclass(frozen=True)
class ReportSummary:
    out: Path
    games: int  # games in the store
    game_pages: int
    bot_pages: int
    files: int
    bytes: int
    seconds: float


def policy_text(data: Tournament, pages: int, sample: int, all_games: bool) -> str:
    total = len(data.results)
    if all_games or pages == total:
        return f"Every one of the {total:,} games has a game page."
    faulty = len(data.faulty)
    return (f"{pages:,} of the {total:,} games have a game page: an even sample of "
            f"{min(sample, total)} (--games-sample) and every game with a fault ({faulty:,}). "
            "--all-games writes them all.")


class OutError(ValueError):
    """The folder given for the report holds someone's files, which the report would
    overwrite (index.html, say)."""


def check_out(out: Path) -> None:
    """Refuse a folder that holds files unless it holds an earlier report (its MARKER); hidden
    files (a fresh `git init`, .gitkeep) are not the report's and are left alone."""
    if out.is_dir() and not (out / MARKER).is_file() and any(
            not p.name.startswith(".") for p in out.iterdir()):
        raise OutError(f"{out} holds other files than an earlier report; give a new or "
                       "empty folder")


def write_report(store: Store, out: Path, *, games_sample: int,
                 stderr_dir: Path | None = None, all_games: bool = False) -> ReportSummary:
    """Write the site into `out` (created if need be, else empty or an earlier report), with
    game pages for `games_sample` games spread over the tournament and every game with a
    fault; OutError for another folder, OSError when it cannot be written."""
    started = time.perf_counter()
    check_out(out)
    data = load(store)
    chosen = select_games(data, games_sample, all_games)
    links = Links(data.names, chosen)
    out.mkdir(parents=True, exist_ok=True)
    # First, so that a report cut short is still recognised as one and can be rewritten.
    (out / MARKER).write_text("written by referee report; its pages are replaced on rewrite\n")
    for sub in ("bots", "games"):
        folder = out / sub
        folder.mkdir(exist_ok=True)
        for old in folder.glob("*.html"):  # an earlier report's pages: drop them
            old.unlink()
    written = [0, 0]  # files, bytes

    def write(rel: str, text: str) -> None:
        raw = text.encode("utf-8")
        (out / rel).write_bytes(raw)
        written[0] += 1
        written[1] += len(raw)

    for asset in ASSETS:
        write(asset, (STATIC / asset).read_text(encoding="utf-8"))
    fault_step: dict[tuple[str, int], list[int]] = {}
    for gid in chosen:
        try:
            record = store.record(gid)
            if record is None:
                raise DamagedRecord(f"game {gid} has no stored record")
            doc = game_document(record)
        except (DamagedRecord, IndexError) as exc:  # IndexError: a seat the game has not
            write(links.games[gid], missing_game_page(data, gid, str(exc)))
            continue
        for seat, steps in fault_steps(doc).items():
            fault_step[(gid, seat)] = steps
        write(links.games[gid], game_page(data, links, doc, record.result))
    stderr_note = ("Stderr excerpts are on each bot's page." if stderr_dir is not None else
                   "Stderr excerpts are not included (no --stderr-dir).")
    write("index.html", leaderboard_page(data, links, stderr_note, len(chosen)))
    write("pairs.html", pairs_page(data, links))
    write("games.html", games_page(data, links,
                                   policy_text(data, len(chosen), games_sample, all_games)))
    for name in data.names:
        found = (excerpts(stderr_dir, name, others=frozenset(data.names) - {name})
                 if stderr_dir is not None else [])
        write(links.bots[name], bot_page(data, links, name, stderr_dir, found, fault_step))
    return ReportSummary(out, len(data.results), len(chosen), len(data.names), written[0],
                         written[1], time.perf_counter() - started)


__all__ = ["OutError", "ReportSummary", "check_out", "write_report"]
