"""In-process players: a policy function behind the `Player` interface."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from referee.game import Action, Decision, Event
from referee.game.random_policy import random_action
from referee.match.player import Answer, Fault, GameInfo, Standing

Policy = Callable[[Decision, dict[str, Any], random.Random], Action]


class PolicyPlayer:
    """An in-process player driven by a function of the decision and the seat's view."""

    def __init__(self, name: str, policy: Policy, seed: int = 0) -> None:
        self.name = name
        self.policy = policy
        self.seed = seed
        self.rng = random.Random(seed)

    async def begin_game(self, info: GameInfo) -> Fault | None:
        # From the seat's seed (as a bot's, `new_game`'s `seed`), not from the game id: in
        # a gauntlet a baseline then plays the same way whoever the candidate is.
        self.rng = random.Random(f"{self.seed}:{info.seed}")
        return None

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        pass

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        return Answer(self.policy(decision, view, self.rng))

    def warn(self, answer: Answer, fault: Fault, applied: Action) -> None:
        pass

    async def end_game(self, standing: Standing) -> list[Fault]:
        return []

    async def retire(self) -> None:
        pass

    async def aclose(self) -> None:
        pass


def _random_policy(decision: Decision, view: dict[str, Any], rng: random.Random) -> Action:
    return random_action(decision, rng)


def _default_policy(decision: Decision, view: dict[str, Any], rng: random.Random) -> Action:
    return decision.default_action()


def random_player(name: str = "random", seed: int = 0) -> PolicyPlayer:
    return PolicyPlayer(name, _random_policy, seed)


def default_player(name: str = "passive") -> PolicyPlayer:
    """Always the default action: the cheapest deterministic player, for benchmarks."""
    return PolicyPlayer(name, _default_policy)
