"""A bot process as a `Player` (match/bot_player.py) and how the runner talks to players:
a command that cannot start, which players may poll, the events a seat is sent and when,
events a full pipe cannot take at once, and the transcript of what was sent."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
import trio

from referee.bots.launch import BotSpec
from referee.bots.process import BotProcess, ProcessLimits
from referee.game import Decision, Event, GameState, seat_view
from referee.match.bot_player import BotPlayer
from referee.match.bot_transcript import TranscriptWriter
from referee.match.game import play_game
from referee.match.player import Answer, GameInfo, Player
from referee.match.policy_player import PolicyPlayer
from referee.match.record import EventLine, GameRecord
from referee.match.result import GameResult
from referee.match.spec import GameSpec
from referee.protocol import codec

from ..processes import BOT_PYTHON, command
from .support import PollingWatcher


def test_unstartable_bot_is_a_start_fault(bot_dir: Path) -> None:
    """A command that cannot run: a `start` fault each game, and the others play on."""
    missing = BotPlayer(BotSpec("missing", f"{bot_dir}/no_such_bot"), startup_time=5)
    players: list[Player] = [missing] + [
        BotPlayer(BotSpec(f"good{i}", command(bot_dir, "first_legal.py")), startup_time=5)
        for i in (1, 2, 3)
    ]
    spec = GameSpec.make("g", 1, [p.name for p in players], move_time=0.5, time_bank=0.5)

    async def run() -> GameResult:
        try:
            return (await play_game(spec, players)).result
        finally:
            for p in players:
                await p.aclose()

    result = trio.run(run)
    assert [f.kind for f in result.faults[0]] == ["start"]
    assert "cannot start" in result.faults[0][0].reason
    assert result.faults[1:] == ((), (), ())
    assert result.retired == (0,)
    assert result.ranks[0] == 4
    assert missing.starts == 0


def test_players_waited_on_together_may_not_poll() -> None:
    """A hidden bid asks every seat at once: none may hold the event loop while it waits,
    or the others would be asked only after its answer.  Other decisions may."""
    players = [PollingWatcher(f"p{i}") for i in range(4)]
    seen: dict[str, set[bool]] = {}
    for seed in range(6):
        spec = GameSpec.make(f"g{seed}", seed, [p.name for p in players])
        trio.run(play_game, spec, players)
    for p in players:
        for kind, values in p.seen.items():
            seen.setdefault(kind, set()).update(values)
    assert seen.pop("hidden_bid") == {False}
    assert seen and all(values == {True} for values in seen.values())


# Answers the hello, then echoes every line it reads: what it was sent comes straight back.
ECHO_BOT = """\
import sys
for line in sys.stdin.buffer:
    if line.startswith(b'{"type":"hello"'):
        sys.stdout.buffer.write(b'{"type": "hello", "name": "echo", "protocol": 1}\\n')
    else:
        sys.stdout.buffer.write(line)
    sys.stdout.flush()
"""


async def begin_quick(player: BotPlayer, spec: GameSpec, seat: int) -> BotProcess:
    """Begin `spec`'s game for `player` in `seat`; where the referee polls, ping its bot (it
    answers `{}` to `{}`) until its last reply came within `spin`, so that it counts as quick."""
    config = spec.config()
    info = GameInfo(spec.game_id, seat, list(spec.names), config, spec.move_time,
                    spec.time_bank, codec.edition_info(config.edition), spec.seat_seed(seat))
    assert await player.begin_game(info) is None
    bot = player.bot
    assert bot is not None
    with trio.move_on_after(5):
        while bot.spin and not bot.answers_quickly:
            bot.write_now(b"{}\n")
            assert await bot.read_line(trio.current_time() + 1) == b"{}"
    return bot


async def lines_before_any_request(path: Path, spin: float, next_up: bool) -> list[bytes]:
    """Start a game with the echo bot and give it one event line; the lines it has echoed
    within half a second, with no request sent."""
    player = BotPlayer(BotSpec("echo", f"{BOT_PYTHON} {path}"),
                       process_limits=ProcessLimits(spin=spin))
    try:
        bot = await begin_quick(player, GameSpec.make("g", 1, ["echo", "b", "c"]), 0)
        player.notify([], [b'{"type":"event","event":{"type":"pass","seat":1}}\n'], next_up)
        echoed = []
        with trio.move_on_after(0.5):
            while True:
                echoed.append(await bot.read_line(trio.current_time() + 1))
        return echoed
    finally:
        await player.aclose()


def test_a_quick_bot_asked_next_gets_its_events_before_the_request(tmp_path: Path) -> None:
    """Where the referee polls for a quick bot, the seat asked next is sent its events as soon
    as they are known (it reads them while its request is built); other seats, and every seat
    where the referee does not poll (as at parallel tables), get theirs with their next
    request."""
    path = tmp_path / "echo_bot.py"
    path.write_text(ECHO_BOT)
    ahead = trio.run(lines_before_any_request, path, 0.0003, True)
    assert [line.split(b'"', 4)[3] for line in ahead] == [b"new_game", b"event"]
    assert trio.run(lines_before_any_request, path, 0.0003, False) == []
    assert trio.run(lines_before_any_request, path, 0.0, True) == []


class Listener(PolicyPlayer):
    """A default player that logs, in one list shared by the seats, every `notify` (seat,
    lines, next_up) and every `decide` (seat, whether a hidden bid)."""

    def __init__(self, name: str, seat: int, log: list[tuple[Any, ...]]) -> None:
        super().__init__(name, lambda decision, view, rng: decision.default_action())
        self.seat = seat
        self.log = log

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        self.log.append(("notify", self.seat, list(lines), next_up))

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        self.log.append(("decide", self.seat, decision.kind.value == "hidden_bid"))
        return await super().decide(decision, view, alone)


def seen_by(record: GameRecord, seat: int) -> list[bytes]:
    """The record's event lines that `seat` may see, encoded as the protocol sends them."""
    return [codec.encode(codec.event(line.event)) for line in record.lines
            if isinstance(line, EventLine) and line.event.private_to in (None, seat)]


def test_the_seat_asked_next_is_told_first_and_every_seat_gets_its_events_once() -> None:
    """Before every single decision the seat asked is the first told of the step's events,
    and told it is next; before a hidden bid no seat is.  Each seat gets the events it may
    see (a deal only its own), each once, in the record's order."""
    for seed, variants, seats in ((1, (), 4), (2, ("mystery", "split-double"), 3),
                                  (3, ("hidden-money",), 5)):
        log: list[tuple[Any, ...]] = []
        players = [Listener(f"p{i}", i, log) for i in range(seats)]
        spec = GameSpec.make(f"g{seed}", seed, [p.name for p in players], variants=variants)
        record = trio.run(play_game, spec, players)
        block: list[tuple[Any, ...]] = []  # the notifies since the last decide
        got: dict[int, list[bytes]] = {seat: [] for seat in range(seats)}
        for entry in log:
            if entry[0] == "notify":
                block.append(entry)
                got[entry[1]].extend(entry[2])
                continue
            _, seat, hidden = entry
            told_next = [n for n in block if n[3]]
            if hidden:
                assert told_next == []
            elif block:
                assert block[0][1] == seat and told_next == [block[0]]
            block = []
        for seat in range(seats):
            assert got[seat] == seen_by(record, seat)


# Reads every line into a log; after a `stall` line stops reading for a second (its input
# pipe fills up); answers hello, `{}` pings and requests.
STALLING_BOT = """\
import json, sys, time
log = open(sys.argv[1], "wb")
for line in sys.stdin.buffer:
    log.write(line)
    log.flush()
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        out = b'{"type": "hello", "name": "staller", "protocol": 1}\\n'
    elif kind is None:
        out = b"{}\\n"
    elif kind == "stall":
        time.sleep(1.0)
        continue
    elif kind == "request":
        out = json.dumps({"id": message["id"], "action": "pass"}).encode() + b"\\n"
    else:
        continue
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
"""


def test_events_the_pipe_cannot_take_at_once_reach_the_bot_whole_and_in_order(
        tmp_path: Path) -> None:
    """Events written ahead of the request to a bot that is not reading fill its pipe; the
    rest goes with the request once it reads again: the bot, and its transcript, get every
    line once, whole, in order, then the request, and its answer counts."""
    script = tmp_path / "staller.py"
    script.write_text(STALLING_BOT)
    received, transcript = tmp_path / "received", tmp_path / "transcript.jsonl"
    events = [orjson.dumps({"type": "event", "event": {"type": "pass", "seat": 1,
                                                        "pad": "x" * 1000, "n": n}}) + b"\n"
              for n in range(300)]  # 300 kB: more than a pipe holds

    async def run() -> Answer:
        player = BotPlayer(BotSpec("staller", f"{BOT_PYTHON} {script} {received}"),
                           process_limits=ProcessLimits(spin=0.0003),
                           transcript_path=transcript)
        spec = GameSpec.make("g", 1, ["staller", "b", "c"], move_time=5.0, time_bank=5.0)
        state = GameState(spec.config(), seed=1)
        seat = state.pending
        try:
            bot = await begin_quick(player, spec, seat)
            assert bot.answers_quickly
            bot.write_now(b'{"type": "stall"}\n')
            with trio.fail_after(60):  # until it has read that line, and stopped reading
                while not received.read_bytes().endswith(b'{"type": "stall"}\n'):
                    await trio.sleep(0.01)
            player.notify([], events, True)
            assert player.seat.pending, "the pipe took it all: the test needs a fuller pipe"
            decision = state.decision(seat)
            return await player.decide(decision, seat_view(state, seat))
        finally:
            await player.aclose()

    answer = trio.run(run)
    assert answer.fault is None and answer.action is not None
    lines = received.read_bytes().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if b'"new_game"' in line)
    assert lines[start + 1 : start + 301] == events
    assert lines[start + 301].startswith(b'{"type":"request"')
    sent = [json.loads(line)["to_bot"] for line in transcript.read_text().splitlines()
            if "to_bot" in line]
    assert [m["event"]["n"] for m in sent if m.get("type") == "event"] == list(range(300))
    assert sent[-1]["type"] in ("request", "goodbye")


def test_a_transcript_line_split_across_writes_is_written_whole(tmp_path: Path) -> None:
    """A write that the pipe took only in part ends inside a line; the transcript shows the
    line once, whole, when its rest is written, or as far as it went if the bot is stopped
    first."""
    path = tmp_path / "t.jsonl"
    tee = TranscriptWriter(path)
    tee("to_bot", b'{"a":1}\n{"b"')
    tee("from_bot", b'{"id":1}\n')
    tee("to_bot", b':2}\n{"c":')
    tee.close()  # the bot was stopped before the rest of the last line was written
    assert path.read_text().splitlines() == [
        '{"to_bot":{"a":1}}', '{"from_bot":{"id":1}}', '{"to_bot":{"b":2}}',
        '{"to_bot":"{\\"c\\":"}']
