"""The sample baseline bot's own code as an in-process `Player`, for the tests whose claim is
about what its games add up to (a leaderboard's statistics), not about its process: it is sent
the protocol's own lines, as encoded for a process (`SeatProtocol`), and its replies are read
back as a process's would be, so that its games are the process's, move for move, without
a process's start-up and pipes (most of a game's CPU)."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from referee.game import Action, Decision, Event
from referee.match.player import Answer, Fault, GameInfo, Standing
from referee.protocol.seat import Replied, SeatProtocol

BASELINE = Path(__file__).resolve().parents[1] / "sample_bots" / "python" / "baseline_bot.py"


@cache
def sample(path: Path = BASELINE) -> ModuleType:
    """A sample bot's file as a module (its `main` not run)."""
    spec = importlib.util.spec_from_file_location(f"sample_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BaselineInProcess:
    """The baseline bot's `Game`, fed each line a process would read, in order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seat = SeatProtocol()
        self.game: Any = None

    async def begin_game(self, info: GameInfo) -> Fault | None:
        self.seat.begin_game(info.game_id, info.seat, info.names, info.edition_info,
                             list(info.config.variants), info.move_time, info.time_bank,
                             info.seed)
        return None

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        self.seat.send(lines)

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        reply: dict[str, Any] = {}
        for line in self.seat.request(decision, view).splitlines():
            reply = self.take(json.loads(line)) or reply
        received = self.seat.receive(json.dumps(reply).encode(), 0.0)
        assert type(received) is Replied, received
        action, seconds, request_id = received
        return Answer(action, None, seconds, request_id)

    def take(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """One line the bot reads, as its main loop takes it: its reply to a request."""
        if message["type"] == "new_game":
            self.game = sample().Game(message)
        elif message["type"] == "event":
            self.game.seen_event(message["event"])
        elif message["type"] == "request":
            reply: dict[str, Any] = self.game.decide(message["decision"], message["view"],
                                                     message["legal"])
            return {**reply, "id": message["id"]}
        return None

    def warn(self, answer: Answer, fault: Fault, applied: Action) -> None:
        pass

    async def end_game(self, standing: Standing) -> list[Fault]:
        return []

    async def retire(self) -> None:
        pass

    async def aclose(self) -> None:
        pass
