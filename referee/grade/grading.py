"""One submission's grading: a fresh copy, its build (time-limited), `referee check`, then a
gauntlet against the config's baselines (`gauntlet.py`), all within its time budget
(`[limits] submission_time`), and its feedback file.  Apart from `run.py`, which grades a
class with it: `referee grade-one` (`one.py`) grades one submission by these same steps, so
that it gets the same grade either way.

Bots that do not build, crash or time out in the check play no games; bots that fail the check
otherwise still play, so their feedback shows what it cost them.  Past its time budget, a
submission's bots are stopped and it is "out of grading time" (not "timed out", a bot too slow
in the check), with what it finished graded.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import trio

from referee.bots.build import build_bot
from referee.bots.launch import BotSpec, missing_program
from referee.bots.sandbox import SandboxMode
from referee.bots.start import split_command
from referee.check import CHECK_COUNT, run_check
from referee.match.bot_player import BotPlayer
from referee.text import visible
from referee.tournament.config import TournamentConfig

from .feedback import Findings
from .gauntlet import GauntletResult, decisions_asked, games_in, gauntlet_size, play_gauntlet
from .in_games import StudentGames, add_games
from .notes import build_problem, copy_failed_problem
from .problems import Shown, add_caught, add_check
from .regrade import bot_name, finish, scrub_for
from .reproduce import check_command
from .result import OUT_OF_TIME, StudentResult, compare, status_from_check, status_of_problem
from .state import Spent
from .submissions import Submission, fresh_copy, remove_copy


async def build(sub: Submission, workdir: Path, seconds: float,
                sandbox: SandboxMode = "none") -> tuple[bool, str]:
    """Run the build command in the submission's copy: time-limited, and in the sandbox (with
    its own folder writable) when grading asks for one."""
    if not sub.build:
        return True, ""
    done = await build_bot(sub.build, workdir, seconds, sandbox)
    if done.problem is not None:
        return False, f"the build {done.problem}" + (
            f"\n{done.excerpt(BUILD_SHOWN)}" if done.failure is None else "")
    return True, done.tail(BUILD_SHOWN)


BUILD_SHOWN = 30  # lines of a build's output in its feedback


class Grading:
    """One submission's grading, step by step; what it found is kept when its time budget
    runs out before the end (`ran_out`)."""

    def __init__(self, sub: Submission, config: TournamentConfig, config_path: Path,
                 out: Path, records_given: bool = True) -> None:
        self.sub = sub
        self.records_given = records_given  # the student gets the records beside its feedback
        self.config = config
        self.config_path = config_path
        self.out = out
        self.outcome = StudentResult(sub.student, "ok", sub.digest)
        self.found = Findings()
        self.workdir = out / "work" / sub.student
        self.scrub = scrub_for(sub, out)
        self.records = out / "feedback" / sub.student  # game records shown in its feedback
        self.name = bot_name(sub.student, config.baselines)  # its name in its games
        self.db = out / "games" / f"{sub.student}.db"
        self.step = "copy"  # under way: "copy", "build", "check" or "games"

    async def run(self, workers: int, say: Callable[[str], None]) -> None:
        """Copy, build, check and play it (its games on `workers` workers), as far as it goes."""
        sub, config, outcome, found = self.sub, self.config, self.outcome, self.found
        remove_copy(self.records)  # an earlier grading's
        if sub.problem is not None:
            outcome.status = "too large" if sub.over_limit else status_of_problem(sub.problem)
            found.problems.add("submission", sub.problem)
            return
        try:  # in a thread: a large copy would hold up the games of the others
            self.workdir, found.skipped = await trio.to_thread.run_sync(
                fresh_copy, sub, self.out / "work")
        except shutil.Error as exc:
            outcome.status = "build failed"
            found.problems.keep(copy_failed_problem(exc, sub))
            return
        self.step = "build"
        ok, output = await build(sub, self.workdir, config.limits.build_time, config.sandbox)
        if not ok:
            outcome.status = "build failed"
            found.problems.keep(build_problem(sub.build or "", output))
            return
        if sub.build:
            found.built = output or "(no output)"
        assert sub.command is not None
        absent = absent_program(sub.command, self.workdir)
        if absent is not None:  # the grader's, or a typo: not a crash of the student's bot
            outcome.status = "build failed"
            found.problems.add("submission", absent)
            return
        self.step = "check"
        spec = BotSpec(self.name, sub.command, self.workdir, limits=config.limits.bot_limits(),
                       sandbox=config.sandbox, home=self.workdir)
        kept: list[BotPlayer] = []
        results, found.times = await run_check(spec, move_time=config.limits.move_time,
                                               time_bank=config.limits.time_bank,
                                               startup_time=config.limits.startup_time,
                                               kept=kept)
        found.check = results
        outcome.status = status_from_check(results)
        outcome.checks = CHECK_COUNT  # all failed if it cannot start
        outcome.checks_passed = sum(r.passed and r.counted for r in results)
        add_check(found.problems, results, check_command(sub.command, config))
        if kept and all(r.passed for r in results):  # else a failure says more
            add_caught(found.problems, kept[0].errors, check_command(sub.command, config))
        if outcome.status not in ("ok", "failed the check"):
            return
        self.step = "games"
        self.db.parent.mkdir(parents=True, exist_ok=True)
        self.db.unlink(missing_ok=True)
        played = await play_gauntlet(sub, self.name, self.workdir, config, self.config_path,
                                     self.db, workers, say)
        if played.left_out is not None:  # it passed the check but could not be played
            outcome.status = "crashed"
            found.problems.add("play", played.left_out)
        self.take(played)

    def take(self, played: GauntletResult) -> None:
        """Its figures from the games `played`, and the problems they show."""
        if take_games(self.outcome, played, self.name, self.config):
            assert self.sub.command is not None
            self.found.played = True
            add_games(self.found.problems, StudentGames(
                self.config, self.config_path, self.name, self.sub.command, self.db,
                self.records, self.sub.student, self.scrub, self.records_given))

    def ran_out(self) -> None:
        """Its time budget ran out at `step`: "out of grading time", the games it finished
        graded, and a problem that says where it was stopped."""
        budget = self.config.limits.submission_time
        where = {"copy": "while its files were copied", "build": "during its build",
                 "check": "during the check (so no check counts)"}
        total = None if self.sub.command is None else \
            gauntlet_size(self.config, self.name, self.sub.command)
        if self.step == "games":
            self.take(games_in(self.db, self.name, self.config))
            where["games"] = (f"during its games, with {self.outcome.games} of {total} "
                              "finished" + " (those are graded)" * bool(self.outcome.games))
        self.outcome.status = OUT_OF_TIME
        p = self.found.problems.add(
            "budget", f"stopped at its time budget of {budget:g} s, {where[self.step]}")
        asked = "each game asks it for dozens"
        if total is not None:
            decisions = decisions_asked(self.config, total)
            asked = (f"grading asks it about {decisions:,} decisions (the check's and "
                     f"{total} games'), so this budget allows it at most about "
                     f"{budget / decisions * 1000:.0f} ms a decision on average, less "
                     "what the other bots take")
        p.notes.append("The budget (`submission_time` in the grading config's `[limits]`) "
                       "bounds the build, the check and the games together; it is the "
                       "grading's, not the game's move time, and a bot graded holds one of "
                       "the grading's workers for up to all of it. A bot that takes "
                       f"most of its move time on every decision runs out: {asked}."
                       + (" The check above, run in your bot's folder, prints its reply "
                          "times (the median and the longest)." if self.sub.command is not None
                          else ""))
        if self.sub.command is not None:
            p.reproduce.append(Shown("Run the check, in your bot's folder:",
                                     check_command(self.sub.command, self.config)))


async def graded(sub: Submission, config: TournamentConfig, config_path: Path, out: Path,
                 workers: int, say: Callable[[str], None], records_given: bool = True
                 ) -> tuple[Grading, Spent]:
    """Grade `sub` within its time budget (`[limits] submission_time`), its games at
    `workers` workers: its grading (its result, and what it found: the check's results for a
    platform's list of tests, `platform_results.py`, and the findings state.json keeps) and
    the time it took.  `records_given`: whether the student gets the game records its
    feedback shows (not on a platform, which shows the text)."""
    started = time.monotonic()
    grading = Grading(sub, config, config_path, out, records_given)
    budget = config.limits.submission_time
    with trio.move_on_after(budget) as deadline:
        await grading.run(workers, say)
    if deadline.cancelled_caught:
        # Why the class took long: a slow student holds a worker for all of its budget.
        say(f"{sub.student}: {OUT_OF_TIME} after {budget:g} s (submission_time), all of which "
            "it held a grading worker; grading what it finished")
        grading.ran_out()
    grading.outcome = finish(grading.outcome, config, grading.found, sub, grading.scrub)
    return grading, Spent(round(time.monotonic() - started, 3),
                          budget if deadline.cancelled_caught else None)


def absent_program(command: str, folder: Path) -> str | None:
    """Why the program of a submission's command cannot run here (`launch.missing_program`,
    its script left to the check): the grading machine lacks a language's tools (its
    setup must install them), or the command is wrong; None when it can."""
    missing = missing_program(BotSpec("submission", command, folder), script=False)
    if missing is None:
        return None
    program = split_command(command)[0]
    lacks = "/" not in program and not (folder / program).exists() and "=" not in program
    return (f"its command cannot run here: {missing}" + (
        ": if that is not a typo, your teacher's grader lacks it and needs it installed (tell "
        "them)" if lacks else "") + "; your bot was not run")


def take_games(outcome: StudentResult, played: GauntletResult, name: str,
               config: TournamentConfig) -> bool:
    """Copy the student's standing (as `name`) and its verdicts against each baseline into
    `outcome`; False when it has no standing (it played no game)."""
    rows = played.rows
    row = next((r for r in rows if r.name == name), None)
    if row is None:
        return False
    if played.crashed:
        outcome.status = "crashed"  # it passed the check, but could not play a game
    outcome.games = row.games
    outcome.win_share = row.win_share.mean
    outcome.placement = asdict(row.placement)
    outcome.money = asdict(row.money)
    outcome.faults = row.faults.counts()
    outcome.baselines = {r.name: r.placement.mean for r in rows if r.name != name}
    outcome.versus = compare(played.games, name, config.baselines, config.grading.confidence)
    return True


def write_feedback(out: Path, outcome: StudentResult) -> None:
    """OUT/feedback/STUDENT.md, made visible as it is written (the state keeps it raw): it
    quotes the bot's build output, stderr and replies, and a teacher may well `cat` it."""
    (out / "feedback" / f"{outcome.student}.md").write_text(visible(outcome.feedback, indent=""))
