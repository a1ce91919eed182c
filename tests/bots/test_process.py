"""The process layer on its own, with real processes: cancellation, start and reaping, line
limits, the stderr log (how a reply is waited for: test_polling.py)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

from referee.bots.errors import LineTooLong, ReplyTimeout
from referee.bots.process import BotProcess, ProcessLimits
from referee.bots.start import start_bot

from ..processes import leftover_processes, processes_with

HELLO = b'{"type": "hello", "protocol": 1, "referee": "test"}\n'


@asynccontextmanager
async def open_bot(argv: list[str], *, stderr_path: Path | None = None,
                   limits: ProcessLimits | None = None) -> AsyncIterator[BotProcess]:
    """Own a bot process for the length of a block; on any exit it is stopped and reaped."""
    bot = await start_bot(argv, stderr_path=stderr_path, limits=limits or ProcessLimits())
    try:
        yield bot
    finally:
        await bot.aclose()

# A bot that answers `{"type": "line"}` with one line of exactly SIZE bytes (newline excluded),
# written with a single write() into a 1 MiB pipe, so the referee finds the whole line there.
LONG_LINE_BOT = """\
import fcntl, json, os, sys
try:
    fcntl.fcntl(1, fcntl.F_SETPIPE_SZ, 1 << 20)
except OSError:
    pass
size = int(sys.argv[1])
for line in sys.stdin.buffer:
    message = json.loads(line)
    if message.get("type") == "hello":
        os.write(1, b'{"type": "hello", "name": "long_line", "protocol": 1}\\n')
    elif message.get("type") == "line":
        os.write(1, b"[" + b" " * (size - 2) + b"]\\n")
"""


async def wait_for_processes(marker: str, count: int, limit: float = 60.0) -> int:
    """How many processes have `marker`, once there are `count` of them or `limit` passed."""
    with trio.move_on_after(limit):
        while len(processes_with(marker)) < count:
            await trio.sleep(0.02)
    return len(processes_with(marker))


def test_cancelled_open_bot_kills_the_whole_group(bot_dir: Path) -> None:
    """Leaving `open_bot` by cancellation stops the bot and its SIGTERM-proof grandchild."""
    script = f"{bot_dir}/forks_grandchild.py"
    seen: list[int] = []

    async def run() -> int | None:
        with trio.CancelScope() as scope:
            async with open_bot([sys.executable, script]) as bot:
                await bot.send(HELLO)
                await bot.read_line(trio.current_time() + 10)
                # The bot forks its child just after its hello: wait until both are there.
                seen.append(await wait_for_processes(script, 2))
                scope.cancel()
                await trio.sleep_forever()  # cancelled here, inside the open_bot block
        assert scope.cancelled_caught
        return bot.process.returncode

    returncode = trio.run(run)
    assert seen == [2]
    assert returncode is not None
    assert leftover_processes(script) == []


def test_read_line_times_out_with_the_partial_line(bot_dir: Path) -> None:
    """A reply without its newline is never a line; the timeout says how much came."""
    async def run() -> str:
        async with open_bot([sys.executable, f"{bot_dir}/no_newline.py"]) as bot:
            await bot.send(HELLO)
            await bot.read_line(trio.current_time() + 10)
            request = (b'{"type": "request", "id": 1, "decision": "bid", "view": {}, '
                       b'"legal": {"min": 1, "max": 5, "can_pass": true}}\n')
            await bot.send(request)
            # Short deadlines, repeated until the partial reply has arrived (a loaded
            # machine may take a while to run the bot); a timeout keeps what was read.
            for _ in range(30):
                with pytest.raises(ReplyTimeout) as info:
                    await bot.read_line(trio.current_time() + 0.3)
                if "without a newline" in str(info.value):
                    break
            return str(info.value)

    # The reply {"id": 1, "action": "pass"} is 27 bytes, without its newline.
    assert trio.run(run) == "no complete line in time (27 bytes without a newline)"


async def long_line(path: Path, size: int) -> bytes:
    async with open_bot([sys.executable, str(path), str(size)]) as bot:
        await bot.send(HELLO)
        await bot.read_line(trio.current_time() + 5)
        await bot.send(b'{"type": "line"}\n')
        return await bot.read_line(trio.current_time() + 5)


def test_line_of_the_maximum_length_is_read(tmp_path: Path) -> None:
    bot = tmp_path / "long_line.py"
    bot.write_text(LONG_LINE_BOT)
    assert len(trio.run(long_line, bot, 65536)) == 65536


def test_line_over_the_maximum_length_is_rejected(tmp_path: Path) -> None:
    """A complete line just over the limit (65,537 to 131,071 bytes), found whole in the
    buffer, is still too long."""
    bot = tmp_path / "long_line.py"
    bot.write_text(LONG_LINE_BOT)
    with pytest.raises(LineTooLong):
        trio.run(long_line, bot, 100_000)


def test_line_far_over_the_maximum_length_is_rejected(tmp_path: Path) -> None:
    bot = tmp_path / "long_line.py"
    bot.write_text(LONG_LINE_BOT)
    with pytest.raises(LineTooLong):
        trio.run(long_line, bot, 200_000)


def test_start_bot_reaps_on_aclose(bot_dir: Path) -> None:
    """`start_bot` without `open_bot`: the owner's `aclose` stops and reaps the process."""
    async def run() -> str:
        bot = await start_bot([sys.executable, f"{bot_dir}/never_answers.py"])
        try:
            await bot.send(HELLO)
            await bot.read_line(trio.current_time() + 5)
        finally:
            await bot.aclose(b'{"type": "goodbye"}\n')
        return bot.exit_description()

    assert trio.run(run) == "exit status 0"  # it left on goodbye, before any signal


def test_a_temporary_stderr_log_leaves_no_file_and_a_named_one_is_kept(tmp_path: Path) -> None:
    """A bot's temporary stderr log leaves no `bot-stderr-*` file in the temporary folder,
    even when the referee is killed with SIGKILL: the file is unlinked as soon as it is open,
    and its lines are still there for a crash's reason.  A log given a path is kept."""
    says = [sys.executable, "-c",
            "import sys; sys.stderr.write('said\\n'); print('ok', flush=True); sys.stdin.read()"]

    async def run(stderr_path: Path | None) -> Path:
        async with open_bot(says, stderr_path=stderr_path) as bot:
            assert await bot.read_line(trio.current_time() + 10) == b"ok"
            assert bot.stderr.path.exists() == (stderr_path is not None)
            assert bot.stderr.last_lines() == "said"
        return bot.stderr.path

    temporary = trio.run(run, None)
    assert not temporary.exists()
    named = trio.run(run, tmp_path / "bot.log")
    assert named.read_text() == "said\n"


def test_a_process_that_cannot_be_reaped_does_not_hang_the_referee(bot_dir: Path) -> None:
    """A frozen process (a cgroup freezer, or a hung file system) ignores SIGKILL until it
    thaws: the referee does not wait for it for ever, but goes on after `reap_within`."""
    freezer = Path("/sys/fs/cgroup/freezer")
    if not (freezer / "cgroup.procs").exists() or not os.access(freezer, os.W_OK):
        pytest.skip("needs a writable cgroup v1 freezer (root)")
    limits = ProcessLimits(goodbye_grace=0.1, term_grace=0.1, reap_within=0.5)
    group = freezer / f"referee-test-{os.getpid()}"
    group.mkdir()
    try:
        async def run() -> float:
            bot = await start_bot([sys.executable, f"{bot_dir}/never_answers.py"],
                                  limits=limits)
            (group / "cgroup.procs").write_text(str(bot.pid))
            (group / "freezer.state").write_text("FROZEN")
            start = time.monotonic()
            with trio.fail_after(10):
                await bot.aclose(b'{"type": "goodbye"}\n')
            return time.monotonic() - start

        assert trio.run(run) < 3
    finally:
        (group / "freezer.state").write_text("THAWED")
        for _ in range(100):
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.02)
