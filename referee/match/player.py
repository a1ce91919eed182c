"""The one small interface between a game being played and a player.

A subprocess bot (`referee.match.bot_player.BotPlayer`) and an in-process policy
(`referee.match.policy_player.PolicyPlayer`) implement the same `Player` protocol, so tests and fast
simulations can swap one for the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import ConfigDict

from referee.game import Action, Decision, Event, GameConfig
from referee.protocol.messages import FaultKind

# Faults that do not count towards retirement: they break no rule of play.  `exit`: the bot's
# process ended between games, and a fresh one played this game.
HARMLESS_FAULTS: frozenset[FaultKind] = frozenset({FaultKind.STDERR, FaultKind.EXIT})
# Faults that retire a seat at once: its bot is not running.
FATAL_FAULTS: frozenset[FaultKind] = frozenset({FaultKind.CRASH, FaultKind.START})


@dataclass(frozen=True, slots=True)
class Fault:
    """What a bot did wrong, and why, in words for its author."""

    __pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # as records are read

    kind: FaultKind
    reason: str

    def __post_init__(self) -> None:
        # A kind given by its string ("timeout") is held as the enum member all the same.
        object.__setattr__(self, "kind", FaultKind(self.kind))

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "reason": self.reason}

    def one_line(self) -> str:
        """The reason in one line, for a summary: its first line, and the last line of the
        stderr tail it quotes, if any (where a traceback names its error)."""
        head, _, tail = self.reason.partition("\n")
        last = next((ln.strip() for ln in reversed(tail.splitlines()) if ln.strip()), "")
        return f"{head} {last}" if last else head


@dataclass
class Answer:
    """A player's reply to one decision: an action, or the fault that replaced it."""

    action: Action | None
    fault: Fault | None = None
    seconds: float = 0.0
    request_id: int = 0
    line: bytes | None = None  # a malformed reply's line, for the record to keep


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
    seed: int  # the seat's own seed (`GameSpec.seat_seed`), for its randomness


@dataclass(frozen=True)
class Standing:
    """How a game ended, as every player is told (the protocol's `game_end`): each seat's
    money and rank, and the seats that were retired."""

    money: tuple[int, ...]
    ranks: tuple[int, ...]
    retired: tuple[int, ...]


class Player(Protocol):
    name: str

    async def begin_game(self, info: GameInfo) -> Fault | None:
        """Get ready for a game; a fault here retires the seat for the whole game."""

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        """Events this seat may see, in order, and the same as encoded protocol lines
        (encoded once for all seats); a player may buffer them until its next request.
        `next_up`: this seat is the one asked next."""

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        """Answer one decision within the player's time.  `alone`: no other seat is waited on
        meanwhile (False in a hidden bid, asked of every seat at once); only then may the
        player keep the event loop to itself while it waits (a bot's process is polled for a
        quick reply)."""

    def warn(self, answer: Answer, fault: Fault, applied: Action) -> None:
        """Tell the player a reply was rejected and what was applied instead."""

    async def end_game(self, standing: Standing) -> list[Fault]:
        """The game is over; return faults noticed at the end (a crash, a stderr flood)."""

    async def retire(self) -> None:
        """The seat is retired for the rest of this game; stop asking it anything."""

    async def aclose(self) -> None:
        """No more games: release everything (stop a process)."""
