"""`referee tournament`: run a tournament file, merge the stores of a sharded run; `plan`
(`tournament_plan.py`) says what a file would play."""

from __future__ import annotations

from pathlib import Path

import click

from ..bots.sandbox import SandboxError, check_sandbox_available
from ..text import visible
from ..tournament.merge import MAX_SHARDS
from . import OneLineMistakes, short_help
from .common import (
    db_option,
    fail,
    faults_note,
    make_folder,
    max_bot_processes_option,
    quiet_option,
    read_stored,
    resolve_workers,
    sandbox_option,
    workers_option,
)
from .tournament_options import parse_shard, stderr_dir_option
from .tournament_plan import tournament_plan


@click.group(cls=OneLineMistakes, short_help=short_help("tournament"))
def tournament() -> None:
    """Run tournaments described by a tournament file (see tournaments/demo.toml)."""


tournament.add_command(tournament_plan)


@tournament.command(name="run")
@click.argument("config_path", metavar="FILE",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@workers_option("Games")
@db_option("Results store  [default: FILE's name with .db, beside FILE; with --shard I/N, "
           "with .shardIofN.db]")
@stderr_dir_option
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Where games run: here, or on Dask workers.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Dask scheduler (tcp://HOST:8786); without it a LocalCluster is started.")
@click.option("--shard", metavar="I/N",
              help=f"Play only shard I of N (N at most {MAX_SHARDS}) of the schedule (for job "
                   "arrays), into its own --db.")
@quiet_option("Print nothing but errors, and warnings of bots left out.")
@sandbox_option("the file's `sandbox`, else none")
@max_bot_processes_option
@click.option("--frozen", is_flag=True,
              help="Refuse to run if an entrant changed since the store's last run, instead "
                   "of playing its games again.")
@click.option("--until-separated", is_flag=True,
              help="Stop once the leader is separated from every other entrant, looking after "
                   "8, 16, 32... deals; the file's deals are the most (as until = "
                   "\"separated\" in the file).")
@click.option("--time-budget", metavar="DURATION",
              help="Stop after this long (90s, 15m, 2h), every entrant within about one table "
                   "of every other; the next run plays on.")
@click.option("--rebuild", is_flag=True,
              help="Run every entrant's build, even one whose folder has not changed since "
                   "its last build (a compiler or library changed outside it).")
def tournament_run(config_path: Path, workers: int | None, db_path: Path | None,
                   stderr_dir: Path | None, executor: str, scheduler: str | None,
                   shard: str | None, quiet: bool, sandbox: str | None,
                   max_bot_processes: int | None, frozen: bool, until_separated: bool,
                   time_budget: str | None, rebuild: bool) -> None:
    """Play every game of the tournament in FILE that is not stored yet, then print the
    leaderboard.  Running it again after a crash or Ctrl-C resumes where it stopped; an
    entrant whose files changed since has its games played again, and one added to the file
    plays only its new tables.  A build is run again only if its folder changed since its
    last build (or --rebuild)."""

    from ..game import EditionError
    from ..tournament.budget import BudgetError, parse_duration
    from ..tournament.config import (
        TournamentError,
        load_tournament,
        tournament_edition,
        with_max_bot_processes,
        with_option,
    )
    from ..tournament.isolation import check_isolation, run_files

    try:
        seconds = None if time_budget is None else parse_duration(time_budget)
    except BudgetError as exc:
        fail(str(exc))

    try:
        config = load_tournament(config_path)
        try:
            tournament_edition(config, config_path)
        except EditionError as exc:
            raise EditionError(f"{config_path}: edition: {exc}") from None
        if sandbox is not None:
            config = config.model_copy(update={"sandbox": sandbox})
        if until_separated:
            config = with_option(config, "--until-separated", "until", "separated")
        if max_bot_processes is not None:
            config = with_max_bot_processes(config, max_bot_processes)
        check_sandbox_available(config.sandbox)
    except (TournamentError, EditionError, SandboxError) as exc:
        fail(str(exc))
    # Imported once the config is checked (numpy with the schedule, trio, the store, the
    # leaderboard): the one line of a mistake in the file need not wait for them.
    from ..interrupts import run_trio
    from ..match.game import OutOfResources
    from ..tournament.entrants import NoFolders
    from ..tournament.executors import Executor
    from ..tournament.executors.dask import DaskExecutor, SchedulerError
    from ..tournament.executors.local import LocalExecutor
    from ..tournament.field import FrozenField
    from ..tournament.progress import ProgressDisplay
    from ..tournament.schedule import Schedule
    from ..tournament.session import NothingPlayed, run_into
    from ..tournament.store import StoreError, StoreFailed

    # Before any store.  Only a gauntlet can have no games (of its baselines alone): a round
    # robin has table_size bots or more (checked on load), and a sampled one is slow to draw.
    if config.format == "gauntlet" and not Schedule(config).table_count:
        fail(f"{config_path}: the schedule has no games (a gauntlet's games are its bots "
             "other than the baselines against them)")
    shard_of = parse_shard(shard, config)
    if scheduler is not None and executor != "dask":
        fail("--scheduler goes with --executor dask")
    suffix = f".shard{shard_of[0]}of{shard_of[1]}" if shard_of else ""
    db_path = db_path or config_path.with_name(config_path.stem + suffix + ".db")
    try:  # before any store or log is made
        check_isolation(config, config_path, run_files(db_path, stderr_dir))
    except SandboxError as exc:
        fail(str(exc))
    if stderr_dir is not None:
        make_folder("--stderr-dir", stderr_dir)
    make_folder("--db", db_path.parent, db_path)  # results/cup.db: results/ made as --log's
    display = ProgressDisplay(quiet=quiet)
    workers = resolve_workers(workers)
    runner: Executor = (DaskExecutor(scheduler, workers) if executor == "dask" else
                        LocalExecutor(workers, stderr_dir=stderr_dir))
    try:
        try:
            summary = run_trio(run_into, db_path, config, config_path, runner, display.say,
                               display.update, shard_of, frozen, workers, seconds, rebuild)
        finally:  # an error or Ctrl-C says its line under the bar, not at its end
            display.end()
    except SchedulerError as exc:
        fail(f"--scheduler {scheduler}: {exc}")
    except StoreFailed as exc:
        fail(f"the results store failed: {exc}; the games stored before it are kept: "
             "run again to resume")
    except OutOfResources as exc:
        fail(f"the referee ran short of its own resources: {exc}; the games stored before it "
             "are kept: lower max_bot_processes or --workers, or raise the limit of open files "
             "(ulimit -n), then run again to resume")
    except (StoreError, RuntimeError, SandboxError, NothingPlayed, NoFolders, FrozenField,
            EditionError) as exc:  # the edition read again by a worker (out of descriptors)
        fail(str(exc))
    except KeyboardInterrupt:
        fail(f"interrupted; finished games are kept in {db_path}; run again to resume")
    try:  # read as the leaderboard reads them, with --quiet too (not shown: not worked out)
        board = read_stored(db_path)
    except StoreError as exc:
        fail(f"the games are stored, but the leaderboard cannot be read: {exc}")
    for line in summary.never_started:  # said with --quiet too: its games count for nothing
        click.echo(visible(line), err=True)
    if quiet:  # a left-out bot is said all the same: its games are missing from the results
        for name, why in summary.left_out.items():
            click.echo(f"warning: left out {name}: {visible(why, indent='    ')}", err=True)
        if summary.skipped:
            click.echo(f"warning: {summary.skipped:,} games skipped (left-out bots); run again "
                       "once they are fixed to play them", err=True)
        return
    display.say(f"{summary.played:,} games played, {summary.already:,} were already stored, "
                f"{summary.skipped:,} skipped (left-out bots), {len(summary.voids):,} void; "
                f"results in {db_path}")
    from ..leaderboard import standings_text

    click.echo(standings_text(board.games, board.primary, "table", left_out=board.left_out,
                              baselines=board.baselines, joined=board.joined[0],
                              runs=board.joined[1], field=board.field, grow=board.grow))
    note = faults_note(board.games, db_path, stderr_dir)
    if note:
        click.echo("\n" + note)


@tournament.command(name="merge")
@click.argument("shards", nargs=-1, required=True, metavar="SHARD.db...",
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_path", required=True,
              type=click.Path(dir_okay=False, path_type=Path), help="The merged store.")
def tournament_merge(shards: tuple[Path, ...], out_path: Path) -> None:
    """Merge the stores of a sharded run into one, refusing mixed files, duplicates and gaps."""
    from ..interrupts import signals_interrupt
    from ..tournament.merge import exists_already, merge
    from ..tournament.store import StoreError

    if out_path.exists():
        fail(exists_already(out_path))
    try:
        with signals_interrupt():  # a job's time limit (SIGTERM) too: the partial file goes
            games = merge(out_path, list(shards))
    except StoreError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail(f"interrupted; nothing was merged ({out_path} was not made)")
    click.echo(f"{games:,} games from {len(shards):,} shards in {out_path}")
