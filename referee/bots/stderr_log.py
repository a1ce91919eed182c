"""A bot's stderr: a pipe the referee drains into a log file that only the referee holds.

The bot is given the write end of a pipe, never a descriptor of the log: a descriptor of the
log would let it `fchmod` or `fchown` the host's file (a sandboxed bot made its log a setuid
file that way).  A trio system task drains the pipe as the bot writes, so a noisy bot never
blocks on a full pipe, and the cap per game is kept as the bytes come: the first `per_game`
bytes of a game are written, the rest counted and dropped but for the last TAIL bytes, which
are written after a note once the game ends (or the bot crashes), so a crash still shows its
traceback.  Past the cap the dropped bytes are spliced to /dev/null uncopied, and the pipe is
emptied again at once only if it was at least half full (the bot is waiting on us, and each
emptying moves half a pipe), else after FLOOD_PAUSE seconds (to gather more): the referee's CPU
stays bounded per byte whatever the bot writes, and the pipe (PIPE_SIZE) is large enough that a
bot writing hundreds of megabytes a second is not held up by it.  A pause after every emptying,
full pipe or not, held such a bot to one pipe per pause, which a loaded machine stretches from
a millisecond to several: 40 MB took a second.

The log file is created, or reset, with mode 0644 and without following a link.  A temporary
log (no `path`) is unlinked as soon as it is open, so nothing is left in the temporary folder,
even by a referee killed with SIGKILL.
"""

from __future__ import annotations

import array
import errno
import fcntl
import os
import shutil
import tempfile
import termios
from contextlib import suppress
from pathlib import Path

import trio

from .caught import ErrorLines

TAIL = 4096  # bytes of a game's stderr kept past the cap, and quoted in a crash's reason
PIPE_SIZE = 1 << 20  # asked for; the kernel may give less (fs.pipe-max-size)
READ_CHUNK = 1 << 20
FLOOD_PAUSE = 0.001  # seconds between emptyings of a pipe past its cap found under half full
LOG_MODE = 0o644


def open_log(path: Path) -> int:
    """Open (create) `path` for appending and reading, as a plain file of the referee's with
    mode 0644: a link found there is replaced, not followed."""
    flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, LOG_MODE)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        path.unlink()
        fd = os.open(path, flags | os.O_EXCL, LOG_MODE)
    try:
        os.fchmod(fd, LOG_MODE)
    except BaseException:
        os.close(fd)
        raise
    return fd


class StderrLog:
    """The log of one bot process's stderr, fed from a pipe (`writer` is the bot's end)."""

    def __init__(self, path: Path | None, per_game: int, restart: int = 256 << 20) -> None:
        if path is None:
            fd, name = tempfile.mkstemp(prefix="bot-stderr-")
            os.close(fd)
            path = Path(name)
            self.temporary = True
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.temporary = False
        self.path = path
        self.per_game = per_game
        self.restart = restart
        try:
            self.fd = open_log(path)
        finally:
            if self.temporary:
                path.unlink()
        self._pipe, self.writer = os.pipe2(os.O_CLOEXEC)
        os.set_blocking(self._pipe, False)
        with suppress(OSError):  # past the user's pipe quota the default size will do
            fcntl.fcntl(self._pipe, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
        self._half_full = fcntl.fcntl(self._pipe, fcntl.F_GETPIPE_SZ) // 2
        self._null = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
        self.game_start = os.fstat(self.fd).st_size
        self.written = 0  # bytes the bot wrote to stderr this game
        self._tail = bytearray()  # the last bytes of this game's dropped ones
        self._eof = False
        self.errors = ErrorLines()  # its lines that look like errors (`caught.py`)
        # Where this process's stderr begins: a named log keeps earlier runs' (and earlier
        # processes') lines, which a crash's reason must not quote as this one's.
        self.process_start = self.game_start

    def started(self) -> None:
        """The bot has its end of the pipe: close ours, and drain it from now on."""
        os.close(self.writer)
        self.writer = -1
        trio.lowlevel.spawn_system_task(self._drain_task, name=f"stderr of {self.path.name}")

    async def _drain_task(self) -> None:
        while self._pipe >= 0 and not self._eof:
            try:
                await trio.lowlevel.wait_readable(self._pipe)
            except (trio.ClosedResourceError, OSError):
                return
            held = self.drain()
            if self.written >= self.per_game and held < self._half_full:
                await trio.sleep(FLOOD_PAUSE)

    def drain(self) -> int:
        """Take what the pipe holds now into the log; the bytes it held.  Bytes past the game's
        cap that would not be in its tail are dropped without being read, so emptying a full
        pipe costs a few system calls whatever its size; a bot writing faster than that is
        not waited for."""
        if self._pipe < 0 or self._eof:
            return 0
        held = found = self._held()
        if held == 0:
            self._read(1)  # finds the end of the pipe, if that is what woke us
            return 0
        room = max(0, self.per_game - self.written)
        if room:
            held -= self._read(min(held, room))
        if held > TAIL:
            held -= self._drop(held - TAIL)
        if held > 0:
            self._read(held)
        return found

    def _held(self) -> int:
        count = array.array("i", [0])
        try:
            fcntl.ioctl(self._pipe, termios.FIONREAD, count)
        except OSError:
            return 0
        return count[0]

    def _read(self, at_most: int) -> int:
        """Read up to `at_most` bytes into the log (or the tail); the bytes read."""
        done = 0
        while done < at_most and not self._eof:
            try:
                data = os.read(self._pipe, min(at_most - done, READ_CHUNK))
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self._eof = True
                break
            done += len(data)
            self._take(data)
        return done

    def _drop(self, count: int) -> int:
        """Discard `count` bytes from the front of the pipe, counted as written and dropped."""
        self._tail.clear()  # the bytes that follow the dropped ones make the tail now
        try:
            dropped = os.splice(self._pipe, self._null, count)
        except OSError:  # no splice here: read and forget
            dropped = 0
            while dropped < count:
                try:
                    data = os.read(self._pipe, min(count - dropped, READ_CHUNK))
                except OSError:
                    break
                if not data:
                    break
                dropped += len(data)
        self.written += dropped
        return dropped

    def _take(self, data: bytes) -> None:
        self.errors.feed(data)
        room = self.per_game - self.written
        self.written += len(data)
        if room > 0:
            self._write(data[:room])
            data = data[room:]
        if data:
            self._tail += data[-TAIL:]
            del self._tail[:-TAIL]

    def _write(self, data: bytes) -> None:
        with suppress(OSError):  # a full disk loses log lines, never the game
            os.write(self.fd, data)

    def _flush_tail(self) -> None:
        if self._tail:
            self._write(b"\n[stderr cut: over the per-game limit; its end follows]\n" +
                        bytes(self._tail))
            self._tail.clear()

    def start_game(self, game_id: str) -> None:
        self.drain()
        self._flush_tail()
        if os.fstat(self.fd).st_size > self.restart:
            if not self.temporary:
                shutil.copyfile(self.path, self.path.with_name(self.path.name + ".1"))
            os.ftruncate(self.fd, 0)
            self.process_start = 0
        self._write(f"=== game {game_id} ===\n".encode())
        self.game_start = os.fstat(self.fd).st_size
        self.written = 0

    def check(self) -> int:
        """Take in what the pipe holds; the bytes dropped so far this game."""
        self.drain()
        self._flush_tail()
        return max(0, self.written - self.per_game)

    def last_lines(self, count: int = 8) -> str:
        """The last `count` lines this process wrote to stderr (0: all of its last TAIL
        bytes), for a crash's reason."""
        self.check()
        size = os.fstat(self.fd).st_size
        start = min(self.process_start, size)
        tail = os.pread(self.fd, TAIL, max(start, size - TAIL))
        lines = tail.decode("utf-8", "replace").rstrip("\n").splitlines()
        lines = [line for line in lines if not line.startswith("=== game ")]
        return "\n".join(lines[-count:] if count else lines)

    def close(self) -> None:
        """Take in what is left in the pipe and close everything (the drain task ends)."""
        if self.fd < 0:
            return
        self.check()
        self.errors.feed(b"\n")  # its last line, unended
        for fd in (self._pipe, self.writer):
            if fd >= 0:
                with suppress(RuntimeError):  # outside trio nothing waits on it
                    trio.lowlevel.notify_closing(fd)
                os.close(fd)
        self._pipe = self.writer = -1
        os.close(self._null)
        os.close(self.fd)
        self.fd = -1
