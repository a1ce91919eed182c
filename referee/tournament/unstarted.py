"""Entrants that cannot start: a bot that fails before its hello in game after game (a missing
file, a crash at import) plays none of them, and each of its tables is a game short of a
player for the others.  A run that sees one fail to start `IN_A_ROW` times running leaves it
out for the rest of the run, as a bot whose build failed is: its later games are not played,
the store records why, and the next run tries it again (a fix of what it needed, outside its
folder, brings it back without a new version)."""

from __future__ import annotations

from collections.abc import Iterator

from referee.match.record import GameResult
from referee.protocol.messages import FaultKind

IN_A_ROW = 2  # failed starts in a row that leave an entrant out of the rest of a run


class StartWatch:
    """Counts each entrant's failed starts in a row over a run's stored games."""

    def __init__(self) -> None:
        self.failed: dict[str, int] = {}
        self.enabled = True  # else it leaves no one out

    def seen(self, result: GameResult) -> Iterator[tuple[str, str]]:
        """The entrants this game's result leaves out, each with why (once each)."""
        if not self.enabled:
            return
        for seat in result.seats():
            start = next((f for f in seat.faults if f.kind is FaultKind.START), None)
            if start is None:
                self.failed[seat.name] = 0
                continue
            count = self.failed.get(seat.name, 0) + 1
            self.failed[seat.name] = count
            if count == IN_A_ROW:
                yield seat.name, (f"it did not start in {count} games in a row (the last: "
                                  f"{start.reason}); the rest of its games in this run are "
                                  "not played, and the next run tries it again")
