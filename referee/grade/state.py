"""OUT/state.json, which lets a second run skip the submissions it already graded: each
student's last outcome under a key of everything else a grade depends on, and the time its
grading took (a grade stands while the time budget, which is not in the key, would give it
again).  Under a second key, of everything but `[grading]` (what changes the games), it keeps
what grading each student found (`StoredFindings`): a change to the grading rules alone grades
again from the games stored, and plays none."""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from referee.files import write_whole
from referee.tournament.config import TournamentConfig, tournament_edition
from referee.tournament.entrants import bot_dir
from referee.tournament.schedule import fingerprint
from referee.validation import first_error

from .feedback import StoredFindings
from .result import StudentResult

# Part of the grading key and the games key: bump when the same games would be graded
# differently, so that a state.json of the old rules grades everyone again.  2: "beats" by the
# paired test.  3: points, "no bot found", and feedback by problem (with records beside it).
# 4: "too large", archives handed in, and the findings kept to regrade from stored games.
GRADE_VERSION = 4


@dataclass
class Spent:
    """The wall time grading one student took, and the time budget it ran out of, if so."""

    seconds: float
    ran_out_of: float | None = None

    def stands(self, budget: float) -> bool:
        """Whether the grade given in that time stands under `budget` (`[limits]
        submission_time`): one that ran out, only under the same budget (a larger one might
        let it finish; under a smaller one it would have finished fewer games, which its
        points count); one that finished, unless the budget is now shorter than it took."""
        return budget == self.ran_out_of if self.ran_out_of is not None \
            else self.seconds <= budget


class State(BaseModel):
    """OUT/state.json: the grading config's fingerprint and each student's last outcome and
    time spent."""

    model_config = ConfigDict(extra="forbid")

    config: str
    outcomes: dict[str, StudentResult]
    spent: dict[str, Spent] = {}  # none in a state written before time budgets
    # `games_key`, and each student's findings (`StoredFindings` as JSON, read one by one, so
    # that one of another version grades that student again and leaves the others' grades):
    # none in a state written before grading alone was graded again from the games stored
    games: str = ""
    findings: dict[str, dict[str, Any]] = {}


@dataclass
class Known:
    """What state.json says of earlier runs: each student's outcome and time spent, and
    whether they were given under the same grading rules (`same_rules`) or only on the same
    games (then `findings` can grade them again without a game: `regrade.regraded`)."""

    outcomes: dict[str, StudentResult]
    spent: dict[str, Spent]
    findings: dict[str, StoredFindings]
    same_rules: bool = True


FINDINGS = TypeAdapter(StoredFindings)


def stored_findings(data: dict[str, Any]) -> StoredFindings | None:
    """One student's findings as state.json has them; None if they cannot be read (written
    by another version): that student is graded again in full."""
    try:
        return FINDINGS.validate_python(data)
    except ValidationError:
        return None


def write_state(path: Path, keys: tuple[str, str], outcomes: Mapping[str, StudentResult],
                spent: Mapping[str, Spent],
                findings: Mapping[str, StoredFindings] | None = None) -> None:
    """The state of `outcomes` (and the time and `findings` of each) under `keys`, the
    `grading_key` and the `games_key`."""
    state = {"config": keys[0], "games": keys[1],
             "outcomes": {s: asdict(o) for s, o in outcomes.items()},
             "spent": {s: asdict(t) for s, t in spent.items()},
             "findings": {s: FINDINGS.dump_python(f, mode="json")
                          for s, f in (findings or {}).items() if s in outcomes}}
    # Whole: written in place, a state cut short by a full disk was found damaged next time,
    # and everyone was graded again.
    write_whole(path, json.dumps(state, indent=1))


def read_state(path: Path, keys: tuple[str, str], say: Callable[[str], None]) -> Known:
    """The outcomes of earlier runs under this config (`keys`: its `grading_key` and
    `games_key`), or on its games under other grading rules, and the time each took.  The
    state is only a cache, so an unreadable one is moved aside (kept for a look, never
    deleted) and everyone graded again."""
    if not path.is_file():
        return Known({}, {}, {})
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
        return Known({}, {}, {})
    if state.config != keys[0] and (not state.games or state.games != keys[1]):
        if state.outcomes:  # else a teacher who changed the move time saw the whole class
            # graded again, for as long as that takes, with no word of why
            say("note: the grading config changed since the last run in more than [grading] "
                "and submission_time (or the referee's grading did): every submission is "
                "graded again, games and all")
        return Known({}, {}, {})
    findings = {s: f for s, data in state.findings.items()
                if (f := stored_findings(data)) is not None}
    return Known(state.outcomes, state.spent, findings, state.config == keys[0])


def games_key(config: TournamentConfig, config_path: Path) -> str:
    """The `grading_key` of everything but `[grading]` (rules, grades, points, confidence):
    of what changes the games.  Two configs that agree on it play the same games."""
    return _key(config, config_path, games_only=True)


def grading_key(config: TournamentConfig, config_path: Path) -> str:
    """A digest of everything a grade depends on besides the submission: the whole config
    (limits, build and start-up times and sandbox too), the edition's contents, and the files
    the baselines' commands and builds name, so that a change to any of them grades everyone
    again (a change to `[grading]` alone, from the games stored: `games_key`).  Not the time
    budget (`Spent.stands` says whom it grades again), nor the size limits (in the digest of a
    submission over one), nor the similarity threshold, which changes no grade."""
    return _key(config, config_path)


def _key(config: TournamentConfig, config_path: Path, games_only: bool = False) -> str:
    """`grading_key`, or with `games_only` the `games_key`."""
    h = hashlib.sha256()
    # the version in both: a new one grades everyone again in full (a state's findings, of
    # the old version, may no longer be what the new one finds)
    h.update(f"{'games' if games_only else 'grades'} {GRADE_VERSION}\0".encode())
    h.update(fingerprint(config, tournament_edition(config, config_path)).encode())
    # The size limits neither: a submission over one has them in its digest (`too_large`),
    # so that raising one for a student grades that student again, not the class.
    left_out: dict[str, Any] = {"grading": {"similarity_threshold"},
                                "limits": {"submission_time", "submission_size",
                                           "submission_files"}}
    if games_only:
        left_out["grading"] = True
    h.update(config.model_dump_json(exclude=left_out).encode())
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
