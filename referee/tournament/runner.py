"""Running a tournament: the schedule's unplayed games, in parallel, into the store.

One trio program runs `workers` games at a time.  Each worker keeps its own bot processes
across games (the protocol's new_game message) and restarts one only after it dies.  Bots with
a build command are built once first; a bot whose build or command fails is left out with a
message, and the games it would have played are not played (a later run, after a fix, plays
them).  A referee failure voids a game, which is played again up to three times.

Every bot runs under the file's limits, and in its sandbox (`sandbox = "bwrap"`); so do the
builds in the sandbox, with the bot's folder writable and no network.  With `until` in the file
the games are played in stages, each ended by a look that may stop the run (`until.py`).
"""

from __future__ import annotations

import json
import math
import shlex
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import trio

from referee.bots.launch import BotSpec
from referee.bots.limits import BotLimits
from referee.bots.process import ProcessLimits, run_build
from referee.bots.sandbox import SandboxError, check_sandbox_available, wrap_command
from referee.editions import load_edition
from referee.game import BUILTIN_EDITIONS, Edition
from referee.match.bot_session import BotPlayer
from referee.match.player import Player
from referee.match.record import (
    AnswerLine,
    ApplyLine,
    FaultKind,
    FaultLine,
    GameRecord,
    StoredResult,
)
from referee.match.runner import RefereeError, play_game

from .config import TournamentConfig
from .schedule import ScheduledGame, fingerprint, game_spec, schedule
from .store import Store, StoreError
from .until import SHARDED, Stage, look, plan, stages

MAX_ATTEMPTS = 3


@dataclass
class Progress:
    """What a progress display needs; `on_update` is called after every stored game."""

    total: int
    done: int = 0
    played: int = 0
    faults: int = 0
    voids: int = 0
    started: float = field(default_factory=time.monotonic)
    messages: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.played / elapsed if elapsed > 0 else 0.0

    @property
    def eta(self) -> float:
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else math.inf


@dataclass
class RunSummary:
    total: int  # the games of the deals this run covered (with until: up to where it stopped)
    already: int
    played: int
    skipped: int
    left_out: dict[str, str]
    voids: list[str]
    verdict: str | None = None  # with until: where the run stopped, and why


def bot_dir(config_path: Path, entry_dir: str | None) -> Path:
    """Bots run in their `dir`, relative to the tournament file, or in the file's folder."""
    base = config_path.resolve().parent
    return (base / entry_dir).resolve() if entry_dir else base


async def build_bots(config: TournamentConfig, config_path: Path,
                     say: Callable[[str], None]) -> dict[str, str]:
    """Run each build command once; return the bots left out, with the reason."""
    left_out: dict[str, str] = {}
    for bot in config.bots:
        cwd = bot_dir(config_path, bot.dir)
        if not cwd.is_dir():
            left_out[bot.name] = (f"its directory {cwd} is a file, not a folder" if cwd.exists()
                                  else f"its directory {cwd} does not exist")
            continue
        if bot.build:
            say(f"building {bot.name}: {bot.build}")
            argv = shlex.split(bot.build)
            try:
                if config.sandbox != "none":
                    argv = wrap_command(argv, cwd=cwd, limits=BotLimits.off(),
                                        sandbox=config.sandbox, home=cwd, writable_home=True,
                                        read_only=read_only(config_path, bot.read_only))
                done = await run_build(argv, cwd, config.limits.build_time)
            except SandboxError as exc:
                left_out[bot.name] = f"its build cannot run in the sandbox: {exc}"
                continue
            except trio.TooSlowError:
                left_out[bot.name] = (f"its build did not finish within "
                                      f"{config.limits.build_time:g} s")
                continue
            except OSError as exc:
                left_out[bot.name] = f"its build command cannot start: {exc.strerror or exc}"
                continue
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).decode("utf-8", "replace").strip()
                tail = "\n".join(tail.splitlines()[-5:])
                left_out[bot.name] = (f"its build failed (exit status {done.returncode})"
                                      + (f": {tail}" if tail else ""))
                continue
        program = shlex.split(bot.command)[0]
        if shutil.which(program, path=None) is None and not (cwd / program).is_file():
            left_out[bot.name] = f"its command {program!r} was not found"
    for name, why in left_out.items():
        say(f"left out {name}: {why}")
    return left_out


def response_histogram(record: GameRecord, seats: int) -> list[dict[str, int]]:
    """Per seat, counts of the bot's response times in quarter-octave buckets of microseconds
    (bucket b holds times near 2**(b/4) us), mergeable across games for medians and p99s."""
    out: list[dict[str, int]] = [{} for _ in range(seats)]
    unanswered: set[int] = set()  # seats whose step's fault was that no answer came
    for line in record.lines:
        if isinstance(line, FaultLine) and line.kind in (FaultKind.TIMEOUT, FaultKind.CRASH):
            unanswered.add(line.seat)
        elif not isinstance(line, ApplyLine | AnswerLine) or line.seat is None:
            continue
        elif line.seat in unanswered:
            unanswered.discard(line.seat)  # the time it was given, not a response time
        elif line.source in ("bot", "default"):
            us = max(1.0, line.seconds * 1e6)
            bucket = str(int(4 * math.log2(us)))
            hist = out[line.seat]
            hist[bucket] = hist.get(bucket, 0) + 1
    return out


@dataclass
class Finished:
    """A game played to its end, ready for the store (picklable, for Dask workers)."""

    game_id: str
    seats: list[str]
    seed: int
    result: StoredResult
    record: bytes
    seconds: float
    attempts: int


@dataclass
class Voided:
    game_id: str
    attempt: int
    reason: str


class Table:
    """Plays scheduled games with one worker's players, keeping bot processes across games.

    The same code runs in the local executor's workers and inside Dask tasks.
    """

    def __init__(self, config: TournamentConfig, config_path: Path, number: int,
                 make_player: Callable[[str, int], Player], restart_each_game: bool = False,
                 ) -> None:
        self.config = config
        self.config_path = config_path
        self.edition = tournament_edition(config, config_path)
        self.number = number
        self.make_player = make_player
        self.restart_each_game = restart_each_game
        self.players: dict[str, Player] = {}

    async def play(self, game: ScheduledGame, voided: Callable[[Voided], None]) -> Finished | None:
        """Play one game; a void game is reported and played again, up to MAX_ATTEMPTS."""
        spec = game_spec(self.config, game, self.edition)
        players = self.players
        for attempt in range(1, MAX_ATTEMPTS + 1):
            seat_players = [players.setdefault(n, self.make_player(n, self.number))
                            for n in game.seats]
            started = time.monotonic()
            try:
                record = await play_game(spec, seat_players)
            except RefereeError as exc:
                voided(Voided(game.game_id, attempt, str(exc)))
                for name in game.seats:  # start afresh: the processes may be in any state
                    p = players.pop(name, None)
                    if p is not None:
                        await p.aclose()
                continue
            result = StoredResult.of(record.result, response_histogram(record, len(game.seats)))
            if self.restart_each_game:
                for name in game.seats:
                    await players.pop(name).aclose()
            return Finished(game.game_id, list(game.seats), game.seed, result,
                            record.to_jsonl(), time.monotonic() - started, attempt)
        return None

    async def aclose(self) -> None:
        for p in self.players.values():
            await p.aclose()
        self.players.clear()


def read_only(config_path: Path, paths: list[str]) -> tuple[Path, ...]:
    base = config_path.resolve().parent
    return tuple((base / p).resolve() for p in paths)


def bot_spec(config: TournamentConfig, config_path: Path, name: str) -> BotSpec:
    """How to run entrant `name`: its command, folder, limits and sandbox.  The sandbox shows
    its `dir` when it has one, else the folder its command names."""
    entry = next(b for b in config.bots if b.name == name)
    cwd = bot_dir(config_path, entry.dir)
    return BotSpec(name, entry.command, cwd, limits=config.limits.bot_limits(entry.address_space),
                   sandbox=config.sandbox, home=cwd if entry.dir else None,
                   read_only=read_only(config_path, entry.read_only))


def bot_factory(config: TournamentConfig, config_path: Path, stderr_dir: Path | None = None,
                polling: bool = True) -> Callable[[str, int], Player]:
    """Makes the entrants' players.  `polling`: the referee may poll for a quick bot's
    reply; not where other tables share the event loop (polling for one delays them)."""
    specs = {b.name: bot_spec(config, config_path, b.name) for b in config.bots}
    process_limits = ProcessLimits() if polling else ProcessLimits(spin=0.0)

    def make(name: str, worker: int) -> Player:
        log = stderr_dir / f"{name}.w{worker}.stderr.log" if stderr_dir else None
        return BotPlayer(specs[name], startup_time=config.limits.startup_time, stderr_path=log,
                         process_limits=process_limits)

    return make


MAX_SHARDS = 10_000  # `--shard I/N`: N at most this (a shard beyond the games plays none)


def shard_games(games: list[ScheduledGame], shard: tuple[int, int] | None) -> list[ScheduledGame]:
    """Shard I of N (1-based): every N-th game of the schedule, a fixed and disjoint part."""
    if shard is None:
        return games
    index, count = shard
    return [g for i, g in enumerate(games) if i % count == index - 1]


def tournament_edition(config: TournamentConfig, config_path: Path) -> Edition:
    """The tournament's edition: a built-in name, or a file relative to the tournament file."""
    name = config.edition
    if name in BUILTIN_EDITIONS:
        return BUILTIN_EDITIONS[name]
    path = Path(name)
    if not path.is_absolute():
        path = config_path.resolve().parent / path
    return load_edition(str(path))


def _earlier_fingerprints(config: TournamentConfig, edition: Edition, store: Store) -> list[str]:
    """What a store begun by an earlier version with this file would hold: its fingerprint
    counted the deals (those the store was made with), which never changed a game."""
    try:
        deals = json.loads(store.meta("config") or "{}").get("deals")
    except ValueError:
        return []
    return [fingerprint(config, edition, with_deals=deals)] if isinstance(deals, int) else []


def prepare(config: TournamentConfig, config_path: Path, store: Store,
            shard: tuple[int, int] | None) -> tuple[list[ScheduledGame], set[str]]:
    """Bind the store to this tournament (and shard); the shard's games and those stored."""
    if shard is not None and config.until is not None:
        raise ValueError(SHARDED)
    games = shard_games(schedule(config), shard)
    edition = tournament_edition(config, config_path)
    store.bind(config.name, fingerprint(config, edition), config.model_dump_json(),
               also=_earlier_fingerprints(config, edition, store))
    store.bind_shard(None if shard is None else f"{shard[0]}/{shard[1]}")
    store.rename(config.name, config.primary_metric)
    return games, store.done()


def store_finished(store: Store, f: Finished) -> bool:
    """Store one game; False when it was stored already."""
    return store.save(f.game_id, f.seats, f.seed, f.result, f.record, f.seconds, f.attempts)


@dataclass
class Staged:
    """The stages of one run as it goes: its progress, what it covered, where it stopped."""

    config: TournamentConfig
    store: Store
    games: list[ScheduledGame]
    done: set[str]
    say: Callable[[str], None]
    progress: Progress = field(default_factory=lambda: Progress(total=0))
    covered: set[str] = field(default_factory=set)  # the ids of the stages begun
    deals: int = 0  # the deals of the stages begun
    already: int = 0
    skipped: int = 0
    verdict: str | None = None

    def __post_init__(self) -> None:
        if self.config.until is not None:
            self.say(plan(self.config, self.games))

    def begin(self, stage: Stage, left_out: dict[str, str]) -> list[ScheduledGame]:
        """Start a stage: the progress now counts to its end; its games to play."""
        todo = [g for g in stage.games if g.game_id not in self.done]
        playable = [g for g in todo if not left_out.keys() & set(g.seats)]
        self.covered |= {g.game_id for g in stage.games}
        self.deals = stage.deals
        self.already += len(stage.games) - len(todo)
        self.skipped += len(todo) - len(playable)
        self.progress.total = len(self.covered)
        self.progress.done += len(stage.games) - len(todo)
        return playable

    def end(self, stage: Stage) -> bool:
        """End a stage: True when the run stops here (at a look that settles it, or after
        the last stage)."""
        if self.config.until is None:
            return True
        verdict = look(self.config, self.store, self.games, stage)
        self.say(verdict.text)
        self.verdict = verdict.text
        return verdict.stop

    def summary(self, played: int, left_out: dict[str, str], voids: list[str]) -> RunSummary:
        beyond = len(self.done - self.covered)
        if beyond:  # a longer run's games: the leaderboard counts every stored game
            self.say(f"note: the store also holds {beyond} games of deals after the "
                     f"{self.deals} this run covered (an earlier run played more); the "
                     "leaderboard counts every stored game")
        return RunSummary(total=len(self.covered), already=self.already, played=played,
                          skipped=self.skipped, left_out=left_out, voids=voids,
                          verdict=self.verdict)


async def run_tournament(
    config: TournamentConfig,
    config_path: Path,
    store: Store,
    workers: int,
    say: Callable[[str], None],
    on_update: Callable[[Progress], None] | None = None,
    stderr_dir: Path | None = None,
    player_factory: Callable[[str, int], Player] | None = None,
    restart_each_game: bool = False,
    shard: tuple[int, int] | None = None,
) -> RunSummary:
    """Play the unplayed games.  `player_factory(name, worker)` replaces the bot processes
    (in-process players for simulations and benchmarks); `restart_each_game` stops every bot
    after each game instead of keeping it, to measure what keeping them saves.  Raises
    SandboxError, before any game, when the file's sandbox cannot run here."""
    if player_factory is None:
        check_sandbox_available(config.sandbox)
    games, done = prepare(config, config_path, store, shard)
    run = Staged(config, store, games, done, say)
    progress = run.progress
    make_player = player_factory or bot_factory(config, config_path, stderr_dir,
                                                polling=workers <= 1)
    tables = [Table(config, config_path, number, make_player, restart_each_game)
              for number in range(max(1, workers))]
    left_out: dict[str, str] | None = None  # built before the first stage with games to play
    voids: list[str] = []

    def voided(v: Voided) -> None:
        store.save_void(v.game_id, v.attempt, v.reason)
        progress.voids += 1
        voids.append(f"{v.game_id} (attempt {v.attempt}): {v.reason}")
        again = "playing it again" if v.attempt < MAX_ATTEMPTS else "giving up"
        say(f"void: {v.reason}; {again}")

    failed: list[StoreError] = []

    async def worker(table: Table, queue: Iterator[ScheduledGame], nursery: trio.Nursery
                     ) -> None:
        try:
            for game in queue:
                finished = await table.play(game, voided)
                if finished is None:
                    continue
                store_finished(store, finished)
                progress.done += 1
                progress.played += 1
                progress.faults += sum(len(f) for f in finished.result.faults)
                if on_update is not None:
                    on_update(progress)
        except StoreError as exc:  # the store failed (a full disk): every table stops
            failed.append(exc)
            nursery.cancel_scope.cancel()

    try:
        for stage in stages(config, games):
            if left_out is None and any(g.game_id not in done for g in stage.games):
                needs_build = player_factory is None
                left_out = await build_bots(config, config_path, say) if needs_build else {}
            queue = iter(run.begin(stage, left_out or {}))
            async with trio.open_nursery() as nursery:
                for table in tables:
                    nursery.start_soon(worker, table, queue, nursery)
            if failed:
                raise failed[0]
            if run.end(stage):
                break
    finally:
        for table in tables:  # the bots are kept from stage to stage
            await table.aclose()
    return run.summary(progress.played, left_out or {}, voids)
