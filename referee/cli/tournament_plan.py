"""`referee tournament plan`: what a tournament file would play, counted against its store,
without playing."""

from __future__ import annotations

from pathlib import Path

import click

from ..bots.sandbox import SandboxError
from ..text import listed, visible
from .common import db_option, fail, resolve_workers, workers_option
from .tournament_options import parse_shard, stderr_dir_option

# `plan` lists a field of more entrants than this by its kinds of row (entrants with the same
# games in the same seats on one line), so that 100 entrants alike are not 100 lines alike.
GROUPED_FROM = 20


@click.command(name="plan")
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
