"""An adaptive run seats a bot that exits before its hello game after game in no later round:
the others' tables are not played a player short for nothing, the leaderboard says why, and
the next run tries it again."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from referee.match.player import Fault
from referee.match.result import StoredResult
from referee.protocol.messages import FaultKind
from referee.tournament.start_probe import dead_at_start
from referee.tournament.store import PLAYING, Entrant, open_store
from referee.tournament.unstarted import IN_A_ROW, StartWatch

from .. import in_process
from ..processes import BOT_PYTHON

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "scripted_bots"
TINY = ROOT / "protocol" / "examples" / "tiny.toml"


def write_config(folder: Path, rounds: int | None) -> Path:
    """Six bots and one that crashes at its start, at tables of three: rounds of two tables,
    each table in its three rotations (no `rounds`: a fixed round robin of one deal)."""
    lines = ['name = "unstarted"', "seed = 3", "table_size = 3", 'seat_orders = "rotations"',
             f'edition = "{TINY}"']
    if rounds is not None:
        lines += ['schedule = "adaptive"', f"rounds = {rounds}"]
    bots = [(f"b{i}", "first_legal.py") for i in range(6)] + [("crasher", "crash_at_start.py")]
    for name, script in bots:
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{BOT_PYTHON} {BOTS / script}"']
    path = folder / "t.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def crasher_games(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT count(*) FROM games WHERE seats LIKE '%crasher%'"
                               ).fetchone()[0])


def test_an_adaptive_run_seats_a_bot_that_keeps_failing_to_start_in_no_later_round(
        tmp_path: Path) -> None:
    """The crasher's table in the first round plays its three games (the round was chosen);
    after its second failed start the run says it is left out, and the next three rounds seat
    it nowhere; the leaderboard's left-out line says why, and a file without it is said to
    withdraw it; the run's last line says where its faults' reasons are (the report); `plan`
    of the next file says the next run will try it once.  The next run
    tries it once before its first round and, as it still fails, seats it nowhere either,
    saying so in one line."""
    config, db = write_config(tmp_path, rounds=4), tmp_path / "t.db"
    done = in_process.referee("tournament", "run", str(config), "--workers", "1",
                              cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert ("left out crasher: it did not start in 2 games in a row (the last: closed its "
            "output before its hello; exit status 3 (a module it imports was not found") \
        in said, said
    assert ("); the later rounds of this run do not seat it, and the next run tries it again"
            in said), said
    assert crasher_games(db) == 3
    assert re.fullmatch(  # its 3 failed starts, at least
        rf"note: to see why each of the \d+ faults came: referee report {re.escape(str(db))} "
        rf"--out {re.escape(str(tmp_path / 't-report'))} \(each bot's page, bots/NAME\.html, "
        r"lists its faults with their reasons\)", done.stdout.splitlines()[-1]), done.stdout
    board = in_process.referee("leaderboard", str(db), cwd=tmp_path)
    assert "left out: crasher: it did not start in 2 games in a row" in board.stdout
    without = tmp_path / "without.toml"  # the file with the crasher taken out, as plan sees
    text = config.read_text()
    without.write_text(text[:text.index('[[bots]]\nname = "crasher"')])
    planned = in_process.referee("tournament", "plan", str(without), "--db", str(db),
                                 cwd=tmp_path)
    assert "warning: a run withdraws crasher" in planned.stdout, planned.stdout
    planned = in_process.referee("tournament", "plan", str(write_config(tmp_path, rounds=5)),
                                 cwd=tmp_path)  # says the try to come, starting no bot
    assert ("note: crasher started in none of its 3 stored games: a run tries it once and "
            "leaves it out if it still does not start") in planned.stdout, planned.stdout
    again = in_process.referee("tournament", "run", str(write_config(tmp_path, rounds=5)),
                               "--workers", "1", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert crasher_games(db) == 3
    said = again.stdout + again.stderr
    assert said.count("left out crasher: ") == 1 and (
        "left out crasher: it started in none of its 3 stored games, nor when tried again now "
        "(closed its output before its hello; exit status 3 (a module") in said, said


def test_an_adaptive_run_seats_a_never_started_bot_again_once_it_is_fixed(
        tmp_path: Path) -> None:
    """A bot that never started in an adaptive run's games, tried before each next run's
    first round: while it still fails it is seated in none of that run's games (one line says
    why, as does the leaderboard, and -q says nothing of where its faults' reasons are);
    once its command is fixed (a new version) it is seated again and starts in its games,
    and no longer listed as left out."""
    config, db = write_config(tmp_path, rounds=2), tmp_path / "t.db"
    first = in_process.referee("tournament", "run", str(config), "--workers", "1", "-q",
                               cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "report" not in first.stdout + first.stderr, first.stdout + first.stderr
    dead = crasher_games(db)
    again = in_process.referee("tournament", "run", str(write_config(tmp_path, rounds=4)),
                               "--workers", "1", "-q", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert crasher_games(db) == dead
    assert again.stderr.count("crasher") == 1 and again.stderr.startswith(
        f"warning: left out crasher: it started in none of its {dead} stored games, nor when "
        "tried again now"), again.stderr
    board = in_process.referee("leaderboard", str(db), cwd=tmp_path).stdout
    assert "left out: crasher: it started in none of its" in board, board
    fixed = write_config(tmp_path, rounds=6)
    fixed.write_text(fixed.read_text().replace("crash_at_start.py", "first_legal.py"))
    done = in_process.referee("tournament", "run", str(fixed), "--workers", "1", "-q",
                              cwd=tmp_path)
    assert done.returncode == 0 and "crasher" not in done.stderr, done.stderr
    assert crasher_games(db) > 0
    with sqlite3.connect(db) as con:
        results = [r[0] for r in con.execute(
            "SELECT result FROM games WHERE seats LIKE '%crasher%'")]
    assert results and not any('"start"' in r for r in results)
    board = in_process.referee("leaderboard", str(db), cwd=tmp_path).stdout
    assert "left out" not in board, board


def test_a_fixed_schedules_run_says_which_bot_never_started(tmp_path: Path) -> None:
    """A round robin plays all of the crasher's games, retired at each start, as the schedule
    is fixed; the run's last lines say it started in none of them, and why."""
    config = write_config(tmp_path, rounds=None)
    done = in_process.referee("tournament", "run", str(config), "--workers", "1",
                              cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert crasher_games(tmp_path / "t.db") == 45
    said = done.stdout + done.stderr
    assert ("note: crasher did not start in any of its 45 games of this run (the last: closed "
            "its output before its hello; exit status 3 (a module") in said, said
    assert "): each was played without it; once its files change, its games are played again" \
        in said, said


def test_the_start_probe_reads_only_the_games_that_hold_a_start_fault(tmp_path: Path) -> None:
    """`Store.start_faults` (the start probe's source, read without parsing the results of
    games in which every bot started) gives the probe what the results give it: each seat's
    first start fault, over the games that count (not those of a withdrawn entrant), in game
    id order; a start that timed out, or one bot that started once, is not dead."""
    def fault(why: str) -> tuple[Fault, ...]:
        return (Fault(FaultKind.START, why),)

    crash = "closed its output before its hello; exit status 3; its stderr ends:\nboom"
    slow = "no hello within 5 s"
    games = [  # by seat: dead, slow, late, ann (or w, who has withdrawn)
        ("g1", [fault(crash), fault(slow), fault(crash), ()]),
        ("g2", [fault("exit status 1; its stderr ends:\nx"), fault(slow), (), ()]),
        ("g3", [fault("another reason"), fault(slow), (), ()]),  # w's: not counted
        ("g4", [(Fault(FaultKind.CRASH, "crashed"),), (), (), ()]),  # started, then crashed
    ]
    store = open_store(tmp_path / "t.db")
    try:
        for game_id, faults in games:
            names = ["dead", "slow", "late", "w" if game_id == "g3" else "ann"]
            result = StoredResult(game_id=game_id, names=tuple(names), money=(0, 0, 0, 0),
                                  ranks=(1, 2, 3, 4), retired=(), faults=tuple(faults))
            store.save(game_id, names, 1, result, b"", 0.1, 1, ["v1"] * 4)
        store.record_field([Entrant("w", "v1", PLAYING)], ["w"], {})
        starts = list(store.start_faults())
        assert starts == [
            (r.names, tuple(next((f.reason for f in s.faults if f.kind is FaultKind.START),
                                 None) for s in r.seats())) for r in store.results()]
        assert [names for names, _ in starts] == [("dead", "slow", "late", "ann")] * 3
        watch = StartWatch()  # the run's watch over the results, as the probe read them once
        for result in store.results():
            list(watch.seen(result))
        assert dead_at_start(starts) == {
            name: (watch.games[name], why) for name, why in watch.never.items()
            if watch.games[name] >= IN_A_ROW} == {}  # dead started in g4
        assert dead_at_start(starts[:2]) == {"dead": (2, "exit status 1")}
    finally:
        store.close()
