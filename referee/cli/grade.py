"""`referee grade`: a folder of student bots in, grades and feedback out."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..bots.sandbox import SandboxError, check_sandbox_available
from ..text import visible
from . import short_help
from .common import (
    OutputPath,
    fail,
    quiet_option,
    resolve_workers,
    sandbox_option,
    workers_option,
)

if TYPE_CHECKING:
    from ..tournament.config import TournamentConfig


class SetupProblem(Exception):
    """The grading config cannot grade here (`checked_grading_config`); the message is the one
    line that says why."""


def grading_config(config_path: Path, sandbox: str | None,
                   written: Sequence[tuple[str, Path]]) -> TournamentConfig:
    """`checked_grading_config`, a problem with it one error line."""
    try:
        return checked_grading_config(config_path, sandbox, written)
    except SetupProblem as exc:
        fail(str(exc))


def checked_grading_config(config_path: Path, sandbox: str | None,
                           written: Sequence[tuple[str, Path]]) -> TournamentConfig:
    """The grading config at `config_path`, checked (its edition, that it can grade, its
    sandbox, with `sandbox` instead if given, and that the sandbox hides what grading
    writes, `written`) before anything is built; SetupProblem, saying why, if it cannot
    grade here (`grade-one` tells the student so too, as the staff's problem)."""
    if not config_path.is_file():
        # A relative path is read from the current folder, which a teacher grading from the
        # class's folder may not think of: the default is this repository's classroom file.
        where = "" if config_path.is_absolute() else f" in {Path.cwd()}"
        raise SetupProblem(f"no grading config at {config_path}{where} (give one with "
                           "--config, such as the referee repository's "
                           "tournaments/classroom.toml)")
    # Imported here, not at the top: the one line of a mistake need not wait for them.
    from ..game import EditionError
    from ..grade.config import GradingConfigError, check_grading_config, not_a_gauntlet
    from ..tournament.config import TournamentError, load_tournament, tournament_edition
    from ..tournament.isolation import check_isolation

    try:
        config = load_tournament(config_path)
        tournament_edition(config, config_path)
    except TournamentError as exc:
        raise SetupProblem(not_a_gauntlet(config_path) or str(exc)) from None
    except EditionError as exc:  # before any build
        raise SetupProblem(f"{config_path}: edition: {exc}") from None
    try:
        check_grading_config(config, config_path)
    except GradingConfigError as exc:
        raise SetupProblem(str(exc)) from None
    if sandbox is not None:
        config = config.model_copy(update={"sandbox": sandbox})
    try:
        check_sandbox_available(config.sandbox)  # before any build: never a silent fallback
        check_isolation(config, config_path, written)
    except SandboxError as exc:
        raise SetupProblem(str(exc)) from None
    return config


@click.command(name="grade", short_help=short_help("grade"))
@click.argument("submissions", metavar="SUBMISSIONS_DIR",
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("tournaments/classroom.toml"), show_default=True,
              help="A gauntlet tournament file: baselines, deals, limits, [grading] rules.")
@click.option("--out", "out_dir", type=OutputPath(file_okay=False, path_type=Path),
              required=True, help="Where grades.csv and feedback/STUDENT.md are written.")
@workers_option("Submissions graded, and games played,")
@sandbox_option("the config's `sandbox`",
                "Build, check and play every submission in this sandbox.")
@quiet_option("Print nothing but errors (the grades are in grades.csv).")
def grade_cmd(submissions: Path, config_path: Path, out_dir: Path, workers: int | None,
              sandbox: str | None, quiet: bool) -> None:
    """Grade each subfolder of SUBMISSIONS_DIR (one student's bot) against the baselines.

    A bot is described by its bot.toml (command, build) or found by convention: Makefile
    (./bot), bot.py, main.py, bot.js, main.js, bot.pl, Bot.java.  Writes DIR/grades.csv and
    DIR/feedback/STUDENT.md; re-running skips submissions whose files did not change, and
    moves the feedback of a student no longer in SUBMISSIONS_DIR to DIR/withdrawn/.  DIR
    must lie outside SUBMISSIONS_DIR.  A submission's broken links, pipes and links out of
    its folder are left out of the copy its bot runs in; its feedback lists them.
    """
    config = grading_config(config_path, sandbox, [("the grading folder", out_dir)])
    # Imported once the config is checked: the one line of a mistake need not wait for them.
    from tabulate import tabulate

    from ..grade.gauntlet import BaselineFailed, BaselineMissing
    from ..grade.out_lock import GradingFolderBusy
    from ..grade.run import FolderError, grade_all
    from ..grade.submissions import WorkFolderFull
    from ..interrupts import run_trio
    from ..match.game import RefereeError
    from ..tournament.store import StoreError

    say = (lambda m: None) if quiet else (
        lambda m: click.echo(visible(m, indent="    "), err=True))
    out_dir, submissions, config_path = (out_dir.resolve(), submissions.resolve(),
                                         config_path.resolve())
    try:
        outcomes = run_trio(grade_all, submissions, config, config_path, out_dir,
                            resolve_workers(workers), say)
    except (FolderError, GradingFolderBusy) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read or write {exc.filename or out_dir}: {exc.strerror or exc}")
    except (StoreError, RefereeError, WorkFolderFull) as exc:  # the referee's (a full disk)
        fail(f"the referee failed: {exc}; graded submissions are kept and skipped next time")
    except BaselineMissing as exc:  # found before anything was said or graded
        fail(f"{exc}; fix it and run again (nothing was graded)")
    except BaselineFailed as exc:
        fail(f"{exc}; fix it and run again (graded submissions are kept and skipped)")
    except KeyboardInterrupt:
        fail("interrupted; graded submissions are kept and skipped next time, but grades.csv "
             "is written only when a run finishes: run again before handing out feedback/")
    if not quiet:
        rows = [[visible(o.student), o.status, o.grade, f"{o.points:g}", o.games,
                 "" if o.placement is None else f"{o.placement['mean']:.3f}"] for o in outcomes]
        # Each placement with its three decimals, as grades.csv's: tabulate would read
        # "0.850" as a number and print 0.85 (and "0.000" as 0) in a column of 0.831s.
        click.echo(tabulate(rows, headers=["student", "status", "grade", "points", "games",
                                           "placement"],
                            floatfmt=("", "", "", "g", "", ".3f")))
        click.echo(f"\n{out_dir / 'grades.csv'}, feedback in {out_dir / 'feedback'}")

