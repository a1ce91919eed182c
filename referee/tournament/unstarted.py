"""Entrants that cannot start: a bot that exits before its hello game after game (a missing file,
a crash at import) plays none of its games, and each of its tables is a game short of a player
for the others.  An adaptive run that sees one fail to start `IN_A_ROW` times running seats it
in no later round, and the store records why, as for a bot whose build failed; the next run
tries it again (a fix of what it needed, outside its folder, brings it back without a new
version), once before its first round (`start_probe.py`).  A fixed schedule's games are fixed:
they are played as they are.  A start that timed out is not counted: a loaded machine makes
those of a healthy bot."""

from __future__ import annotations

from collections.abc import Iterator

from referee.match.result import GameResult
from referee.protocol.messages import FaultKind

IN_A_ROW = 2  # failed starts in a row after which an adaptive run seats an entrant no more
TIMED_OUT = "no hello within"  # how a start fault that timed out begins
STDERR_TAIL = "; its stderr ends:"  # where a start fault's one line ends


class StartWatch:
    """Counts each entrant's failed starts in a row over a run's stored games, and its games
    and failed starts in all."""

    def __init__(self) -> None:
        self.failed: dict[str, int] = {}
        self.games: dict[str, int] = {}
        self.never: dict[str, str] = {}  # those that started in none yet: the last reason

    def never_started(self) -> list[tuple[str, str]]:
        """A note for each entrant that started in none of its games of the run (two or
        more), with its name: its seat was retired at each game's start, and the others
        played without it."""
        return [(name, f"note: {name} did not start in any of its {self.games[name]} games "
                       f"of this run (the last: {why}): each was played without it; once its "
                       "files change, its games are played again")
                for name, why in sorted(self.never.items()) if self.games[name] >= IN_A_ROW]

    def seen(self, result: GameResult) -> Iterator[tuple[str, str]]:
        """The entrants this game's result shows cannot start, each with why (once each)."""
        for seat in result.seats():
            start = next((f.reason for f in seat.faults if f.kind is FaultKind.START), None)
            count = self.count(seat.name, start)
            if count == IN_A_ROW:
                assert start is not None
                why = start.split(STDERR_TAIL, 1)[0]  # the one line
                yield seat.name, (f"it did not start in {count} games in a row (the last: "
                                  f"{why}); the later rounds of this run do not seat it, and "
                                  "the next run tries it again")

    def count(self, name: str, start: str | None) -> int:
        """Count a game of `name`, whose start failed for the reason `start` (None: it
        started): its failed starts in a row now (one that timed out is none)."""
        why = None if start is None or start.startswith(TIMED_OUT) else \
            start.split(STDERR_TAIL, 1)[0]  # the one line
        if why is not None and (name not in self.games or name in self.never):
            self.never[name] = why
        else:
            self.never.pop(name, None)
        self.games[name] = self.games.get(name, 0) + 1
        self.failed[name] = 0 if why is None else self.failed.get(name, 0) + 1
        return self.failed[name]
