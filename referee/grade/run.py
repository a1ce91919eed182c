"""Grading a class: build, check and play each submission against fixed baselines.

For each submission: a fresh copy in its own working directory, the build (time-limited),
`referee check`, then a gauntlet against the config's baselines in which every student meets
the same deals in every seat order.  Bots that do not build, crash or time out in the check
play no games; bots that fail the check otherwise still play, so their feedback shows what it
cost them.  Only working bots (status ok) earn the grades of the config's rules.
A submission whose files and grading config did not change is not graded again.

A rule's "beats X" holds only when the paired one-sided test over deals separates the student's
mean placement points above X's (`referee.leaderboard.pairs`), at 1 - `[grading] confidence`:
the luck of the cards, which decided grades when raw means were compared, then gives a copy of
a baseline "beats" at most that often.  A rule that needs several baselines needs every test
to pass, each at that level (an intersection-union test, which needs no correction).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
from collections.abc import Callable
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from referee.bots.build import build_bot
from referee.bots.launch import BotSpec
from referee.bots.limits import (
    DEFAULT_ADDRESS_SPACE,
    DEFAULT_MOVE_TIME,
    DEFAULT_STARTUP_TIME,
    DEFAULT_TIME_BANK,
)
from referee.bots.sandbox import SandboxMode
from referee.check import CheckResult, run_check, summary
from referee.leaderboard.stats import Games, leaderboard, versus
from referee.match.player import FATAL_FAULTS
from referee.match.record import FaultKind
from referee.text import visible
from referee.tournament.config import BotEntry, GradeRule, TournamentConfig, tournament_edition
from referee.tournament.entrants import bot_dir
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.schedule import fingerprint
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store
from referee.validation import first_error

from .submissions import SKIP, Submission, discover, fresh_copy, remove_copy

STATUSES = ("ok", "build failed", "failed the check", "crashed", "timed out")
VERDICTS = ("beats", "level", "below")
# Part of the grading key: bump when the same games would be graded differently, so that a
# state.json of the old rules grades everyone again.  2: "beats" by the paired test.
GRADE_VERSION = 2


@dataclass
class Versus:
    """The student against one baseline: the difference of mean placement points (the
    student's less the baseline's) over the deals they shared, its two-sided interval at
    2 * confidence - 1 (so that each end is a one-sided bound at the confidence), the
    one-sided p-values of the paired test and the verdict they give."""

    verdict: str  # one of VERDICTS
    diff: float
    low: float | None  # None: unbounded (fewer than 2 deals)
    high: float | None
    p_above: float
    p_below: float
    deals: int


@dataclass
class Outcome:
    student: str
    status: str
    digest: str
    grade: str = ""
    rule: str = ""  # which rule gave the grade ("beats random-1, random-2"), or otherwise/broken
    games: int = 0
    win_share: float | None = None
    placement: dict[str, float] | None = None
    money: dict[str, float] | None = None
    baselines: dict[str, float] = field(default_factory=dict)  # each one's mean placement
    versus: dict[str, Versus] = field(default_factory=dict)
    faults: dict[str, int] = field(default_factory=dict)
    feedback: str = ""


class BaselineFailed(Exception):
    """A baseline could not play, or crashed: every student would be graded against a broken
    opponent, so grading stops (the teacher's to fix)."""


def bot_name(student: str, baselines: list[str]) -> str:
    name = re.sub(r"[^A-Za-z0-9_.+-]", "_", student)[:60] or "student"
    return name + "-student" if name in baselines else name


def status_from_check(results: list[CheckResult]) -> str:
    failed = [r for r in results if not r.passed]
    kinds = set().union(*(r.kinds for r in failed))
    if not failed:
        return "ok"
    if any(FaultKind.START in r.kinds and r.reason.startswith("no hello within")
           for r in failed):
        return "timed out"  # too slow to start, not broken
    if kinds & FATAL_FAULTS:
        return "crashed"
    if FaultKind.TIMEOUT in kinds:
        return "timed out"
    return "failed the check"


def compare(games: Games, name: str, baselines: list[str], confidence: float
            ) -> dict[str, Versus]:
    """`name` against each baseline by the paired one-sided tests over deals: "beats" when
    separated above it at 1 - confidence, "below" when separated below, else "level"."""
    alpha = 1 - confidence + 1e-9  # an exact p of 1/32 meets a confidence of 31/32
    out = {}
    for b in baselines:
        if b not in games.names:
            continue
        # The interval of coverage 2 * confidence - 1 excludes zero where the one-sided
        # test at `confidence` separates.
        _pairing, t = versus(games, name, b, "placement", alpha=2 * (1 - confidence))
        verdict = "beats" if t.p_above <= alpha else "below" if t.p_below <= alpha else "level"
        out[b] = Versus(verdict, t.diff, t.low, t.high, t.p_above, t.p_below, t.deals)
    return out


def rule_text(rule: GradeRule) -> str:
    """A rule in words, as grades.csv and the feedback name it."""
    parts = []
    if rule.beats:
        parts.append("beats " + ", ".join(rule.beats))
    if rule.level_with:
        parts.append("level with " + ", ".join(rule.level_with))
    if rule.min_placement is not None:
        parts.append(f"placement >= {rule.min_placement:g}")
    return "; ".join(parts) or "works"


def grade_for(outcome: Outcome, config: TournamentConfig) -> tuple[str, str]:
    """The grade and the rule that gave it: the first rule whose baselines the bot beats, and
    is level with or beats, at the placement it asks; else `otherwise` (`broken`)."""
    grading = config.grading
    if outcome.status != "ok" or outcome.placement is None:
        return grading.broken, "broken"
    mine = outcome.placement["mean"]
    verdict = {b: v.verdict for b, v in outcome.versus.items()}
    for rule in grading.rules:
        if all(verdict.get(b) == "beats" for b in rule.beats) and \
                all(verdict.get(b) in ("beats", "level") for b in rule.level_with) and \
                (rule.min_placement is None or mine >= rule.min_placement):
            return rule.grade, rule_text(rule)
    return grading.otherwise, "otherwise"


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


async def play_gauntlet(
    sub: Submission, name: str, workdir: Path, config: TournamentConfig, config_path: Path,
    db: Path, workers: int, say: Callable[[str], None],
) -> tuple[Games, list[dict[str, Any]], str | None, bool]:
    """The student's gauntlet: its games, the standings, why it was left out, if so, and
    whether it crashed (or could not start) in every one of its games."""
    baselines = [b for b in config.bots if b.name in config.baselines]
    assert sub.command is not None
    student = BotEntry(name=name, command=sub.command, dir=str(workdir.resolve()))
    gauntlet = config.model_copy(update={
        "name": f"{config.name}-{name}", "format": "gauntlet", "bots": [*baselines, student],
    })
    store = open_store(db)
    try:
        summary = await run_tournament(gauntlet, config_path, store, LocalExecutor(workers),
                                       say)
        for baseline in config.baselines:
            if baseline in summary.left_out:
                raise BaselineFailed(f"baseline {baseline} cannot play: "
                                     f"{summary.left_out[baseline]}")
        results = list(store.results())
        games = Games.load(results, store.seeds())
    finally:
        store.close()
    for result in results:
        for seat, bot in enumerate(result.names):
            broken = [f for f in result.faults[seat] if f.kind in FATAL_FAULTS]
            if bot in config.baselines and broken:
                reason = broken[0].reason.replace("\n", " / ")
                raise BaselineFailed(f"baseline {bot} failed in game {result.game_id} (playing "
                                     f"{name}): {broken[0].kind}: {reason}")
    crashed = bool(results) and all(
        any(f.kind in FATAL_FAULTS for f in result.faults[result.names.index(name)])
        for result in results)
    return games, leaderboard(games) if games.game_ids else [], summary.left_out.get(name), \
        crashed


async def grade_submission(sub: Submission, config: TournamentConfig, config_path: Path,
                           out: Path, workers: int, say: Callable[[str], None]) -> Outcome:
    outcome = Outcome(sub.student, "ok", sub.digest)
    notes: list[str] = []
    if sub.problem is not None:
        outcome.status = "build failed"
        notes.append(f"## Your submission\n\n{sub.problem}\n")
        return finish(outcome, config, notes, sub)
    try:
        workdir, skipped = fresh_copy(sub, out / "work")
    except shutil.Error as exc:  # one entry per file that could not be copied
        outcome.status = "build failed"
        lines = [f"- cannot copy {os.path.relpath(src, sub.path)}: {why}"
                 for src, _dst, why in exc.args[0]]
        notes.append("## Copying your files\n\nYour files could not be copied into the folder "
                     "your bot runs in:\n\n" + "\n".join(lines[:10]) + "\n")
        return finish(outcome, config, notes, sub)
    if skipped:
        notes.append("## Files left out\n\nThese could not be copied into the folder your bot "
                     "runs in, so it ran without them:\n\n"
                     + "\n".join(f"- {line}" for line in skipped) + "\n")
    ok, output = await build(sub, workdir, config.limits.build_time, config.sandbox)
    if sub.build:
        notes.append(f"## Build: `{sub.build}`\n\n{'It built.' if ok else 'It failed:'}\n\n"
                     f"```\n{output or '(no output)'}\n```\n")
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
    lines = [f"- {'PASS' if r.passed else 'FAIL'} {r.name}: {r.reason}" for r in results]
    for r in results:
        if not r.passed and r.lines:
            lines.append(f"\n  Exchange that failed ({r.name}):\n\n  ```\n" +
                         "\n".join(f"  {x}" for x in r.lines) + "\n  ```\n")
    notes.append("## Conformance check\n\n" + "\n".join(lines) + f"\n\n{summary(times)}\n\n"
                 f"Reproduce it in your bot's folder: `{check_command(sub.command, config)}`\n")
    if outcome.status in ("ok", "failed the check"):
        db = out / "games" / f"{sub.student}.db"
        db.parent.mkdir(parents=True, exist_ok=True)
        db.unlink(missing_ok=True)
        name = spec.name
        games, rows, left_out, crashed = await play_gauntlet(
            sub, name, workdir, config, config_path, db, workers, say)
        if left_out is not None:  # it passed the check but could not be played
            outcome.status = "crashed"
            notes.append(f"## Games against the baselines\n\nNot played: {left_out}\n")
        row = next((r for r in rows if r["name"] == name), None)
        if row is not None and crashed:
            outcome.status = "crashed"  # it passed the check, but could not play a game
        if row is not None:
            outcome.games = row["games"]
            outcome.win_share = row["win_share"]["mean"]
            outcome.placement = row["placement"]
            outcome.money = row["money"]
            outcome.faults = row["faults"]
            outcome.baselines = {r["name"]: r["placement"]["mean"] for r in rows
                                 if r["name"] != name}
            outcome.versus = compare(games, name, config.baselines,
                                     config.grading.confidence)
            notes.append(games_notes(outcome, config, db, name))
    return finish(outcome, config, notes, sub)


def check_command(command: str, config: TournamentConfig) -> str:
    """`referee check` as grading ran it: its time limits, sandbox and memory limit where they
    are not check's own defaults, so that a student sees what the grader saw."""
    limits = config.limits
    words = ["referee", "check"]
    for flag, value, default in (("--move-time", limits.move_time, DEFAULT_MOVE_TIME),
                                 ("--time-bank", limits.time_bank, DEFAULT_TIME_BANK),
                                 ("--startup-time", limits.startup_time, DEFAULT_STARTUP_TIME)):
        if value != default:
            words += [flag, f"{value:g}"]
    if config.sandbox != "none":
        words += ["--sandbox", config.sandbox]
    if limits.address_space != DEFAULT_ADDRESS_SPACE:
        words += ["--address-space", str(limits.address_space)]
    return shlex.join([*words, command])


def games_notes(outcome: Outcome, config: TournamentConfig, db: Path, name: str) -> str:
    p = outcome.placement
    assert p is not None and outcome.money is not None
    orders = {"all": "every seat order", "rotations": "each rotation of the seats",
              "balanced": "balanced seat orders"}[config.seat_orders]
    text = [f"## Games against the baselines\n\n{outcome.games} games: {orders} of "
            f"{config.deals} deal(s), the same cards for every student.\n",
            f"- mean placement points (1 = first, 0 = last): {p['mean']:.3f} "
            f"(95% interval {p['low']:.3f} to {p['high']:.3f})",
            f"- win share: {outcome.win_share:.1%}",
            f"- mean final money: {outcome.money['mean']:.1f}"]
    text += versus_notes(outcome, config.grading.confidence)
    store = open_store(db)
    faulty = []
    for result in store.results():
        for f in result.faults[result.names.index(name)]:
            faulty.append((result.game_id, result.names, f))
    store.close()
    if faulty:
        text.append(f"\n### Faults in games ({len(faulty)})\n")
        for game_id, seats, f in faulty[:10]:
            reason = f.reason.replace("\n", " / ")
            text.append(f"- game `{game_id}` (seats: {', '.join(seats)}): {f.kind}: {reason}")
        text.append("\nEach game can be replayed and re-checked with "
                    f"`referee replay --db {shlex.quote(str(db))} GAME_ID`.")
    return "\n".join(text) + "\n"


def percent(x: float) -> str:
    return f"{x:.1%}".replace(".0%", "%")


def versus_notes(outcome: Outcome, confidence: float) -> list[str]:
    """Each baseline compared with the student, in words."""
    shown = percent(2 * confidence - 1)
    text = [f"\n### Against each baseline\n\nYour placement points less the baseline's, deal "
            f"by deal, with its {shown} interval. You beat a baseline when the difference is "
            f"above zero with {percent(confidence)} confidence (a one-sided paired test over "
            f"deals: luck alone says so at most {percent(1 - confidence)} of the time), and are "
            "below it when it is below zero with that confidence; otherwise you are level with "
            "it.\n"]
    for b, v in outcome.versus.items():
        mean = outcome.baselines.get(b)
        its = "" if mean is None else f" (its mean placement points {mean:.3f})"
        span = "no interval from a single deal" if v.low is None or v.high is None else \
            f"{shown} interval {v.low:+.3f} to {v.high:+.3f}"
        words = {
            "beats": f"you beat {b} (one-sided p = {v.p_above:.2g})",
            "below": f"you are below {b} (one-sided p = {v.p_below:.2g})",
            "level": f"level with {b}, not separated either way (one-sided p = "
                     f"{v.p_above:.2g} above, {v.p_below:.2g} below)",
        }[v.verdict]
        text.append(f"- {b}{its}: difference {v.diff:+.3f} over {v.deals} deal(s) ({span}): "
                    f"{words}")
    return text


def grade_reason(outcome: Outcome) -> str:
    """Which rule gave the grade, in words, for the feedback's head."""
    if outcome.rule == "broken":
        return "the grade of a bot that does not work (`broken`)"
    if outcome.rule == "otherwise":
        return "it met no rule: the grade of a working bot that meets none (`otherwise`)"
    return f"by the rule: {outcome.rule}"


def finish(outcome: Outcome, config: TournamentConfig, notes: list[str],
           sub: Submission) -> Outcome:
    outcome.grade, outcome.rule = grade_for(outcome, config)
    head = [f"# {sub.student}\n", f"- status: **{outcome.status}**",
            f"- grade: **{outcome.grade}**, {grade_reason(outcome)}",
            f"- bot: `{sub.command or '(none found)'}`"
            + (f", built with `{sub.build}`" if sub.build else ""), ""]
    outcome.feedback = "\n".join(head) + "\n" + "\n".join(notes)
    return outcome


CSV_COLUMNS = ["student", "status", "grade", "games", "win_share", "placement",
               "placement_low", "placement_high", "money", "faults"]


def csv_columns(baselines: list[str]) -> list[str]:
    """CSV_COLUMNS, the rule, and for each baseline the verdict, difference and interval."""
    return [*CSV_COLUMNS, "rule",
            *(f"vs_{b}{part}" for b in baselines for part in ("", "_diff", "_low", "_high"))]


def csv_row(o: Outcome, baselines: list[str]) -> list[Any]:
    p = o.placement or {}

    def number(x: float | None) -> str:
        return "" if x is None else f"{x:.4f}"

    compared = []
    for b in baselines:
        v = o.versus.get(b)
        compared += ["", "", "", ""] if v is None else \
            [v.verdict, number(v.diff), number(v.low), number(v.high)]
    return [visible(o.student), o.status, o.grade, o.games, number(o.win_share),
            *("" if k not in p else f"{p[k]:.4f}" for k in ("mean", "low", "high")),
            "" if o.money is None else f"{o.money['mean']:.1f}",
            sum(v for k, v in o.faults.items()
                if k not in ("stderr_over_limit", "retirements")),
            o.rule, *compared]


class FolderError(ValueError):
    """SUBMISSIONS_DIR and --out overlap; the message says how."""


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


class State(BaseModel):
    """OUT/state.json: the grading config's fingerprint and each student's last outcome."""

    model_config = ConfigDict(extra="forbid")

    config: str
    outcomes: dict[str, Outcome]


def write_whole(path: Path, text: str) -> None:
    """Replace `path` with `text` or leave it as it was: written in place, a state cut short
    by a full disk was found damaged next time, and everyone was graded again."""
    part = path.with_name(path.name + ".part")
    try:
        part.write_text(text)
        os.replace(part, path)
    except OSError as exc:  # a failed write names no file: this one
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    finally:
        part.unlink(missing_ok=True)


def read_state(path: Path, config_key: str, say: Callable[[str], None]) -> dict[str, Outcome]:
    """The outcomes of earlier runs under this config.  The state is only a cache, so an
    unreadable one is moved aside (kept for a look, never deleted) and everyone graded again."""
    if not path.is_file():
        return {}
    try:
        state = State.model_validate_json(path.read_bytes())
    except (ValidationError, OSError) as exc:
        why = first_error(exc) if isinstance(exc, ValidationError) else exc.strerror or str(exc)
        kept, n = path.with_name(path.name + ".unreadable"), 1
        while kept.exists() or kept.is_symlink():
            n += 1
            kept = path.with_name(f"{path.name}.unreadable-{n}")
        path.rename(kept)
        say(f"warning: {path} is unreadable ({why}); "
            f"moved it to {kept.name}, grading every submission again")
        return {}
    return state.outcomes if state.config == config_key else {}


def grading_key(config: TournamentConfig, config_path: Path) -> str:
    """A digest of everything a grade depends on besides the submission: the whole config
    (limits, build and start-up times and sandbox too), the edition's contents, and the files
    the baselines' commands and builds name, so that a change to any of them grades everyone
    again."""
    h = hashlib.sha256()
    h.update(f"grades {GRADE_VERSION}\0".encode())
    h.update(fingerprint(config, tournament_edition(config, config_path)).encode())
    h.update(config.model_dump_json().encode())
    for bot in config.bots:
        if bot.name not in config.baselines:
            continue
        cwd = bot_dir(config_path, bot.dir)
        for word in [*shlex.split(bot.command), *shlex.split(bot.build or "")]:
            with suppress(OSError):
                if (cwd / word).is_file():
                    h.update(f"\0{bot.name}\0{word}\0".encode())
                    h.update(hashlib.sha256((cwd / word).read_bytes()).digest())
    return h.hexdigest()


async def grade_all(root: Path, config: TournamentConfig, config_path: Path, out: Path,
                    workers: int, say: Callable[[str], None]) -> list[Outcome]:
    """Grade every submission under `root` into `out`; reuse unchanged ones' results."""
    import csv

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
            state = {"config": config_key, "outcomes": {s: asdict(o) for s, o in known.items()}}
            write_whole(state_path, json.dumps(state, indent=1))
            with suppress(OSError):  # best effort: the next copy is made afresh anyway
                remove_copy(out / "work" / sub.student)
        # Made visible as it is written (the state keeps it raw): it quotes the bot's build
        # output, stderr and replies, and a teacher may well `cat` it.
        (out / "feedback" / f"{sub.student}.md").write_text(visible(outcome.feedback, indent=""))
        outcomes.append(outcome)
    with (out / "grades.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(csv_columns(config.baselines))
        for o in outcomes:
            writer.writerow(csv_row(o, config.baselines))
    return outcomes
