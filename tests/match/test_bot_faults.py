"""Every misbehaving test bot against three well-behaved ones, with real processes.

Seat 0 is the bad bot, seats 1-3 run first_legal.py; the same `BotPlayer`s play two games.
Each game must finish; the bad seat's faults must have the right kind and a telling reason;
the good seats must have none; a retired seat ranks last and is started again next game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.bots.launch import BotSpec
from referee.game import Action
from referee.match.bot_player import BotPlayer
from referee.match.game import play_game
from referee.match.player import Player
from referee.match.policy_player import default_player
from referee.match.record import ApplyLine, GameRecord
from referee.match.spec import GameSpec

from ..processes import command, leftover_processes, processes_with

# Seeds whose deals give seat 0 a double to offer (so wrong_artist_second has its chance).
SEEDS = (42, 47)
NAMES = ["bad", "good1", "good2", "good3"]
LIMITS = {"move_time": 0.3, "time_bank": 0.5, "max_faults": 3}
STARTUP = 5.0

TIMEOUT = ("timeout", r"no reply within .* no complete line in time")
LONG_LINE = ("malformed", r"a line longer than 65536 bytes")


@dataclass(frozen=True)
class Case:
    """A bad bot (script and arguments in tests/scripted_bots) and what it must cost it."""

    bot: str
    # The bad seat's faults in a game, in order: (kind, regex its reason must match).
    faults: tuple[tuple[str, str], ...]
    retired: bool = True  # retired in every game that has faults
    once: bool = False  # misbehaves once per process: its second game has no fault
    # The fairness property holds by construction: no answer of the bad seat is ever
    # applied, so the game is the one in which seat 0 always takes the default action.
    fair: bool = False
    time_bank: float = LIMITS["time_bank"]


CASES = [
    Case("never_answers.py", (TIMEOUT,) * 3, fair=True),
    # Sleeps 1.5 s a reply: more than move time + bank, so every request times out.
    Case("answers_late.py", (TIMEOUT,) * 3, fair=True),
    Case("crash_at_start.py",
         (("start", r"(?s)before its hello; exit status 3 \(a module it imports was not "
                    r"found.*ModuleNotFoundError"),), fair=True),
    Case("crash_mid_game.py",
         (("crash", r"(?s)closed its output; exit status 1;.*ZeroDivisionError"),)),
    Case("exits_early.py", (("crash", r"closed its output; exit status 0"),), fair=True),
    Case("garbage.py", (("malformed", r"Invalid JSON.*this is not json"),) * 3, fair=True),
    Case("non_utf8.py", (("malformed", r"Invalid JSON.*\\xff\\xfe\\xfd"),) * 3, fair=True),
    Case("huge_line.py", (LONG_LINE,), retired=False, once=True),
    Case("no_newline.py",
         (("timeout", r"no complete line in time \(\d+ bytes without a newline\)"),) * 3,
         fair=True),
    Case("no_newline.py --once",
         (("timeout", r"\(\d+ bytes without a newline\)"),
          ("malformed", r"Invalid JSON: trailing characters")),
         retired=False, once=True),
    Case("flood_stdout.py", (("malformed", r"Invalid JSON.*garbage garbage"),) * 3, fair=True),
    Case("flood_stderr.py",
         (("stderr", r"wrote \d+ bytes to stderr past the limit of 1048576 bytes per game"),),
         retired=False, once=True),
    # 40 MB before each of three replies: the referee drains it as it comes, so it costs no
    # timeout, only the stderr fault.  Writing 40 MB takes the bot some 40 ms of CPU, which a
    # loaded machine stretches to a few tenths of a second: the bank absorbs that, and no bank
    # would save a bot held on a pipe the referee stopped draining.
    Case("flood_stderr.py --per-request 40",
         (("stderr", r"wrote \d+ bytes to stderr past the limit of 1048576 bytes per game"),),
         retired=False, once=True, time_bank=3.0),
    Case("deep_json.py", (LONG_LINE,) * 3, fair=True),
    Case("deep_json.py --depth 32000",
         (("malformed", r"Invalid JSON: recursion limit exceeded"),) * 3, fair=True),
    Case("wrong_id.py", (("wrong_id", r"reply id \d+ does not match request id \d+"),) * 3,
         fair=True),
    # Replies to an earlier request, as fast as it can: faulted at once, not when it stops.
    Case("stale_flood.py",
         (("wrong_id", r"^17 replies to earlier requests while request \d+ waited, a flood"),)
         * 3, fair=True),
    # One every 0.1 s: the decision's deadline holds, and its reason counts them.
    Case("stale_flood.py --every 0.1",
         (("timeout", r"no reply within [\d.]+ s .*\(\d+ replies to earlier requests "
                      r"skipped, the last with id \d+, [\d.]+ m?s after this request was "
                      r"sent: .*\)$"),) * 3, fair=True),
    Case("forks_grandchild.py", (), retired=False),
    # It exits while its child holds its output open: no end of file comes, yet it is a
    # crash with its exit status and stderr, not a timeout after the whole time bank.
    Case("forks_grandchild.py --crash-at 3",
         (("crash", r"(?s)^exited \(a process it started still holds its output open\); "
                    r"exit status 3;.*RuntimeError: deliberate crash"),)),
    Case("illegal.py --kind over_money",
         (("illegal", r"bid \d+ (of seat 0 )?is more than (seat 0's|its) money \d+"),) * 3,
         fair=True),
    Case("illegal.py --kind not_above_high",
         (("illegal", r"must exceed the high bid|must be at least"),) * 3, fair=True),
    Case("illegal.py --kind negative", (("illegal", r"amount -5 must be at least"),) * 3,
         fair=True),
    Case("illegal.py --kind fractional",
         (("malformed", r"amount: 2.5 is not an integer \(round it"),) * 3, fair=True),
    Case("illegal.py --kind huge",
         (("malformed", r"amount: Input should be less than or equal to"),) * 3, fair=True),
    Case("illegal.py --kind card_not_held", (("illegal", r"is not in seat 0's hand"),) * 3,
         fair=True),
    Case("illegal.py --kind card_beyond_edition", (("illegal", r"is not in seat 0's hand"),) * 3,
         fair=True),
    Case("illegal.py --kind card_negative", (("illegal", r"is not in seat 0's hand"),) * 3,
         fair=True),
    Case("illegal.py --kind wrong_artist_second",
         (("illegal", r"the double is of artist \d"),) * 3, fair=True),
]


def bot_player(bot_dir: Path, name: str, bot: str) -> BotPlayer:
    return BotPlayer(BotSpec(name, command(bot_dir, bot)), startup_time=STARTUP)


def game_spec(game: int, time_bank: float = LIMITS["time_bank"]) -> GameSpec:
    return GameSpec.make(f"g{game}", SEEDS[game], NAMES, **{**LIMITS, "time_bank": time_bank})


async def play_games(players: list[Player], time_bank: float = LIMITS["time_bank"]
                     ) -> list[GameRecord]:
    """Both games with the same players, then close them all."""
    try:
        return [await play_game(game_spec(g, time_bank), players) for g in range(len(SEEDS))]
    finally:
        for p in players:
            await p.aclose()


_reference: dict[int, GameRecord] = {}


def reference_game(bot_dir: Path, game: int) -> GameRecord:
    """The game with seat 0 always taking the default action (seats 1-3 first_legal.py)."""
    if game not in _reference:
        async def run() -> GameRecord:
            players: list[Player] = [default_player("bad")]
            players += [bot_player(bot_dir, n, "first_legal.py") for n in NAMES[1:]]
            try:
                return await play_game(game_spec(game), players)
            finally:
                for p in players:
                    await p.aclose()

        _reference[game] = trio.run(run)
    return _reference[game]


def applied(record: GameRecord) -> list[Action]:
    return [line.action for line in record.lines if isinstance(line, ApplyLine)]


@pytest.mark.parametrize("case", CASES, ids=[c.bot.replace(" --kind ", "-") for c in CASES])
def test_bad_bot_in_seat_0(case: Case, bot_dir: Path) -> None:
    bad = bot_player(bot_dir, "bad", case.bot)
    players: list[Player] = [bad]
    players += [bot_player(bot_dir, n, "first_legal.py") for n in NAMES[1:]]
    records = trio.run(play_games, players, case.time_bank)

    for game, record in enumerate(records):
        result = record.result
        assert len(result.money) == 4
        assert all(isinstance(m, int) for m in result.money)
        assert result.faults[1:] == ((), (), ()), "a good seat was blamed"

        expected = case.faults if game == 0 or not case.once else ()
        faults = result.faults[0]
        assert [f.kind for f in faults] == [kind for kind, _ in expected], faults
        for fault, (_, pattern) in zip(faults, expected, strict=True):
            assert re.search(pattern, fault.reason), (pattern, fault.reason)

        retired = case.retired and bool(expected)
        assert result.retired == ((0,) if retired else ())
        if retired:
            assert result.ranks[0] > max(result.ranks[1:]), result.ranks
            assert result.ranks[0] == 4

        if case.fair:
            ref = reference_game(bot_dir, game)
            assert result.money[1:] == ref.result.money[1:]
            assert applied(record) == applied(ref)

    # A retired (or crashed) bot's process is stopped; its next game starts a fresh one.
    assert bad.starts == (len(SEEDS) if case.retired and case.faults else 1)


def test_grandchild_is_killed_with_its_bot(bot_dir: Path) -> None:
    """forks_grandchild leaves a child that ignores SIGTERM; closing the bot kills it too."""
    script = f"{bot_dir}/forks_grandchild.py"
    seen: list[int] = []

    async def run() -> None:
        players: list[Player] = [bot_player(bot_dir, "bad", "forks_grandchild.py")]
        players += [bot_player(bot_dir, n, "first_legal.py") for n in NAMES[1:]]
        try:
            record = await play_game(game_spec(0), players)
            assert record.result.faults == ((), (), (), ())
            seen.append(len(processes_with(script)))
        finally:
            for p in players:
                await p.aclose()

    trio.run(run)
    assert seen == [2], "expected the bot and its grandchild to be running before the close"
    assert leftover_processes(script) == []


class CancelWhileAsked(BotPlayer):
    """A bot player that, once asked to decide, cancels `scope` a moment later: the game is
    then cancelled mid-way, while the referee waits for this bot's reply."""

    scope: trio.CancelScope

    async def decide(self, decision: Any, view: dict[str, Any], alone: bool = True) -> Any:
        self.scope.deadline = min(self.scope.deadline, trio.current_time() + 0.3)
        return await super().decide(decision, view, alone)


def test_cancelled_game_leaves_no_process(bot_dir: Path) -> None:
    """Cancel a game mid-way (as Ctrl-C would), close the players: no bot process remains."""
    spec = GameSpec.make("cancelled", 1, NAMES, move_time=5.0, time_bank=0.0)
    stuck = CancelWhileAsked(BotSpec("bad", command(bot_dir, "never_answers.py")),
                             startup_time=STARTUP)
    outcome: list[Any] = []

    async def run() -> None:
        players: list[Player] = [stuck, bot_player(bot_dir, "good1", "forks_grandchild.py")]
        players += [bot_player(bot_dir, n, "answers_late.py --delay 0.05") for n in NAMES[2:]]
        try:
            with trio.CancelScope() as stuck.scope:
                outcome.append(await play_game(spec, players))
            running = processes_with(f"{bot_dir}/")
            assert len(running) >= 4, "the bots should still be running here"
        finally:
            for p in players:
                await p.aclose()
        outcome.append(stuck.scope.cancelled_caught)

    trio.run(run)
    assert outcome == [True], "the game should have been cancelled before its end"
    assert leftover_processes(f"{bot_dir}/") == []


def test_bot_that_stops_reading_cannot_hang_the_game(bot_dir: Path) -> None:
    """flood_stdout never reads its input again; with a high fault limit it is not retired
    for its garbage, so the referee keeps writing requests to it until the pipe is full:
    that must end in a `crash` fault (it stopped reading), not a game that hangs for ever:
    the writes to a bot's stdin have a deadline too."""
    names = NAMES[:3]
    spec = GameSpec.make("stuck", 3, names, variants=["mystery"], move_time=0.3,
                         time_bank=0.5, max_faults=1000)
    outcome: list[Any] = []

    async def run() -> None:
        players: list[Player] = [bot_player(bot_dir, "bad", "flood_stdout.py")]
        players += [bot_player(bot_dir, n, "first_legal.py") for n in names[1:]]
        try:
            with trio.move_on_after(60):  # a hang, not a slow machine
                outcome.append(await play_game(spec, players))
        finally:
            for p in players:
                await p.aclose()

    trio.run(run)
    assert outcome, "the game hung writing to a bot that does not read its input"
    result = outcome[0].result
    *garbage, last = result.faults[0]
    assert garbage and {f.kind for f in garbage} == {"malformed"}
    assert last.kind == "crash"
    assert "stopped reading its input" in last.reason
    assert result.faults[1:] == ((), ())
    assert result.retired == (0,)
