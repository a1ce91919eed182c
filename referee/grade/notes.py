"""The feedback a student reads: one Markdown section per step of grading, under a head that
names the status, the grade and the rule that gave it."""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from referee.bots.limits import (
    DEFAULT_ADDRESS_SPACE,
    DEFAULT_MOVE_TIME,
    DEFAULT_STARTUP_TIME,
    DEFAULT_TIME_BANK,
)
from referee.check import CheckResult, summary
from referee.tournament.config import TournamentConfig
from referee.tournament.store import open_store

from .outcome import Outcome
from .submissions import Submission


def problem_note(problem: str) -> str:
    return f"## Your submission\n\n{problem}\n"


def copy_failed_note(exc: shutil.Error, sub: Submission) -> str:
    """Which files could not be copied (the error holds one entry per file)."""
    lines = [f"- cannot copy {os.path.relpath(src, sub.path)}: {why}"
             for src, _dst, why in exc.args[0]]
    return ("## Copying your files\n\nYour files could not be copied into the folder "
            "your bot runs in:\n\n" + "\n".join(lines[:10]) + "\n")


def skipped_note(skipped: list[str]) -> str:
    return ("## Files left out\n\nThese could not be copied into the folder your bot "
            "runs in, so it ran without them:\n\n"
            + "\n".join(f"- {line}" for line in skipped) + "\n")


def build_note(build: str, ok: bool, output: str) -> str:
    return (f"## Build: `{build}`\n\n{'It built.' if ok else 'It failed:'}\n\n"
            f"```\n{output or '(no output)'}\n```\n")


def check_note(results: list[CheckResult], times: list[float], command: str,
               config: TournamentConfig) -> str:
    """Each check passed or failed, the exchange of each that failed, and how to rerun it."""
    lines = [f"- {'PASS' if r.passed else 'FAIL'} {r.name}: {r.reason}" for r in results]
    for r in results:
        if not r.passed and r.lines:
            lines.append(f"\n  Exchange that failed ({r.name}):\n\n  ```\n" +
                         "\n".join(f"  {x}" for x in r.lines) + "\n  ```\n")
    return ("## Conformance check\n\n" + "\n".join(lines) + f"\n\n{summary(times)}\n\n"
            f"Reproduce it in your bot's folder: `{check_command(command, config)}`\n")


def not_played_note(why: str) -> str:
    return f"## Games against the baselines\n\nNot played: {why}\n"


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
    """The student's figures over its games, each baseline compared, and its faults in games
    (read from the gauntlet's store `db`, each with the command that replays it)."""
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


def feedback(outcome: Outcome, sub: Submission, notes: list[str]) -> str:
    """The whole feedback: the head (status, grade, bot) and then the notes of each step."""
    head = [f"# {sub.student}\n", f"- status: **{outcome.status}**",
            f"- grade: **{outcome.grade}**, {grade_reason(outcome)}",
            f"- bot: `{sub.command or '(none found)'}`"
            + (f", built with `{sub.build}`" if sub.build else ""), ""]
    return "\n".join(head) + "\n" + "\n".join(notes)
