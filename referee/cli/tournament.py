"""`referee tournament`: run a tournament file, merge the stores of a sharded run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..bots.limits import DEFAULT_STDERR_PER_GAME, format_size
from ..bots.sandbox import SandboxError, check_sandbox_available
from ..text import listed, visible
from ..tournament.merge import MAX_SHARDS, unshardable
from . import OneLineMistakes, short_help
from .common import (
    OutputPath,
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

if TYPE_CHECKING:
    from ..tournament.config import TournamentConfig

# `plan` lists a field of more entrants than this by its kinds of row (entrants with the same
# games in the same seats on one line), so that 100 entrants alike are not 100 lines alike.
GROUPED_FROM = 20

# One option for `run` and `plan`, one meaning: the folder of the bots' stderr logs, which no
# entrant's version or build digest counts (`isolation.own_files`).  `plan` writes nothing
# there: given the folder a run keeps its logs in, inside an entrant's, it does not count the
# logs as a change of that entrant.
stderr_dir_option = click.option(
    "--stderr-dir", type=OutputPath(file_okay=False, path_type=Path),
    help=f"Keep each bot's stderr here ({format_size(DEFAULT_STDERR_PER_GAME)} per game); no "
         "entrant's version counts it (plan writes nothing there).")


@click.group(cls=OneLineMistakes, short_help=short_help("tournament"))
def tournament() -> None:
    """Run tournaments described by a tournament file (see tournaments/demo.toml)."""


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


@tournament.command(name="plan")
@click.argument("config_path", metavar="FILE",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@workers_option("Games, for the time bound,")
@db_option("Count what this store holds already  [default: FILE's store, if any; with "
           "--shard I/N, its .shardIofN.db]", output=False)
@click.option("--shard", metavar="I/N",
              help="Count only shard I of N of the schedule, as `run --shard I/N` plays it.")
@stderr_dir_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object, for scripts.")
def tournament_plan(config_path: Path, workers: int | None, db_path: Path | None,
                    shard: str | None, stderr_dir: Path | None, as_json: bool) -> None:
    """Say what FILE would play, without playing: games, tables, deals, games per entrant,
    each entrant's seats, and a bound on the time; warn when it is very large."""
    import json

    from tabulate import tabulate

    from ..game import EditionError
    from ..tournament.config import TournamentError, load_tournament, tournament_edition
    from ..tournament.isolation import check_isolation, run_files
    from ..tournament.preview import make_plan
    from ..tournament.schedule import Schedule
    from ..tournament.store import LEFT_OUT, WITHDRAWN, Store, StoreError

    try:
        config = load_tournament(config_path)
    except TournamentError as exc:
        fail(str(exc))
    shard_of = parse_shard(shard, config)
    suffix = f".shard{shard_of[0]}of{shard_of[1]}" if shard_of else ""
    db_path = db_path or config_path.with_name(config_path.stem + suffix + ".db")
    try:  # what `run` would refuse
        check_isolation(config, config_path, run_files(db_path, stderr_dir))
    except SandboxError as exc:
        fail(str(exc))
    try:  # what `run` would refuse
        edition = tournament_edition(config, config_path)
    except EditionError as exc:
        fail(f"{config_path}: edition: {exc}")
    from ..tournament.entrants import no_folders, unbuilt_problems

    nowhere = no_folders(config, config_path)  # as `run` would refuse it
    if nowhere is not None:
        fail(str(nowhere))
    left_out = unbuilt_problems(config, config_path)
    stored = None
    drawn: list[tuple[str, ...]] = []
    rounds: list[list[tuple[str, ...]]] = []
    changed: tuple[str, ...] = ()
    pace = None
    held: str | None = None  # the name of the tournament the store holds, if another
    withdrawn: list[str] = []  # the store's entrants that the file no longer names
    still: list[str] = []  # and those of them an earlier run withdrew
    still_cost = ""
    back: tuple[str, ...] = ()  # and those withdrawn before that it names again
    lost = ""  # what withdrawing them takes out of the leaderboard
    moved: list[str] = []  # games of earlier rotations that a run seats anew
    held_shard = "all"  # the share of the schedule the store holds
    probed: dict[str, int] = {}  # dead at start in their stored games: a run tries them
    out_before: dict[str, str] = {}  # left out by the last run, each with why
    builds = None  # what a run would do with the builds, when the store knows any
    if db_path.exists():
        # Only with a store: the entrants' versions and the session (trio, the match runner,
        # the leaderboard) would cost a plan of a new file a third of its start-up.
        from ..tournament.entrants import entrant_versions
        from ..tournament.field import changed_now, coming_back, withdrawal_cost
        from ..tournament.isolation import own_files
        from ..tournament.pace import stored_pace
        from ..tournament.store_checks import check_store, reseated, stored_draws

        try:
            store = Store.for_reading(db_path)
            try:
                check_store(config, edition, store)
                held_shard = store.shard()
                label = None if shard_of is None else f"{shard_of[0]}/{shard_of[1]}"
                # as `run` refuses it (`bind_shard`: "01/2" is shard 1/2, and a store that
                # names no shard yet is bound to the run's)
                if label is not None and store.meta("shard") not in (None, label):
                    from ..tournament.store.bound_file import other_shard

                    raise StoreError(other_shard(db_path, held_shard, label))
                stored = store.done()
                moved = reseated(config, edition, store)
                stored -= set(moved)  # a run supersedes them and plays them again
                drawn = stored_draws(config, edition, store)
                rounds = store.rounds() if config.schedule == "adaptive" else []
                own = own_files(config_path, db_path, stderr_dir)
                last_builds = store.builds()
                taken: dict[str, str] = {}  # folders read for their builds, not read again
                if last_builds:
                    from ..tournament.entrants import planned_builds

                    builds = planned_builds(config, config_path, last_builds, left_out, own,
                                            taken)
                # those a run leaves out keep their stored games and versions (`update_field`)
                versions = entrant_versions(config, config_path, left_out, own, taken)
                changed, stale = changed_now(store, versions)
                stored -= set(stale)  # a run supersedes them and plays them again
                pace = stored_pace(store.game_times(), resolve_workers(workers))
                if store.count() and store.name() != config.name:
                    held = store.name()
                named = {b.name for b in config.bots}
                gone = [n for n in store.versions() if n not in named]  # as a run finds
                earlier = set(store.entrants(WITHDRAWN))  # withdrawn by a run before
                out_before = {n: why for n, why in store.entrants(LEFT_OUT).items()
                              if n in named and n not in left_out}
                withdrawn = [n for n in gone if n not in earlier]
                still = [n for n in gone if n in earlier]
                still_cost = withdrawal_cost(store, still) if still else ""
                back = coming_back(store, named)
                lost = withdrawal_cost(store, withdrawn) if withdrawn else ""
                if config.schedule == "adaptive":  # as `run` reads them (`start_probe.py`)
                    from ..tournament.start_probe import to_probe

                    probed = to_probe(store, [n for n in versions if n not in changed])
            finally:
                store.close()
        except StoreError as exc:
            fail(str(exc))
    try:
        games = Schedule(config, drawn, rounds)
    except ValueError as exc:
        fail(str(exc))
    plan = make_plan(config, games, resolve_workers(workers), stored, shard_of,
                     changed=changed, pace=pace, left_out=left_out, left_before=out_before)
    looks = None
    if config.until is not None and games.kind != "adaptive":
        from ..tournament.until import plan as until_plan

        looks = until_plan(config, games)
    playing = [b.name for b in config.bots if b.name not in left_out]
    if left_out and not stored and (len(playing) < config.table_size or (
            config.format == "gauntlet" and set(config.baselines) & set(left_out))):
        fail("no game could be played: every game needs a bot that run would leave out ("
             + "; ".join(f"{visible(n)}: {visible(why)}" for n, why in left_out.items()) + ")")
    if builds is None:  # the store knows no build (none yet): a run runs every one
        from ..tournament.entrants import first_builds

        builds = first_builds(config, left_out)
    if as_json:
        click.echo(json.dumps({**plan.as_dict(), **({"until": looks} if looks else {}),
                               "left_out": left_out, "store_holds": held,
                               "withdrawn": withdrawn, "withdrawn_before": still,
                               "reseated": len(moved),
                               "tried_at_start": probed,
                               "left_out_last_run": out_before,
                               "builds": None if builds is None or not builds.counted else {
                                   "up_to_date": list(builds.reused),
                                   "to_run": list(builds.to_run)}}, indent=2))
        return
    built = None if builds is None else builds.line()
    click.echo("\n".join([*plan.lines(), *([looks] if looks else []),
                          *([built] if built else [])]))
    if shard_of is None and held_shard != "all":
        click.echo(f"note: {db_path} holds shard {held_shard}: this plan counts the whole "
                   f"schedule against it; `plan --shard {held_shard}` counts that shard's games, "
                   f"`run --shard {held_shard}` plays them, and merge joins the shards")
    if held is not None:  # another tournament's store, most likely: as `run` would say it
        click.echo(f"warning: {db_path} holds tournament {visible(held)!r}: a run renames it "
                   f"{visible(config.name)!r} (another --db keeps tournaments apart)")
    if moved:
        from ..tournament.store_checks import reseated_why

        click.echo(f"note: {db_path} was made by an earlier referee: {reseated_why(config)}; "
                   f"a run supersedes the {len(moved):,} of its games seated otherwise now and "
                   "plays them again")
    if withdrawn:
        click.echo(f"warning: a run withdraws {listed([visible(n) for n in withdrawn], total=True)}"
                   f": in the store, not in the file{visible(lost)}")
    if still:
        click.echo(f"note: withdrawn by an earlier run: "
                   f"{listed([visible(n) for n in still], total=True)}{visible(still_cost)}")
    if back:
        from ..tournament.field import returned

        brought = returned(back, changed)
        if brought:
            names = listed([visible(n) for n in brought], total=True)
            click.echo(f"note: a run brings back {names}: withdrawn before, unchanged: "
                       f"{'its' if len(brought) == 1 else 'their'} stored games count again")
    for name, why in left_out.items():  # as `run` says it, before any build
        skipped = plan.per_entrant.get(name, 0)
        click.echo(f"warning: run would leave out {visible(name)}: {visible(why)}"
                   + (f" (up to {skipped:,} of its games would be skipped: those not stored)"
                      if skipped else ""))
    for name, why in out_before.items():  # plan builds nothing: it cannot know again
        click.echo(f"note: the last run left out {visible(name)}: {visible(why)}; plan "
                   "builds nothing, so it counts its games as to play: a run builds it again, "
                   "and leaves it out again if it still fails")
    if probed:
        from ..tournament.start_probe import probe_note

        for name, count in probed.items():
            click.echo(visible(probe_note(name, count)))
    from ..tournament.field import renamed

    for line in renamed(left_out, withdrawn):
        click.echo(visible(line))
    seats = [f"seat {i}" for i in range(max(map(len, plan.seats.values()), default=0))]
    alike: dict[tuple[int, ...], list[str]] = {}  # entrants by their games and seats
    for name, counts in plan.seats.items():
        alike.setdefault((plan.per_entrant[name], *counts), []).append(visible(name))
    if len(plan.seats) > GROUPED_FROM and len(alike) < len(plan.seats):
        rows = [[listed(names, total=True), *row]
                for row, names in alike.items()]  # a large field, in its few kinds of row
        header = "entrants"
    else:
        rows = [[visible(name), plan.per_entrant[name], *counts]
                for name, counts in plan.seats.items()]
        header = "entrant"
    click.echo("\n" + tabulate(rows, headers=[header, "games", *seats], disable_numparse=[0]))


def parse_shard(text: str | None, config: TournamentConfig) -> tuple[int, int] | None:
    """I/N, with N bounded so that `tournament merge` need not count to a huge N; one error
    line if `config` cannot be sharded."""
    if text is None:
        return None
    index, _, count = text.partition("/")
    try:
        i, n = int(index), int(count)
    except ValueError:
        fail(f"--shard {text!r}: write it as I/N, e.g. 2/8")
    if not 1 <= n <= MAX_SHARDS:
        fail(f"--shard {text!r}: N must be between 1 and {MAX_SHARDS}")
    if not 1 <= i <= n:
        fail(f"--shard {text!r}: I must be between 1 and N")
    if (why := unshardable(config)) is not None:
        fail(why)
    return i, n


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
