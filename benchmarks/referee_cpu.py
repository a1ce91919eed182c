"""The referee's own CPU in a real tournament, against its work ("referee alone").

Run: python benchmarks/tournament.py --cpu [--quick] [--repeat N] [--before PATH] [--costs]
     [--fields python c kits] [--workers 1 2] [--burn 0 2] [--modes auto off]
Each line is one tournament run through `run_into`, as `referee tournament run` plays it
(store, versions, progress, watchdog and all), each in a fresh child process so that its
figures are its own: games per second (wall clock), the referee's own CPU (its RUSAGE_SELF over
the run, and its worker processes' own: not the bots') per game and per bot decision, the bots'
CPU per game (the children reaped, less the worker processes), and the ratio of the referee's
CPU per decision to "referee alone": the same games' decisions with minimal bots answering in
memory (`protocol.py`'s line), as CPU time, measured in this run; and to the same with a sleep
of ASLEEP after each request, as a referee sleeps while a bot thinks ("asleep").  A bot
decision is a reply the store's response times count.  The load column is the load average as
each run started; "start s", the CPU seconds the worker processes (two workers or more) spent
starting (imports), left out of the referee's figures as the run's own imports are.

Fields, tables of 4 over all 24 seat orders a deal:
- python: the Python samples, two baseline and two random bots;
- c: four minimal C bots (benchmarks/minimal_bot.c), whose replies take microseconds;
- kits: the Python baseline and the JavaScript, Perl and C starter kits.
Modes: "auto" is the referee's default; "off" switches polling off (`polling.SPIN = 0`);
with `--before PATH` (another checkout of the referee), "before" is that checkout's default,
run by the same child.  Burn: that many CPU-burning processes run beside the referee.
The lines of a field are interleaved, and `--repeat` runs them all again in turn, so that a
shared machine's changes fall on each alike; each figure is the median over the repeats.
`--costs`: instead, one run a line, and where its referee's CPU went: the store write, the
record's encoding and compression, versions, progress, the watchdog's looks in /proc, the
"has the bot exited" check of every reply, pipe writes, polling and sleeps in poll(2).
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# The sleep after each request of the second "referee alone" line: about a Python sample's
# reply time.
ASLEEP = 0.0001
ROOT = HERE.parent
PY = sys.executable


def fields() -> dict[str, dict[str, tuple[str, str | None, str | None]]]:
    """Field name -> entrant name -> (command, build, dir)."""
    sys.path.insert(0, str(HERE))
    from pipe import compiled

    samples = ROOT / "sample_bots"
    baseline = f"{PY} {samples}/python/baseline_bot.py"
    random = f"{PY} {samples}/python/random_bot.py"
    found: dict[str, dict[str, tuple[str, str | None, str | None]]] = {
        "python": {"baseline1": (baseline, None, None), "baseline2": (baseline, None, None),
                   "random1": (f"{random} --seed 1", None, None),
                   "random2": (f"{random} --seed 2", None, None)},
    }
    minimal = compiled("minimal_bot")
    if minimal is not None:
        found["c"] = {f"minimal{i}": (minimal, None, None) for i in range(1, 5)}
        found["kits"] = {"baseline": (baseline, None, None),
                         "javascript": ("node bot.js", None, str(samples / "javascript")),
                         "perl": ("perl bot.pl", None, str(samples / "perl")),
                         "c": ("./bot", "make", str(samples / "c"))}
    return found


def config_text(entrants: dict[str, tuple[str, str | None, str | None]], deals: int) -> str:
    lines = ['name = "cpu"', "seed = 7", "table_size = 4", f"deals = {deals}",
             'seat_orders = "all"']
    for name, (command, build, folder) in entrants.items():
        lines += ["[[bots]]", f'name = "{name}"', f"command = {json.dumps(command)}"]
        if build:
            lines.append(f"build = {json.dumps(build)}")
        if folder:
            lines.append(f"dir = {json.dumps(folder)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the child: one run


def child(config_path: str, workers: int, polling: str, costs: bool = False) -> None:
    """One tournament run in this fresh process; prints its figures as one JSON line (with
    `costs`, each part's CPU seconds and calls as well)."""
    import trio

    import referee.bots.polling
    from referee.tournament.config import load_tournament
    from referee.tournament.executors.local import LocalExecutor
    from referee.tournament.progress import ProgressDisplay
    from referee.tournament.session import run_into
    from referee.tournament.store import Store

    if polling == "off":
        referee.bots.polling.SPIN = 0.0  # type: ignore[misc]
        try:  # and in worker processes (two workers or more)
            from referee.tournament.executors.processes import BOOT, ProcessWorkers
        except ImportError:  # a checkout before them
            pass
        else:
            ProcessWorkers.boot = BOOT.replace(
                "from", "import referee.bots.polling as p; p.SPIN = 0.0; from", 1)
    parts = wrap_parts() if costs else None
    path = Path(config_path)
    config = load_tournament(path)
    db = path.with_suffix(".db")
    with open(os.devnull, "w") as devnull:
        display = ProgressDisplay(devnull)
        own0 = resource.getrusage(resource.RUSAGE_SELF)
        kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        executor = LocalExecutor(workers)
        summary = trio.run(run_into, db, config, path, executor, display.say,
                           display.update, None, False, workers)
        seconds = time.perf_counter() - start
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Worker processes (two workers or more) are the referee too: their own CPU, not their
    # bots', without their start-ups (imports), as this process's own imports are left out;
    # those are said apart.  (Absent from a checkout before them.)
    processes = getattr(executor, "processes", None)
    workers_cpu = processes.cpu if processes is not None else 0.0
    startup = processes.startup_cpu if processes is not None else 0.0
    store = Store.for_reading(db)
    decisions = sum(sum(h.values()) for r in store.results() for h in r.response_us)
    store.close()
    print(json.dumps({
        "games": summary.played, "seconds": seconds, "decisions": decisions,
        "referee": own.ru_utime + own.ru_stime - own0.ru_utime - own0.ru_stime + workers_cpu
        - startup,
        "startup": startup,
        "bots": kids.ru_utime + kids.ru_stime - kids0.ru_utime - kids0.ru_stime - workers_cpu,
        "switches": own.ru_nvcsw + own.ru_nivcsw - own0.ru_nvcsw - own0.ru_nivcsw,
        "parts": None if parts is None else {k: (v, parts.calls[k])
                                             for k, v in parts.seconds.items()},
    }))


class Parts:
    """CPU time (this thread's) spent in named functions of the referee, wrapped in place:
    each part's total and calls.  Only functions that do not wait, so that a part holds
    nothing of other tasks."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def wrap(self, owner: Any, name: str, label: str) -> None:
        if not hasattr(owner, name):  # another checkout's referee
            return
        original = inspect.getattr_static(owner, name)
        getter = original.fget if isinstance(original, property) else getattr(owner, name)
        self.seconds[label], self.calls[label] = 0.0, 0
        clock, seconds, calls = time.thread_time, self.seconds, self.calls

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return getter(*args, **kwargs)
            finally:
                seconds[label] += clock() - start
                calls[label] += 1

        setattr(owner, name, property(timed) if isinstance(original, property) else timed)


def wrap_parts() -> Parts:
    """The per-game and per-decision costs the issue names, wrapped (`--costs`)."""
    import zlib

    from referee.bots.process import BotProcess
    from referee.bots.watchdog import Watchdog
    from referee.match.record import GameRecord
    from referee.tournament import session
    from referee.tournament.executors import worker
    from referee.tournament.progress import ProgressDisplay
    from referee.tournament.store.store import Store

    parts = Parts()
    for owner, name, label in [
        (Store, "save", "store write (with compression)"),
        (zlib, "compress", "  of which record compression"),
        (GameRecord, "to_jsonl", "record encoding"),
        (worker, "response_histogram", "response times"),
        (session, "entrant_versions", "versions (once a run)"),
        (ProgressDisplay, "update", "progress"),
        (Watchdog, "over_limit", "watchdog looks in /proc"),
        (Watchdog, "end_game", "watchdog look at a game's end"),
        (BotProcess, "exited", "has the bot exited (every reply)"),
        (BotProcess, "write_now", "pipe writes"),
        (BotProcess, "_spin_read", "polling"),
        (BotProcess, "_hold_read", "sleeps in poll(2)"),
    ]:
        parts.wrap(owner, name, label)
    return parts


# ---------------------------------------------------------------- the parent


def referee_alone(games: int, sleep: float = 0.0) -> float:
    """CPU seconds of the referee's own work per decision: `protocol.py`'s in-memory minimal
    bots, best of five, timed by CPU time.  `sleep`: the referee sleeps that long after each
    request, as it does while a real bot thinks: what a sleep and a wake-up cost it, on top
    of its work (the CPU's caches taken by others meanwhile, the wake-up itself)."""
    sys.path.insert(0, str(HERE))
    import trio

    from protocol import InMemoryBot
    from referee.bots.launch import BotSpec
    from referee.match.bot_player import BotPlayer
    from referee.match.game import play_game
    from referee.match.spec import GameSpec

    class Sleepy(InMemoryBot):
        def write_now(self, data: bytes, *, request: bool = True) -> int:
            sent = super().write_now(data, request=request)
            if request and sleep:
                time.sleep(sleep)
            return sent

    async def run() -> float:
        players = [BotPlayer(BotSpec(f"minimal{i}", "in-memory")) for i in range(4)]
        bots = [Sleepy() for _ in players]
        for player, bot in zip(players, bots, strict=True):
            player.bot = bot  # type: ignore[assignment]
        best = math.inf
        for rep in range(5):
            start, asked = time.process_time(), sum(p._id for p in players)
            in_bots = sum(b.bot_seconds for b in bots)
            for g in range(games):
                spec = GameSpec.make(f"alone-{rep}-{g}", g, [p.name for p in players])
                await play_game(spec, players)
            spent = time.process_time() - start - (sum(b.bot_seconds for b in bots) - in_bots)
            best = min(best, spent / (sum(p._id for p in players) - asked))
        return best

    return trio.run(run)


@dataclass(frozen=True)
class Line:
    field: str
    workers: int
    burn: int
    mode: str


class Burners:
    """`n` processes that burn CPU until closed."""

    def __init__(self, n: int) -> None:
        self.procs = [subprocess.Popen([PY, "-c", "while True: pass"]) for _ in range(n)]

    def close(self) -> None:
        for p in self.procs:
            p.kill()
            p.wait()


def run_line(line: Line, config: Path, before: str | None, costs: bool = False
             ) -> dict[str, Any]:
    """One line's run, in a fresh child process; its figures, and the load average (one
    minute) as it started."""
    env = dict(os.environ)
    checkout = before if line.mode == "before" else str(ROOT)
    env["PYTHONPATH"] = checkout + os.pathsep + env.get("PYTHONPATH", "")
    config.with_suffix(".db").unlink(missing_ok=True)
    load = os.getloadavg()[0]
    burners = Burners(line.burn)
    try:
        out = subprocess.run(
            [PY, __file__, "--child", str(config), str(line.workers),
             "off" if line.mode == "off" else "auto", *(["costs"] if costs else [])],
            env=env, capture_output=True, text=True, check=True).stdout
    finally:
        burners.close()
    figures: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    figures["load"] = load
    return figures


HEADER = (f"{'field':7} {'workers':>7} {'burn':>4} {'mode':6} {'games/s':>8} "
          f"{'ref ms/game':>11} {'ref us/dec':>10} {'x alone':>7} {'x asleep':>8} "
          f"{'bots ms/game':>12} {'dec/game':>8} {'load':>5} {'start s':>7}")


def print_line(line: Line, runs: list[dict[str, Any]], alone: float, asleep: float) -> None:
    """A line's medians over its runs."""
    def med(key: str, per: str | None = None) -> float:
        return statistics.median(r[key] / (r[per] if per else 1) for r in runs)

    per_decision = med("referee", "decisions")
    print(f"{line.field:7} {line.workers:7} {line.burn:4} {line.mode:6} "
          f"{statistics.median(r['games'] / r['seconds'] for r in runs):8.2f} "
          f"{med('referee', 'games') * 1e3:11.2f} {per_decision * 1e6:10.1f} "
          f"{per_decision / alone:7.2f} {per_decision / asleep:8.2f} "
          f"{med('bots', 'games') * 1e3:12.1f} "
          f"{med('decisions', 'games'):8.0f} {med('load'):5.2f} "
          f"{statistics.median(r.get('startup', 0.0) for r in runs):7.2f}", flush=True)


def print_costs(line: Line, run: dict[str, Any]) -> None:
    """Where one run's referee CPU went: each part per game and per decision."""
    games, decisions = run["games"], run["decisions"]
    print(f"{line.field}, {line.workers} worker(s), {line.mode}: {games} games, "
          f"{decisions / games:.0f} bot decisions a game")
    print(f"  {'part':36} {'ms/game':>8} {'us/dec':>7} {'calls/game':>10}")
    for label, (seconds, calls) in [("all the referee's CPU", (run["referee"], 0)),
                                    *run["parts"].items()]:
        print(f"  {label:36} {seconds / games * 1e3:8.3f} {seconds / decisions * 1e6:7.2f} "
              f"{calls / games:10.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The referee's own CPU in a tournament")
    parser.add_argument("--quick", action="store_true", help="one deal (24 games) a line")
    parser.add_argument("--deals", type=int, default=4, help="deals a line (24 games each)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--fields", nargs="*", default=["python", "c", "kits"])
    parser.add_argument("--workers", nargs="*", type=int, default=[1, 2])
    parser.add_argument("--burn", nargs="*", type=int, default=[0, 2])
    parser.add_argument("--modes", nargs="*", default=["auto", "off"])
    parser.add_argument("--before", metavar="PATH",
                        help="another checkout of the referee: adds the mode 'before'")
    parser.add_argument("--costs", action="store_true",
                        help="instead: where the referee's CPU goes, part by part (one run a "
                             "line)")
    args = parser.parse_args(argv)
    deals = 1 if args.quick else args.deals
    modes = list(args.modes) + (["before"] if args.before else [])
    known = fields()
    alone = referee_alone(10 if args.quick else 40)
    asleep = referee_alone(5 if args.quick else 20, sleep=ASLEEP)
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"usable cores: {len(os.sched_getaffinity(0))}")
    print(f"referee alone (in-memory minimal bots, CPU time): {alone * 1e6:.1f} us a decision; "
          f"sleeping {ASLEEP * 1e6:.0f} us after each request: {asleep * 1e6:.1f} us")
    print(f"{deals} deal(s) a line, {deals * 24} games; medians over {args.repeat} run(s); "
          "load: the load average as each run started")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.fields:
            if name not in known:
                print(f"{name}: skipped (no C compiler)")
                continue
            config = Path(tmp) / f"{name}.toml"
            config.write_text(config_text(known[name], deals))
            lines = [Line(name, w, b, m) for w in args.workers for b in args.burn for m in modes]
            if args.costs:
                for line in lines:
                    print_costs(line, run_line(line, config, args.before, costs=True))
                continue
            results: dict[Line, list[dict[str, Any]]] = {line: [] for line in lines}
            for _ in range(args.repeat):  # interleaved: a shared machine's changes fall alike
                for line in lines:
                    results[line].append(run_line(line, config, args.before))
            print(HEADER)
            for line in lines:
                print_line(line, results[line], alone, asleep)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    if len(sys.argv) in (5, 6) and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4], len(sys.argv) == 6)
    else:
        main()
