"""The sections of a student's feedback that tell each step of grading as it went (build,
check, games), below the summary and the problems (`feedback.py`)."""

from __future__ import annotations

import os
import shutil

from referee.check import CHECK_COUNT, CheckResult, summary
from referee.text import counted
from referee.tournament.config import TournamentConfig

from .markdown import code, fenced
from .problems import Problem, Shown, one_line
from .result import StudentResult, fault_count
from .submissions import Submission


def copy_failed_problem(exc: shutil.Error, sub: Submission) -> Problem:
    """Which files could not be copied (the error holds one entry per file)."""
    lines = [f"cannot copy {os.path.relpath(src, sub.path)}: {why}"
             for src, _dst, why in exc.args[0]]
    return Problem("submission", "your files could not be copied into the folder your bot "
                   "runs in:\n" + "\n".join(lines[:10]))


def skipped_note(skipped: list[str]) -> str:
    return ("## Files left out\n\nThese could not be copied into the folder your bot "
            "runs in, so it ran without them:\n\n"
            + "\n".join(f"- {line}" for line in skipped) + "\n")


def build_problem(build: str, output: str) -> Problem:
    p = Problem("build", output or "(no output)")
    p.reproduce.append(Shown("Build it in your bot's folder:", build))
    return p


# What make says when every file it would build is there and newer than its sources: a
# student who handed in a built `bot` (from their own machine, another system) beside the
# sources has it run as it came, and the build's "It built." hid why it then failed to start.
NOTHING_BUILT = ("is up to date", "Nothing to be done")

HANDED_IN_BUILT = ("Your build made nothing (its output, below, says so): the file it makes "
                   "was handed in already built, so that file ran as it came, not one built "
                   "here from your sources. Hand in your sources without it (`make clean` "
                   "first, or delete the built file).")


def built_nothing(output: str) -> bool:
    """Whether a build that worked says it had nothing to do (make's own words)."""
    return any(words in output for words in NOTHING_BUILT)


def build_note(build: str, output: str) -> str:
    # Only "is up to date" names a file that was there; "Nothing to be done" may be a
    # Makefile with nothing to do, which the problem's note (`HANDED_IN_BUILT`) tells apart
    # by the bot's failure to start.
    said = ("It built nothing, the file it makes having been handed in already built: that "
            "file is what ran." if NOTHING_BUILT[0] in output else "It built.")
    return f"## Build: {code(build)}\n\n{said} Its output:\n\n{fenced(output or '(none)')}\n"


def check_note(results: list[CheckResult], times: list[float], failed: dict[str, int]) -> str:
    """Each check passed or failed (with the number of the problem that failed it), in a
    block: their reasons quote the bot (its hello name), each in one line. A reason whose
    first line announces a quote ("its stderr ends:") points to its problem, above, where
    the quote is told once, or else keeps the quote's last line (`one_line`), rather than
    end on the announcement."""
    lines = []
    for r in results:
        first = (r.reason.strip().splitlines() or [""])[0].rstrip()
        quotes = first.endswith(":") and one_line(r.reason) != first
        number = failed.get(r.name) if not r.passed else None
        if number is not None:
            reason = (f"{first} see problem {number} above" if quotes
                      else f"{first}  (problem {number})")
        else:
            reason = one_line(r.reason)
        lines.append(f"{r.mark}  {r.name}: {reason}")
    passed = sum(r.passed for r in results)
    unrun = CHECK_COUNT - len(results)  # the check stops at a bot that cannot start
    return (f"## Conformance check\n\n{passed} of {CHECK_COUNT} checks passed"
            + (f" ({unrun} could not run)" if unrun > 0 else "")
            + f"; {summary(times)}.\n\n{fenced(chr(10).join(lines))}\n")


def games_note(outcome: StudentResult, config: TournamentConfig) -> str:
    """The student's figures over its games and each baseline compared."""
    p = outcome.placement
    assert p is not None and outcome.money is not None
    orders = {"all": "every seat order", "rotations": "each rotation of the seats",
              "balanced": "balanced seat orders"}[config.seat_orders]
    faults = fault_count(outcome)
    text = [f"## Games against the baselines\n\n{outcome.games} games: {orders} of "
            f"{counted(config.deals, 'deal')}, the same cards for every student.\n",
            f"- mean placement points (1 = first, 0 = last): {p['mean']:.3f} "
            f"(95% interval {p['low']:.3f} to {p['high']:.3f})",
            f"- win share: {outcome.win_share:.1%}",
            f"- mean final money: {outcome.money['mean']:.1f}",
            f"- faults: {faults}" + (" (each kind is a problem above)" if faults else "")]
    text += versus_notes(outcome, config.grading.confidence)
    return "\n".join(text) + "\n"


def percent(x: float) -> str:
    return f"{x:.1%}".replace(".0%", "%")


def versus_notes(outcome: StudentResult, confidence: float) -> list[str]:
    """Each baseline compared with the student, in words."""
    shown = percent(2 * confidence - 1)
    text = [f"\n### Against each baseline\n\nYour placement points less the baseline's, deal "
            f"by deal, with its {shown} interval (from the same test as the verdict, so it "
            "holds 0 exactly when you are level). You beat a baseline when the difference is "
            f"above zero with {percent(confidence)} confidence (a one-sided paired test over "
            f"deals: luck alone says so at most {percent(1 - confidence)} of the time), and are "
            "below it when it is below zero with that confidence; otherwise you are level with "
            "it.\n"]
    for b, v in outcome.versus.items():
        mean = outcome.baselines.get(b)
        its = "" if mean is None else f" (its mean placement points {mean:.3f})"
        span = "too few deals to bound it at this confidence" if v.low is None or \
            v.high is None else \
            f"{shown} interval {v.low:+.3f} to {v.high:+.3f}"
        words = {
            "beats": f"you beat {b} (one-sided p = {v.p_above:.2g})",
            "below": f"you are below {b} (one-sided p = {v.p_below:.2g})",
            "level": f"level with {b}, not separated either way (one-sided p = "
                     f"{v.p_above:.2g} above, {v.p_below:.2g} below)",
        }[v.verdict]
        text.append(f"- {b}{its}: difference {v.diff:+.3f} over {counted(v.deals, 'deal')} "
                    f"({span}): {words}")
    return text
