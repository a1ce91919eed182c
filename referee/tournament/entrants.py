"""The entrants of a tournament file: their folders, their builds, and how each is played.

A bot runs in its `dir`, relative to the tournament file (or in the file's folder), under the
file's limits and in its sandbox (`sandbox = "bwrap"`); so does its build, with its folder
writable and no network.  A bot whose build or command fails is left out with a message.
A build known to be up to date, its folder as it was just after its last successful build in
this store (`Builds`), is not run again; nor is one another referee (another shard) has just
made, the folder as that build left it, when this run waited for it (`bots/build_lock.py`:
builds of one folder take turns).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from referee.bots.build import build_bot
from referee.bots.build_lock import BuildTurn, WaitEnded, build_turn
from referee.bots.build_state import build_digest
from referee.bots.launch import BotSpec, missing_program, script_named
from referee.bots.process import ProcessLimits
from referee.bots.start import split_command
from referee.bots.version import bot_version
from referee.match.bot_player import BotPlayer
from referee.match.player import Player
from referee.text import listed

from .config import BotEntry, TournamentConfig

BUILD_LINES = 6  # of a failed build's output in its left-out reason: its first error, its end
REUSED_NAMED = 8  # entrants whose build was reused named in the run's line, then a count
# `plan` tells which builds are up to date only for a field of at most this many builds: each
# digest reads its folder (about 0.02 s an entrant), and a plan should answer in a moment.
PLAN_BUILDS_MOST = 200

PlayerFactory = Callable[[str, int], Player]
"""Makes entrant `name`'s player for worker `number`."""


def bot_dir(config_path: Path, entry_dir: str | None) -> Path:
    """Bots run in their `dir`, relative to the tournament file, or in the file's folder."""
    base = config_path.resolve().parent
    return (base / entry_dir).resolve() if entry_dir else base


def read_only(config_path: Path, paths: list[str]) -> tuple[Path, ...]:
    base = config_path.resolve().parent
    return tuple((base / p).resolve() for p in paths)


@dataclass
class Builds:
    """The builds of a run that may reuse them: `last`, the store's digest of each entrant's
    folder just after its last successful build (`referee.bots.build_state`); a build whose
    digest is the same now is not run again, unless `rebuild`.  `build_bots` fills in the
    rest: the entrants whose build it reused, how many it ran, and the digests to keep (None:
    forget the entrant's, its build failed or its folder cannot be vouched for), each taken
    just after that entrant's own build: a digest taken later would vouch for a file edited
    after the build read it (an organiser's fix while the other kits compile), and the next
    run would play the program built before the edit, under the edited folder's version.
    An entrant whose folder another's build changes after its own (a folder two entrants
    share) is built again at the next run."""

    last: Mapping[str, str]
    rebuild: bool = False
    skip: frozenset[str] = frozenset()  # the run's own files (`run_own`), not hashed
    reused: list[str] = field(default_factory=list)
    ran: int = 0
    digests: dict[str, str | None] = field(default_factory=dict)
    # Each folder's version digest (`folder_digest`, by its real path) taken in the walk of
    # its build's digest since the last build ran (a build may write in any folder), for
    # `entrant_versions`: a resumed run's folders are read once, not twice.
    versions: dict[str, str] = field(default_factory=dict)

    def line(self) -> str | None:
        """What the run says of them, once some were reused: which (the first
        `REUSED_NAMED`), and how many others it built, if any (each said as it ran).  An
        organiser could not tell which entrants a count of reused builds meant, and read
        "0 run" as something gone wrong."""
        if not self.reused:
            return None
        one = len(self.reused) == 1
        ran = (f"; {self.ran} other build{'' if self.ran == 1 else 's'} ran"
               if self.ran else "")
        return (f"build{'' if one else 's'} reused, {'its folder' if one else 'their folders'} "
                f"unchanged since {'its' if one else 'their'} last build (--rebuild builds "
                f"{'it' if one else 'them'} again): {listed(self.reused, REUSED_NAMED)}{ran}")


async def build_bots(config: TournamentConfig, config_path: Path,
                     say: Callable[[str], None], builds: Builds | None = None,
                     until: float | None = None) -> dict[str, str]:
    """Run each build command once, or, with `builds`, only those not known to be up to date
    (their digests kept there); return the bots left out, with the reason in one line (a
    failed build's first error: the store keeps it for the board, the CSV and plan), having
    said it with more of the build's output.  An entrant without a `dir` of its own is always
    built: its build runs beside the tournament file, where the store changes every game.
    Each build takes its turn in its folder with other referees' (`build_lock`), waiting
    for it until `until` at most (a run's time budget): then no other entrant is built, what
    was found so far is said as ever, and WaitEnded is raised."""
    left_out: dict[str, str] = {}
    said: dict[str, str] = {}  # a failed build's reason with its output's excerpt
    ended: WaitEnded | None = None
    for bot in config.bots:
        cwd = bot_dir(config_path, bot.dir)
        unplayable = _unplayable(bot, cwd)
        if unplayable is not None:
            left_out[bot.name] = unplayable
            continue
        if bot.build:
            try:
                async with build_turn(cwd, bot.name, say, until) as turn:
                    failed = await _build_in_turn(config, config_path, bot, cwd, say, builds,
                                                  turn)
            except WaitEnded as exc:
                ended = exc
                break
            if failed is not None:
                left_out[bot.name], said[bot.name] = failed
                continue
        missing = missing_program(bot_spec(config, config_path, bot.name))
        if missing is not None:
            left_out[bot.name] = f"its command cannot run: {missing}"
    if builds is not None:
        for name in left_out:  # a failed build, or a command that cannot run: never reused
            builds.digests[name] = None
        reused = builds.line()
        if reused is not None:
            say(reused)
    for name, why in left_out.items():
        say(f"left out {name}: {said.get(name, why)}")
    if ended is not None:
        raise ended
    return left_out


async def _build_in_turn(config: TournamentConfig, config_path: Path, bot: BotEntry, cwd: Path,
                         say: Callable[[str], None], builds: Builds | None,
                         turn: BuildTurn) -> tuple[str, str] | None:
    """Build `bot` in `cwd` in its `turn`, unless its build is up to date: as the store
    knows it, or as another referee's build just left it, the turn waited for (another
    shard, whose store this one is not); its digest kept in `builds` and said in the turn.
    None, or if it failed, its left-out reason in one line and with its output's excerpt."""
    if bot.build is None:
        return None
    if builds is not None and turn.waited:
        builds.versions.clear()  # the other referee's build may have written any folder
    if _up_to_date(config, config_path, bot, builds, turn.left):
        return None
    say(f"building {bot.name}: {bot.build}")
    if builds is not None:
        builds.ran += 1
        builds.versions.clear()
    built = await build_bot(bot.build, cwd, config.limits.build_time, config.sandbox,
                            read_only(config_path, bot.read_only))
    if built.problem is not None:
        # its first error kept: gcc's warnings after it filled the last lines
        tail = built.excerpt(BUILD_LINES) if built.failure is None else ""
        line = built.headline() if built.failure is None else ""
        return (f"its build {built.problem}" + (f": {line}" if line else ""),
                f"its build {built.problem}" + (f": {tail}" if tail else ""))
    if builds is not None:
        builds.digests[bot.name] = _build_digest(config, config_path, bot, builds)
        turn.built(builds.digests[bot.name])
    return None


@dataclass(frozen=True)
class PlannedBuilds:
    """What a run would do with the entrants' builds, as `plan` tells it: `reused`, those up
    to date, and `to_run`; neither when they are more than `PLAN_BUILDS_MOST` (`counted`
    False)."""

    reused: tuple[str, ...]
    to_run: tuple[str, ...]
    counted: bool = True

    def line(self) -> str | None:
        """`plan`'s line; None when the file has no build to run or reuse.  "0 up to date (a
        run reuses them)" said of a field whose every build would run, and "1 ... them" of
        one."""
        if not self.counted:
            return (f"builds: not counted (more than {PLAN_BUILDS_MOST}; a run reuses those "
                    "whose folders are unchanged since their last build)")
        to_run = (f"{len(self.to_run)} to run ({listed(list(self.to_run), REUSED_NAMED)})"
                  if self.to_run else "")
        if not self.reused:
            return f"builds: {to_run}, none up to date" if to_run else None
        up = (f"{len(self.reused)} up to date (a run reuses "
              f"{'it' if len(self.reused) == 1 else 'them'})")
        return f"builds: {up}, {to_run}" if to_run else f"builds: {up}"


def first_builds(config: TournamentConfig, left_out: Mapping[str, str]) -> PlannedBuilds:
    """What a run would build where the store knows no build (no store yet): every build,
    but those of the entrants `left_out` whatever their builds do; named without reading a
    folder, so that the organiser of a new field of compiled entrants knows beforehand that
    its first run compiles them all."""
    return PlannedBuilds((), tuple(b.name for b in config.bots
                                   if b.build and b.name not in left_out))


def planned_builds(config: TournamentConfig, config_path: Path, last: Mapping[str, str],
                   left_out: Mapping[str, str], skip: frozenset[str],
                   versions: dict[str, str] | None = None) -> PlannedBuilds:
    """Which builds a run would reuse, given the store's digests (`last`), and which it would
    run (those of the entrants `left_out` whatever their builds do are not run at all); an
    organiser could not tell, before a run, whether it would spend an hour compiling.
    `versions`: where to keep the folders' version digests taken in the same walks (`Builds`),
    for `entrant_versions`."""
    bots = [b for b in config.bots if b.build and b.name not in left_out]
    if len(bots) > PLAN_BUILDS_MOST:
        return PlannedBuilds((), (), counted=False)
    builds = Builds(last, skip=skip, versions={} if versions is None else versions)
    to_run = tuple(b.name for b in bots if not _up_to_date(config, config_path, b, builds))
    return PlannedBuilds(tuple(builds.reused), to_run)


def _build_digest(config: TournamentConfig, config_path: Path, bot: BotEntry,
                  builds: Builds) -> str | None:
    """`bot`'s build digest now (None without a build or a `dir`), its folder's version
    digest kept in `builds.versions` from the same walk."""
    if not bot.build or not bot.dir:
        return None
    return build_digest(bot.build, bot_dir(config_path, bot.dir), config.sandbox,
                        read_only(config_path, bot.read_only), builds.skip, builds.versions)


def _up_to_date(config: TournamentConfig, config_path: Path, bot: BotEntry,
                builds: Builds | None, theirs: str | None = None) -> bool:
    """Whether `bot`'s build is known to be up to date (and so counted as reused): its
    folder's digest is the store's (kept as it was), or `theirs`, the digest another
    referee's build just left (`BuildTurn.left`: then kept in this store too)."""
    if builds is None or builds.rebuild:
        return False
    known = {builds.last.get(bot.name), theirs} - {None}
    if not known:
        return False
    digest = _build_digest(config, config_path, bot, builds)
    if digest not in known:
        return False
    builds.reused.append(bot.name)
    if digest != builds.last.get(bot.name):
        builds.digests[bot.name] = digest
    return True


def _unplayable(bot: BotEntry, cwd: Path) -> str | None:
    """Why an entrant cannot play whatever its build does: its `dir` (`cwd`) is not a folder,
    or holds no bot (an entry given by its folder alone); None if it may."""
    if not cwd.is_dir():
        return (f"its directory {cwd} is a file, not a folder" if cwd.exists()
                else f"its directory {cwd} does not exist")
    return bot.unusable


def unbuilt_problems(config: TournamentConfig, config_path: Path) -> dict[str, str]:
    """The entrants a run would leave out whatever their builds do, with why: a `dir` that is
    not a folder, a program or script that is not there (but not one a build may make).
    `plan` warns of them, without building anything."""
    problems: dict[str, str] = {}
    for bot in config.bots:
        unplayable = _unplayable(bot, bot_dir(config_path, bot.dir))
        if unplayable is not None:
            problems[bot.name] = unplayable
            continue
        if bot.build is None or "/" not in split_command(bot.command)[0]:
            missing = missing_program(bot_spec(config, config_path, bot.name),
                                      script=bot.build is None)
            if missing is not None:
                problems[bot.name] = f"its command cannot run: {missing}"
    return problems


def entrant_versions(config: TournamentConfig, config_path: Path,
                     left_out: dict[str, str], skip: frozenset[str] = frozenset(),
                     taken: Mapping[str, str] | None = None) -> dict[str, str]:
    """The version of every entrant that is not left out, as its folder is now (built), the
    run's own files (`skip`, `run_own`) left out of it.  `taken`: folders' version digests
    read with the same `skip` since the last build ran (`Builds.versions`), not read again."""
    versions = {}
    for b in config.bots:
        if b.name not in left_out:
            cwd = bot_dir(config_path, b.dir)
            folder = taken.get(str(cwd)) if taken and b.dir else None
            versions[b.name] = bot_version(b.command, b.build, cwd, bool(b.dir), skip, folder)
    return versions


def bot_spec(config: TournamentConfig, config_path: Path, name: str) -> BotSpec:
    """How to run entrant `name`: its command, folder, limits and sandbox.  The sandbox shows
    its `dir` when it has one, else the folder its command names."""
    entry = next(b for b in config.bots if b.name == name)
    cwd = bot_dir(config_path, entry.dir)
    return BotSpec(name, entry.command, cwd, limits=config.limits.bot_limits(entry.address_space),
                   sandbox=config.sandbox, home=cwd if entry.dir else None,
                   read_only=read_only(config_path, entry.read_only))


def bot_factory(config: TournamentConfig, config_path: Path, stderr_dir: Path | None = None,
                polling: bool = True, spin: float | None = None) -> PlayerFactory:
    """Makes the entrants' players.  `polling`: the referee may wait for a bot's reply
    outside trio (polling for a quick bot, sleeping in poll(2)); not where other workers
    share the event loop (waiting for one there delays them).  `spin`: then the most it
    polls for one reply (`ProcessLimits.spin`)."""
    specs = {b.name: bot_spec(config, config_path, b.name) for b in config.bots}
    process_limits = (ProcessLimits(spin=spin) if polling
                      else ProcessLimits(spin=0.0, shared_loop=True))

    def make(name: str, worker: int) -> Player:
        log = stderr_dir / f"{name}.w{worker}.stderr.log" if stderr_dir else None
        return BotPlayer(specs[name], startup_time=config.limits.startup_time, stderr_path=log,
                         process_limits=process_limits)

    return make


class NoFolders(Exception):
    """No entrant is there: the file is run away from its entrants' folders and programs."""


def no_folders(config: TournamentConfig, config_path: Path) -> NoFolders | None:
    """The error when none of the entrants found from the file's folder is there: each names
    a `dir`, or a program or script by a path relative to the file's folder, and that is not
    there (entrants given by a command on PATH or an absolute path, as a gauntlet's baselines
    may be, are found from anywhere and do not count), when they are two or more and at least
    half the field (fewer are taken for typos, each left out).  A copy of a tournament file
    run away from its entrants recorded every one of them as left out, and every later
    leaderboard said so (an organiser's final re-run from another folder; a gauntlet's, whose
    baselines were there)."""
    located = [b for b in config.bots if _found_from_the_file(b)]
    if len(located) < 2 or 2 * len(located) < len(config.bots):
        return None  # one missing, or a few beside many found anywhere: typos, left out
    missing = unbuilt_problems(config, config_path)
    if not all(b.name in missing and ("does not exist" in missing[b.name] or
                                      "not found" in missing[b.name]) for b in located):
        return None
    which = (f"none of the {len(config.bots)} entrants is there" if len(located) ==
             len(config.bots) else f"none of the {len(located)} entrants with a folder or "
             "program of their own is there")
    return NoFolders(f"{which} (each `dir`, and each command's program, is found from "
                     f"{config_path.resolve().parent}, the tournament file's folder), so "
                     "nothing was played or recorded: run the file where its entrants are, or "
                     "correct it")


def _found_from_the_file(bot: BotEntry) -> bool:
    """Whether an entrant is looked for in the tournament file's folder: it names a `dir`,
    or its command a program or script by a relative path (not a program on PATH, nor an
    absolute path)."""
    if bot.dir:
        return True
    program = split_command(bot.command)[0]
    paths = [p for p in ("/" in program and program, script_named(bot.command)) if p]
    return any(not os.path.isabs(p) for p in paths)
