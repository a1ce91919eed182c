"""Problems from a student's games: how many games each came up in, and for the first game of
each, its record copied next to the feedback (the student's to replay) with the lines around
the fault shown, and the `referee play` command that deals that game again."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

import orjson

from referee.match.record import AnswerLine, ApplyLine
from referee.match.result import StoredResult
from referee.tournament.config import TournamentConfig
from referee.tournament.store import Store

from .markdown import code
from .problems import Problem, Problems, Shown, fault_key
from .reproduce import REFEREE, Scrub, play_command

RECORDS = 5  # game records copied next to one feedback file at most (one per problem)
AROUND = 8  # record lines shown before a fault
WIDE = 300  # characters of a record line shown


@dataclass(frozen=True)
class StudentGames:
    """Where a student's games are and how the feedback names what it copies of them."""

    config: TournamentConfig
    config_path: Path
    name: str  # the student's bot in its games
    command: str  # its command, as the student wrote it (or the convention found it)
    db: Path  # the gauntlet's store
    records: Path  # OUT/feedback/STUDENT: where its records are copied
    shown_as: str  # that folder, as the feedback names it (next to the feedback file)
    scrub: Scrub
    given: bool = True  # the student gets the records (not on a platform): name and replay them


def add_games(problems: Problems, games: StudentGames) -> None:
    """Add each fault of the student in its games to `problems`, and show the first game of
    each problem (the first RECORDS problems in order).  Read without the writer's lock, as
    `gauntlet.games_in` reads: a bot process forked for another student's games, not yet
    exec'd, can still hold the lock of the run that just closed the store."""
    store = Store.for_reading(games.db)
    try:
        seeds = store.seeds()
        first: dict[int, tuple[Problem, StoredResult]] = {}
        for result in sorted(store.results(), key=lambda r: r.game_id):
            seat = result.names.index(games.name)
            for f in result.faults[seat]:
                p = problems.add(f.kind.value, f.reason)
                p.games.add(result.game_id)
                p.times += 1
                first.setdefault(id(p), (p, result))
        add_overruns(problems, store, games)
        shown = [first[id(p)] for p in problems.ordered() if id(p) in first][:RECORDS]
        if shown and games.given:
            games.records.mkdir(parents=True, exist_ok=True)
        for p, result in shown:
            record = store.record(result.game_id)
            if record is not None:
                show_game(p, result, seeds[result.game_id], record.spec.order,
                          record.to_jsonl(), games)
    finally:
        store.close()


def add_overruns(problems: Problems, store: Store, games: StudentGames) -> None:
    """The student's answers that took longer than the move time, as one problem: the time
    bank paid for them, so no fault says so, but a bank run dry is a timeout, and in a
    tournament with a smaller bank it would have been one."""
    move_time = games.config.limits.move_time
    answers = slow = 0
    longest = 0.0
    where: set[str] = set()
    for game_id in sorted(store.done()):
        record = store.record(game_id)
        if record is None or games.name not in record.spec.names:
            continue
        seat = record.spec.names.index(games.name)
        for line in record.lines:
            if isinstance(line, ApplyLine | AnswerLine) and line.seat == seat \
                    and line.source == "bot":
                answers += 1
                if line.seconds > move_time:
                    slow += 1
                    longest = max(longest, line.seconds)
                    where.add(game_id)
    if slow:
        p = problems.add("slow", f"{slow} of its {answers} answers took longer than the move "
                                 f"time of {move_time:g} s (the longest {longest:.2f} s); the "
                                 "time bank paid for each, and a bank run dry is a timeout")
        p.games |= where
        p.times += slow


def show_game(p: Problem, result: StoredResult, seed: int, order: int, record: bytes,
              games: StudentGames) -> None:
    """Copy the game's record next to the feedback, show the lines that lead to the
    problem's first fault in it, and say how to replay it and play it again."""
    seat = result.names.index(games.name)
    name = f"game-{result.game_id}.jsonl"
    if games.given:
        (games.records / name).write_bytes(games.scrub.json(record))
    shown_as = f"{games.shown_as}/{name}"
    lines = record.decode("utf-8", "replace").splitlines()
    key = fault_key(p.kind, p.reason) if p.kind != "check" else None
    at = next((i for i, line in enumerate(lines) if line.startswith('{"type":"fault"')
               and is_fault(line, seat, key)), None)
    if at is not None:
        start = max(1, at - AROUND)
        # scrubbed before they are cut: a folder cut in half is not found
        clean = games.scrub.json(record).decode("utf-8", "replace").splitlines()
        excerpt = [line if len(line) <= WIDE else line[:WIDE] + " ..."
                   for line in clean[start:at + 2]]
        record_named = f" {code(shown_as)}" if games.given else ""
        p.shown.append(Shown(
            f"The first game it came up in, lines {start + 1} to {start + len(excerpt)} of "
            f"its record{record_named} (your bot is seat {seat}; its fault is line "
            f"{at + 1}):", games.scrub.text("\n".join(excerpt))))
    if games.given:
        p.reproduce.append(Shown("Replay that game's record (every move and fault), in the "
                                 "folder of this file:", f"referee replay {shlex.quote(shown_as)}"))
    command, notes = play_command(games.config, games.config_path, list(result.names),
                                  games.name, games.command, seed, order)
    p.reproduce.append(Shown(
        f"Play that game again, in your bot's folder, where `{REFEREE}` is your copy of the "
        "referee (the folder with `sample_bots/`): the same cards, seats and seeds for the "
        "bots' randomness, so the sample bots play as they did as long as yours does:",
        command))
    p.notes += [f"In that command, {note}." for note in notes]


def is_fault(line: str, seat: int, key: tuple[str, str] | None) -> bool:
    fault = orjson.loads(line)
    return bool(fault.get("seat") == seat and (
        key is None or fault_key(str(fault.get("kind")), str(fault.get("reason"))) == key))
