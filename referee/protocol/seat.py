"""One seat's side of the protocol, without I/O (in h11's manner): what the referee sends a bot
as bytes, what a line read from it means as an event, and the state that decides both.

`SeatProtocol` turns decisions into request bytes (with the game's lines held since the last
request), and a line read into `Replied | Stale | Faulted`.  It keeps the request ids, the
lines pending for the bot (events, warnings), the clock (the move time and what is left of the
time bank; time is passed in by the caller, never read here), and what was sent of a game
before the bot's first reply in it, which a fresh process is sent again if the bot turns out to
have ended between games without reading any of it.

Who reads and writes the pipe, polls, watches limits and starts or stops the process is the
caller's business: `match.bot_player.BotPlayer` in a game, and `match.seat_part` and
`match.rerun`, which drive the same object from a record or a transcript.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import orjson

from referee import __version__
from referee.game import Action, Decision

from . import codec
from .messages import FaultKind

__all__ = [
    "BUSY", "BUSY_AT_START", "BUSY_BEFORE", "GOODBYE", "HELLO", "IDLE", "IDLE_BEFORE", "LATE",
    "LATE_HELLO",
    "STALE_AT_MOST", "UNFLUSHED", "WARNED_AS_THEMSELVES", "Faulted", "Replied", "SeatProtocol",
    "Stale",
]

GOODBYE = codec.encode(codec.GOODBYE)
# The first line every bot process is sent (`referee replay --bot` sends it too).
HELLO = codec.encode(codec.hello(f"modern-art-referee {__version__}"))
# A timeout with nothing ever read from the bot (no hello; no reply since its hello).
UNFLUSHED = (" (nothing came from it: check that the bot flushes its output, and that it "
             "answers each line as it comes, not once its input ends)")
# A timeout with nothing read from the bot since its hello (or at all, before its hello),
# while it was still using the CPU.
_STILL_BUSY = (" (nothing came from it, and it was still using the CPU when its time ran out: "
               "most likely it is busy ")
BUSY = _STILL_BUSY + ("with this request, in a loop that does not end or a search too long "
                      "for the time allowed)")
BUSY_AT_START = _STILL_BUSY + ("before its hello, in a loop that does not end or a start too "
                               "slow for the limit)")
# The same, of a bot that has not read the request: busy with what came before it.
BUSY_BEFORE = _STILL_BUSY + ("with what came before this request, which it has not read (its "
                             "new game or an event), in a loop that does not end or work too "
                             "long for the time allowed)")
# A timeout after the bot had answered (the first of a silence), with the bot found idle, not
# using the CPU: having read the request (its reply may wait in a buffer), or not.  A sleep
# looks the same from outside: both are said.
IDLE = (" (nothing came from it, though it read this request, and it was not using the CPU: "
        "its reply may wait in its output buffer (check that it flushes each one), or it may "
        "be waiting, in a sleep or on a lock)")
IDLE_BEFORE = (" (nothing came from it, and it has not read this request, though it was not "
               "using the CPU: most likely it is waiting, in a sleep or on a lock, while "
               "handling what came before the request)")
# A start with no hello in time, its output come just after.
LATE_HELLO = (" (nothing came from it in time, and its output came just after: it flushes, "
              "but its start took longer than the limit)")
# A timeout with nothing read from the bot since its hello, and its output come just after.
LATE = (" (nothing came from it in time, and its output came just after: it flushes, but it "
        "took longer than the time allowed)")
# Replies to earlier requests skipped in one decision before the decision is faulted: a late
# answer is allowed for each request that timed out, and a bot is retired after a few faults,
# so more than this is a flood, which must neither hold the decision nor the referee's CPU.
STALE_AT_MOST = 16
# A warning names these faults as they are; any other rejected reply is `illegal`.
WARNED_AS_THEMSELVES = frozenset({FaultKind.TIMEOUT, FaultKind.MALFORMED, FaultKind.WRONG_ID})


# ---------------------------------------------------------------- events: what a line means
# Immutable and typed, as h11's events; named tuples because one is made on every decision, at
# a fraction of a frozen dataclass's cost.  Tell them apart by type, not by equality (a
# tuple's).


class Replied(NamedTuple):
    """The bot answered the request: the action it asks for (the rules may still refuse it),
    and the seconds it took."""

    action: Action
    seconds: float
    request_id: int


class Stale(NamedTuple):
    """A reply to an earlier request (one that timed out), skipped: the bot's answer to this
    request is still to come.  `skipped`: such replies so far in this decision."""

    reply_id: int
    request_id: int
    skipped: int


class Faulted(NamedTuple):
    """The request ends in the bot's fault: no reply in time, a malformed one, a wrong id, a
    flood of late replies.  `line`: a malformed reply, which the record keeps."""

    kind: FaultKind
    reason: str
    seconds: float
    request_id: int
    line: bytes | None = None


Received = Replied | Stale | Faulted
# `Replied(...)` through the tuple's own constructor, skipping the named tuple's `__new__` in
# Python: one is made on every decision, on the path from a bot's answer to waking the next.
_new = tuple.__new__
# `codec.encode`, written out in `request` for the same reason.
_dumps = orjson.dumps
_NEWLINE = orjson.OPT_APPEND_NEWLINE


# ---------------------------------------------------------------- the seat


class SeatProtocol:
    """The protocol with one seat's bot, across its games and processes (ids run on)."""

    def __init__(self) -> None:
        self.hello_name: str | None = None
        self.request_id = 0  # the last request's
        self.seat = 0
        self.game_id = ""
        self.move = 0.0  # this game's move time, and what is left of its time bank
        self.bank = 0.0
        self.stale = 0  # replies to earlier requests skipped in this decision
        self._last_stale = (0, 0.0)  # the last one's id, and seconds into this request
        self.skipped = 0  # and in all: late answers, and lines that answer no request
        # A request that timed out with nothing read from the bot since (`timed_out`).
        self._silent_since: int | None = None
        self._busy = False  # found using the CPU at a timeout before any reply (`timed_out`)
        # Whether it was found using the CPU at a timeout of a request it read in that silence
        # (`read_in_silence`; None: not looked at in this silence).  Reset as a silence
        # begins (`timed_out`), not at each reply: a reply's path does no more for it.
        self._busy_reading: bool | None = None
        # The last request of that silence the bot had read when it timed out (None: none):
        # the one a bot that has not read a later request is most likely still busy with.
        self._last_read: int | None = None
        self._out: list[bytes] = []  # lines for the bot, sent with what goes next
        # Encoded lines for the bot (its events), sent with what goes next: the list's own
        # `extend`, as this is called for every seat at every step.
        self.send: Callable[[Iterable[bytes]], None] = self._out.extend
        # Per process: the games it was given (this one included), lines read after its hello.
        self.games = 0
        self.replies = 0
        self.answered = False  # a line was read from the bot in this game
        # This game's bytes written to the bot until its first reply in it (`opened`, `reopen`).
        self._opening: list[bytes] = []
        self._reopened = False  # a fresh process was sent this game's opening

    # ------------------------------------------------------------ process life

    def started(self) -> bytes:
        """A fresh process: its first line, the hello."""
        self.games = 0
        self.replies = 0
        self._silent_since = None
        self._busy = False
        return HELLO

    def receive_hello(self, line: bytes) -> str:
        """The bot's name from its hello; `codec.ProtocolError` (malformed) if it is not one."""
        self.hello_name = codec.decode_hello(line).name
        return self.hello_name

    @staticmethod
    def no_hello(limit: float, partial: int, busy: bool = False, late: bool = False) -> str:
        """Why a start failed when no hello came within `limit` seconds; `partial`: bytes read
        without a newline; `busy`: with nothing read, the bot was found using the CPU (an
        endless loop, not an unflushed hello); `late`: its output came in that look (a slow
        start, not an unflushed hello)."""
        return f"no hello within the start-up limit of {limit:g} s" + (
            f" ({partial} bytes without a newline)" if partial else
            LATE_HELLO if late else BUSY_AT_START if busy else UNFLUSHED)

    @property
    def between_games(self) -> bool:
        """The process ended, or is found gone, before it answered in its second game or a
        later one: it may have ended between games."""
        return self.games > 1 and not self.answered

    # ------------------------------------------------------------ a game

    def begin_game(self, game_id: str, seat: int, names: list[str], edition: dict[str, Any],
                   variants: list[str], move_time: float, time_bank: float, seed: int) -> None:
        """A game starts: its `new_game` goes with the next lines sent."""
        self.seat = seat
        self.move = move_time
        self.bank = time_bank
        self.game_id = game_id
        self.games += 1
        self.answered = False
        self._opening.clear()
        self._reopened = False
        self._out.append(codec.encode(codec.new_game(
            game_id, seat, names, edition, variants, move_time, time_bank, seed)))

    @property
    def pending(self) -> int:
        """Lines waiting to be sent."""
        return len(self._out)

    def take(self) -> bytes:
        """The lines waiting to be sent, now taken to be sent (see `unsent`)."""
        data = b"".join(self._out)
        self._out.clear()
        return data

    def unsent(self, data: bytes) -> None:
        """The end of what `take` gave that the pipe did not take: it goes first next time."""
        self._out.insert(0, data)

    def request(self, decision: Decision, view: dict[str, Any]) -> bytes:
        """The next request, after the lines waiting: the bytes to write."""
        self.request_id += 1
        self.stale = 0
        out = self._out
        out.append(_dumps(codec.request(self.request_id, decision, view, self.move, self.bank),
                          option=_NEWLINE))
        data = b"".join(out)
        out.clear()
        return data

    def skip_request(self) -> int:
        """A request id for a decision the bot cannot be sent (its process is not running)."""
        self.request_id += 1
        return self.request_id

    def sent_request(self, request_id: int, seat: int) -> None:
        """A request encoded elsewhere went out (a seat's part sent again): the lines read
        next are judged against it."""
        self.request_id = request_id
        self.seat = seat
        self.stale = 0

    def receive(self, line: bytes, seconds: float) -> Received:
        """What a line read from the bot (without its newline) means for the request, which
        was written `seconds` before it was read: time past the move time comes out of the
        bank whenever the request ends (not on a `Stale` line)."""
        self.answered = True
        self.replies += 1
        self._silent_since = None
        request_id = self.request_id
        try:
            reply = codec.decode_reply(line)
        except codec.ProtocolError as exc:
            return self._faulted(FaultKind.MALFORMED, f"{exc.reason}; {codec.shown(line)}",
                                 seconds, line)
        if 0 < reply.id < request_id:  # a late answer to a request that already timed out
            self.stale += 1
            self.skipped += 1
            self._last_stale = (reply.id, seconds)
            if self.stale > STALE_AT_MOST:
                return self._faulted(FaultKind.WRONG_ID, f"{self.stale} replies to earlier "
                                     f"requests while request {request_id} waited, a flood (at "
                                     f"most {STALE_AT_MOST} late replies are skipped in a "
                                     "decision)", seconds)
            return Stale(reply.id, request_id, self.stale)
        if reply.id != request_id:
            never = " (no request has it: copy each request's id into its reply)" \
                if reply.id < 1 else ""
            return self._faulted(FaultKind.WRONG_ID, f"reply id {reply.id} does not match "
                                 f"request id {request_id}{never}", seconds)
        try:
            action = codec.reply_to_action(reply, self.seat)
        except codec.ProtocolError as exc:
            return self._faulted(FaultKind.MALFORMED, f"{exc.reason}; {codec.shown(line)}",
                                 seconds, line)
        over = seconds - self.move  # `charge`, written out on the path to the next bot
        if over > 0:
            self.bank = max(0.0, self.bank - over)
        return _new(Replied, (action, seconds, request_id))

    def malformed(self, reason: str, seconds: float) -> Faulted:
        """What came could not be read as a line at all (too long): a malformed reply."""
        return self._faulted(FaultKind.MALFORMED, reason, seconds)

    def _faulted(self, kind: FaultKind, reason: str, seconds: float,
                 line: bytes | None = None) -> Faulted:
        self.charge(seconds)
        return Faulted(kind, reason, seconds, self.request_id, line)

    # ------------------------------------------------------------ the clock

    @property
    def allowed(self) -> float:
        """Seconds the bot has for the request: its move time and what is left of the bank."""
        return self.move + self.bank

    def charge(self, seconds: float) -> None:
        """An answer took `seconds`: what is past the move time comes out of the bank."""
        over = seconds - self.move
        if over > 0:
            self.bank = max(0.0, self.bank - over)

    @property
    def first_silence(self) -> bool:
        """No request has timed out since the bot's last line (or its hello), and no late
        reply came while this one waited: a timeout now is the first of a silence, the one
        to look at whether the bot is busy (`timed_out`).  At most two looks a silence (this
        one and `read_in_silence`'s), each at a timeout, a fault that counts: a game waits for
        at most `max_faults` looks of one seat (3 by default; a tournament may raise it)."""
        return self._silent_since is None and not self.stale

    def read_in_silence(self, partial: int, unread: int) -> bool:
        """The bot has read this request (`unread`: bytes it has not read), nothing has come
        from it since an earlier request timed out, and it was not looked at in this silence:
        a timeout now is the one to look at whether it is busy (`timed_out`), once, as a bot
        still computing (or one that reads its input in a thread as it computes) is not one
        whose replies wait in its output buffer."""
        return (self._silent_since is not None and self.replies > 0 and not self.stale
                and not partial and unread <= 0 and self._busy_reading is None)

    def timed_out(self, cause: str, partial: int = 0, unread: int = 0,
                  busy: bool = False, late: bool = False) -> Faulted:
        """No reply in the time allowed (`cause`: as the reader says it; `partial`: bytes read
        without a newline; `unread`: bytes the bot was sent and has not read; `busy`: it was
        found using the CPU in the look at this timeout, `first_silence` or
        `read_in_silence`; `late`: its output came in that look): a timeout, which empties the
        bank.  The first timeout of a silence says whether the bot was busy, idle or late.  A
        bot still busy with an earlier request that timed out (nothing came from it since,
        and it has not read this one) is told so, naming the last it had read when it timed
        out: the decision to look at is that one, not this; one that has read this request
        and still wrote nothing is told to check that it flushes, unless it was found busy (it
        is slow, or reads its input as it computes) or its output came just after.  One from
        which nothing ever came is told to check that it flushes, unless it was found busy, or
        its output came just after (it is slow, not silent)."""
        move, bank = self.move, self.bank
        self.bank = 0.0
        reason = (f"no reply within {move + bank:.3g} s (move time {move:g} s + time bank "
                  f"{bank:.3g} s): {cause}")
        busy_with = self._silent_since
        if self.stale:
            reason += f" ({self._stale_said()})"
        elif busy_with is not None and unread > 0 and not partial:
            stuck = busy_with if self._last_read is None else self._last_read
            reason += (f" (the bot has not read this request: most likely it is still busy "
                       f"with the request of id {stuck}, which timed out; it has written "
                       "nothing since)")
        elif busy_with is not None and self.replies and not partial:  # it read this one
            if self._busy_reading is None:  # the look, if `read_in_silence` (once)
                self._busy_reading = busy
            if late:
                reason += LATE
            elif self._busy_reading:
                reason += (f" (nothing has come from it since the request of id {busy_with} "
                           "timed out, and it was still using the CPU when its time ran out: "
                           "most likely it is busy with this request or still with that one, "
                           "in a loop that does not end or a search too long for the time "
                           "allowed)")
            else:
                reason += (f" (nothing has come from it since the request of id {busy_with} "
                           "timed out, though it read this one: most likely its replies wait "
                           "in its output buffer; check that it flushes each one)")
        elif self.replies and not partial:  # the first timeout since it last answered
            reason += (LATE if late else (BUSY_BEFORE if unread > 0 else BUSY) if busy else
                       IDLE_BEFORE if unread > 0 else IDLE)
        elif not self.replies and not partial and late:  # nothing in time, then output
            reason += LATE
        elif not self.replies and not partial:  # nothing, ever
            self._busy = self._busy or busy
            reason += (UNFLUSHED if not self._busy else BUSY_BEFORE if unread > 0 else BUSY)
        if busy_with is None:  # a silence begins
            self._silent_since = self.request_id
            self._busy_reading = self._last_read = None
        if not partial and unread <= 0:
            self._last_read = self.request_id
        return Faulted(FaultKind.TIMEOUT, reason, move + bank, self.request_id)

    def _stale_said(self) -> str:
        """The replies to earlier requests that came while this one waited, and the likely
        cause: the bot still busy with an earlier request, or a reply given the last id."""
        count, (last, seconds) = self.stale, self._last_stale
        said = (f"{count} {'reply' if count == 1 else 'replies'} to earlier requests skipped, "
                f"the last with id {last}, {_seconds(seconds)} after this request was sent: ")
        if last == self.request_id - 1:
            return said + ("an answer to the request before this one; the bot was still busy "
                           "with it, or gives each reply the id of the request before")
        return said + ("the bot was still busy with an earlier request" if count == 1 else
                       "the bot was still busy with earlier requests")

    # ------------------------------------------------------------ after a request

    def warn(self, request_id: int, kind: FaultKind, reason: str, applied: Action) -> None:
        """A reply was rejected (`kind`, why) and `applied` played instead: the bot is told
        with the next lines sent."""
        shown = kind if kind in WARNED_AS_THEMSELVES else FaultKind.ILLEGAL
        self._out.append(codec.encode(codec.warning(request_id, shown, reason,
                                                    codec.action_to_dict(applied))))

    def game_end(self, money: Sequence[int], ranks: Sequence[int],
                 retired: Sequence[int]) -> bytes:
        """The game is over: the lines waiting and its `game_end`, the bytes to write."""
        self._out.append(codec.encode(codec.game_end(self.game_id, money, ranks, retired)))
        return self.take()

    # ------------------------------------------------------------ a game's opening

    @property
    def in_opening(self) -> bool:
        """Nothing was read from the bot in this game yet."""
        return not self.answered

    @property
    def opening_sent(self) -> bool:
        """Some of this game was written to the bot, and nothing read from it since."""
        return bool(self._opening) and not self.answered

    def opened(self, data: bytes) -> None:
        """`data` of this game went to the bot: while it has not answered in the game, it is
        what a fresh process must be sent again (`reopen`)."""
        if not self.answered:
            self._opening.append(data)

    def read_none_of_game(self, unread: int, unsent: int = 0) -> bool:
        """The bot, found gone, had read nothing of this game: `unread`, the bytes left in its
        pipe, are all this game's (less `unsent`, bytes of the last write that did not go out,
        counted negative).  Only once a game: the second time it is a crash."""
        if self.answered or not self._opening or self._reopened:
            return False
        return unread >= sum(map(len, self._opening)) + unsent

    def reopen(self) -> bytes:
        """A fresh process plays this game: it was given its hello, and is given this game's
        lines so far, the pending request's included."""
        self._reopened = True
        self.games = 1
        return b"".join(self._opening)


def _seconds(seconds: float) -> str:
    """A wait to two figures, never in exponent form ("1.2 ms", "0.38 s", "120 s")."""
    if seconds < 0.01:
        return f"{max(seconds * 1000, 0.01):.2g} ms"
    return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:.0f} s"

