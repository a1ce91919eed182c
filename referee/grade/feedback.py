"""The feedback a student reads, `feedback/STUDENT.md`: a summary first (status, grade and
the rule that gave it, points, what to fix first), then each distinct problem once with its
counts, what shows it and how to meet it again, then each step of grading as it went.

Whatever the bot wrote (stderr, replies, build output) is in fenced blocks or code spans
(`markdown.py`), so that it renders as it was and cannot end its block; and the whole text is
made visible (`referee.text`) as it is written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import TypeAdapter

from referee.check import MOVE_TIME_CHECK, CheckResult
from referee.match.bot_player import BAD_HELLO
from referee.tournament.config import TournamentConfig

from .markdown import code, fenced, plain_or_code
from .notes import HANDED_IN_BUILT, build_note, built_nothing, check_note, games_note, skipped_note
from .problems import TITLES, Problem, Problems
from .result import StudentResult, games_faults, missing, points_earned, rule_text
from .submissions import Submission

MOST = 12  # problems told at most; the rest are counted

STATUS_WORDS = {
    "ok": "it built, passed every check and played its games",
    "no bot found": "nothing in your folder was found to run as a bot, so nothing was built "
                    "or played",
    "too large": "your folder is over the grading's limit on the size or number of its files, "
                 "so it was not copied, built or played",
    "build failed": "it could not be built, or your files could not be used, or its command "
                    "cannot run here, so nothing was played",
    "failed the check": "it failed some checks; it still played its games, which show what "
                        "that cost",
    "crashed": "it crashed, could not start or said no valid hello in the check, or crashed "
               "in every game it played",
    "timed out": "it was too slow in the check (answers past the move time and its time "
                 "bank, or no hello within the start-up time), so it played no games",
    "out of grading time": "its grading ran past the time it gives each submission "
                           "(`submission_time`) before it finished, so only what it finished "
                           "is graded",
}
# "ok" when the check's move time failed, which alone does not fail the status
# (`result.status_from_check`): the words must not say it passed every check.
OK_BUT_MOVE_TIME = ("it built, passed every check but answering within the move time (which "
                    "alone does not fail a bot), and played its games")

FEEDBACK_TITLE = b"# Feedback: "  # how every feedback file begins (`run._ours`)


def status_words(status: str, check: list[CheckResult] | None, faults: str = "") -> str:
    """What `status` means, as the facts of its check (`check`'s results) have it, and a
    working bot's faults in its games (`games_faults`): "played its games" alone hid a bot
    that crashed in a sixth of them."""
    words = (OK_BUT_MOVE_TIME if status == "ok" and any(
        r.name == MOVE_TIME_CHECK and not r.passed for r in check or []) else STATUS_WORDS[status])
    if not faults:
        return words
    but = "" if words == OK_BUT_MOVE_TIME else " but"  # that one has its "but" already
    return f"{words},{but} with {faults}: see the problems below"


@dataclass
class Findings:
    """What grading one submission found, step by step, for its feedback."""

    problems: Problems = field(default_factory=Problems)
    skipped: list[str] = field(default_factory=list)  # files left out of its copy
    built: str = ""  # the output of a build that worked
    check: list[CheckResult] | None = None
    times: list[float] = field(default_factory=list)  # its reply times in the check
    played: bool = False  # it has figures from games (in the outcome)

    def stored(self, scrub: Callable[[str], str]) -> StoredFindings:
        """These findings, for state.json, each text taken through `scrub` (the teacher's
        folders out of it, as out of the feedback)."""
        data = _scrubbed(STORED.dump_python(StoredFindings(
            self.problems.ordered(), self.skipped, self.built, self.check, self.times,
            self.played), mode="json"), scrub)
        return STORED.validate_python(data)

    @classmethod
    def of(cls, stored: StoredFindings) -> Findings:
        return cls(Problems.of(stored.problems), stored.skipped, stored.built, stored.check,
                   stored.times, stored.played)


@dataclass
class StoredFindings:
    """`Findings` as state.json keeps them, so that a change to the grading rules alone gives
    the same feedback from them and the games stored, with no bot run (`regrade.regraded`)."""

    problems: list[Problem]
    skipped: list[str]
    built: str
    check: list[CheckResult] | None
    times: list[float]
    played: bool


STORED = TypeAdapter(StoredFindings)


def _scrubbed(data: Any, scrub: Callable[[str], str]) -> Any:
    """`data` (of JSON) with `scrub` applied to each of its strings."""
    if isinstance(data, str):
        return scrub(data)
    if isinstance(data, list):
        return [_scrubbed(x, scrub) for x in data]
    if isinstance(data, dict):
        return {k: _scrubbed(v, scrub) for k, v in data.items()}
    return data


def grade_reason(outcome: StudentResult) -> str:
    """Which rule gave the grade, in words, for the summary."""
    if outcome.rule == "broken":
        return "the grade of a bot that does not work (`broken`)"
    if outcome.rule == "otherwise":
        return "it met no rule: the grade of a working bot that meets none (`otherwise`)"
    return f"by the rule: {outcome.rule}"


def points_line(outcome: StudentResult, config: TournamentConfig) -> str:
    parts = points_earned(outcome, config.grading.points)
    # each part to 0.01, as the total is (`total_points`)
    said = "; ".join(f"{words} = {round(value, 2):g}" for words, value in parts)
    return f"- points: **{outcome.points:g}**" + (f" ({said})" if said else "")


def next_step(outcome: StudentResult, config: TournamentConfig) -> str:
    """With no problem to fix: what the rule above the one it met asks that it lacks."""
    rules = config.grading.rules
    if not rules:
        return "nothing is broken; the grading has no rules, so a working bot gets `otherwise`"
    met = next((i for i, r in enumerate(rules) if rule_text(r) == outcome.rule), len(rules))
    if met == 0:
        return "nothing: it met the first rule"
    lacks = missing(rules[met - 1], outcome)
    return (f"nothing is broken; to earn {rules[met - 1].grade} it must "
            + "; ".join(lacks) if lacks else "nothing is broken")


NO_GAMES = {
    "no bot found": "no bot was found in your folder",
    "too large": "your folder is over the grading's size limit",
    "build failed": "it could not be built, or its command cannot run here",
    "crashed": "it crashed in the check, and a bot that crashes there would crash in its games",
    "timed out": "it was too slow in the check",
}


def handed_in_archive(sub: Submission) -> bool:
    """Whether `sub` is an archive handed in for a folder (`submissions.archive_submission`):
    its feedback says so, not "nothing in your folder", for it has none."""
    return sub.command is None and sub.problem is not None and not sub.path.is_dir()


def archive_words(sub: Submission) -> str:
    return (f"you handed in {sub.path.name}, an archive, not a folder of files, and grading "
            "does not unpack archives")


def games_line(outcome: StudentResult, played: bool, problems: list[Problem],
               sub: Submission | None = None) -> list[str]:
    """When it played no game: a line that says so, and why (the grade rests on that)."""
    if played or outcome.games:
        return []
    kinds = {p.kind: p for p in problems}
    if sub is not None and handed_in_archive(sub):
        why = archive_words(sub)
    elif "play" in kinds:
        why = f"it could not be started for them ({code(kinds['play'].what)})"
    elif "budget" in kinds:
        why = "its grading ran out of its time budget before them"
    elif outcome.status == "crashed" and "start" in kinds and \
            kinds["start"].what.startswith(BAD_HELLO):  # it ran, but said no valid hello
        why = "it said no valid hello in the check, and a bot that cannot begin a game there " \
              "cannot play its games"
    else:
        why = NO_GAMES.get(outcome.status, "its grading stopped before them")
    return [f"- games: **no game was played** because {why}"]


FIRST_BELOW = "problem 1 below, "  # how "fix first" points to the first problem's section


def summary(outcome: StudentResult, sub: Submission, config: TournamentConfig,
            problems: list[Problem], played: bool = True,
            check: list[CheckResult] | None = None) -> list[str]:
    bot = "(none found)" if sub.command is None else code(sub.command)
    fix = (f"{FIRST_BELOW}{TITLES[problems[0].kind].lower()}: {code(problems[0].what)}"
           if problems else next_step(outcome, config))
    who = sub.student if sub.heading is None else sub.heading
    meaning = (f"{archive_words(sub)}, so nothing was built or played" if handed_in_archive(sub)
               else status_words(outcome.status, check, games_faults(outcome)))
    title = (f"{FEEDBACK_TITLE.decode()}{plain_or_code(who)}" if who
             else FEEDBACK_TITLE.decode().removesuffix(": "))
    return [title, "",
            f"- status: **{outcome.status}** ({meaning})",
            f"- grade: **{outcome.grade}**, {grade_reason(outcome)}",
            points_line(outcome, config),
            f"- bot: {bot}" + (f", built with {code(sub.build)}" if sub.build else ""),
            *games_line(outcome, played, problems, sub),
            f"- fix first: {fix}", ""]


def counts(p: Problem, outcome: StudentResult) -> str:
    said = []
    if p.checks:
        # The answers it spoiled, of those the checks asked for: "(919 answers)" alone did
        # not say which answers they were.
        whose = "its" if len(p.checks) == 1 else "their"
        answers = f" ({p.answers} of {whose} answers failed)" if p.answers else ""
        said.append(f"it failed {len(p.checks)} of {outcome.checks} checks{answers}: "
                    + ", ".join(p.checks))
    if p.games:
        said.append(f"it came up in {len(p.games)} of {outcome.games} games "
                    f"({p.times} time{'s' * (p.times != 1)})")
    return "; ".join(said)


def problem_section(number: int, p: Problem, outcome: StudentResult) -> str:
    reason = p.reason.strip()
    text = [f"### {number}. {TITLES[p.kind]}", "",
            fenced(reason) if "\n" in reason or len(reason) > 200 else code(reason), ""]
    if counted := counts(p, outcome):
        text += [counted[0].upper() + counted[1:] + ".", ""]
    for shown in [*p.shown, *p.reproduce]:
        text += [shown.caption, "", fenced(shown.text), ""]
    text += [*p.notes, ""] if p.notes else []
    return "\n".join(text)


def feedback(outcome: StudentResult, sub: Submission, config: TournamentConfig,
             found: Findings) -> str:
    """The whole feedback, in Markdown (not yet made visible).  A bot that did not start
    after a build that made nothing is told, at that problem, that a built file was handed
    in: its reason (`exit status 127`, a foreign binary's bytes) does not say so."""
    problems = found.problems.ordered()
    if found.built and built_nothing(found.built):
        problems = [replace(p, notes=[*p.notes, HANDED_IN_BUILT]) if p.kind == "start" else p
                    for p in problems]
    text = summary(outcome, sub, config, problems, found.played, found.check)
    if problems:
        text.append(f"## Problems ({len(problems)})\n")
        text += [problem_section(i, p, outcome) for i, p in enumerate(problems[:MOST], 1)]
        if len(problems) > MOST:
            text.append(f"And {len(problems) - MOST} more, told once these are fixed.\n")
    if found.built:
        text.append(build_note(sub.build or "", found.built))
    if found.check is not None:
        failed = {name: i for i, p in enumerate(problems, 1) for name in p.checks}
        text.append(check_note(found.check, found.times, failed))
    if found.played:
        text.append(games_note(outcome, config))
    if found.skipped:
        text.append(skipped_note(found.skipped))
    return "\n".join(text)
