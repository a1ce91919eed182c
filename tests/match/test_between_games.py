"""A bot whose process ends between games: the next game is played by a fresh process.

Which game first meets a dead bot does not depend on scheduling (whether the exit is seen
before the next game's first request or after it): a bot that read nothing of a game before
its process ended is started afresh for that game, and the exit is an `exit` fault, which does
not count towards retirement.
"""

from __future__ import annotations

from pathlib import Path

import trio

from referee.bots.launch import BotSpec
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.player import Player
from referee.match.record import GameRecord
from referee.match.spec import GameSpec

from ..processes import command
from .support import without_seconds

NAMES = ["exits", "good1", "good2"]
GAMES = 4


def play(bot_dir: Path, bot: str, pause: float) -> list[GameRecord]:
    """GAMES games with the same players; `pause` seconds between games (time for an exit to
    be noticed before the next game, or not)."""
    players: list[Player] = [BotPlayer(BotSpec(n, command(bot_dir, b)), startup_time=10)
                             for n, b in zip(NAMES, [bot, "first_legal.py", "first_legal.py"],
                                             strict=True)]

    async def run() -> list[GameRecord]:
        try:
            records = []
            for g in range(GAMES):
                records.append(await play_game(GameSpec.make(f"g{g}", 7 + g, NAMES,
                                                             move_time=1, time_bank=1),
                                               players))
                await trio.sleep(pause)
            return records
        finally:
            for p in players:
                await p.aclose()

    return trio.run(run)


def test_a_bot_that_exits_after_each_game_plays_every_game_afresh(bot_dir: Path) -> None:
    """exits_after_game ends its process at each game_end: each later game is played in
    full by a fresh process (no crash, no retirement), its record shows an `exit` fault with
    the reason (then the end of the bot's stderr), and the results are the same whether the
    exit was seen before the next game began or only at its first request."""
    quick = play(bot_dir, "exits_after_game.py", 0.0)
    slow = play(bot_dir, "exits_after_game.py", 0.3)
    for records in (quick, slow):
        assert [r.result.retired for r in records] == [()] * GAMES
        assert records[0].result.faults == ((), (), ())
        for record in records[1:]:
            [exit_fault] = record.result.faults[0]
            assert exit_fault.kind == "exit", exit_fault
            assert exit_fault.reason.startswith(
                "exited between games; exit status 0 (it ended after its last game: one "
                "process plays every game"), exit_fault.reason
            # the referee's words first, then the bot's own stderr as it wrote it
            assert exit_fault.reason.endswith(
                f"; started afresh for game {record.spec.game_id}; its stderr ends:\n"
                "exits_after_game: game over, exiting"), exit_fault.reason
            assert record.result.faults[1:] == ((), ())
    assert [without_seconds(r) for r in quick] == [without_seconds(r) for r in slow]


def test_a_bot_that_crashes_on_a_games_first_request_is_a_crash(bot_dir: Path) -> None:
    """A process that read the game's first lines and then died crashed in that game: it is
    not taken for one that exited between games."""
    [_, record, *_] = play(bot_dir, "crash_mid_game.py --in-game 2", 0.0)
    kinds = [f.kind for f in record.result.faults[0]]
    assert kinds == ["crash"], record.result.faults
