"""One student's games: a gauntlet against the config's baselines in which every student
meets the same deals in every seat order, stored in a database of its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.leaderboard.rows import StandingRow
from referee.leaderboard.stats import Games, leaderboard
from referee.match.player import FATAL_FAULTS
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

from .submissions import Submission


class BaselineFailed(Exception):
    """A baseline could not play, or crashed: every student would be graded against a broken
    opponent, so grading stops (the teacher's to fix)."""


@dataclass(frozen=True)
class GauntletResult:
    """The student's games and standings, why it was left out, if so, and whether it crashed
    (or could not start) in every one of its games."""

    games: Games
    rows: list[StandingRow]  # the leaderboard's rows; none when no game was played
    left_out: str | None
    crashed: bool


async def play_gauntlet(
    sub: Submission, name: str, workdir: Path, config: TournamentConfig, config_path: Path,
    db: Path, workers: int, say: Callable[[str], None],
) -> GauntletResult:
    """Play the student, as `name` from its copy in `workdir`, against the baselines into the
    store `db`; raise BaselineFailed if a baseline cannot play or crashes."""
    baselines = [b for b in config.bots if b.name in config.baselines]
    assert sub.command is not None
    student = BotEntry(name=name, command=sub.command, dir=str(workdir.resolve()))
    gauntlet = config.model_copy(update={
        "name": f"{config.name}-{name}", "format": "gauntlet", "bots": [*baselines, student],
    })
    store = open_store(db)
    try:
        summary = await run_tournament(gauntlet, config_path, store, LocalExecutor(workers),
                                       say)
        for baseline in config.baselines:
            if baseline in summary.left_out:
                raise BaselineFailed(f"baseline {baseline} cannot play: "
                                     f"{summary.left_out[baseline]}")
        results = list(store.results())
        games = Games.load(results, store.seeds())
    finally:
        store.close()
    for result in results:
        for seat, bot in enumerate(result.names):
            broken = [f for f in result.faults[seat] if f.kind in FATAL_FAULTS]
            if bot in config.baselines and broken:
                reason = broken[0].reason.replace("\n", " / ")
                raise BaselineFailed(f"baseline {bot} failed in game {result.game_id} (playing "
                                     f"{name}): {broken[0].kind}: {reason}")
    crashed = bool(results) and all(
        any(f.kind in FATAL_FAULTS for f in result.faults[result.names.index(name)])
        for result in results)
    return GauntletResult(games, leaderboard(games) if games.game_ids else [],
                          summary.left_out.get(name), crashed)
