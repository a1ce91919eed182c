"""Helpers for the match tests, and for the tournament tests that play in-process games."""

from __future__ import annotations

import dataclasses
from typing import Any

from referee.game import Decision
from referee.match.player import Answer
from referee.match.policy_player import PolicyPlayer
from referee.match.record import AnswerLine, ApplyLine, GameRecord


def without_seconds(record: GameRecord) -> GameRecord:
    """The record with its timing fields zeroed, the only part that may vary between runs."""
    lines = tuple(dataclasses.replace(line, seconds=0.0)
                  if isinstance(line, ApplyLine | AnswerLine) else line for line in record.lines)
    return GameRecord(record.spec, lines, record.result, record.deal)


class PollingWatcher(PolicyPlayer):
    """A default player that notes, at each decision, whether it could poll for its answer."""

    def __init__(self, name: str) -> None:
        super().__init__(name, lambda decision, view, rng: decision.default_action())
        self.seen: dict[str, set[bool]] = {}

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        self.seen.setdefault(decision.kind.value, set()).add(alone)
        return await super().decide(decision, view, alone)
