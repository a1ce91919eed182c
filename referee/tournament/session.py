"""A tournament run, written once whatever plays its games (as gomill's ringmaster runs a
competition's jobs through a job manager).

A run binds the results store to the tournament file (and shard), keeps the tables a sample
draws (`sampling.py`), builds the entrants and takes their versions, records the field in the
store (superseding the games of every entrant that changed, `field.py`), and hands the games
the store lacks to an executor (`executors/`), lazily and in the schedule's order, stage by
stage: one stage, or with `until` the stages that each end at a look which may stop the run
(`until.py`), or an adaptive schedule's rounds, each chosen from the games stored before it
(`rounds.py`), as long as `max_games` and the time budget last (`budget.py`).  It stores each
finished or void game as the executor reports it, keeps the progress and sums up.  The games
of a bot left out (its build or command failed) are not played: a later run, after a fix,
plays them.  Resuming is "play what is not stored".  This module prepares the run and hands
it to `running.py`, which plays it out and sums it up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from referee.bots.build_lock import WaitEnded
from referee.bots.sandbox import check_sandbox_available

from .budget import waited_out_line
from .config import TournamentConfig, tournament_edition
from .entrants import Builds, build_bots, entrant_versions, no_folders
from .executors import Executor
from .field import field_lines, renamed, update_field
from .isolation import check_isolation, own_files, run_files
from .merge import unshardable
from .preview import make_plan
from .progress import Progress
from .running import Run, RunSummary
from .schedule import Schedule, fingerprint, table_key
from .start_probe import still_unstarted
from .store import LEFT_OUT, Entrant, Store, StoreError, StoreFailed
from .store_checks import check_store, take_over_earlier
from .tally import stored_by_table, tally
from .until import stages


class NothingPlayed(Exception):
    """Every game left needs a bot that was left out, and none was ever played."""


def bind(config: TournamentConfig, config_path: Path, store: Store,
         shard: tuple[int, int] | None, say: Callable[[str], None] = print,
         frozen: bool = False) -> Schedule:
    """Bind the store to this tournament (and shard), keep the tables a sample draws now,
    and name those of the file's sample; the schedule.  A store of a sample drawn before
    samples grew is taken over: its played tables are kept as the first drawn."""
    if shard is not None and (why := unshardable(config)) is not None:
        raise ValueError(why)
    edition = tournament_edition(config, config_path)
    prints = fingerprint(config, edition)
    take_over_earlier(config, edition, store, prints, say, frozen)
    check_store(config, edition, store)
    store.bind(config, prints)
    store.bind_shard(None if shard is None else f"{shard[0]}/{shard[1]}")
    was = store.meta("name")
    if was is not None and was != config.name and store.count():
        say(f"warning: {store.path} held tournament {was!r}: it is {config.name!r} now, as "
            "this file names it (a new name renames the store; another --db keeps "
            "tournaments apart)")
    store.follow(config)
    games = Schedule(config, store.draws(), store.rounds())
    named = None if games.sample is None else [table_key(t) for t in games.sample.tables]
    store.record_draws([(table_key(t), t) for t in games.drawn()], named)
    return games


async def _build(config: TournamentConfig, config_path: Path, store: Store,
                 say: Callable[[str], None], rebuild: bool, own: frozenset[str],
                 deadline: float | None) -> tuple[dict[str, str], dict[str, str]]:
    """Build the entrants, reusing the builds the store knows to be up to date (unless
    `rebuild`), and keep the digests of those run; the entrants left out, and the folders'
    version digests read with their build digests since the last build ran
    (`Builds.versions`).  `own`: the run's own files (`own_files`), which no build digest
    counts.  WaitEnded where the time budget (its `deadline`) ran out while a build waited
    for another referee's: the builds done before it are kept all the same."""
    builds = Builds(store.builds(), rebuild, own)
    try:
        left_out = await build_bots(config, config_path, say, builds, deadline)
    except WaitEnded:
        store.record_builds(builds.digests)
        raise
    store.record_builds(builds.digests)
    return left_out, builds.versions


def _waited_out(config: TournamentConfig, games: Schedule, store: Store,
                shard: tuple[int, int] | None, say: Callable[[str], None], seconds: float,
                name: str) -> RunSummary:
    """The end of a run whose time budget of `seconds` ran out while entrant `name`'s build
    waited for another referee's (`build_lock.WaitEnded`): as a budget spent before the first
    game ends a run, said in one line, with no game played; nor is the field recorded, some
    entrants not built (the next run builds them, and records it)."""
    verdict = waited_out_line(seconds, name)
    say(verdict)
    done = store.done()
    already = tally(games, range(config.deals), done, stored_by_table(done), (), shard).stored
    return RunSummary(total=0, already=already, played=0, skipped=0, left_out={}, voids=[],
                      verdict=verdict, budget="time")


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
    time_budget: float | None = None,
    rebuild: bool = False,
) -> RunSummary:
    """Play the games of the tournament (or of its `shard`) that `store` lacks on `executor`,
    calling `on_update` after every game stored and every void attempt.  Every entrant is
    built first (but those whose build is known to be up to date, unless `rebuild`), and the
    games of those whose version changed are superseded and played again (with `frozen`,
    FrozenField instead); then, with `workers`, the plan of its games is
    said (`preview.py`), counting those to play again.  The file's `max_games` and
    `time_budget` (`--time-budget`: seconds from now) stop it early (`budget.py`); an
    adaptive run seats an entrant that
    keeps failing to start in no later round (`unstarted.py`), and none whose stored games
    show it never started and that fails to start when tried first (`start_probe.py`).
    Raises SandboxError, before any game, when the file's sandbox cannot run here or would
    show a bot the store (`isolation.py`)."""
    deadline = None if time_budget is None else time.monotonic() + time_budget
    if executor.runs_bots:
        check_sandbox_available(config.sandbox)
        check_isolation(config, config_path, run_files(store.path, executor.stderr_dir))
    await executor.start(config, config_path)
    try:
        nowhere = no_folders(config, config_path) if executor.runs_bots else None
        if nowhere is not None:  # before `bind`, which takes the file's name and deals
            raise nowhere
        games = bind(config, config_path, store, shard, say, frozen)
        own = own_files(config_path, store.path, executor.stderr_dir)
        try:
            left_out, taken = await _build(config, config_path, store, say, rebuild, own,
                                           deadline) if executor.runs_bots else ({}, {})
        except WaitEnded as ended:
            assert time_budget is not None  # the only end of a wait
            return _waited_out(config, games, store, shard, say, time_budget, ended.name)
        versions = entrant_versions(config, config_path, left_out, own, taken)
        change = update_field(store, [b.name for b in config.bots], versions, left_out,
                              frozen)
        if games.kind == "adaptive" and executor.runs_bots:  # before it seats them again
            dead = await still_unstarted(store, versions, executor.start_fault, say)
            if dead:
                store.record_field([Entrant(n, versions[n], LEFT_OUT, why)
                                    for n, why in dead.items()], [], {})
                left_out.update(dead)
        if workers is not None:  # after the field's changes: their superseded games to play
            stored = store.done() if len(games) else set()
            for line in make_plan(config, games, workers, stored, shard,
                                  left_out=left_out).lines(bound=False):
                say(line)
        for line in [*field_lines(change), *renamed(left_out, change.withdrawn)]:
            say(line)
        run = Run(config, store, games, shard, left_out, versions, change, say, on_update,
                   time_budget, deadline)
        if games.kind == "adaptive":
            await run.play_rounds(executor)
        for stage in [] if games.kind == "adaptive" else stages(config):
            await run.play(executor, run.begin(stage))
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
    time_budget: float | None = None,
    rebuild: bool = False,
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
                                       shard, frozen, workers, time_budget, rebuild)
        if summary.skipped and not summary.played and not summary.already:
            left = "; ".join(f"{name}: {why}" for name, why in summary.left_out.items())
            raise NothingPlayed(f"no game could be played: the {summary.skipped:,} games left "
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
