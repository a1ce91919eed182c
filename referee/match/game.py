"""Play one game: the engine plus one `Player` per seat, faults turned into outcomes.

The match asks the pending seat (every seat at once for a hidden bid), checks the answer with
the engine, and applies it; a fault of the bot (no answer, a malformed or illegal one, a crash)
is recorded and the decision's default action applied instead.  After `max_faults` faults in a
game, or a crash, the seat is retired: its defaults are played without asking, and it ranks
below every seat that was not retired.  Any other exception is the referee's own failure: the
game is void (`RefereeError`), not a loss for anyone; when the referee ran short of its own
resources (a bot it could not start for want of descriptors, say), `OutOfResources`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import orjson
import trio

from referee.bots.errors import want_of_resources
from referee.game import (
    Bid,
    Decision,
    DecisionKind,
    Event,
    GameState,
    HiddenBids,
    IllegalAction,
    Phase,
    seat_view,
)
from referee.game.actions import Action
from referee.game.events import CardsDealt
from referee.match.player import (
    FATAL_FAULTS,
    HARMLESS_FAULTS,
    Answer,
    Fault,
    GameInfo,
    Player,
    Standing,
)
from referee.protocol import codec
from referee.protocol.messages import FaultKind

from .record import (
    AnswerLine,
    ApplyLine,
    DealLine,
    FaultLine,
    GameRecord,
    RetiredLine,
    Source,
    StepLine,
    apply_line,
    event_lines,
    kept_line,
)
from .result import GameResult
from .spec import GameSpec


class RefereeError(Exception):
    """The referee itself failed during a game; the game is void."""


class OutOfResources(RefereeError):
    """The referee ran short of its own descriptors, memory or processes during a game: the
    game is void, and whoever plays it again should first free some (a run stops if it
    persists)."""


def final_ranks(money: Sequence[int], retired: Sequence[bool]) -> list[int]:
    """1 = best; retired seats below all others; equal standing shares a rank (R6.1)."""
    keys = [(r, -m) for m, r in zip(money, retired, strict=True)]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


class _Seats:
    """The seats of one game, their faults and retirements, and the record's lines so far."""

    def __init__(self, spec: GameSpec, players: Sequence[Player]) -> None:
        self.spec = spec
        self.players = players
        self.lines: list[StepLine] = []
        self.sent_events: list[bytes] = []  # each event line, as the seats were sent it
        self.faults: list[list[Fault]] = [[] for _ in players]
        self.counted = [0] * len(players)
        self.retired = [False] * len(players)
        # The step's `apply` line, written by `deliver` once the seat asked next has its events.
        self._applied: ApplyLine | None = None

    async def fault(self, seat: int, fault: Fault, rejected: Action | None = None,
                    line: bytes | None = None) -> None:
        """Record a fault: `rejected`, the action refused; `line`, a malformed reply."""
        self.faults[seat].append(fault)
        self.lines.append(FaultLine(seat=seat, kind=fault.kind, reason=fault.reason,
                                    rejected=rejected,
                                    line=None if line is None else kept_line(line)))
        if fault.kind in HARMLESS_FAULTS:
            return
        self.counted[seat] += 1
        fatal = fault.kind in FATAL_FAULTS
        if not self.retired[seat] and (fatal or self.counted[seat] >= self.spec.max_faults):
            self.retired[seat] = True
            why = fault.kind.value if fatal else f"{self.counted[seat]} faults"
            self.lines.append(RetiredLine(seat=seat, reason=why))
            await self.players[seat].retire()

    def deliver(self, events: list[Event], next_seat: int | None) -> None:
        """Pass each seat the events it may see, each encoded once, the seat asked next
        (`next_seat`, None for none or all) first and told it is next; then record the step
        (its `apply` line and its events), which that seat does not wait for."""
        dumps = orjson.dumps
        newline = orjson.OPT_APPEND_NEWLINE
        encoded = []
        private = False
        for ev in events:
            encoded.append(dumps({"type": "event", "event": ev.to_dict()}, option=newline))
            if type(ev) is CardsDealt:
                private = True
        if next_seat is not None and not self.retired[next_seat]:
            self._pass_on(next_seat, events, encoded, private, True)
        lines = self.lines
        if self._applied is not None:
            lines.append(self._applied)
            self._applied = None
        lines.extend(event_lines(events))
        self.sent_events.extend(encoded)
        retired = self.retired
        for seat, player in enumerate(self.players):
            if seat != next_seat and not retired[seat]:
                if private:
                    self._pass_on(seat, events, encoded, private, False)
                else:
                    player.notify(events, encoded, False)

    def _pass_on(self, seat: int, events: list[Event], encoded: list[bytes], private: bool,
                 next_up: bool) -> None:
        """`notify` one seat of the events it may see (with `private` ones, only its own)."""
        if private:
            keep = [i for i, ev in enumerate(events) if ev.private_to in (None, seat)]
            events, encoded = [events[i] for i in keep], [encoded[i] for i in keep]
        self.players[seat].notify(events, encoded, next_up)

    def answer(self, seat: int, action: Action, source: Source, seconds: float) -> None:
        """One seat's part of a simultaneous step (a hidden bid), before its `apply` line."""
        self.lines.append(AnswerLine(seat=seat, source=source, action=action,
                                     seconds=round(seconds, 6)))

    def applied(self, seat: int | None, action: Action, source: Source | Literal["bots"],
                seconds: float) -> None:
        """One line per step: who acted, what was applied, and whether the bot chose it;
        written by the `deliver` of the step's events, which always follows."""
        self._applied = apply_line(seat, source, action, round(seconds, 6))


async def play_game(spec: GameSpec, players: Sequence[Player]) -> GameRecord:
    """Play one game to its end; bot faults are outcomes, referee failures raise RefereeError."""
    if len(players) != spec.players:
        raise ValueError(f"{spec.players} names but {len(players)} players")
    try:
        return await _play(spec, players)
    except (trio.Cancelled, KeyboardInterrupt):
        raise
    except Exception as exc:
        void = RefereeError if want_of_resources(exc) is None else OutOfResources
        raise void(f"game {spec.game_id} is void: {describe_failure(exc)}") from exc


def describe_failure(exc: BaseException) -> str:
    """`Type: message` of what failed, through the exception groups of trio's nurseries
    (whose own message, "Exceptions from Trio nursery", says nothing)."""
    if isinstance(exc, BaseExceptionGroup):  # each seat's same failure said once
        return "; ".join(dict.fromkeys(describe_failure(e) for e in exc.exceptions))
    return f"{type(exc).__name__}: {exc}"


async def _play(spec: GameSpec, players: Sequence[Player]) -> GameRecord:
    config = spec.config()
    state = GameState(config, seed=spec.seed, deck=spec.deck)
    seats = _Seats(spec, players)
    edition_info = codec.edition_info(config.edition)
    start_faults: list[Fault | None] = [None] * spec.players

    async def begin(seat: int) -> None:
        info = GameInfo(spec.game_id, seat, list(spec.names), config, spec.move_time,
                        spec.time_bank, edition_info, spec.seat_seed(seat))
        start_faults[seat] = await players[seat].begin_game(info)

    async with trio.open_nursery() as nursery:
        for seat in range(spec.players):
            nursery.start_soon(begin, seat)
    for seat, fault in enumerate(start_faults):
        if fault is not None:
            await seats.fault(seat, fault)
    seats.deliver(state.take_events(), _next_seat(state))

    while state.phase is not Phase.OVER:
        if state.phase is Phase.HIDDEN:
            bids = await _hidden_step(state, seats)
            seats.applied(None, bids, "bots", 0.0)
            events = state.apply(bids)
        else:
            events = await _single_step(state, seats, state.decision(state.pending))
        seats.deliver(events, _next_seat(state))

    standing = Standing(
        money=tuple(state.money),
        ranks=tuple(final_ranks(state.money, seats.retired)),
        retired=tuple(s for s, r in enumerate(seats.retired) if r),
    )
    for seat, player in enumerate(players):
        for fault in await player.end_game(standing):
            await seats.fault(seat, fault)
    # A limit broken during the game but seen only at its end retires the seat all the same.
    result = GameResult(
        game_id=spec.game_id,
        names=tuple(spec.names),
        money=tuple(state.money),
        ranks=tuple(final_ranks(state.money, seats.retired)),
        retired=tuple(s for s, r in enumerate(seats.retired) if r),
        faults=tuple(tuple(fs) for fs in seats.faults),
    )
    return GameRecord(spec, tuple(seats.lines), result, DealLine.of(state),
                      sent_events=tuple(seats.sent_events))


def _next_seat(state: GameState) -> int | None:
    """The one seat asked next; None when the game is over or all seats are (a hidden bid)."""
    phase = state.phase
    return None if phase is Phase.OVER or phase is Phase.HIDDEN else state.pending


async def _single_step(state: GameState, seats: _Seats, decision: Decision) -> list[Event]:
    """Ask the one pending seat; apply its action, or its default after a fault."""
    seat = decision.seat
    if seats.retired[seat]:
        default = decision.default_action()
        seats.applied(seat, default, "retired", 0.0)
        return state.apply(default)
    answer = await seats.players[seat].decide(decision, seat_view(state, seat))
    fault = answer.fault
    if fault is None:
        action = answer.action
        assert action is not None
        try:
            events = state.apply(action)  # checks everything before it changes anything
        except IllegalAction as exc:
            fault = Fault(FaultKind.ILLEGAL, str(exc) + _pass_hint(action, decision))
        else:
            seats.applied(seat, action, "bot", answer.seconds)
            return events
    default = decision.default_action()
    seats.players[seat].warn(answer, fault, default)
    await seats.fault(seat, fault, answer.action, answer.line)
    seats.applied(seat, default, "default", answer.seconds)
    return state.apply(default)


def _pass_hint(action: Action, decision: Decision) -> str:
    """For a bid of 0 in an open or once-around auction, what a pass is: 0 is no bid only in
    a hidden auction, and a Python entrant's bot bid 0 to pass, ten checks over."""
    if isinstance(action, Bid) and action.amount == 0 and decision.kind is DecisionKind.BID:
        return ' (0 is no bid only in a hidden auction: to pass, answer {"action": "pass"})'
    return ""


async def _hidden_step(state: GameState, seats: _Seats) -> HiddenBids:
    """R4.3: ask every seat at once; each seat's bad answer becomes its own bid of 0."""
    decisions = state.decisions()
    answers: dict[int, Answer] = {}

    async def ask(decision: Decision) -> None:
        seat = decision.seat
        answers[seat] = await seats.players[seat].decide(decision, seat_view(state, seat),
                                                         alone=False)  # all seats wait

    async with trio.open_nursery() as nursery:
        for d in decisions:
            if not seats.retired[d.seat]:
                nursery.start_soon(ask, d)
    amounts = []
    for d in decisions:
        seat = d.seat
        answer = answers.get(seat)
        if answer is None:
            seats.answer(seat, Bid(seat, 0), "retired", 0.0)
            amounts.append(0)
            continue
        fault = answer.fault
        if fault is None:
            action = answer.action
            if not isinstance(action, Bid):
                fault = Fault(FaultKind.ILLEGAL,
                              f"a hidden bid is asked (action 'bid' with an amount from 0 to "
                              f"{d.max_amount}), not {type(action).__name__} (R4.3)")
            else:
                try:
                    state.check_hidden_bid(seat, action.amount)
                except IllegalAction as exc:
                    fault = Fault(FaultKind.ILLEGAL, str(exc))
                else:
                    seats.answer(seat, action, "bot", answer.seconds)
                    amounts.append(action.amount)
                    continue
        seats.players[seat].warn(answer, fault, Bid(seat, 0))
        await seats.fault(seat, fault, answer.action, answer.line)
        seats.answer(seat, Bid(seat, 0), "default", answer.seconds)
        amounts.append(0)
    return HiddenBids(tuple(amounts))

