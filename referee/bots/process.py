"""One running bot process and its I/O: lines written to its stdin, bounded lines read from its
stdout with a deadline (waited for outside trio where that is cheaper, `polling.py`), and how
it ended.

It is started by `start.py` and stopped by `stop.py` (its `aclose`): goodbye, grace, then its
whole process group killed and reaped, cancellation included.
"""

from __future__ import annotations

import fcntl
import math
import os
import select
import signal
import sys
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import trio

from . import proc_tree
from .errors import BotGone, LineTooLong, ReplyTimeout
from .limits import DEFAULT_STDERR_PER_GAME
from .pids_cgroup import PidsCgroup
from .polling import Polling, default_spin, hold_ms, loop_wakeup_fd, this_machine
from .stderr_log import StderrLog
from .stop import shutdown

# How a bot that went away is said: its output came to an end, or its input took no more.
CLOSED_OUTPUT = "closed its output"
STOPPED_READING = "stopped reading its input"


@dataclass(frozen=True)
class ProcessLimits:
    """How a bot process's output is bounded and logged, and how long its stop may take."""

    max_line: int = 64 * 1024  # bytes in one line from the bot
    stderr_per_game: int = DEFAULT_STDERR_PER_GAME  # bytes of stderr kept in the log per game
    goodbye_grace: float = 0.5  # seconds to exit after goodbye before SIGTERM
    term_grace: float = 0.5  # seconds after SIGTERM before SIGKILL
    reap_within: float = 5.0  # seconds after SIGKILL before the referee goes on without it
    # Seconds to poll for a reply before sleeping; None: `polling.SPIN` where the referee may
    # use two cores or more (affinity and cgroup quota, `cores.py`), else 0, and then only
    # while a core is idle (`polling.Machine`).  See `_spin_read`.
    spin: float | None = None
    # Other tables share the reader's event loop: it then waits for every reply in trio,
    # neither polling nor sleeping in poll(2) (`_wait_read`), which would delay them.
    shared_loop: bool = False
    # At a game's start, a stderr log larger than this starts afresh (a named log's old
    # content is kept in NAME.1), so a long tournament's log does not grow without end.
    stderr_restart: int = 256 << 20


class BotProcess:
    """A running bot: write lines, read bounded lines with a deadline."""

    def __init__(self, process: trio.Process, stderr: StderrLog, limits: ProcessLimits,
                 sandboxed: bool = False, group: PidsCgroup | None = None) -> None:
        self.process = process
        self.group = group  # its pids cgroup, removed once it is stopped
        self.sandboxed = sandboxed  # run by bwrap, which exits 128 + N for a signal N
        self.stderr = stderr
        self.limits = limits
        self._stdin = process.stdin
        self._stdout = process.stdout
        self._buf = bytearray()
        self._skipping = False  # inside an over-long line, dropping bytes to its newline
        self.closed_stdout = False
        self._closed = False
        self.lingered = False  # told goodbye, it was still running when its grace ended
        self.tee: Callable[[str, bytes], None] | None = None  # sees every line both ways
        assert process.stdin is not None and process.stdout is not None
        # On Unix both pipes are trio FdStreams (non-blocking); the hot path uses the fds.
        self._wfd = cast(trio.lowlevel.FdStream, process.stdin).fileno()
        self._rfd = cast(trio.lowlevel.FdStream, process.stdout).fileno()
        self.spin = 0.0 if limits.shared_loop else default_spin() if limits.spin is None \
            else limits.spin
        # whether to poll for its replies; the machine is consulted where that is the default
        self.polling = Polling(self.spin, this_machine() if limits.spin is None else None)
        self._sent_at = 0.0
        self._polled = False  # the reply to the last request was polled for
        self._poller = select.poll()  # its output and the trio run's epoll (`_hold_read`)
        self._poller_of = -1  # the epoll descriptor `_poller` holds
        self._own: select.poll | None = None  # in the sandbox, `follow_own_process`
        self._own_fd = -1

    def follow_own_process(self) -> None:
        """In the sandbox the referee's child is bwrap, whose pid 1 tells it of the bot's exit
        only once that pid 1 has run: on a busy machine, long after a child the bot left has
        answered several requests for it.  So once the bot has said hello, its own process is
        held by a pidfd, which `exited` asks.  Without pidfds (Linux before 5.3), bwrap's own
        exit alone tells."""
        if not self.sandboxed or self._own is not None:
            return
        own = proc_tree.sandboxed_bot(self.pid)
        fd = None if own is None else proc_tree.pidfd_of(own)
        if fd is None:
            return
        self._own_fd = fd
        self._own = select.poll()
        self._own.register(fd, select.POLLIN)

    @property
    def own_process_ended(self) -> bool:
        """In the sandbox, once followed: the bot's own process has ended, and bwrap's exit
        (with its status) is bound to follow."""
        return self._own is not None and bool(self._own.poll(0))

    @property
    def exited(self) -> bool:
        """Whether the bot's own process has ended (a child it left may still write for
        it: the protocol calls that a crash).  Asked at every reply, so first without reaping
        (one `waitid` call, a fraction of `returncode`'s cost); it reaps once there is an end.
        In the sandbox, the pidfd of `follow_own_process` tells first."""
        if self.own_process_ended:
            return True
        try:
            if os.waitid(os.P_PID, self.process.pid,
                         os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
                return False
        except ChildProcessError:  # reaped already
            pass
        return self.process.returncode is not None

    @property
    def pid(self) -> int:
        return self.process.pid

    def own_pid(self) -> int | None:
        """The bot's own process id, the one a debugger attaches to: the referee's child, or
        in the sandbox bwrap's (`proc_tree.sandboxed_bot`), None while bwrap has not started
        it, or once it ended."""
        if not self.sandboxed:
            return self.pid
        own = proc_tree.sandboxed_bot(self.pid)
        return None if own is None else own.pid

    def processes(self) -> list[proc_tree.ProcStat]:
        """Its process tree, root first, and any other process in its cgroup: one that left
        the tree (a double-forked daemon, reparented to init) is still in there."""
        # Once reaped, its pid may be another process's: only its cgroup still tells.
        tree = proc_tree.tree(self.pid) if self.process.returncode is None else []
        if self.group is not None:
            tree += self.group.members({p.pid for p in tree})
        return tree

    def output_only_held_by_sandbox(self) -> bool:
        """In the sandbox: the bot's stdout pipe is held open by bwrap's own two processes
        alone, i.e. the bot closed its output.  bwrap keeps its copies, so no end of file
        comes; this look in /proc makes that the crash it is without the sandbox.  A process
        whose descriptors cannot be read counts as holding the pipe."""
        if not self.sandboxed or self.closed_stdout:
            return False
        tree = self.processes()
        if not tree:
            return False
        root = tree[0].pid
        pipe = f"pipe:[{os.fstat(self._rfd).st_ino}]"
        # bwrap outside, and bwrap as pid 1 inside, are not the bot; until a process of the
        # bot's own exists (bwrap is still setting up), nothing can be told.
        own = [p for p in tree if p.pid != root and p.ppid != root]
        if not own:
            return False
        for p in own:
            try:
                fds = os.listdir(f"/proc/{p.pid}/fd")
                if any(_link(f"/proc/{p.pid}/fd/{fd}") == pipe for fd in fds):
                    return False
            except OSError:
                if os.path.exists(f"/proc/{p.pid}"):
                    return False
        return True

    def unread(self) -> int:
        """Bytes written to the bot's input that it has not read (yet): FIONREAD on the
        pipe, which counts them even after the bot is gone."""
        try:
            got = fcntl.ioctl(self._wfd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return 0
        return int.from_bytes(got, sys.byteorder, signed=True)

    def output_waiting(self) -> int:
        """Bytes the bot wrote that no line read has taken yet: those held without a newline
        and those still in the pipe (FIONREAD), left where they are.  Looked at after a
        timeout, to tell a bot that answers late from one that is silent."""
        try:
            got = fcntl.ioctl(self._rfd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return len(self._buf)
        return len(self._buf) + int.from_bytes(got, sys.byteorder, signed=True)

    @property
    def answers_quickly(self) -> bool:
        """The referee would poll for this bot's next reply: polling is on (`spin`), at least
        half of its recent replies came within `spin` of their requests, and a core is idle
        for it (see `polling.Polling`; `_wait_read` also waits while other tasks are ready to
        run)."""
        return self.polling.pays

    @property
    def polled(self) -> bool:
        """The reply to the last request was polled for (`_spin_read`) rather than slept for
        (`benchmarks/protocol.py` tells its lines apart with it)."""
        return self._polled

    def write_now(self, data: bytes, *, request: bool = True) -> int:
        """Write what the pipe takes without waiting; the bytes written.  The pipe is
        non-blocking, and a plain `os.write` usually takes it all, at a fraction of the cost
        of trio's stream machinery.  `request`: the reply time and the polling window of the
        bot's next reply run from now; False for lines sent ahead of a request (its events).
        Raises BotGone if the bot closed its input."""
        if request:
            self._sent_at = time.perf_counter()
            self._polled = False
        try:
            sent = os.write(self._wfd, data)
        except BlockingIOError:
            sent = 0
        except OSError as exc:  # EPIPE: the bot closed its input or died
            raise BotGone(STOPPED_READING) from exc
        if self.tee is not None and sent:
            self.tee("to_bot", data[:sent])
        return sent

    async def send(self, data: bytes, deadline: float = math.inf, *, sent: int = -1) -> None:
        """Write and flush; a bot that closed its stdin, or leaves it full past `deadline`
        (it stopped reading), counts as gone: the stream cannot be used after that.
        `sent`: bytes of `data` that `write_now` already wrote."""
        assert self._stdin is not None
        if sent < 0:
            sent = self.write_now(data)
        if sent == len(data):
            return
        with trio.move_on_at(deadline):
            try:
                await self._stdin.send_all(data[sent:])
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                raise BotGone(STOPPED_READING) from exc
            if self.tee is not None:  # what reached the bot, as `write_now` logs it
                self.tee("to_bot", data[sent:])
            return
        raise BotGone("stopped reading its input (the pipe to it stayed full)")

    def _try_read(self) -> bytes | None:
        """What the pipe holds now (b"" at end of file), or None if nothing yet."""
        try:
            return os.read(self._rfd, 65536)
        except BlockingIOError:
            return None
        except OSError:
            return b""

    def _wait_read(self, until: float) -> bytes | None:
        """Wait for the reply here rather than in trio, where no other task is ready to run:
        poll for a bot for which that pays (`_spin_read`), then sleep in poll(2) until `until`
        (trio's clock) or trio's next deadline (`_hold_read`).  Both cost less than parking
        the task in trio and waking it through its scheduler, which costs the referee tens of
        microseconds of CPU a reply."""
        if self.limits.shared_loop:
            return None
        stats = trio.lowlevel.current_statistics()
        if stats.tasks_runnable:
            return None
        data = self._spin_read() if self.polling.spin_now() else None
        if data is not None:
            return data
        ms = hold_ms(until, trio.current_time(), stats.seconds_to_next_deadline)
        return self._hold_read(ms) if ms else None

    def _spin_read(self) -> bytes | None:
        """Poll the pipe until `spin` seconds after the request: a bot that answers within
        microseconds is then read without even a sleep and a wake-up.  Only where `Polling`
        says it pays (a quick bot, a core idle for it) or to see whether a bot has become
        quick, so that slow bots and other processes lose nothing."""
        self._polled = True
        until = self._sent_at + self.spin
        while time.perf_counter() < until:
            data = self._try_read()
            if data is not None:
                return data
            os.sched_yield()  # a bot waiting for this core gets it at once
        return None

    def _hold_read(self, ms: int) -> bytes | None:
        """Sleep in poll(2) until the pipe is readable, for `ms` milliseconds at most, and
        read it; None if it stayed empty.  The trio run's own epoll descriptor is polled as
        well: it is readable as soon as any other task's descriptor is, or a signal or a
        thread wakes the run, and then this gives way to trio at once, so no other task or
        table waits on the sleep."""
        wakeup = loop_wakeup_fd()
        if wakeup is None:
            return None
        if self._poller_of != wakeup:
            self._poller = select.poll()
            self._poller.register(self._rfd, select.POLLIN)
            self._poller.register(wakeup, select.POLLIN)
            self._poller_of = wakeup
        for fd, _ in self._poller.poll(ms):
            if fd == self._rfd:
                return self._try_read()
        return None

    def line_now(self, *, spin: bool = True, until: float = -math.inf) -> bytes | None:
        """The next line without its newline if it is here now, else None; raises BotGone or
        LineTooLong.  `spin`: the caller may hold the event loop a moment, waiting for the
        line here (see `_wait_read`), polling for it and then sleeping until `until` (trio's
        clock: the reply's deadline, say) at most."""
        buf = self._buf
        max_line = self.limits.max_line
        polled = not spin
        while True:
            if not self._skipping:
                end = buf.find(b"\n")
                if end > max_line:  # a complete line, but too long: drop it whole
                    del buf[: end + 1]
                    raise LineTooLong(f"a line longer than {max_line} bytes")
                if end >= 0:
                    line = bytes(buf[:end])
                    del buf[: end + 1]
                    if self.tee is not None:
                        self.tee("from_bot", line + b"\n")
                    self.polling.replied(time.perf_counter() - self._sent_at, self._polled)
                    return line
                if len(buf) > max_line:
                    buf.clear()
                    self._skipping = True
                    raise LineTooLong(f"a line longer than {max_line} bytes")
            if self.closed_stdout:
                raise BotGone(CLOSED_OUTPUT)
            data = self._try_read()
            if data is None and not polled:
                polled = True
                data = self._wait_read(until)
            if data is None:
                return None
            if not data:
                self.closed_stdout = True
                raise BotGone(CLOSED_OUTPUT)
            if not buf and not self._skipping:
                end = data.find(b"\n")
                if end == len(data) - 1 and end <= max_line:
                    # One whole line and nothing else, as a reply usually comes: returned as
                    # it is, saving the buffer's copies on the way to waking the next bot.
                    if self.tee is not None:
                        self.tee("from_bot", data)
                    self.polling.replied(time.perf_counter() - self._sent_at, self._polled)
                    return data[:end]
            if self._skipping:
                end = data.find(b"\n")
                if end < 0:
                    continue
                self._skipping = False
                data = data[end + 1 :]
            buf += data

    async def read_line(self, deadline: float, *, spin: bool = True) -> bytes:
        """The next line without its newline; raise ReplyTimeout, BotGone or LineTooLong.
        `spin`: as `line_now`'s."""
        line = self.line_now(spin=spin, until=deadline)
        while line is None:
            if trio.current_time() >= deadline:
                buf = self._buf
                partial = f" ({len(buf)} bytes without a newline)" if buf else ""
                raise ReplyTimeout(f"no complete line in time{partial}", len(buf))
            with trio.move_on_at(deadline):
                await trio.lowlevel.wait_readable(self._rfd)
            line = self.line_now(spin=False)  # readable, or past the deadline: once more
        return line

    async def aclose(self, goodbye: bytes | None = None) -> None:
        """Stop the process and its group, reap it and close its stderr log; shielded, so it
        also runs when the caller is being cancelled (Ctrl-C)."""
        if self._closed:
            return
        self._closed = True
        try:
            with trio.CancelScope(shield=True):
                self.lingered = await shutdown(self, goodbye)
            self.stderr.check()
        finally:
            try:
                self.stderr.close()
            finally:
                if self._own_fd >= 0:
                    os.close(self._own_fd)
                    self._own, self._own_fd = None, -1

    def exit_description(self) -> str:
        """How the process ended ("exit status 3", "killed by SIGSEGV") or "running"."""
        code = self.process.returncode
        if code is None:
            return "still running"
        if self.sandboxed and 128 < code < 128 + 65:
            code = -(code - 128)  # as if it were the process itself
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"


def _link(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""
