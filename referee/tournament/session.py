"""A tournament run, written once whatever plays its games (as gomill's ringmaster runs a
competition's jobs through a job manager).

A run binds the results store to the tournament file (and shard), builds the entrants before
the first game, and hands the games the store lacks to an executor (`executors/`), stage by
stage: one stage, or with `until` the stages that each end at a look which may stop the run
(`until.py`).  It stores each finished or void game as the executor reports it, keeps the
progress and sums up.  The games of a bot left out (its build or command failed) are not
played: a later run, after a fix, plays them.  Resuming is "play what is not stored".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.bots.sandbox import check_sandbox_available
from referee.game import Edition

from .config import TournamentConfig, tournament_edition
from .entrants import build_bots
from .executors import Executor, Finished, Outcome, Voided
from .executors.table import MAX_ATTEMPTS
from .merge import shard_games
from .progress import Progress
from .schedule import ScheduledGame, fingerprint, schedule
from .store import Store, StoreError, StoreFailed, open_store
from .until import SHARDED, Stage, look, plan, stages


@dataclass
class RunSummary:
    """What a run did: the games it covered, found stored, played and skipped, the bots left
    out (with why), the void attempts, and where a run with `until` stopped."""

    total: int  # the games of the deals this run covered (with until: up to where it stopped)
    already: int
    played: int
    skipped: int
    left_out: dict[str, str]
    voids: list[str]
    verdict: str | None = None  # with until: where the run stopped, and why


class NothingPlayed(Exception):
    """Every game left needs a bot that was left out, so the run played none."""


def _earlier_fingerprints(config: TournamentConfig, edition: Edition, store: Store) -> list[str]:
    """What a store begun by an earlier version with this file would hold: its fingerprint
    counted the deals (those the store was made with), which never changed a game."""
    try:
        deals = json.loads(store.meta("config") or "{}").get("deals")
    except ValueError:
        return []
    return [fingerprint(config, edition, with_deals=deals)] if isinstance(deals, int) else []


def bind(config: TournamentConfig, config_path: Path, store: Store,
         shard: tuple[int, int] | None) -> tuple[list[ScheduledGame], set[str]]:
    """Bind the store to this tournament (and shard); the shard's games and those stored."""
    if shard is not None and config.until is not None:
        raise ValueError(SHARDED)
    games = shard_games(schedule(config), shard)
    edition = tournament_edition(config, config_path)
    store.bind(config.name, fingerprint(config, edition), config.model_dump_json(),
               also=_earlier_fingerprints(config, edition, store))
    store.bind_shard(None if shard is None else f"{shard[0]}/{shard[1]}")
    store.rename(config.name, config.primary_metric)
    return games, store.done()


class _Run:
    """One run as it goes: the stages begun, what the executor reported, where it stopped."""

    def __init__(self, config: TournamentConfig, store: Store, games: list[ScheduledGame],
                 done: set[str], say: Callable[[str], None],
                 on_update: Callable[[Progress], None] | None) -> None:
        self.config = config
        self.store = store
        self.games = games
        self.done = done
        self.say = say
        self.on_update = on_update
        self.progress = Progress(total=0)
        self.left_out: dict[str, str] | None = None  # built before the first game to play
        self.covered: set[str] = set()  # the ids of the stages begun
        self.deals = 0  # the deals of the stages begun
        self.already = 0
        self.skipped = 0
        self.voids: list[str] = []
        self.verdict: str | None = None
        if config.until is not None:
            say(plan(config, games))

    def begin(self, stage: Stage) -> list[ScheduledGame]:
        """Start a stage: the progress now counts to its end; its games to play."""
        left_out = self.left_out or {}
        todo = [g for g in stage.games if g.game_id not in self.done]
        playable = [g for g in todo if not left_out.keys() & set(g.seats)]
        self.covered |= {g.game_id for g in stage.games}
        self.deals = stage.deals
        self.already += len(stage.games) - len(todo)
        self.skipped += len(todo) - len(playable)
        self.progress.total = len(self.covered)
        self.progress.done += len(stage.games) - len(todo)
        return playable

    def report(self, outcome: Outcome) -> None:
        """Store a finished game (once: a batch played again after a lost worker reports
        its games again) or a void attempt; count it, and say what a user should know."""
        progress = self.progress
        if isinstance(outcome, Finished):
            if not self.store.save(outcome.game_id, outcome.seats, outcome.seed,
                                   outcome.result, outcome.record, outcome.seconds,
                                   outcome.attempts):
                return
            progress.done += 1
            progress.played += 1
            progress.faults += sum(len(f) for f in outcome.result.faults)
        elif isinstance(outcome, Voided):
            self.store.save_void(outcome.game_id, outcome.attempt, outcome.reason)
            progress.voids += 1
            self.voids.append(f"{outcome.game_id} (attempt {outcome.attempt}): {outcome.reason}")
            again = "playing it again" if outcome.attempt < MAX_ATTEMPTS else "giving up"
            self.say(f"void: {outcome.reason}; {again}")
        else:  # Lost
            self.say(f"{outcome.reason}; its games are left for the next run")
            return
        if self.on_update is not None:
            self.on_update(progress)

    def end(self, stage: Stage) -> bool:
        """End a stage: True when the run stops here (at a look that settles it, or after
        the last stage)."""
        if self.config.until is None:
            return True
        verdict = look(self.config, self.store, self.games, stage)
        self.say(verdict.text)
        self.verdict = verdict.text
        return verdict.stop

    def summary(self) -> RunSummary:
        beyond = len(self.done - self.covered)
        if beyond:  # a longer run's games: the leaderboard counts every stored game
            self.say(f"note: the store also holds {beyond} games of deals after the "
                     f"{self.deals} this run covered (an earlier run played more); the "
                     "leaderboard counts every stored game")
        return RunSummary(total=len(self.covered), already=self.already,
                          played=self.progress.played, skipped=self.skipped,
                          left_out=self.left_out or {}, voids=self.voids,
                          verdict=self.verdict)


async def run_tournament(
    config: TournamentConfig,
    config_path: Path,
    store: Store,
    executor: Executor,
    say: Callable[[str], None],
    on_update: Callable[[Progress], None] | None = None,
    shard: tuple[int, int] | None = None,
) -> RunSummary:
    """Play the games of the tournament (or of its `shard`) that `store` lacks on `executor`,
    calling `on_update` after every game stored and every void attempt.  Raises
    SandboxError, before any game, when the file's sandbox cannot run here."""
    if executor.runs_bots:
        check_sandbox_available(config.sandbox)
    await executor.start(config, config_path)
    try:
        games, done = bind(config, config_path, store, shard)
        run = _Run(config, store, games, done, say, on_update)
        for stage in stages(config, games):
            if run.left_out is None and any(g.game_id not in done for g in stage.games):
                run.left_out = (await build_bots(config, config_path, say) if executor.runs_bots
                                else {})
            await executor.play(run.begin(stage), run.report)
            if run.end(stage):
                break
    finally:  # the bots are kept from stage to stage
        await executor.aclose()
    return run.summary()


async def run_into(
    db_path: Path,
    config: TournamentConfig,
    config_path: Path,
    executor: Executor,
    say: Callable[[str], None],
    on_update: Callable[[Progress], None] | None = None,
    shard: tuple[int, int] | None = None,
) -> RunSummary:
    """`run_tournament` into the store at `db_path`, opened or made for it and closed after.
    A store this run made is removed again when the run fails (not when it is interrupted)
    leaving it empty, no game and no void, unless another run has it open.  Raises
    NothingPlayed when every game left needs a left-out bot (a shard past the last game
    plays none, and that is no error)."""
    created = not db_path.exists()  # (through a link: its target; the link is kept)
    try:
        store = open_store(db_path)
    except StoreFailed as exc:  # not a run's failure (which keeps what it stored): no store
        raise StoreError(str(exc)) from None
    try:
        summary = await run_tournament(config, config_path, store, executor, say, on_update,
                                       shard)
        if summary.skipped and not summary.played:
            left = "; ".join(f"{name}: {why}" for name, why in summary.left_out.items())
            raise NothingPlayed(f"no game could be played: the {summary.skipped} games left "
                                f"need a bot that was left out ({left})")
    except Exception:
        if created:
            store.close_and_remove_if_empty()
        else:
            store.close()
        raise
    except BaseException:  # interrupted: the games finished are kept, for a run to resume
        store.close()
        raise
    store.close()
    return summary
