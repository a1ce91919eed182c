"""The one small interface between the match runner and a player.

A subprocess bot (`referee.bots.player.BotPlayer`) and an in-process policy
(`referee.match.policy_player.PolicyPlayer`) implement the same `Player` protocol, so tests and fast
simulations can swap one for the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from referee.game import Action, Decision, Event, GameConfig

FaultKind = Literal[
    "start", "timeout", "malformed", "wrong_id", "illegal", "crash", "stderr", "exit"]

# Faults that do not count towards retirement: they break no rule of play.  `exit`: the bot's
# process ended between games, and a fresh one played this game.
HARMLESS_FAULTS: frozenset[str] = frozenset({"stderr", "exit"})


# Whether a player may keep the event loop to itself while it waits for its answer (a bot
# process polls its pipe for a quick reply, see `BotProcess._spin_read`).  The runner clears
# it in the tasks that wait on several players at once (a hidden bid), and a tournament in
# the tasks of parallel tables: there, polling for one would delay the others.
polling_allowed: ContextVar[bool] = ContextVar("polling_allowed", default=True)


@dataclass(frozen=True)
class Fault:
    kind: FaultKind
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "reason": self.reason}


@dataclass
class Answer:
    """A player's reply to one decision: an action, or the fault that replaced it."""

    action: Action | None
    fault: Fault | None = None
    seconds: float = 0.0
    request_id: int = 0


@dataclass(frozen=True)
class GameInfo:
    """What a player is told when a game starts."""

    game_id: str
    seat: int
    names: list[str]
    config: GameConfig
    move_time: float
    time_bank: float
    edition_info: dict[str, Any] = field(repr=False)


class Player(Protocol):
    name: str

    async def begin_game(self, info: GameInfo) -> Fault | None:
        """Get ready for a game; a fault here retires the seat for the whole game."""

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        """Events this seat may see, in order, and the same as encoded protocol lines
        (encoded once for all seats); a player may buffer them until its next request.
        `next_up`: this seat is the one asked next."""

    async def decide(self, decision: Decision, view: dict[str, Any]) -> Answer:
        """Answer one decision within the player's time."""

    def warn(self, answer: Answer, fault: Fault, applied: Action) -> None:
        """Tell the player a reply was rejected and what was applied instead."""

    async def end_game(self, result: dict[str, Any]) -> list[Fault]:
        """The game is over; return faults noticed at the end (a crash, a stderr flood)."""

    async def retire(self) -> None:
        """The seat is retired for the rest of this game; stop asking it anything."""

    async def aclose(self) -> None:
        """No more games: release everything (stop a process)."""
