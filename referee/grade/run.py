"""Grading a class: build, check and play each submission against fixed baselines.

For each submission: a fresh copy in its own working directory, the build (time-limited),
`referee check`, then a gauntlet against the config's baselines (`gauntlet.py`).  Bots that do
not build, crash or time out in the check play no games; bots that fail the check otherwise
still play, so their feedback shows what it cost them.  Only working bots (status ok) earn the
grades of the config's rules, but for a rule that says `also_broken`; every submission earns
points (`outcome.py`).  Each writes a feedback file (`feedback.py`).  A submission whose files
and grading config did not change is not graded again (`state.py`); one graded before and
no longer handed in is named, and its feedback moved out of OUT/feedback (`set_aside_withdrawn`).

Submissions are graded side by side, up to the worker count, each within its time budget
(`[limits] submission_time`) for its build, check and games together: past it, its bots are
stopped and it is "out of grading time" (not "timed out", a bot too slow in the check), with
what it finished graded.  A resumed run keeps such a grade
while its files and the budget stay the same (`state.Spent`).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import asdict, replace
from pathlib import Path

import trio

from referee.bots.build import build_bot
from referee.bots.launch import BotSpec, missing_program
from referee.bots.manifest import bots_one_level_down
from referee.bots.sandbox import SandboxMode, other_interpreters
from referee.bots.start import split_command
from referee.check import CHECK_COUNT, run_check
from referee.match.bot_player import BotPlayer
from referee.text import listed, visible
from referee.tournament.config import TournamentConfig

from .class_similarity import compare_class
from .config import grading_warnings
from .feedback import Findings
from .gauntlet import (
    GauntletResult,
    build_baselines,
    check_baselines,
    decisions_asked,
    games_in,
    gauntlet_size,
    play_gauntlet,
)
from .grades_csv import write_grades
from .in_games import StudentGames, add_games
from .notes import build_problem, copy_failed_problem
from .out_lock import grading_folder_lock
from .problems import Shown, add_caught, add_check
from .regrade import bot_name, finish, regraded, regraded_line, reworded, scrub_for
from .reproduce import check_command
from .result import (
    OUT_OF_TIME,
    StudentResult,
    compare,
    done_line,
    status_from_check,
    status_of_problem,
)
from .similarity_report import write_similarity_report
from .state import Spent, games_key, grading_key, read_state, write_state
from .submissions import (
    SKIP,
    Submission,
    discover,
    fresh_copy,
    handed_in_archives,
    loose_files,
    remove_copy,
)
from .withdrawn import set_aside_withdrawn


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


class FolderError(ValueError):
    """SUBMISSIONS_DIR and --out overlap, or SUBMISSIONS_DIR holds no submission; the message
    says which."""


def check_folders(root: Path, out: Path) -> None:
    """Refuse overlapping folders: an --out inside SUBMISSIONS_DIR would be graded as a student
    (unless under a folder that is never one, such as SUBMISSIONS_DIR/out), and submissions
    inside OUT/work would be deleted by the clean-up after each student."""
    if out.is_relative_to(root) and (out == root or out.relative_to(root).parts[0] not in SKIP):
        raise FolderError(f"--out {out} is within SUBMISSIONS_DIR {root}, where every "
                          "folder is graded as a student; give an --out outside it")
    if root.is_relative_to(out / "work"):
        raise FolderError(f"SUBMISSIONS_DIR {root} is inside {out / 'work'}, "
                          "which grading empties; give another --out")


def write_feedback(out: Path, outcome: StudentResult) -> None:
    """OUT/feedback/STUDENT.md, made visible as it is written (the state keeps it raw): it
    quotes the bot's build output, stderr and replies, and a teacher may well `cat` it."""
    (out / "feedback" / f"{outcome.student}.md").write_text(visible(outcome.feedback, indent=""))


async def side_by_side(subs: list[Submission],
                       grade_one: Callable[[Submission, int], Awaitable[None]],
                       workers: int) -> None:
    """Grade `subs`, `workers` at once or as many as there are, each the next one as soon as
    one is done, so that a slow one holds up no other; their games share the `workers`
    workers.  The first error stops them all (their bots too) and is raised as it is."""
    at_once = min(workers, len(subs))
    if not at_once:
        return
    queue = iter(subs)
    failed: list[Exception] = []

    async def slot(nursery: trio.Nursery) -> None:
        try:
            for sub in queue:
                await grade_one(sub, max(1, workers // at_once))
        except Exception as exc:  # a baseline failed, or the disk is full: every slot stops
            failed.append(exc)
            nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        for _ in range(at_once):
            nursery.start_soon(slot, nursery)
    if failed:
        raise failed[0]


# Said when grading runs students' bots outside the sandbox.
UNSANDBOXED = ("the bots run without the sandbox: a student's bot can read the other "
               "submissions and your files, and use the network; --sandbox bwrap (or sandbox = "
               "\"bwrap\" in the config) confines each to its own folder")


async def grade_all(root: Path, config: TournamentConfig, config_path: Path, out: Path,
                    workers: int, say: Callable[[str], None]) -> list[StudentResult]:
    """Grade every submission under `root` into `out`, up to `workers` at once, each
    within its time budget; reuse unchanged ones' results.  BaselineMissing, before anything
    is said or written, if a baseline is not there."""
    check_folders(root.resolve(), out.resolve())
    check_baselines(config, config_path)  # before a word of the submissions or the state
    submissions = discover(root, config.limits.size_limits())
    if not submissions:  # its loose files named here: the warning that names them comes later
        loose = loose_files(root)
        raise FolderError(f"SUBMISSIONS_DIR {root} holds no submissions (a folder per "
                          "student)" + (f", only files: {', '.join(loose)}" if loose else "")
                          + "; nothing was written")
    out.mkdir(parents=True, exist_ok=True)
    with grading_folder_lock(out):
        return await _grade_into(root, submissions, config, config_path, out, workers, say)


async def _grade_into(root: Path, submissions: list[Submission], config: TournamentConfig,
                      config_path: Path, out: Path, workers: int,
                      say: Callable[[str], None]) -> list[StudentResult]:
    """`grade_all`'s work, once the folder is this run's alone."""
    loose = loose_files(root)
    if loose:  # a student who handed in a file would be missing from grades.csv unsaid
        say(f"warning: not graded, being files and not students' folders: {', '.join(loose)} "
            "(give each student a folder of their own)")
    for name, student in handed_in_archives(root).items():  # a row, but no bot: say why
        say(f"warning: {name} is an archive, not a folder: {student} is graded \"no bot "
            f"found\" (grading does not unpack archives); to grade its bot, unpack it into "
            f"{root / student}/, its files at the top, and run again")
    for sub in submissions:  # SUBMISSIONS_DIR given one level too high
        nested = bots_one_level_down(sub.path) if sub.problem is not None else []
        if len(nested) >= 2:
            say(f"warning: {sub.path.name}/ is graded as one student, but its folders "
                f"{listed([f'{n}/' for n, _ in nested])} each hold a bot: if it is the class's "
                f"folder, give {sub.path} as SUBMISSIONS_DIR")
    for warning in grading_warnings(config):  # a config that grades every working bot alike
        say(f"warning: {config_path.name}: {warning}")
    if config.sandbox == "none":
        say(f"warning: {UNSANDBOXED}")
    else:
        for line in other_interpreters():
            say(f"note: {line}")
    (out / "feedback").mkdir(exist_ok=True)
    state_path = out / "state.json"
    state = read_state(state_path, (grading_key(config, config_path),
                                    games_key(config, config_path)), say)
    known, spent, findings = state.outcomes, state.spent, state.findings
    budget = config.limits.submission_time
    todo = []
    regrades = 0
    for sub in submissions:
        previous = known.pop(sub.student, None)  # back once graded under these rules
        took = spent.get(sub.student, Spent(0.0))
        if previous is None or previous.digest != sub.digest:
            todo.append(sub)
        elif not took.stands(budget):
            say(f"{sub.student}: unchanged, graded again under the new time budget")
            todo.append(sub)
        elif previous.status == "timed out" and took.ran_out_of is not None and (
                again := regraded(replace(previous, status=OUT_OF_TIME),
                                  findings.get(sub.student), sub, config, out)):
            # An older referee's word for its budget, kept in state.json: told anew.
            say(f"{sub.student}: unchanged, graded {again.grade} from its games and check as "
                f"stored, its status now \"{OUT_OF_TIME}\" (was \"timed out\"): nothing run "
                "again")
            known[sub.student] = again
            regrades += 1
            write_feedback(out, again)
        elif state.same_rules:
            say(f"{sub.student}: unchanged, kept its grade {previous.grade}")
            known[sub.student] = reworded(previous, findings.get(sub.student), sub, config,
                                          out)
            write_feedback(out, known[sub.student])
        elif (again := regraded(previous, findings.get(sub.student), sub, config, out)):
            say(regraded_line(previous, again))
            known[sub.student] = again
            regrades += 1
            write_feedback(out, again)
        else:
            todo.append(sub)
    if not state.same_rules:  # its keys are another [grading]'s: none stays
        known = {s: o for s, o in known.items() if s in {sub.student for sub in submissions}}
    if any(sub.problem is None for sub in todo):
        await build_baselines(config, config_path, say)
    # Now that the baselines are built: a file their build makes is in the key from the first
    # run on, so that the next run (which reads it before building) agrees.
    config_keys = grading_key(config, config_path), games_key(config, config_path)

    async def grade_one(sub: Submission, share: int) -> None:
        say(f"{sub.student}: grading")
        if sub.over_limit:  # the student is told to make it smaller; the teacher, this
            say(f"{sub.student}: too large, not copied or graded: {sub.over_limit}")
        try:
            grading, spent[sub.student] = await graded(sub, config, config_path, out, share,
                                                       say)
            known[sub.student] = grading.outcome
            findings[sub.student] = grading.found.stored(grading.scrub.text)
            write_state(state_path, config_keys, known, spent, findings)
        finally:  # interrupted (its bots stopped by now) or failed too: no copy left behind
            with trio.CancelScope(shield=True), suppress(OSError):
                # best effort: the next copy is made afresh anyway
                await trio.to_thread.run_sync(remove_copy, out / "work" / sub.student)
        write_feedback(out, known[sub.student])
        # as each is done, as grade-one says it: a class waited on its slowest student (a
        # quarter of an hour) with "grading" said of everyone and no word of who was done
        done = known[sub.student]
        say(f"{sub.student}: {done_line(done)}")

    await side_by_side(todo, grade_one, workers)
    # Once the class is graded, with grades.csv: a run cut short leaves them as they were.
    if set_aside_withdrawn(out, root, [sub.student for sub in submissions], known, spent,
                           say) or regrades:  # said once, not every run
        write_state(state_path, config_keys, known, spent, findings)
    outcomes = [known[sub.student] for sub in submissions]
    # Every submission as handed in, each run (unchanged ones too): the teacher's flag of
    # likely copies, in similarity.md and grades.csv only, never in feedback or a grade.
    similar = compare_class(submissions, config, config_path, out=out)
    write_similarity_report(out / "similarity.md", similar,
                            config.grading.similarity_threshold)
    write_grades(out / "grades.csv", outcomes, config.baselines, similar.closest)
    return outcomes
