"""Interrupting each command at a moment: the harness of `tests/test_interrupts.py` (a few
moments per command) and `benchmarks/interrupts.py` (as many as asked).

A command is started, a SIGINT sent after `delay` seconds, and its end read: it either had
finished (exit 0) or ends with the one line of an interrupted command (exit 2), nothing else
on stderr (no traceback, warning or "Aborted!"), and no bot of it left running; or the
signal came before the referee's first import, while Python itself was starting, which is
Python's to handle (`Ended.before_referee`)."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from . import in_process
from .processes import BOT_PYTHON, leftover_processes

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("run", "play", "check", "grade", "merge")
MARKER = "interrupt_bot"  # the bots' file name


@dataclass
class Ended:
    command: str
    delay: float
    returncode: int
    stderr: str
    leftovers: list[str]

    @property
    def before_referee(self) -> bool:
        """Ended by the signal before any code of the referee ran: Python, still starting
        (its `site`, an editable install's finder, `runpy`), died of it or printed its own
        KeyboardInterrupt.  No program can handle a signal before it runs."""
        if self.returncode == 0 or self.returncode == 2:
            return False
        text = self.stderr.strip()
        return "/referee/" not in text and (not text or text.endswith("KeyboardInterrupt"))

    def problem(self) -> str | None:
        """What is wrong with how it ended, or None."""
        if self.leftovers:
            return f"bots left running: {self.leftovers}"
        if self.returncode == 0 or self.before_referee:
            return None
        if self.returncode != 2:
            return f"exit status {self.returncode}; stderr ends {self.stderr[-400:]!r}"
        lines = self.stderr.splitlines()
        errors = [ln for ln in lines if ln.startswith("error:")]
        if len(errors) != 1 or not errors[0].startswith("error: interrupted") \
                or lines[-1] != errors[0]:
            return f"not one line at the end: {self.stderr!r}"
        for noise in ("Traceback", "Warning", "Aborted", "never awaited", "Exception"):
            if noise in self.stderr:
                return f"{noise} on stderr: {self.stderr!r}"
        return None


def prepare(folder: Path, shards: bool = True) -> dict[str, list[str]]:
    """Each command's arguments, with its files made in `folder` (bots copied there under a
    name holding MARKER); with `shards`, the merge's two shards are played here first."""
    folder.mkdir(parents=True, exist_ok=True)
    bot = folder / f"{MARKER}.py"
    shutil.copy(ROOT / "sample_bots" / "python" / "random_bot.py", bot)
    py = BOT_PYTHON  # the bots' Python without `site`: the referee's start-up is the point
    tour, small = folder / "t.toml", folder / "shards.toml"
    for path, deals, bots in ((tour, 3, 4), (small, 1, 3)):
        path.write_text('name = "stop"\nseed = 3\ntable_size = 3\nseat_orders = "rotations"\n'
                        f"deals = {deals}\n" + "".join(f'[[bots]]\nname = "b{i}"\n'
                                                       f'command = "{py} {bot} --seed {i}"\n'
                                                       for i in range(bots)))
    subs = folder / "subs"
    (subs / "amy").mkdir(parents=True, exist_ok=True)
    shutil.copy(bot, subs / "amy" / "bot.py")
    klass = folder / "class.toml"
    klass.write_text('name = "class"\nseed = 5\ntable_size = 3\nformat = "gauntlet"\n'
                     'baselines = ["r1", "r2"]\ndeals = 2\nseat_orders = "rotations"\n'
                     '[grading]\notherwise = "C"\n' + "".join(
                         f'[[bots]]\nname = "r{i}"\ncommand = "{py} {bot} --seed {i}"\n'
                         for i in (1, 2)))
    for i in (1, 2):
        shard = folder / f"s{i}.db"
        # The merge's input, one table's three games (a merge's work is much the same for
        # any number, and its start-up most of it): no process is the point.
        if shards and not shard.exists():
            done = in_process.referee("tournament", "run", str(small), "--shard", f"{i}/2",
                                      "--db", str(shard), "-q", cwd=folder, timeout=600)
            assert done.returncode == 0, done.stderr
    return {
        "run": ["tournament", "run", str(tour), "--db", "DB", "-q"],
        "play": ["play", *(f"{py} {bot} --seed {i}" for i in range(3))],
        "check": ["check", f"{py} {bot}"],
        "grade": ["grade", str(subs), "--config", str(klass), "--out", "OUT", "-q"],
        "merge": ["tournament", "merge", str(folder / "s1.db"), str(folder / "s2.db"),
                  "--out", "DB"],
    }


def interrupt(command: str, args: list[str], folder: Path, delay: float, n: int) -> Ended:
    """Run one command (its outputs fresh: named by the command and `n`), SIGINT after
    `delay` seconds."""
    args = [a.replace("DB", str(folder / f"{command}{n}.db"))
            .replace("OUT", str(folder / f"{command}{n}")) for a in args]
    proc = subprocess.Popen([sys.executable, "-m", "referee", *args], cwd=folder,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=catchable)
    time.sleep(delay)  # the moment itself is what is tested, not a state waited for
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=300)
    return Ended(command, delay, proc.returncode, stderr, leftovers(str(folder)))


def catchable() -> None:
    """SIGINT as a terminal's foreground command has it: a harness started in the background
    by a non-interactive shell passes it on ignored, and the referee keeps an ignored signal
    ignored (as under `nohup`)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def leftovers(folder: str, wait: float = 3.0) -> list[str]:
    """Processes run from this folder (bots: the referee has ended) still alive `wait`
    seconds on; killed, so that none leaks."""
    return leftover_processes(folder, wait)
