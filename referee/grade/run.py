"""Grading a class: build, check and play each submission against fixed baselines.

For each submission: a fresh copy in its own working directory, the build (time-limited),
`referee check`, then a gauntlet against the config's baselines (`gauntlet.py`).  Bots that do
not build, crash or time out in the check play no games; bots that fail the check otherwise
still play, so their feedback shows what it cost them.  Only working bots (status ok) earn the
grades of the config's rules (`outcome.py`).  A submission whose files and grading config did
not change is not graded again (`state.py`).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from contextlib import suppress
from dataclasses import asdict
from pathlib import Path

from referee.bots.build import build_bot
from referee.bots.launch import BotSpec
from referee.bots.sandbox import SandboxMode
from referee.check import run_check
from referee.text import visible
from referee.tournament.config import TournamentConfig

from .gauntlet import GauntletResult, play_gauntlet
from .grades_csv import write_grades
from .notes import (
    build_note,
    check_note,
    copy_failed_note,
    feedback,
    games_notes,
    not_played_note,
    problem_note,
    skipped_note,
)
from .outcome import Outcome, compare, grade_for, status_from_check
from .state import grading_key, read_state, write_state
from .submissions import SKIP, Submission, discover, fresh_copy, remove_copy


def bot_name(student: str, baselines: list[str]) -> str:
    name = re.sub(r"[^A-Za-z0-9_.+-]", "_", student)[:60] or "student"
    return name + "-student" if name in baselines else name


async def build(sub: Submission, workdir: Path, seconds: float,
                sandbox: SandboxMode = "none") -> tuple[bool, str]:
    """Run the build command in the submission's copy: time-limited, and in the sandbox (with
    its own folder writable) when grading asks for one."""
    if not sub.build:
        return True, ""
    done = await build_bot(sub.build, workdir, seconds, sandbox)
    if done.failure is not None:
        return False, f"the build {done.failure}"
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    tail = "\n".join(output.strip().splitlines()[-30:])
    if done.returncode != 0:
        return False, f"exit status {done.returncode}\n{tail}"
    return True, tail


async def grade_submission(sub: Submission, config: TournamentConfig, config_path: Path,
                           out: Path, workers: int, say: Callable[[str], None]) -> Outcome:
    outcome = Outcome(sub.student, "ok", sub.digest)
    notes: list[str] = []
    if sub.problem is not None:
        outcome.status = "build failed"
        notes.append(problem_note(sub.problem))
        return finish(outcome, config, notes, sub)
    try:
        workdir, skipped = fresh_copy(sub, out / "work")
    except shutil.Error as exc:
        outcome.status = "build failed"
        notes.append(copy_failed_note(exc, sub))
        return finish(outcome, config, notes, sub)
    if skipped:
        notes.append(skipped_note(skipped))
    ok, output = await build(sub, workdir, config.limits.build_time, config.sandbox)
    if sub.build:
        notes.append(build_note(sub.build, ok, output))
    if not ok:
        outcome.status = "build failed"
        return finish(outcome, config, notes, sub)
    assert sub.command is not None
    spec = BotSpec(bot_name(sub.student, config.baselines), sub.command, workdir,
                   limits=config.limits.bot_limits(), sandbox=config.sandbox, home=workdir)
    results, times = await run_check(spec, move_time=config.limits.move_time,
                                     time_bank=config.limits.time_bank,
                                     startup_time=config.limits.startup_time)
    outcome.status = status_from_check(results)
    notes.append(check_note(results, times, sub.command, config))
    if outcome.status in ("ok", "failed the check"):
        db = out / "games" / f"{sub.student}.db"
        db.parent.mkdir(parents=True, exist_ok=True)
        db.unlink(missing_ok=True)
        played = await play_gauntlet(sub, spec.name, workdir, config, config_path, db,
                                     workers, say)
        if played.left_out is not None:  # it passed the check but could not be played
            outcome.status = "crashed"
            notes.append(not_played_note(played.left_out))
        if take_games(outcome, played, spec.name, config):
            notes.append(games_notes(outcome, config, db, spec.name))
    return finish(outcome, config, notes, sub)


def take_games(outcome: Outcome, played: GauntletResult, name: str,
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


def finish(outcome: Outcome, config: TournamentConfig, notes: list[str],
           sub: Submission) -> Outcome:
    outcome.grade, outcome.rule = grade_for(outcome, config)
    outcome.feedback = feedback(outcome, sub, notes)
    return outcome


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


async def grade_all(root: Path, config: TournamentConfig, config_path: Path, out: Path,
                    workers: int, say: Callable[[str], None]) -> list[Outcome]:
    """Grade every submission under `root` into `out`; reuse unchanged ones' results."""
    check_folders(root.resolve(), out.resolve())
    submissions = discover(root, config.limits.size_limits())
    if not submissions:
        raise FolderError(f"SUBMISSIONS_DIR {root} holds no submissions (a folder per "
                          "student); nothing was written")
    out.mkdir(parents=True, exist_ok=True)
    (out / "feedback").mkdir(exist_ok=True)
    state_path = out / "state.json"
    config_key = grading_key(config, config_path)
    known = read_state(state_path, config_key, say)
    outcomes = []
    for sub in submissions:
        previous = known.get(sub.student)
        if previous and previous.digest == sub.digest:
            say(f"{sub.student}: unchanged, kept its grade {previous.grade}")
            outcome = previous
        else:
            say(f"{sub.student}: grading")
            outcome = await grade_submission(sub, config, config_path, out, workers, say)
            known[sub.student] = outcome
            # Again, now that the baselines are built: a file their build makes is in it
            # from the first run on, so the next run (which reads it before building) agrees.
            config_key = grading_key(config, config_path)
            write_state(state_path, config_key, known)
            with suppress(OSError):  # best effort: the next copy is made afresh anyway
                remove_copy(out / "work" / sub.student)
        # Made visible as it is written (the state keeps it raw): it quotes the bot's build
        # output, stderr and replies, and a teacher may well `cat` it.
        (out / "feedback" / f"{sub.student}.md").write_text(visible(outcome.feedback, indent=""))
        outcomes.append(outcome)
    write_grades(out / "grades.csv", outcomes, config.baselines)
    return outcomes
