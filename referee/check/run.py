"""`referee check`'s run: the scripted games with the bot at each scenario's seat, each
decision recorded as it is asked and answered, and each check's verdict from what was asked."""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from referee.bots.launch import BotSpec
from referee.bots.limits import DEFAULT_MOVE_TIME, DEFAULT_STARTUP_TIME, DEFAULT_TIME_BANK
from referee.game import CMON, Decision, DecisionKind, Event
from referee.game.actions import Action
from referee.match.bot_game import named_by_hellos
from referee.match.bot_player import BotPlayer
from referee.match.exchanges import exchanged, unasked_lines
from referee.match.game import RefereeError, play_game
from referee.match.player import Answer, Fault, GameInfo, Standing
from referee.match.policy_player import random_player
from referee.match.spec import GameSpec
from referee.protocol.messages import FaultKind
from referee.protocol.seat import STALE_AT_MOST
from referee.text import counted

from .ended import reason
from .situations import (
    CHECKS,
    EDITION_CHECKS,
    HOME,
    MAX_TIMEOUTS,
    MOVE_TIME_CHECK,
    OPTIONAL,
    SCENARIOS,
    SLOW_SHARE,
    STALL,
    STALLS_PER,
    UNASKED_CHECK,
    Asked,
    CheckResult,
    Scenario,
    deck_with_seat_holding,
    has_double_chance,
    in_edition,
)


class Recorder:
    """Wraps the bot's player: notes every decision and can inject one warning."""

    def __init__(self, bot: BotPlayer) -> None:
        self.bot = bot
        self.name = bot.name
        self.scenario = ""
        self.seat = 0  # the bot's, in the scenario
        self.edition = CMON  # the scenario's
        self.asked: list[Asked] = []
        self.inject_warning_at: int | None = None
        self.warned_id: int | None = None
        self.pending: Asked | None = None
        self.timeouts = 0

    async def begin_game(self, info: GameInfo) -> Fault | None:
        return await self.bot.begin_game(info)

    def notify(self, events: Sequence[Event], lines: Sequence[bytes],
               next_up: bool = False) -> None:
        self.bot.notify(events, lines, next_up)

    async def decide(self, decision: Decision, view: dict[str, Any],
                     alone: bool = True) -> Answer:
        if self.timeouts >= MAX_TIMEOUTS:  # the check ends after this game: wait no more
            return Answer(None, Fault(FaultKind.TIMEOUT, f"not asked: {self.timeouts} answers "
                                      "had timed out, and the check stops after this game"))
        answer = await self.bot.decide(decision, view, alone)
        if answer.fault is not None and answer.fault.kind is FaultKind.TIMEOUT:
            self.timeouts += 1
        auction = view.get("auction")
        asked = Asked(self.scenario, decision.kind, auction["type"] if auction else None,
                      bool(auction and auction["auctioneer"] == decision.seat), answer.fault,
                      answer.seconds, answer.request_id,
                      bool(view.get("double") and view["double"]["seat"] == decision.seat),
                      view.get("round", 0),
                      decision.kind is DecisionKind.PLAY and has_double_chance(self.edition,
                                                                            view["hand"]),
                      self.seat)
        self.asked.append(asked)
        if (self.inject_warning_at is not None and answer.fault is None
                and len(self.asked) >= self.inject_warning_at and self.warned_id is None):
            # A harmless, made-up rejection: the bot must read it and keep playing.
            self.warned_id = answer.request_id
            assert answer.action is not None
            self.bot.warn(answer, Fault(FaultKind.ILLEGAL, "check: a test warning, please ignore"),
                          answer.action)
        return answer

    def warn(self, answer: Answer, fault: Fault, applied: Action) -> None:
        for a in reversed(self.asked):
            if a.request_id == answer.request_id and a.fault is None:
                a.fault = fault
        self.bot.warn(answer, fault, applied)

    async def end_game(self, standing: Standing) -> list[Fault]:
        return await self.bot.end_game(standing)

    async def retire(self) -> None:
        await self.bot.retire()

    async def aclose(self) -> None:
        await self.bot.aclose()


async def run_check(
    spec: BotSpec, move_time: float = DEFAULT_MOVE_TIME, time_bank: float = DEFAULT_TIME_BANK,
    startup_time: float = DEFAULT_STARTUP_TIME, transcript: Path | None = None,
    progress: Callable[[int, str], None] = lambda number, scenario: None,
    stderr: Path | None = None, kept: list[BotPlayer] | None = None,
) -> tuple[list[CheckResult], list[float]]:
    """The checks and the bot's reply times; `progress(number, scenario)` is told as each
    scenario's game begins (from 0); `stderr`: where to keep the bot's stderr (as `play
    --stderr-dir` does), else only a crash's reason quotes it; `kept` is given the bot's
    player once closed: what it saw of the bot (its stderr's error lines, its goodbye).
    Without a `transcript` to keep, the checks' own is a file with no name (unlinked at once,
    or never linked),
    written and read through /proc/self/fd: it goes with the referee however it ends,
    SIGKILL included."""
    with ExitStack() as stack:
        if transcript is None:
            try:
                temp = stack.enter_context(
                    tempfile.TemporaryFile(prefix="referee-check-", suffix=".jsonl"))
            except OSError as exc:  # none of the temporary folders can be written: no room
                raise RefereeError(f"the checks' transcript cannot be made: {exc}") from None
            transcript = Path(f"/proc/self/fd/{temp.fileno()}")
        return await _run(spec, move_time, time_bank, startup_time, transcript, progress,
                          stderr, kept)


async def _run(
    spec: BotSpec, move_time: float, time_bank: float, startup_time: float, transcript: Path,
    progress: Callable[[int, str], None], stderr: Path | None = None,
    kept: list[BotPlayer] | None = None,
) -> tuple[list[CheckResult], list[float]]:
    bot = BotPlayer(spec, startup_time=startup_time, transcript_path=transcript,
                    stderr_path=stderr)
    if kept is not None:
        kept.append(bot)
    rec = Recorder(bot)
    results: list[CheckResult] = []
    starts_ok = True
    played = 0
    exits: list[str] = []  # why its process ended between games
    try:
        await bot.start()  # its hello names it in the games, unless it was given a name
        [named] = named_by_hellos([spec], [bot.hello_name])
        bot.name = rec.name = named.name
        for number, sc in enumerate(SCENARIOS):
            slow = [a for a in rec.asked
                    if a.fault is not None and a.fault.kind is FaultKind.TIMEOUT]
            if len(slow) >= MAX_TIMEOUTS:
                results.append(CheckResult(
                    "answers in time", False,
                    f"{len(slow)} answers timed out (first: {slow[0].fault.reason}); the check "  # type: ignore[union-attr]
                    f"stopped before scenario {sc.name!r}", kinds={FaultKind.TIMEOUT},
                    counted=False))
                break
            progress(number, sc.name)
            rec.scenario, rec.edition, rec.seat = sc.name, sc.edition, sc.seat
            rec.inject_warning_at = 3 if number == 0 else None
            # the opponents numbered from 1 in seat order, the bot's seat skipped
            opponent = {seat: seat + (seat < sc.seat) for seat in range(sc.players)
                        if seat != sc.seat}
            names = [f"opponent{opponent[seat]}" if seat in opponent else bot.name
                     for seat in range(sc.players)]
            deck = (deck_with_seat_holding(sc.deck_type, sc.players, sc.seed, sc.seat)
                    if sc.deck_type is not None else None)
            game = GameSpec.make(f"check-{sc.name}", sc.seed, names, sc.edition, sc.variants,
                                 move_time=move_time, time_bank=time_bank, max_faults=1000)
            if deck is not None:
                game = game.model_copy(update={"deck": deck})
            players = [random_player(names[seat], sc.seed * 10 + opponent[seat] - 1)
                       if seat in opponent else rec for seat in range(sc.players)]
            record = await play_game(game, players)
            played += 1
            for fault in record.result.faults[sc.seat]:
                if fault.kind is FaultKind.EXIT:
                    exits.append(fault.reason)
                if fault.kind is FaultKind.START:
                    starts_ok = False
                    results.append(CheckResult("starts and says hello", False, fault.reason,
                                               kinds={FaultKind.START}))
            if not starts_ok:
                return results, []
    finally:
        await bot.aclose()
    results.insert(0, CheckResult("starts and says hello", True, f"hello from {bot.hello_name!r}"))
    cut_short = (f"; the check stopped after {played} of {len(SCENARIOS)}"
                 if played < len(SCENARIOS) else "")
    crashed = len({a.scenario for a in rec.asked
                   if a.fault is not None and a.fault.kind is FaultKind.CRASH})
    several = played > 1 and not exits and bot.starts < played  # a process played 2 or more
    # restarted only because it crashed in its games: whether one process plays them all is
    # not shown either way
    after_crashes = not several and not exits and bot.starts > 1 and crashed >= bot.starts - 1
    # the check stopped (timeouts) after one game: no second game asked it
    one_game = played < 2 and not exits
    # stopped (timeouts) after two or more of its games: what it checks, one process through
    # all of them, was not seen, so a bot too slow to finish the check passes nothing of it
    stopped = bool(cut_short) and not exits and not after_crashes and not one_game
    results.append(CheckResult(
        "plays several games in one process", several and not stopped,
        f"the bot process was started {'once' if bot.starts == 1 else counted(bot.starts, 'time')}"
        f" for {counted(played, 'game')}{cut_short}"
        + (f"; it {exits[0]}" if exits else "")
        + ("; it was started afresh after crashing in its games (below), so whether one "
           "process plays them all is not told" if after_crashes else "")
        + ("; one game tells nothing of whether one process plays them all" if one_game
           else "")
        + (", before it could tell whether one process plays them all" if stopped else ""),
        not_run=after_crashes or one_game or stopped))
    in_cmon = [a for a in rec.asked if a.scenario not in EDITION_CHECKS]
    for name, pred in CHECKS:
        hits = [a for a in in_cmon if pred(a)]
        bad = [a for a in hits if a.fault is not None]
        if not hits and name in OPTIONAL:  # the bot's own choices decide whether it comes up
            results.append(_not_reached(name, in_cmon, cut_short))
        elif not hits:
            why = (f"the check stopped asking after {rec.timeouts} answers timed out"
                   if rec.timeouts >= MAX_TIMEOUTS else "an earlier fault may have retired it")
            results.append(CheckResult(name, False, "this situation never came up: the bot was "
                                       f"not asked it ({why})", not_run=True))
        elif bad:
            home = [a for a in bad if a.scenario == HOME.get(name)]
            shown = (home or bad)[0]  # "first": in the scenario made for it, if it failed there
            f = shown.fault
            assert f is not None
            results.append(CheckResult(name, False, f"{len(bad)} of {len(hits)} answers failed; "
                                       f"first: {f.kind}: {reason(shown, transcript)}",
                                       _exchange(shown, transcript),
                                       {a.fault.kind for a in bad if a.fault is not None}))
        else:
            results.append(CheckResult(name, True, f"{counted(len(hits), 'answer')} accepted"))
    for sc in SCENARIOS:
        if sc.name in EDITION_CHECKS:
            results.append(_edition_result(sc, [a for a in rec.asked if a.scenario == sc.name],
                                           transcript))
    after = [a for a in rec.asked if rec.warned_id is not None and a.request_id > rec.warned_id
             and a.scenario == SCENARIOS[0].name]
    failed = [a for a in after if a.fault is not None]
    if rec.warned_id is None:  # it follows an accepted answer
        said = "never warned: the test warning follows an accepted answer, and none came"
    else:  # requests, not answers: a timeout or a crash is no answer
        said = (f"{len(after)} requests after the warning" if after else
                "no request after the warning")
    first = failed[0].fault if failed else None
    results.append(CheckResult(
        "keeps playing after a warning", bool(after) and not failed,
        said + (f", {len(failed)} of them failed; first: {first.kind}: "
                f"{reason(failed[0], transcript)}" if first else ""),
        not_run=rec.warned_id is None))
    results.append(_move_time_result(rec.asked, move_time, transcript))
    results.append(_unasked_result(transcript))
    times = [a.seconds for a in answers_of(rec.asked)]
    return results, times


def timeouts_of(asked: list[Asked]) -> list[Asked]:
    """The requests the bot did not answer in time."""
    return [a for a in asked if a.fault is not None and a.fault.kind is FaultKind.TIMEOUT]


def answers_of(asked: list[Asked]) -> list[Asked]:
    """The bot's accepted answers: not its faults (an answer refused, or none in time).  The
    move-time check and the response times both count these, and the timeouts apart."""
    return [a for a in asked if a.fault is None]


def _situation(a: Asked) -> str:
    """Where an answer was asked, for the line above its exchange: the scenario and the bot's
    seat there (a bot that takes seat 0's money for its own fails at another), the round, the
    request, and the decision in words."""
    what = a.kind.value
    if a.auction_type is not None:
        whose = "its own" if a.auctioneer else "another seat's"
        what += f" in {whose} {a.auction_type} auction"
    return (f"scenario {a.scenario} (the bot at seat {a.seat}), round {a.round}, request id "
            f"{a.request_id} ({what}):")


def _exchange(a: Asked, transcript: Path) -> list[str]:
    """The lines shown under a failed check: where the answer was asked, and the exchange."""
    return [_situation(a), *exchanged(transcript, a.request_id, f"check-{a.scenario}")]


def _not_reached(name: str, asked: list[Asked], cut_short: str) -> CheckResult:
    """An optional situation that never came up: passed when the bot had the chance and
    chose otherwise (its answers there accepted), whatever happened elsewhere, so that the
    same play gives the same verdict."""
    chances = [a for a in asked if a.double_chance]
    chose = [a for a in chances if a.fault is None]
    if cut_short:
        return CheckResult(name, False, f"not reached, and the check stopped early{cut_short}",
                           not_run=True)
    if chose:
        return CheckResult(name, True, f"not reached: {len(chose)} times the bot held a double "
                           "and a second card of its artist, and played another card")
    if chances:
        return CheckResult(name, False, f"not reached: each of the {len(chances)} times the bot "
                           "held a double and a second card of its artist, its answer was a "
                           "fault (replaced by a default)")
    return CheckResult(name, True, "not reached: the bot never held a double and a second card "
                       "of its artist when it was to play")


def stalls_forgiven(answers: int, move_time: float) -> tuple[int, float]:
    """How many late answers of `answers` accepted ones the move-time check forgives, and how
    long each may take at most: load stalls of the machine (`STALLS_PER`, `STALL`)."""
    return max(1, answers // STALLS_PER), move_time + max(move_time, STALL)


def _move_time_result(asked: list[Asked], move_time: float, transcript: Path) -> CheckResult:
    """Failed when answers took longer than the move time (each overrun came out of the time
    bank, which a tournament game would spend), or requests timed out; a warning above
    `SLOW_SHARE` of it, and for a few answers over it that a loaded machine's stalls make
    (`stalls_forgiven`): identical bots graded on one machine must get the same verdict, and
    a bot late routinely is late far more often.  The answers counted are those the response
    times are of, the accepted ones (`answers_of`), and the timeouts are counted apart."""
    if not asked:
        return CheckResult(MOVE_TIME_CHECK, False, "the bot was never asked anything")
    if all(a.fault is not None and a.fault.kind is not FaultKind.TIMEOUT for a in asked):
        # a crash at every game's start is no answer in time: nothing to pass
        return CheckResult(MOVE_TIME_CHECK, False, "no answer was accepted (the failures "
                           "above), so whether its answers come in time is not told",
                           not_run=True)
    answers = answers_of(asked)
    timeouts = timeouts_of(asked)
    limit = f"the move time of {move_time:g} s"
    timed_out = (f"{len(timeouts)} request{'s' if len(timeouts) > 1 else ''} timed out (no "
                 "answer within the move time and what was left of the time bank)")
    if not answers:
        return CheckResult(MOVE_TIME_CHECK, False, f"{timed_out}; no answer was accepted",
                           _exchange(timeouts[0], transcript))
    slowest = max(answers, key=lambda a: a.seconds)
    took = f"{slowest.seconds * 1000:.0f} ms"
    over = [a for a in answers if a.seconds > move_time]
    # The first answer of all: a Java entrant's table built at its first request, blamed on
    # the machine.  Set-up before the hello has the start-up limit and spends no bank.  Not
    # said of a bot late at most of its answers: its set-up is not what makes it slow.
    first = (". The bot's first answer was late: set-up done then (loading, tables, a JIT's "
             "warm-up) is better done before its hello, which has the start-up limit and "
             "spends no time bank."
             if any(a.request_id == 1 for a in over) and 2 * len(over) <= len(answers)
             else "")
    most, longest = stalls_forgiven(len(answers), move_time)
    forgiven = (f"up to {most} late answer{'s' * (most > 1)}, 1 in {STALLS_PER} and at least "
                f"one, each within {longest:g} s")
    if over and len(over) <= most and slowest.seconds < longest and not timeouts:
        return CheckResult(MOVE_TIME_CHECK, True, (
            f"{len(over)} of {len(answers)} accepted answers took longer than {limit} (the "
            f"slowest {took}): the time bank absorbed {'them' if len(over) > 1 else 'it'}, "
            f"and {forgiven}, can be a busy machine's stalls rather than the bot; more, or "
            "one later, fails this check" + first), _exchange(slowest, transcript),
            warning=True)
    if over:
        return CheckResult(MOVE_TIME_CHECK, False, (
            f"{len(over)} of {len(answers)} accepted answers took longer than {limit} (the "
            f"slowest {took})" + (f", and {timed_out}" if timeouts else "")
            + "; each overrun comes out of the game's time bank, and once it is spent "
            "every late answer is a timeout" + (f" (a busy machine's stalls are forgiven: "
                                               f"{forgiven})" if not timeouts else "")
            + first), _exchange(slowest, transcript))
    if timeouts:
        return CheckResult(MOVE_TIME_CHECK, False, (
            f"{timed_out}; the {len(answers)} accepted answers came within {limit} (the "
            f"slowest {took})"), _exchange(timeouts[0], transcript))
    near = [a for a in answers if a.seconds > SLOW_SHARE * move_time]
    if near:
        return CheckResult(MOVE_TIME_CHECK, True, (
            f"{len(near)} of {len(answers)} accepted answers took over {SLOW_SHARE:.0%} of "
            f"{limit} (the slowest {took}): a slower machine or a busier tournament may push "
            "them over"), _exchange(slowest, transcript), warning=True)
    return CheckResult(MOVE_TIME_CHECK, True, f"the slowest of {len(answers)} accepted answers "
                       f"took {took}, within {SLOW_SHARE:.0%} of {limit}")


def _unasked_result(transcript: Path) -> CheckResult:
    """A warning when the bot wrote lines that answer no request (a reply to `new_game` or to
    each event): the referee skips them, but they cost it time, and more than a few while a
    request waits are a fault."""
    unasked = unasked_lines(transcript)
    if unasked is None:
        return CheckResult(UNASKED_CHECK, True, "every line the bot wrote answered a request")
    pushed = (f"; {unasked.pushed} of them came after a line that was not the bot's reply "
              "and was taken as that request's answer (the faults above): a line "
              "of debug output on stdout pushes the bot's real answer back, and it is skipped"
              if unasked.pushed else "")
    return CheckResult(UNASKED_CHECK, True, (
        f"{unasked.count} lines the bot wrote answer no request (replies to requests already "
        "answered, or to new_game, events, warnings or game_end, which want none); the referee "
        f"skips them, but more than {STALE_AT_MOST} while a request waits are a wrong_id "
        f"fault{pushed}"), [f"the first, after the referee sent {unasked.after}:",
                            unasked.first], warning=True)


def _edition_result(sc: Scenario, hits: list[Asked], transcript: Path) -> CheckResult:
    """The check of a scenario in another edition than cmon: its failure says the edition."""
    name, where = EDITION_CHECKS[sc.name], in_edition(sc.edition)
    if not hits:
        return CheckResult(name, False, f"{where}, the bot was never asked anything (an "
                           "earlier fault may have stopped the check)", not_run=True)
    bad = [a for a in hits if a.fault is not None]
    if not bad:
        return CheckResult(name, True, f"{counted(len(hits), 'answer')} accepted {where}")
    first = bad[0].fault
    assert first is not None
    told = reason(bad[0], transcript)
    what = (f"the bot crashed: {told}" if first.kind is FaultKind.CRASH else
            f"{len(bad)} of {len(hits)} answers failed; first: {first.kind}: {told}")
    return CheckResult(name, False, f"{where}, {what}", _exchange(bad[0], transcript),
                       {a.fault.kind for a in bad if a.fault is not None})


def summary(times: list[float]) -> str:
    """The response times of the accepted answers (`answers_of`, as `run_check` gives them):
    those the move-time check counts."""
    if not times:
        return "no response times: no answer was accepted"
    return (f"response time: median {statistics.median(times) * 1000:.2f} ms, "
            f"max {max(times) * 1000:.2f} ms over {len(times)} accepted answers (answers "
            "that were faults, and timeouts, are not counted)")
