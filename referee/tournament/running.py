"""One tournament run as it goes, once its entrants are built and its field recorded: the
stages or rounds begun, each game the executor reports stored and counted, where a budget
or a look stopped it, and its summary (`session.py` prepares the run and hands it here)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field

import trio

from referee.match.result import GameResult

from .budget import Budget, BudgetSpent, stop_line
from .config import TournamentConfig
from .executors import Executor, Finished, Outcome, Requeued, Voided
from .executors.worker import MAX_ATTEMPTS
from .field import FieldChange
from .merge import shard_games
from .progress import Progress
from .rounds import budget_left, finished, next_round, next_size
from .schedule import Schedule, ScheduledGame
from .store import LEFT_OUT, Entrant, Store
from .tally import Tally, stored_by_table, tally, unnamed_games, withdrawn_games
from .unstarted import StartWatch
from .until import Stage, look, plan


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


class Run:
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
