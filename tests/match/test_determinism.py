"""Same seed and same deterministic players: the same game record, byte for byte, once the
timing fields are removed.  A different seed: a different game."""

from __future__ import annotations

from pathlib import Path

import trio

from referee.bots.launch import BotSpec
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.player import Player
from referee.match.policy_player import random_player
from referee.match.record import GameRecord
from referee.match.spec import GameSpec

from ..processes import command
from .support import without_seconds

NAMES = ["a", "b", "c", "d"]
LIMITS = {"move_time": 0.5, "time_bank": 1.0}


def record_bytes(record: GameRecord) -> bytes:
    """The record as `GameRecord.to_jsonl` writes it, without its timing fields."""
    return without_seconds(record).to_jsonl()


def play_bots(bot_dir: Path, bots: list[str], seed: int) -> bytes:
    async def run() -> GameRecord:
        players: list[Player] = [
            BotPlayer(BotSpec(name, command(bot_dir, bot)), startup_time=5)
            for name, bot in zip(NAMES, bots, strict=True)
        ]
        try:
            return await play_game(GameSpec.make("det", seed, NAMES, **LIMITS), players)
        finally:
            for p in players:
                await p.aclose()

    return record_bytes(trio.run(run))


def play_random(seed: int, player_seeds: tuple[int, ...] = (1, 2, 3, 4)) -> bytes:
    players: list[Player] = [
        random_player(name, s) for name, s in zip(NAMES, player_seeds, strict=True)
    ]
    spec = GameSpec.make("det", seed, NAMES, **LIMITS)
    return record_bytes(trio.run(play_game, spec, players))


def test_first_legal_bots_replay_the_same_game(bot_dir: Path) -> None:
    bots = ["first_legal.py"] * 4
    first = play_bots(bot_dir, bots, 5)
    assert first == play_bots(bot_dir, bots, 5)
    assert first != play_bots(bot_dir, bots, 6)


def test_faulty_bots_replay_the_same_game(bot_dir: Path) -> None:
    """Faults (and the retirement they bring) are as deterministic as the moves."""
    bots = ["illegal.py --kind over_money", "first_legal.py",
            "illegal.py --kind card_not_held", "garbage.py"]
    first = play_bots(bot_dir, bots, 5)
    assert b'"type":"fault"' in first
    assert b'"type":"retired"' in first
    assert first == play_bots(bot_dir, bots, 5)
    assert first != play_bots(bot_dir, bots, 6)


def test_in_process_random_players_replay_the_same_game() -> None:
    first = play_random(11)
    assert first == play_random(11)
    assert first != play_random(12)
    assert first != play_random(11, (5, 6, 7, 8))



def test_in_process_random_players_seed_from_the_seat_not_the_game_id() -> None:
    """An in-process player's randomness comes from its seat's seed (as `new_game`'s `seed`:
    the deck's seed, the seat order and the seat), not from the game id or the names: the
    same game under another id and other names is played the same way; another seat order
    of the same deck is not."""

    def actions(game_id: str, names: list[str], order: int) -> list[bytes]:
        players: list[Player] = [random_player(name) for name in names]
        spec = GameSpec.make(game_id, 11, names, order=order, **LIMITS)
        record = trio.run(play_game, spec, players)
        return [line for line in without_seconds(record).to_jsonl().splitlines()
                if b'"type":"apply"' in line]

    first = actions("t1-d00-o03", NAMES, 3)
    assert first == actions("t2-d00-o03", ["w", "x", "y", "z"], 3)
    assert first != actions("t1-d00-o04", NAMES, 4)
