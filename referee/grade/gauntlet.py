"""One student's games: a gauntlet against the config's baselines in which every student
meets the same deals in every seat order, stored in a database of its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.check.situations import SCENARIOS
from referee.leaderboard.rows import StandingRow
from referee.leaderboard.stats import Games, standings
from referee.match.player import FATAL_FAULTS
from referee.match.result import StoredResult
from referee.text import listed
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.entrants import build_bots, unbuilt_problems
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.preview import STEPS_PER_GAME
from referee.tournament.schedule import schedule
from referee.tournament.session import run_tournament
from referee.tournament.store import Store

from .baseline_scripts import misspelt_baselines
from .submissions import Submission


class BaselineFailed(Exception):
    """A baseline could not play, or crashed: every student would be graded against a broken
    opponent, so grading stops (the teacher's to fix)."""


class BaselineMissing(BaselineFailed):
    """A baseline's folder, program or script is not there, found before anything is graded
    or said (`check_baselines`)."""


def check_baselines(config: TournamentConfig, config_path: Path) -> None:
    """BaselineMissing if a baseline's `dir`, program or script is not there (but not one its
    build may make; a script by any ending, as `referee autograder` finds it:
    `misspelt_baselines`), naming the first and which others: a copy of the classroom file
    taken out of the repository said every submission would be graded again, and warned of
    the sandbox, before it stopped at its baselines' paths, which nothing needed to check;
    "strong_bot.pyy" started grading and stopped it at the first game."""
    problems = {**unbuilt_problems(config, config_path),
                **misspelt_baselines(config, config_path)}  # "bot.pyy": a script all the same
    missing = {name: why for name, why in problems.items() if name in config.baselines}
    if missing:
        first, *others = missing
        raise BaselineMissing(f"baseline {first} cannot play: {missing[first]}" + (
            f" (nor can {listed(others)})" if others else ""))


@dataclass(frozen=True)
class GauntletResult:
    """The student's games and standings, why it was left out, if so, and whether it crashed
    (or could not start) in every one of its games."""

    games: Games
    rows: list[StandingRow]  # the leaderboard's rows; none when no game was played
    left_out: str | None
    crashed: bool


async def build_baselines(config: TournamentConfig, config_path: Path,
                          say: Callable[[str], None]) -> None:
    """Build the baselines, once for the whole class (gauntlets played side by side would
    each build them, in the same folders at once); BaselineFailed if one is left out."""
    baselines = config.model_copy(update={
        "bots": [b for b in config.bots if b.name in config.baselines]})
    for baseline, why in (await build_bots(baselines, config_path, say)).items():
        raise BaselineFailed(f"baseline {baseline} cannot play: {why}")


def gauntlet_config(config: TournamentConfig, name: str, command: str,
                    workdir: Path) -> TournamentConfig:
    """The student, as `name` from its copy in `workdir`, against the baselines (built
    already, by `build_baselines`)."""
    baselines = [b.model_copy(update={"build": None})
                 for b in config.bots if b.name in config.baselines]
    student = BotEntry(name=name, command=command, dir=str(workdir.resolve()))
    return config.model_copy(update={
        "name": f"{config.name}-{name}", "format": "gauntlet", "bots": [*baselines, student],
    })


async def play_gauntlet(
    sub: Submission, name: str, workdir: Path, config: TournamentConfig, config_path: Path,
    db: Path, workers: int, say: Callable[[str], None],
) -> GauntletResult:
    """Play the student, as `name` from its copy in `workdir`, against the baselines into the
    store `db` with `workers` workers; raise BaselineFailed if a baseline cannot play or
    crashes.  Cancelled (its time is up), it stops its bots and keeps the games finished in
    `db`, which `games_in` reads."""
    assert sub.command is not None
    gauntlet = gauntlet_config(config, name, sub.command, workdir)
    store = Store.for_writing(db)
    try:
        summary = await run_tournament(gauntlet, config_path, store, LocalExecutor(workers),
                                       say)
    finally:
        store.close()
    for baseline in config.baselines:
        if baseline in summary.left_out:
            raise BaselineFailed(f"baseline {baseline} cannot play: "
                                 f"{summary.left_out[baseline]}")
    return games_in(db, name, config, summary.left_out.get(name))


def games_in(db: Path, name: str, config: TournamentConfig,
             left_out: str | None = None) -> GauntletResult:
    """The student's games stored in `db` (all of its gauntlet, or those finished before its
    time ran out); raise BaselineFailed if a baseline crashed in one.  Read without the
    writer's lock: a bot process forked for another student's games, not yet exec'd, can
    still hold the lock of the run that just closed it."""
    results: list[StoredResult] = []
    seeds: dict[str, int] = {}
    if db.exists():  # (stopped before its games began: none)
        store = Store.for_reading(db)
        try:
            results, seeds = list(store.results()), store.seeds()
        finally:
            store.close()
    games = Games.load(results, seeds)
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
    return GauntletResult(games, standings(games).rows if games.game_ids else [], left_out,
                          crashed)


def gauntlet_size(config: TournamentConfig, name: str, command: str) -> int:
    """How many games the student's gauntlet plays in all."""
    return len(schedule(gauntlet_config(config, name, command, Path("."))))


def decisions_asked(config: TournamentConfig, games: int) -> int:
    """About how many decisions a student's bot is asked in grading: a seat's share of a
    game's steps (`preview.STEPS_PER_GAME`, random play's mean) over the check's games and
    `games` graded games.  What a time budget has to cover, with the baselines' and the
    referee's own time besides."""
    k = config.table_size
    per_seat = STEPS_PER_GAME.get(k, max(STEPS_PER_GAME.values())) / k
    return round((len(SCENARIOS) + games) * per_seat)
