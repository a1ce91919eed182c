"""`referee grade-one` and `referee autograder`: grading inside Gradescope and PrairieLearn,
one submission at a time."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import NoReturn

import click

from ..grade.platform_results import PLATFORMS, Platform
from ..interrupts import run_trio
from ..match.game import RefereeError
from ..text import visible
from . import short_help
from .common import OutputPath, fail, quiet_option, resolve_workers, sandbox_option, workers_option
from .grade import SetupProblem, checked_grading_config, grading_config


@click.command(name="grade-one", short_help=short_help("grade-one"))
@click.argument("submission", metavar="SUBMISSION",
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("tournaments/classroom.toml"), show_default=True,
              help="A gauntlet tournament file: baselines, deals, limits, [grading] rules.")
@click.option("--results", "results_path", required=True,
              type=OutputPath(dir_okay=False, path_type=Path),
              help="The results file to write (the platform's results.json).")
@click.option("--format", "platform", type=click.Choice(PLATFORMS), required=True,
              help="The platform whose results file to write.")
@click.option("--work", "work_dir", type=OutputPath(file_okay=False, path_type=Path),
              default=None, help="Where its copy, games and feedback go  "
                                 "[default: a temporary folder, removed after]")
@click.option("--name", default=None,
              help="The student's name in its games and feedback  [default: the folder's]")
@click.option("--metadata", "metadata", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Gradescope's submission_metadata.json: unless --name is "
              "given, its users' names (a group's, joined) head the feedback; absent or "
              "unreadable, it names no one.")
@workers_option("Games played")
@sandbox_option("the config's `sandbox`", "Build, check and play the submission in this "
                "sandbox.")
@quiet_option("Print nothing but errors (the grade is in the results file).")
def grade_one_cmd(submission: Path, config_path: Path, results_path: Path,
                  platform: Platform,
                  work_dir: Path | None, name: str | None, metadata: Path | None,
                  workers: int | None, sandbox: str | None, quiet: bool) -> None:
    """Grade the bot in SUBMISSION against the config's baselines, as `referee grade` grades
    each of its folders, and write the platform's results file: the score (the submission's
    points, not its grade), a test per check and per baseline, the feedback as its output.
    A submission with no bot, or that does not build, is reported as the platform expects."""
    from ..grade.gauntlet import BaselineFailed, BaselineMissing
    from ..grade.one import grade_one, gradescope_names, write_results
    from ..grade.platform_results import results, staff_problem, stopped
    from ..grade.result import done_line
    from ..grade.submissions import WorkFolderFull
    from ..tournament.store import StoreError

    def staff_side(problem: str, certain: bool = True) -> NoReturn:
        """A problem of the staff's, not the student's (or, not `certain`, most likely not):
        one error line, and the results file says so (`staff_problem`), since the platform
        shows it to the student, whose own failure message would say nothing of why."""
        try:
            write_results(results_path, staff_problem(platform, problem, certain))
        except OSError:
            fail(f"{problem}; no results were written")
        fail(f"{problem}; nothing was graded: {results_path} tells the student it is "
             f"{'not' if certain else 'most likely not'} their bot's fault")

    started = time.monotonic()  # a stop by the platform's timeout says when it came
    try:
        config = checked_grading_config(config_path, sandbox, [] if work_dir is None else [
            ("the grading folder", work_dir)])
    except SetupProblem as exc:  # prlimit not installed, say
        staff_side(str(exc))
    say = (lambda m: None) if quiet else (
        lambda m: click.echo(visible(m, indent="    "), err=True))
    with tempfile.TemporaryDirectory(prefix="referee-grade-one-") as temporary:
        work = (work_dir or Path(temporary)).resolve()
        heading = None if metadata is None else gradescope_names(metadata)
        try:
            outcome, check = run_trio(grade_one, submission.resolve(), config,
                                      config_path.resolve(), work, name,
                                      resolve_workers(workers), say, heading)
            write_results(results_path, results(platform, outcome, config, check))
        except OSError as exc:
            staff_side(f"cannot read or write {exc.filename or work}: {exc.strerror or exc}")
        except (StoreError, RefereeError, WorkFolderFull) as exc:
            staff_side(f"the referee failed: {exc}")
        except BaselineFailed as exc:  # missing (before anything), or failed in a game
            staff_side(str(exc), certain=isinstance(exc, BaselineMissing))
        except KeyboardInterrupt:  # the platform's timeout, most likely: tell the student
            after = time.monotonic() - started
            try:
                write_results(results_path, stopped(platform, config, after))
            except OSError:
                fail(f"interrupted after {after:.0f} s; no results written")
            fail(f"interrupted after {after:.0f} s (submission_time is "
                 f"{config.limits.submission_time:g} s); {results_path} says grading was "
                 "stopped before it finished")
    if not quiet:
        click.echo(f"{visible(outcome.student)}: {done_line(outcome)}; {results_path}")


@click.command(name="autograder", short_help=short_help("autograder"))
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("tournaments/classroom.toml"), show_default=True,
              help="The grading config: a gauntlet tournament file with [grading] rules.")
@click.option("--out", "out_dir", type=OutputPath(file_okay=False, path_type=Path),
              required=True, help="Where the platform's files are written.")
@click.option("--platform", type=click.Choice(PLATFORMS), default="gradescope",
              show_default=True, help="The course platform to grade on.")
@click.option("--image", default="YOU/modern-art-grader", show_default=True,
              help="PrairieLearn: the grading image's name, for info.json.")
def autograder_cmd(config_path: Path, out_dir: Path, platform: str, image: str) -> None:
    """Write what PLATFORM needs to grade one submission against the config's baselines:
    for Gradescope a folder and autograder.zip (setup.sh, run_autograder, the config, the
    baselines, the referee as a wheel); for PrairieLearn the external grader's files for the
    course's serverFilesCourse, a Dockerfile for its image and the question's info.json
    fields.  Details: docs/grading.md."""
    from ..grade.autograder import AutograderError, longest_budget, write_autograder
    from ..grade.wheel import WheelError

    config = grading_config(config_path, None, [])
    try:
        written = write_autograder(platform, config, config_path,  # type: ignore[arg-type]
                                   out_dir, image)
    except (AutograderError, WheelError) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read or write {exc.filename or out_dir}: {exc.strerror or exc}")
    for line in written.lines:
        click.echo(line)
    from ..grade.config import grading_warnings

    # A config that grades every working bot alike, or a budget short for slow bots.
    for warning in grading_warnings(config, longest_budget(platform)):
        click.echo(f"warning: {config_path}: {warning}")
