"""What went wrong with one submission, each distinct problem once, with how often it came
up: a crash repeated in 12 games, or in 8 checks, is one problem with those counts.

Two faults are one problem when they are of one kind and their reasons agree but for numbers
(`fault_key`): "bid 101 is more than seat 0's money 100" and "bid 245 is more than seat 0's
money 244" are one; a ZeroDivisionError and a KeyError are two crashes, and one crash is one
problem wherever it happened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from referee.bots.caught import ErrorLines
from referee.check import CheckResult
from referee.protocol.messages import FaultKind

# The order in which problems are told, and to be fixed: what stops everything first.
ORDER = ("submission", "build", "play", "start", "crash", "timeout", "budget", "malformed",
         "wrong_id", "illegal", "caught", "stderr", "exit", "slow", "check")
TITLES = {
    "submission": "No bot could be taken from what you handed in",
    "build": "The build failed",
    "play": "It could not play its games",
    "start": "It does not start, or says no valid hello",
    "crash": "It crashes",
    "timeout": "It answers too late",
    "budget": "Its grading ran out of time",
    "malformed": "It sends replies the referee cannot read",
    "wrong_id": "It answers with the wrong request id",
    "illegal": "It makes illegal moves",
    "caught": "It logs errors it lived through",
    "stderr": "It writes too much to stderr",
    "exit": "Its process ends between games",
    "slow": "It answers slower than the move time",
    "check": "Checks it did not pass, with no faulty answer of their own",
}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_ERROR = re.compile(r"error|exception|panic|abort|terminat|fault|killed|signal", re.I)
_FIRST = re.compile(r"first: (?:(" + "|".join(k.value for k in FaultKind) + r"): )?(.*)", re.S)
_ANSWERS = re.compile(r"(\d+) of \d+ answers failed|(\d+) answers timed out")


@dataclass
class Shown:
    """Something quoted as it is (an exchange, a record, a command) and the sentence that says
    what it is; `text` goes in a fenced block."""

    caption: str  # Markdown of the referee's own
    text: str


@dataclass
class Problem:
    kind: str  # one of ORDER
    reason: str  # what went wrong, as the referee said it the first time (may hold bot text)
    checks: list[str] = field(default_factory=list)  # the checks it failed
    answers: int = 0  # answers of the check it spoiled
    games: set[str] = field(default_factory=set)  # the games it came up in
    times: int = 0  # how often, in those games
    shown: list[Shown] = field(default_factory=list)
    reproduce: list[Shown] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # sentences (Markdown)

    @property
    def what(self) -> str:
        """The reason in one line (`one_line`)."""
        return one_line(self.reason)


def one_line(reason: str) -> str:
    """A reason in one line: its first, and where that ends by announcing what follows
    ("its stderr ends:"), the last line that follows too (the error itself), so that the
    line does not end on the announcement with what it announces cut off."""
    lines = [ln.strip() for ln in reason.strip().splitlines() if ln.strip()] or [""]
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} ... {lines[-1]}"
    return lines[0]


def fault_key(kind: str, reason: str) -> tuple[str, str]:
    """What tells one problem from another: the kind, and the reason's numbers left out: of a
    reason of one line, its first 48 characters; of one that quotes the bot's stderr after
    its first line (which says where it happened), the last line of the quote that names an
    error (Python's exception last, Java's first, Rust's panic), else its last line."""
    lines = [_NUMBER.sub("#", line.strip()) for line in reason.strip().splitlines()
             if line.strip()]
    if len(lines) > 1:
        named = [line for line in lines[1:] if _ERROR.search(line)]
        return kind, (named or lines)[-1]
    return kind, (lines or [""])[0][:48]


class Problems:
    """The distinct problems of one submission, in the order to tell them."""

    def __init__(self) -> None:
        self.by_key: dict[tuple[str, str], Problem] = {}

    def add(self, kind: str, reason: str) -> Problem:
        """The problem this fault is one of: a new one, or the one already found."""
        key = fault_key(kind, reason)
        if key not in self.by_key:
            self.by_key[key] = Problem(kind, reason)
        return self.by_key[key]

    @classmethod
    def of(cls, problems: list[Problem]) -> Problems:
        """The problems told before (`ordered`), as they were: their keys are their places,
        since a reason may have changed since it was added (`add_check`)."""
        made = cls()
        made.by_key = {(p.kind, str(i)): p for i, p in enumerate(problems)}
        return made

    def keep(self, problem: Problem) -> None:
        """Add a problem made whole elsewhere (a build's, with its command)."""
        self.by_key[fault_key(problem.kind, problem.reason)] = problem

    def ordered(self) -> list[Problem]:
        return sorted(self.by_key.values(), key=lambda p: (
            ORDER.index(p.kind), -len(p.games), -len(p.checks)))

    def __len__(self) -> int:
        return len(self.by_key)


def check_fault(result: CheckResult) -> tuple[str, str] | None:
    """The kind and reason of the first faulty answer behind a failed check, or None when it
    failed with no faulty answer (a situation that never came up, a restart)."""
    found = _FIRST.search(result.reason)
    kinds = sorted(k.value for k in result.kinds)
    if found is not None and (found.group(1) or len(kinds) == 1):
        return found.group(1) or kinds[0], found.group(2)
    if len(kinds) == 1:
        return kinds[0], result.reason
    return None


def add_caught(problems: Problems, errors: ErrorLines, command: str) -> None:
    """Errors the bot lived through in the check (its kit caught an exception and answered
    the default, so no check failed), as a problem: a bug that plays on unseen."""
    if not errors.count:
        return
    p = problems.add("caught", errors.first)
    p.notes.append(f"{errors.count} line{'s' if errors.count > 1 else ''} of its stderr in the "
                   "check look like errors it lived through, the first quoted above: an answer "
                   "after an error may be its kit's default, not its strategy's, so no check "
                   "failed, but it plays worse than it means to. `--stderr FILE` keeps its "
                   "stderr, with the whole error.")
    p.reproduce.append(Shown("Run the check, in your bot's folder, keeping its stderr:",
                             f"{command} --stderr stderr.log"))


def add_check(problems: Problems, results: list[CheckResult], command: str) -> None:
    """The failed checks as problems: those failed by the same fault are one, shown by the
    first exchange of it; those failed with no faulty answer are one more."""
    without: list[CheckResult] = []
    for r in results:
        if r.passed:
            continue
        fault = check_fault(r)
        if fault is None:
            if not r.not_run:  # one never asked, for no fault of its own: its SKIP says why
                without.append(r)
            continue
        p = problems.add(*fault)
        p.checks.append(r.name)
        counted = _ANSWERS.search(r.reason)
        p.answers += int(next(g for g in counted.groups() if g)) if counted else 1
        if r.lines and not p.shown:
            p.reason = fault[1]  # the one whose exchange is shown
            caption = r.lines[0].rstrip(":")
            p.shown.append(Shown(f"The exchange, in the check ({caption}):",
                                 "\n".join(r.lines[1:])))
        if not p.reproduce:
            p.reproduce.append(Shown("Run the check again, in your bot's folder:", command))
    if without:
        # Named with the first one's reason: "fix first" quotes it, and a count alone
        # ("1 check(s) failed") told a student nothing to fix.
        first = f"{without[0].name}: {without[0].reason}"
        p = problems.add("check", first if len(without) == 1 else (
            f"{len(without)} checks failed with no faulty answer of their own; the first, "
            + first))
        p.checks = [r.name for r in without]
        if len(without) > 1:  # one is told whole by its reason
            p.shown.append(Shown("Which, and why (they may pass once the problems above are "
                                 "fixed):", "\n".join(f"{r.name}: {r.reason}" for r in without)))
        elif len(problems) > 1:
            p.notes.append("It may pass once the problems above are fixed.")
        p.reproduce.append(Shown("Run the check again, in your bot's folder:", command))
