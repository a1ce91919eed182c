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
plays them.  Resuming is "play what is not stored".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import trio

from referee.bots.build_lock import WaitEnded
from referee.bots.sandbox import check_sandbox_available
from referee.match.result import GameResult

from .budget import Budget, BudgetSpent, stop_line, waited_out_line
from .config import TournamentConfig, tournament_edition
from .entrants import Builds, build_bots, entrant_versions, no_folders
from .executors import Executor, Finished, Outcome, Requeued, Voided
from .executors.worker import MAX_ATTEMPTS
from .field import FieldChange, field_lines, renamed, update_field
from .isolation import check_isolation, own_files, run_files
from .merge import shard_games, unshardable
from .preview import make_plan
from .progress import Progress
from .rounds import budget_left, finished, next_round, next_size
from .schedule import Schedule, ScheduledGame, fingerprint, table_key
from .start_probe import still_unstarted
from .store import LEFT_OUT, Entrant, Store, StoreError, StoreFailed
from .store_checks import check_store, take_over_earlier
from .tally import Tally, stored_by_table, tally, unnamed_games, withdrawn_games
from .unstarted import StartWatch
from .until import Stage, look, plan, stages


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
    verdict: str | None = None  # with until or a budget: where the run stopped, and why
    field: FieldChange = field(default_factory=lambda: FieldChange((), 0, (), ()))
    budget: str | None = None  # "games" or "time": the budget that stopped the run
    # a line for each entrant that started in none of its games of the run (`unstarted.py`)
    never_started: tuple[str, ...] = ()


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


class _Run:
    """One run as it goes: the stages begun, what the executor reported, where it stopped."""

    def __init__(self, config: TournamentConfig, store: Store, games: Schedule,
                 shard: tuple[int, int] | None, left_out: dict[str, str],
                 versions: dict[str, str], change: FieldChange, say: Callable[[str], None],
                 on_update: Callable[[Progress], None] | None,
                 time_budget: float | None, deadline: float | None) -> None:
        self.config = config
        self.store = store
        self.games = games
        self.shard = shard
        self.done = store.done()
        self.by_table = stored_by_table(self.done)
        self.say = say
        self.on_update = on_update
        self.progress = Progress(total=0)
        self.left_out = left_out
        self.versions = versions
        self.change = change
        self.covered = Tally(0, 0, 0)  # the games of the stages begun
        self.rounds_counted = 0  # an adaptive run's rounds whose stored games it counted first
        self.kept_games = 0  # and their games it can play (all of them, whatever the budget)
        self.deals = 0  # the deals of the stages begun
        self.voids: list[str] = []
        self.verdict: str | None = None
        self.stop_said = False  # the budget's stop, said once
        # An adaptive run's entrants that keep failing to start, seated in no later round.
        self.starts = StartWatch()
        self.unstarted: dict[str, str] = {}
        if config.until is not None:
            say(plan(config, games))
        stored = 0 if config.max_games is None else self._tally(range(config.deals)).stored
        self.budget = Budget.of(config.max_games, stored, deadline)
        self.seconds = time_budget
        # The budget's seconds spent before any game: building the entrants, trying them.
        self.before_games = 0.0 if deadline is None or time_budget is None else \
            time.monotonic() - (deadline - time_budget)

    def _tally(self, deals: range) -> Tally:
        return tally(self.games, deals, self.done, self.by_table, self.left_out, self.shard)

    def begin(self, stage: Stage) -> Iterator[ScheduledGame]:
        """Start a stage: the progress now counts to its end; its games to play, in order,
        as long as the budgets last."""
        self.deals = stage.deals
        return self._begin(self._tally(stage.range),
                           self._playable(self.games.games(stage.range)))

    def begin_round(self, number: int) -> Iterator[ScheduledGame]:
        """Start an adaptive schedule's round: the same, over its games."""
        games = list(self.games.round_games(number))
        stored = sum(g.game_id in self.done for g in games)
        out = self.left_out.keys()
        skipped = sum(1 for g in games if g.game_id not in self.done and out & set(g.seats))
        self.deals = self.config.deals
        playing = self._begin(Tally(len(games), stored, skipped), self._playable(games),
                              counted=number < self.rounds_counted)
        # The budget's, not the round's: the games of the rounds chosen (the kept rounds are
        # played out even where a budget lowered since ends before them), and those it
        # leaves for the rounds to come, as `plan` counts them (a round's formula times the
        # rounds overcounted a field whose early rounds were smaller: 169/288, ending at 240).
        left = budget_left(self.config, self.games, {**self.left_out, **self.unstarted},
                           self.covered.skipped)
        if left is not None:
            chosen = max(self.kept_games, self.covered.games - self.covered.skipped)
            self.progress.total = max(self.progress.done, chosen + left[0])
        return playing

    def _begin(self, part: Tally, games: Iterator[ScheduledGame],
               counted: bool = False) -> Iterator[ScheduledGame]:
        """`counted`: its stored games are in the progress already."""
        covered = self.covered
        self.covered = Tally(covered.games + part.games, covered.stored + part.stored,
                             covered.skipped + part.skipped)
        total = self.covered.games - self.covered.skipped  # only games it can play
        if self.budget.games is not None:
            total = min(total, self.covered.stored + self.budget.games)
        self.progress.total = total
        if not counted:
            self.progress.done += part.stored
        return self.budget.within(games)

    def _playable(self, games: Iterable[ScheduledGame]) -> Iterator[ScheduledGame]:
        out = self.left_out.keys()
        for g in shard_games(games, self.shard):
            if g.game_id not in self.done and not out & set(g.seats):
                yield g

    async def play(self, executor: Executor, games: Iterator[ScheduledGame]) -> None:
        """Play a stage's (or round's) games, begun, within the budgets: a time budget
        cancels the games in flight when it runs out (they are played by the next run)."""
        with trio.move_on_after(max(0.0, self.budget.seconds_left())) as scope:
            with suppress(BudgetSpent):
                await executor.play(games, self.report)
        if scope.cancelled_caught or self.budget.out_of_time():
            self.budget.why = self.budget.why or "time"

    def report(self, outcome: Outcome) -> None:
        """Store a finished game (once: a batch played again after a lost worker reports
        its games again) or a void attempt; count it, and say what a user should know.
        Past the time budget, BudgetSpent stops an executor that plays on (Dask)."""
        progress = self.progress
        if isinstance(outcome, Finished):
            if not self.store.save(outcome.game_id, outcome.seats, outcome.seed,
                                   outcome.result, outcome.record, outcome.seconds,
                                   outcome.attempts, [self.versions[n] for n in outcome.seats]):
                return
            progress.stored(sum(len(f) for f in outcome.result.faults))
            self._seat_no_more(outcome.result)
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
        if self.budget.out_of_time():
            raise BudgetSpent

    def _seat_no_more(self, result: GameResult) -> None:
        """Seat an entrant that keeps failing to start in no later round of this run
        (`unstarted.py`); the games of the rounds chosen are played as they are, and the store
        records why, for the leaderboard to say."""
        for name, why in self.starts.seen(result):
            if self.games.kind != "adaptive" or name in self.left_out or name in self.unstarted:
                continue
            self.unstarted[name] = why
            self.store.record_field([Entrant(name, self.versions.get(name), LEFT_OUT, why)],
                                    [], {})
            self.say(f"left out {name}: {why}")

    def spent(self) -> bool:
        """Whether `max_games` or the time budget stopped the run; say where, once (after a
        look that said to play on, too: a run stopped so said nothing of it)."""
        if self.budget.why is None:
            return False
        if not self.stop_said:
            self.stop_said = True
            self.verdict = self._stopped()
            self.say(self.verdict)
        return True

    async def play_rounds(self, executor: Executor) -> None:
        """An adaptive schedule: the rounds the store kept (their games not stored yet),
        then each next round chosen from the stored games, kept and played, until a budget
        is spent (`rounds.py`)."""
        # The progress starts from every stored game of the kept rounds: a changed entrant's
        # games in an early round are played before the later rounds are begun.
        self.rounds_counted = len(self.games.rounds)
        kept = [g for n in range(self.rounds_counted) for g in self.games.round_games(n)]
        self.progress.done = sum(g.game_id in self.done for g in kept)
        out = self.left_out.keys()
        self.kept_games = sum(1 for g in kept if g.game_id in self.done or not out & set(g.seats))
        number = 0
        while not self.spent():
            if number == len(self.games.rounds):
                if self.budget.spent():
                    continue  # said by spent(), above
                tables = next_round(self.config, self.games, self.store.results(),
                                    {**self.left_out, **self.unstarted})
                if not tables:
                    self.verdict = finished(self.config, self.games) if not next_size(
                        self.config, self.games) else (
                        f"no round can be chosen: fewer than {self.config.table_size} "
                        "entrants can play")
                    self.say(self.verdict)
                    return
                self.store.record_round(number, tables)
                self.games.add_round(tables)
            await self.play(executor, self.begin_round(number))
            number += 1

    def end(self, stage: Stage) -> bool:
        """End a stage: True when the run stops here (a budget spent, at a look that
        settles it, or after the last stage)."""
        if self.spent():
            return True
        if self.config.until is None:
            return True
        verdict = look(self.config, self.store, self.games, stage, remember=True)
        self.say(verdict.text)
        self.verdict = verdict.text
        return verdict.stop

    def _stopped(self) -> str:
        return stop_line(self.budget.why, self.config.max_games,
                         self.covered.stored + self.progress.played, self.seconds,
                         self.before_games, self.progress.played,
                         self.games.kind == "adaptive")

    def summary(self) -> RunSummary:
        # An adaptive run stopped inside the rounds it kept (a time budget) has begun only
        # some of them; the games stored before it are those of every round chosen.
        already = (self._tally(range(self.config.deals)).stored
                   if self.games.kind == "adaptive" else self.covered.stored)
        beyond = len(self.done) - already
        unnamed = unnamed_games(self.games, self.store, self.change.withdrawn) if beyond else 0
        if unnamed:  # which the leaderboard leaves out, unlike more deals
            self.say(f"note: the store also holds {unnamed:,} games of tables the sample no "
                     "longer names (`tables` lowered); the leaderboard leaves them out, and "
                     "counts them again when `tables` goes up")
        beyond -= unnamed
        if beyond and beyond != withdrawn_games(self.store, self.change.withdrawn):
            # more deals played before (the withdrawn entrants' games alone were said as the
            # run began, with whose they are)
            self.say(f"note: the store also holds {beyond:,} games beyond this run's schedule "
                     f"(deals after the {self.deals} it covered, or tables of withdrawn "
                     "entrants); the leaderboard counts every stored game of the field's tables")
        return RunSummary(total=self.covered.games, already=already,
                          played=self.progress.played, skipped=self.covered.skipped,
                          left_out={**self.left_out, **self.unstarted}, voids=self.voids,
                          verdict=self.verdict, field=self.change,
                          budget=self.budget.why,
                          never_started=tuple(line for name, line in self.starts.never_started()
                                              if name not in self.unstarted))


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
        run = _Run(config, store, games, shard, left_out, versions, change, say, on_update,
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
