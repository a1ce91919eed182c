"""A tournament run, written once whatever plays its games (as gomill's ringmaster runs a
competition's jobs through a job manager).

A run binds the results store to the tournament file (and shard), builds the entrants and
takes their versions, records the field in the store (superseding the games of every entrant
that changed, `field.py`), and hands the games the store lacks to an executor (`executors/`),
stage by stage: one stage, or with `until` the stages that each end at a look which may stop
the run (`until.py`).  It stores each finished or void game as the executor reports it, keeps
the progress and sums up.  The games of a bot left out (its build or command failed) are not
played: a later run, after a fix, plays them.  Resuming is "play what is not stored".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from referee.bots.sandbox import check_sandbox_available

from .config import TournamentConfig, tournament_edition
from .entrants import build_bots, entrant_versions
from .executors import Executor, Finished, Outcome, Requeued, Voided
from .executors.worker import MAX_ATTEMPTS
from .field import FieldChange, update_field
from .isolation import check_isolation, run_files
from .merge import shard_games
from .preview import make_plan
from .progress import Progress
from .schedule import ScheduledGame, fingerprint, schedule
from .store import Store, StoreError, StoreFailed
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
    field: FieldChange = field(default_factory=lambda: FieldChange((), 0, (), ()))


class NothingPlayed(Exception):
    """Every game left needs a bot that was left out, and none was ever played."""


def bind(config: TournamentConfig, config_path: Path, store: Store,
         shard: tuple[int, int] | None) -> list[ScheduledGame]:
    """Bind the store to this tournament (and shard); the shard's games."""
    if shard is not None and config.until is not None:
        raise ValueError(SHARDED)
    games = shard_games(schedule(config), shard)
    edition = tournament_edition(config, config_path)
    store.bind(config, fingerprint(config, edition))
    store.bind_shard(None if shard is None else f"{shard[0]}/{shard[1]}")
    store.rename(config.name, config.primary_metric)
    return games


def field_lines(change: FieldChange) -> list[str]:
    """What a run says of the field's changes since the store's last run."""
    lines = []
    if change.changed:
        lines.append(f"changed since the last run: {', '.join(change.changed)}; their "
                     f"{change.superseded} stored games are superseded and played again")
    if change.new:
        lines.append(f"new in the field: {', '.join(change.new)}")
    if change.withdrawn:
        lines.append(f"withdrawn (in the store, not in the file): {', '.join(change.withdrawn)}"
                     "; their games are kept, out of the leaderboard")
    return lines


class _Run:
    """One run as it goes: the stages begun, what the executor reported, where it stopped."""

    def __init__(self, config: TournamentConfig, store: Store, games: list[ScheduledGame],
                 done: set[str], left_out: dict[str, str], versions: dict[str, str],
                 change: FieldChange, say: Callable[[str], None],
                 on_update: Callable[[Progress], None] | None) -> None:
        self.config = config
        self.store = store
        self.games = games
        self.done = done
        self.say = say
        self.on_update = on_update
        self.progress = Progress(total=0)
        self.left_out = left_out
        self.versions = versions
        self.change = change
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
        todo = [g for g in stage.games if g.game_id not in self.done]
        playable = [g for g in todo if not self.left_out.keys() & set(g.seats)]
        self.covered |= {g.game_id for g in stage.games}
        self.deals = stage.deals
        self.already += len(stage.games) - len(todo)
        self.skipped += len(todo) - len(playable)
        self.progress.total = len(self.covered) - self.skipped  # only games it can play
        self.progress.done += len(stage.games) - len(todo)
        return playable

    def report(self, outcome: Outcome) -> None:
        """Store a finished game (once: a batch played again after a lost worker reports
        its games again) or a void attempt; count it, and say what a user should know."""
        progress = self.progress
        if isinstance(outcome, Finished):
            if not self.store.save(outcome.game_id, outcome.seats, outcome.seed,
                                   outcome.result, outcome.record, outcome.seconds,
                                   outcome.attempts, [self.versions[n] for n in outcome.seats]):
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
        elif isinstance(outcome, Requeued):
            self.say(f"{outcome.reason}; playing them again on another worker: "
                     f"{', '.join(outcome.game_ids)}")
            return
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
        if beyond:  # more deals played before, or tables of entrants no longer in the file
            self.say(f"note: the store also holds {beyond} games beyond this run's schedule "
                     f"(deals after the {self.deals} it covered, or tables of withdrawn "
                     "entrants); the leaderboard counts every stored game of the field")
        return RunSummary(total=len(self.covered), already=self.already,
                          played=self.progress.played, skipped=self.skipped,
                          left_out=self.left_out, voids=self.voids,
                          verdict=self.verdict, field=self.change)


async def run_tournament(
    config: TournamentConfig,
    config_path: Path,
    store: Store,
    executor: Executor,
    say: Callable[[str], None],
    on_update: Callable[[Progress], None] | None = None,
    shard: tuple[int, int] | None = None,
    frozen: bool = False,
    workers: int | None = None,
) -> RunSummary:
    """Play the games of the tournament (or of its `shard`) that `store` lacks on `executor`,
    calling `on_update` after every game stored and every void attempt; with `workers`, say
    the plan of its games first (`preview.py`).  Every entrant is
    built first, and the games of those whose version changed are superseded and played
    again (with `frozen`, FrozenField instead).  Raises SandboxError, before any game, when
    the file's sandbox cannot run here or would show a bot the store (`isolation.py`)."""
    if executor.runs_bots:
        check_sandbox_available(config.sandbox)
        check_isolation(config, config_path, run_files(store.path))
    await executor.start(config, config_path)
    try:
        games = bind(config, config_path, store, shard)
        if workers is not None:
            for line in make_plan(config, games, workers).lines():
                say(line)
        left_out = await build_bots(config, config_path, say) if executor.runs_bots else {}
        versions = entrant_versions(config, config_path, left_out)
        change = update_field(store, [b.name for b in config.bots], versions, left_out,
                              frozen)
        for line in field_lines(change):
            say(line)
        run = _Run(config, store, games, store.done(), left_out, versions, change, say,
                   on_update)
        for stage in stages(config, games):
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
    frozen: bool = False,
    workers: int | None = None,
) -> RunSummary:
    """`run_tournament` into the store at `db_path`, opened or made for it and closed after.
    A store this run made is removed again when the run fails (not when it is interrupted)
    leaving it empty, no game and no void, unless another run has it open.  Raises
    NothingPlayed when every game needs a left-out bot and none is stored (a shard past the
    last game plays none, and that is no error); with games stored, such a tournament is
    finished, and its summary says what was skipped."""
    created = not db_path.exists()  # (through a link: its target; the link is kept)
    try:
        store = Store.for_writing(db_path)
    except StoreFailed as exc:  # not a run's failure (which keeps what it stored): no store
        raise StoreError(str(exc)) from None
    try:
        summary = await run_tournament(config, config_path, store, executor, say, on_update,
                                       shard, frozen, workers)
        if summary.skipped and not summary.played and not summary.already:
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
