"""Grading a class: every submission under SUBMISSIONS_DIR graded (`grading.py`, each
one's build, check and games against fixed baselines), then the class's files.

Only working bots (status ok) earn the grades of the config's rules, but for a rule that says
`also_broken`; every submission earns points (`outcome.py`).  Each writes a feedback file
(`feedback.py`).  A submission whose files and grading config did not change is not graded
again (`state.py`); one graded before and no longer handed in is named, and its feedback moved
out of OUT/feedback (`set_aside_withdrawn`).

Submissions are graded side by side, up to the worker count, each within its time budget
(`[limits] submission_time`) for its build, check and games together.  A resumed run keeps the
grade of one that ran out of it while its files and the budget stay the same (`state.Spent`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import replace
from pathlib import Path

import trio

from referee.bots.manifest import bots_one_level_down
from referee.bots.sandbox import other_interpreters
from referee.text import listed
from referee.tournament.config import TournamentConfig

from .baseline_places import baselines_line
from .class_similarity import compare_class
from .config import grading_warnings
from .gauntlet import build_baselines, check_baselines
from .grades_csv import write_grades
from .grading import graded, write_feedback
from .out_lock import grading_folder_lock
from .regrade import regraded, regraded_line, reworded
from .result import OUT_OF_TIME, StudentResult, done_line
from .similarity_report import write_similarity_report
from .state import Spent, games_key, grading_key, read_state, write_state
from .submissions import (
    SKIP,
    Submission,
    archive_student,
    discover,
    handed_in_archives,
    loose_files,
    remove_copy,
)
from .withdrawn import set_aside_withdrawn


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
    say(baselines_line(config, config_path))  # a config copied elsewhere finds other ones
    loose = loose_files(root)
    # An archive beside its student's folder is most often one the teacher unpacked, as the
    # warning below asked: told so, not to give that student the folder it has.
    unpacked = [n for n in loose if (s := archive_student(n)) and (root / s).is_dir()]
    loose = [n for n in loose if n not in unpacked]
    if loose:  # a student who handed in a file would be missing from grades.csv unsaid
        say(f"warning: not graded, being files and not students' folders: {', '.join(loose)} "
            "(give each student a folder of their own)")
    for name in unpacked:
        say(f"note: {name} is not graded: the folder {archive_student(name)}/ beside it is")
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
