"""`referee replay --bot`: a seat's part of a played game sent again to a bot, from a game log,
a tournament's store or a transcript, each answer set beside the recorded one."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from referee.game import Pass
from referee.match.record import read_record
from referee.match.seat_part import part_from_record, part_from_transcript

from .. import in_process, terminal
from ..bots.conftest import bwrap_problem
from ..processes import (
    BOT_PYTHON,
    ROOT,
    command,
    copy_bots,
    leftover_processes,
    wait_until,
)


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    """`referee replay ARGS` from the repository, in the test process (`in_process`): these
    tests read what it says and how it exits."""
    return in_process.referee("replay", *args, cwd=ROOT, timeout=60)

BASELINE = f"{BOT_PYTHON} {ROOT / 'sample_bots' / 'python' / 'baseline_bot.py'}"
EXAMPLES = ROOT / "protocol" / "examples"
# A bot that answers as first_legal does and keeps every line it reads in the file it is given:
# what a bot was sent, seen from the bot's side.
RECORDER = """\
import json, sys
sys.path.insert(0, sys.argv[2])
from first_legal import first_legal

with open(sys.argv[1], "ab") as keep:
    for line in sys.stdin.buffer:
        keep.write(line)
        keep.flush()
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "recorder", "protocol": 1}), flush=True)
        elif message["type"] == "request":
            print(json.dumps({"id": message["id"], **first_legal(message)}), flush=True)
        elif message["type"] == "goodbye":
            break
"""


class Played:
    """A game played with `referee play --log --transcript-dir` by the bots given (NAME: command
    line, with BOTS for the folder of the scripted bots), kept for the tests of a module."""

    def __init__(self, base: Path, seats: dict[str, str], *args: str) -> None:
        self.bots = copy_bots(base / "bots")
        (self.bots / "recorder.py").write_text(RECORDER)
        self.log = base / "game.jsonl"
        self.transcripts = base / "transcripts"
        self.commands = {name: line.replace("BOTS", str(self.bots))
                         for name, line in seats.items()}
        done = in_process.referee("play", *args, "--log", str(self.log), "--transcript-dir",
                                  str(self.transcripts),
                                  *(f"{name}={line}" for name, line in self.commands.items()),
                                  cwd=ROOT)
        assert done.returncode == 0, done.stderr
        self.names = list(seats)

    def transcript(self, name: str) -> Path:
        return self.transcripts / f"{name}.transcript.jsonl"

    def recorder(self, keep: Path) -> str:
        """The recording bot's command line, keeping what it reads in `keep`."""
        return f"{command(self.bots, 'recorder.py')} {keep} {self.bots}"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Four seats, cmon edition: first_legal, an illegal bidder (three warnings, then
    retired), the baseline, first_legal again."""
    scripted = f"{BOT_PYTHON} BOTS/"
    seats = {"alice": scripted + "first_legal.py",
             "dave": scripted + "illegal.py --kind over_money",
             "base": BASELINE, "carol": scripted + "first_legal.py"}
    return Played(tmp_path_factory.mktemp("rerun"), seats, "--seed", "9", "--move-time", "2")


def sent_to(transcript: Path) -> list[bytes]:
    """Every line the referee sent the bot, from its transcript."""
    entries = [orjson.loads(line) for line in transcript.read_bytes().splitlines()]
    return [orjson.dumps(e["to_bot"]) for e in entries if "to_bot" in e]


def requests_in(lines: list[bytes]) -> list[dict[str, Any]]:
    return [m for m in map(orjson.loads, lines) if m["type"] == "request"]


def verdicts(stdout: str) -> list[str]:
    """`same` or `differs` for each request line printed, in order."""
    return re.findall(r"^request \d+ \(id \d+, \w+\): (same|differs)", stdout, re.MULTILINE)


# ---------------------------------------------------------------- what a seat is sent


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_each_seat_is_sent_exactly_what_it_was_sent_in_the_game(played: Played, seat: int,
                                                                  tmp_path: Path) -> None:
    """From a game log, a bot gets, line for line, what that seat's bot got in the game:
    hello, new_game, the events it may see, warnings, requests with their views and time
    left, game_end; a retired seat nothing after the warning that retired it.  Whatever the
    bot answers."""
    keep = tmp_path / "received"
    out = replay(str(played.log), "--bot", played.recorder(keep),
                  "--seat", str(seat), "-q")
    assert out.returncode in (0, 1), out.stderr
    received = keep.read_bytes().splitlines()
    original = sent_to(played.transcript(played.names[seat]))
    assert received[-1] == b'{"type":"goodbye"}'
    assert received[:len(original)] == original
    # Retired, the seat's process was stopped without a goodbye; the rerun's bot gets one.
    assert len(received) - len(original) == (1 if original[-1] != received[-1] else 0)


def test_a_seat_with_warnings_is_sent_them_where_they_were(played: Played,
                                                           tmp_path: Path) -> None:
    """The illegal bidder's part holds its three warnings, each after the request it
    answered wrongly, the third its last line."""
    record = read_record(played.log.read_bytes())
    part = part_from_record(record, 1)
    lines = b"".join(r.before + r.line for r in part.requests) + part.after
    kinds = [orjson.loads(x)["type"] for x in lines.splitlines()]
    assert kinds.count("warning") == 3 and kinds[-1] == "warning"
    assert [r.recorded.fault for r in part.requests].count("illegal") == 3


def test_the_time_left_is_the_recorded_one(tmp_path: Path) -> None:
    """A bot that overruns its move time has its bank charged, then emptied by a timeout:
    each request's `time` is the one it was sent, the bank to within microseconds."""
    bots = copy_bots(tmp_path / "bots")
    (bots / "recorder.py").write_text(RECORDER)
    log, folder = tmp_path / "game.jsonl", tmp_path / "transcripts"
    done = in_process.referee(
        "play", "--edition", str(EXAMPLES / "tiny.toml"), "--seed", "4", "--move-time", "0.2",
        "--time-bank", "0.3", "--max-faults", "100", "--log", str(log), "--transcript-dir",
        str(folder), f"late={command(bots, 'answers_late.py --delay 0.3')}",
        f"b={command(bots, 'first_legal.py')}", f"c={command(bots, 'first_legal.py')}", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    keep = tmp_path / "received"
    out = replay(str(log), "--bot",
                  f"{command(bots, 'recorder.py')} {keep} {bots}", "--seat", "0", "-q")
    assert out.returncode == 1, out.stderr  # answered in time now: not the timeouts recorded
    got = requests_in(keep.read_bytes().splitlines())
    sent = requests_in(sent_to(folder / "late.transcript.jsonl"))
    assert len(got) == len(sent) >= 5
    banks = [r["time"]["bank"] for r in sent]
    assert banks[0] == 0.3 and 0 < banks[1] < 0.3 and banks[-1] == 0.0
    for mine, theirs in zip(got, sent, strict=True):
        assert mine["time"]["bank"] == pytest.approx(theirs["time"]["bank"], abs=1e-5)
        mine["time"]["bank"] = theirs["time"]["bank"]
        assert mine == theirs


def test_a_request_that_timed_out_is_given_the_time_it_had_in_the_game(tmp_path: Path) -> None:
    """A bot that takes 2 s over its request 3, where the game gave it 1 s (move time 0.5 s and
    a bank of 0.5 s), timed out there; play's line to send it again says how to see where a
    bot is stuck in a timeout.  Sent that request again, the bot is waited for 1 s,
    as in the game, said in a line before it, and times out again: the recorded fault, the
    same.  With --timeout 5 it is waited for up to 5 s, said so, and its answer shows."""
    bots = copy_bots(tmp_path / "bots")
    log = tmp_path / "game.jsonl"
    late = command(bots, "answers_late.py --only 3 --delay 2")
    done = in_process.referee("play", f"late={late}", command(bots, "first_legal.py"),
                              command(bots, "first_legal.py"), "--move-time", "0.5",
                              "--time-bank", "0.5", "--log", str(log), cwd=ROOT)
    assert "late: timeout (request 3: a bid): no reply within 1 s" in done.stdout, done.stdout
    assert done.stdout.endswith(
        " --seat late --request 3\nIt timed out there: add --pause to wait for it with no time "
        "limit and see where it is stuck (docs/play.md, `referee replay`)\n"), done.stdout
    again = replay(str(log), "--bot", late, "--seat", "late", "--request", "3", "-q")
    assert again.returncode == 0, again.stdout
    assert "request 3 (id 3) timed out in the game: waiting up to 1 s for the bot's answer, " \
           "the time it had there" in again.stdout, again.stdout
    assert "request 3 (id 3, bid): same, a fault in the game: timeout:" in again.stdout
    longer = replay(str(log), "--bot", late, "--seat", "late", "--request", "3", "-q",
                    "--timeout", "5")
    assert "request 3 (id 3) timed out in the game: waiting up to 5 s for the bot's answer " \
           "(--timeout)" in longer.stdout, longer.stdout
    assert re.search(r"^request 3 \(id 3, bid\): differs: bot \{", longer.stdout, re.M)


def test_a_wait_with_no_time_limit_says_how_to_see_where_the_bot_is_stuck(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Waiting with no time limit (--pause) at a request that timed out in the game, replay
    says how to see the stack of the bot's process, by its pid, in the common runtimes."""
    from referee.cli.replay import _RerunPrinter
    from referee.match.seat_part import RequestResult, SentRequest
    from referee.protocol.messages import FaultKind

    printer = _RerunPrinter(quiet=True)
    printer.started(4321, None)
    timed_out = RequestResult(fault=FaultKind.TIMEOUT, reason="no reply")
    printer.waiting(SentRequest(3, 0, 7, "bid", b"", b"", timed_out), None, False)
    assert capsys.readouterr().out.splitlines()[-1] == (
        "request 3 (id 7) timed out in the game: waiting for the bot's answer with no time "
        "limit (Ctrl-C stops); to see where it is stuck: py-spy dump --pid 4321 (Python), "
        "jstack 4321 (Java), kill -QUIT 4321 (Go), gdb -p 4321 (native)")


# ---------------------------------------------------------------- answers beside answers


def test_a_deterministic_bot_gives_the_recorded_answers_from_a_log(played: Played) -> None:
    """The baseline (deterministic) at its seat, and first_legal at another's: every answer is
    the recorded one, and the command exits 0; stopped after one request, it says so in the
    singular."""
    for seat, bot in ((2, BASELINE), (0, played.commands["alice"])):
        out = replay(str(played.log), "--bot", bot, "--seat", str(seat))
        assert out.returncode == 0, out.stdout + out.stderr
        found = verdicts(out.stdout)
        assert found and set(found) == {"same"}, out.stdout
        assert f"the bot's {len(found)} answers are the recorded ones" in out.stdout
    one = replay(str(played.log), "--bot", BASELINE, "--seat", "2", "--request", "1")
    assert "\nthe bot's answer is the recorded one; stopped after request 1 of " in one.stdout, \
        one.stdout


def test_the_seat_may_be_given_by_its_bots_name(played: Played) -> None:
    """`--seat base` sends the baseline's seat its part, as `--seat 2` does."""
    out = replay(str(played.log), "--bot", BASELINE, "--seat", "base", "-q")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("game play-9, seat 2 (base): ")


def test_a_different_bot_shows_where_it_differs_and_exits_1(played: Played) -> None:
    """first_legal in the baseline's seat: the answers that differ are shown beside the
    recorded ones, the first named, with what makes a bot's answers differ, and the command
    exits 1; stopped at that first one, it is said in the singular."""
    out = replay(str(played.log), "--bot", played.commands["alice"], "--seat", "2")
    assert out.returncode == 1, out.stderr
    found = verdicts(out.stdout)
    first = found.index("differs") + 1
    assert f"the first at request {first} (id {first})" in out.stdout
    assert re.search(rf"^request {first} .*: differs: bot .*, recorded ", out.stdout, re.M)
    assert out.stdout.endswith("note: the bot ran here in a fresh process, on this game "
                               "alone: a bot that keeps state across games (a global or "
                               "static not reset at new_game), reads the clock or draws from "
                               "an unseeded random generator answers otherwise than in the "
                               "game, as does one that changed since\n"), out.stdout
    quiet = replay(str(played.log), "--bot", played.commands["alice"], "--seat", "2",
                    "-q")
    assert set(verdicts(quiet.stdout)) == {"differs"} and quiet.returncode == 1
    one = replay(str(played.log), "--bot", played.commands["alice"], "--seat", "2",
                 "--request", str(first), "-q")
    assert f"\nthe bot's answer differs from the recorded one, at request {first} (id " \
           f"{first}); stopped after request {first} of " in one.stdout, one.stdout


def test_an_answer_recorded_as_a_fault_is_marked_where_the_bot_gives_it_again(
        played: Played) -> None:
    """The illegal bidder in its own seat gives its three illegal amounts again: each is the
    same answer, marked as a fault in the game with the recorded kind and reason (under -q
    too), and the verdict counts them; the command exits 0, as nothing differs.  Stopped at
    the first, the verdict says the one recorded answer was a fault, not "1 of the recorded
    ones"."""
    for quiet in ((), ("-q",)):
        out = replay(str(played.log), "--bot", played.commands["dave"], "--seat",
                      "1", *quiet)
        assert out.returncode == 0, out.stdout + out.stderr
        marked = re.findall(r"^request \d+ \(id \d+, \w+\): same, a fault in the game: (.*)$",
                            out.stdout, re.M)
        assert len(marked) == 3, out.stdout
        for shown in marked:
            assert re.fullmatch(r'\{"action":"(bid|price)","amount":(\d+)\} \(illegal: .*'
                                r'\1 \2 .*is more than .*money.*\)', shown), shown
        assert "; 3 of the recorded ones were faults in the game (illegal)" in out.stdout
        plain = re.findall(r"^request \d+ .*: same: ", out.stdout, re.M)
        assert bool(plain) != bool(quiet), out.stdout
    first = re.search(r"^request (\d+) \(id \d+, \w+\): same, a fault in the game: ",
                      out.stdout, re.M)
    assert first, out.stdout
    one = replay(str(played.log), "--bot", played.commands["dave"], "--seat", "1",
                 "--request", first[1], "-q")
    assert one.stdout.splitlines()[-1].startswith(
        f"the bot's answer is the recorded one; stopped after request {first[1]} of "), one.stdout
    assert one.stdout.splitlines()[-1].endswith(
        "; the recorded one was a fault in the game (illegal)"), one.stdout


def test_show_request_and_v_print_each_request_before_its_answer(played: Played) -> None:
    """--show-request, and -v, print each request as it is sent, before the answer: its legal
    choices and time left as the game's transcript has them, then the seat's view; without
    them, no request is printed."""
    game = requests_in(sent_to(played.transcript("alice")))
    args = [str(played.log), "--bot", played.commands["alice"], "--seat", "0",
            "--request", "3"]
    for flag in ("--show-request", "-v"):
        out = replay(*args, flag)
        assert out.returncode == 0, out.stdout + out.stderr
        lines = out.stdout.splitlines()
        sent = [i for i, line in enumerate(lines) if " sent: " in line]
        assert len(sent) == 3, out.stdout
        for number, (at, request) in enumerate(zip(sent, game, strict=False), 1):
            legal, time = (orjson.dumps(request[k]).decode() for k in ("legal", "time"))
            assert lines[at] == (f"request {number} (id {number}, {request['decision']}) "
                                 f"sent: legal {legal}, time {time}")
            assert lines[at + 1] == f"  view {orjson.dumps(request['view']).decode()}"
            assert lines[at + 2].startswith(f"request {number} (id {number}, ")
            assert lines[at + 2].split(": ")[1] == "same"
    plain = replay(*args)
    assert " sent: " not in plain.stdout and verdicts(plain.stdout) == ["same"] * 3


def test_request_n_stops_there(played: Played, tmp_path: Path) -> None:
    """--request 5: the bot reads the game up to its fifth request and nothing more but
    goodbye; the answers so far are compared."""
    keep = tmp_path / "received"
    out = replay(str(played.log), "--bot", played.recorder(keep), "--seat", "0",
                  "--request", "5")
    assert out.returncode == 0, out.stdout + out.stderr
    received = keep.read_bytes().splitlines()
    assert [r["id"] for r in requests_in(received)] == [1, 2, 3, 4, 5]
    assert orjson.loads(received[-2])["type"] == "request" and received[-1].endswith(
        b'"goodbye"}')
    assert verdicts(out.stdout) == ["same"] * 5
    assert "stopped after request 5 of" in out.stdout


def test_a_transcript_is_replayed_as_the_bot_received_it(played: Played,
                                                         tmp_path: Path) -> None:
    """A transcript written by --transcript-dir: the bot gets its `to_bot` lines, and its answers
    are compared with the `from_bot` ones (the illegal bidder's wrong bids included)."""
    keep = tmp_path / "received"
    out = replay(str(played.transcript("alice")), "--bot", played.recorder(keep))
    assert out.returncode == 0, out.stdout + out.stderr
    assert keep.read_bytes().splitlines() == sent_to(played.transcript("alice"))
    out = replay(str(played.transcript("dave")), "--bot", played.commands["dave"],
                  "--seat", "1")
    assert out.returncode == 0, out.stdout + out.stderr
    assert set(verdicts(out.stdout)) == {"same"}
    out = replay(str(played.transcript("dave")), "--bot", played.commands["alice"])
    assert out.returncode == 1 and "differs" in verdicts(out.stdout)


def test_a_transcripts_answers_are_judged_as_the_referee_judged_them() -> None:
    """Read from a transcript, a seat's answers are what the seat's protocol made of its
    lines in the game: late replies skipped, a flood of them a wrong_id fault, the first
    other reply the answer."""
    def to_bot(message: dict[str, Any]) -> bytes:
        return orjson.dumps({"to_bot": message})

    def from_bot(line: str) -> bytes:
        return orjson.dumps({"from_bot": orjson.loads(line)})

    def request(request_id: int) -> bytes:
        return to_bot({"type": "request", "id": request_id, "decision": "play"})

    lines = [to_bot({"type": "hello", "protocol": 1, "referee": "r"}),
             from_bot('{"type": "hello", "name": "late", "protocol": 1}'),
             to_bot({"type": "new_game", "game_id": "g", "seat": 1, "names": ["a", "late"]}),
             request(7), request(8), from_bot('{"id": 7, "action": "pass"}'),
             from_bot('{"id": 8, "action": "pass"}'),
             request(9), *[from_bot('{"id": 8, "action": "pass"}')] * 17]
    part = part_from_transcript(b"\n".join(lines))
    assert [(r.request_id, r.recorded.action, r.recorded.fault) for r in part.requests] == [
        (7, None, "timeout"), (8, Pass(1), None), (9, None, "wrong_id")]
    assert part.requests[2].recorded.reason.startswith("17 replies to earlier requests")


@pytest.mark.parametrize("example, bot", [("short_game.jsonl", "first_legal.py"),
                                          ("warnings_mystery.jsonl",
                                           "illegal.py --kind over_money")])
def test_the_example_transcripts_replay_with_their_bots(example: str, bot: str,
                                                        bot_dir: Path) -> None:
    out = replay(str(EXAMPLES / example), "--bot", command(bot_dir, bot))
    assert out.returncode == 0, out.stdout + out.stderr
    assert set(verdicts(out.stdout)) == {"same"}


def test_a_stored_tournament_game_replays(tmp_path: Path) -> None:
    """A game of a tournament's store (`--db STORE GAME_ID`): the baseline answers as it did
    there; another bot in its seat differs."""
    first = f"{BOT_PYTHON} {ROOT / 'tests' / 'scripted_bots' / 'first_legal.py'}"
    config = tmp_path / "t.toml"
    config.write_text("\n".join([
        'name = "rerun"', "seed = 3", "table_size = 3", 'seat_orders = "rotations"',
        "deals = 1",
        *(line for name, bot in (("base", BASELINE), ("one", first), ("two", first))
          for line in ("[[bots]]", f'name = "{name}"', f"command = {json.dumps(bot)}")),
    ]) + "\n")
    db = tmp_path / "t.db"
    done = in_process.referee("tournament", "run", str(config), "--db", str(db), "-q",
                              "--workers", "1", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as con:
        game_id, seats = con.execute("SELECT game_id, seats FROM games LIMIT 1").fetchone()
    seat = json.loads(seats).index("base")
    out = replay("--db", str(db), game_id, "--bot", BASELINE, "--seat", str(seat))
    assert out.returncode == 0, out.stdout + out.stderr
    assert verdicts(out.stdout) and set(verdicts(out.stdout)) == {"same"}
    out = replay("--db", str(db), game_id, "--bot", first, "--seat", str(seat), "-q")
    assert out.returncode == 1 and "differs" in out.stdout


# ---------------------------------------------------------------- debugging, mistakes


def paused(played: Played, bot: str, request: int, *args: str
           ) -> tuple[subprocess.Popen[str], list[str]]:
    """`replay --pause` of `bot` at seat 0 up to `request`, started, and the lines it wrote up
    to the one that says it is paused there."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "replay", str(played.log), "--bot", bot, "--seat",
         "0", "--request", str(request), "--pause", *args],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert proc.stdin is not None and proc.stdout is not None
    shown: list[str] = []
    while not shown or f"paused before request {request}" not in shown[-1]:
        line = proc.stdout.readline()
        assert line, "".join(shown)
        shown.append(line)
    return proc, shown


def test_pause_waits_before_request_n_with_the_bot_running(played: Played,
                                                           tmp_path: Path) -> None:
    """--request 3 --pause: the bot's pid is printed at once; the command waits for Enter
    with the bot alive, having read up to request 2; then sends request 3 and stops."""
    keep = tmp_path / "received"
    proc, shown = paused(played, played.recorder(keep), 3)
    started = re.search(r"bot started: pid (\d+)", "".join(shown))
    assert started is not None
    pid = int(started.group(1))
    assert f"gdb -p {pid}" in shown[-1]
    assert b"recorder.py" in Path(f"/proc/{pid}/cmdline").read_bytes()
    wait_until(lambda: len(requests_in(keep.read_bytes().splitlines())) == 2,
               "the bot to read request 2", process=proc)
    rest, errors = proc.communicate("\n", timeout=60)
    assert proc.returncode == 0, rest + errors
    assert [r["id"] for r in requests_in(keep.read_bytes().splitlines())] == [1, 2, 3]
    assert leftover_processes(f"{played.bots}/recorder.py") == []


def test_pause_in_the_sandbox_names_the_bots_own_pid_not_bwraps(played: Played) -> None:
    """--sandbox bwrap --pause: the pid printed, and given to gdb at the pause, is the bot's
    own process (bwrap's child), the one a debugger attaches to; bwrap's is said beside it."""
    problem = bwrap_problem()
    if problem is not None:
        pytest.skip(problem)
    proc, shown = paused(played, command(played.bots, "first_legal.py"), 1, "--sandbox",
                         "bwrap")
    started = re.search(r"bot started: pid (\d+) \(under bwrap, pid (\d+)\)", "".join(shown))
    assert started is not None, "".join(shown)
    pid, sandbox = int(started[1]), int(started[2])
    assert f"gdb -p {pid}," in shown[-1]
    assert b"first_legal.py" in Path(f"/proc/{pid}/cmdline").read_bytes()
    assert Path(f"/proc/{sandbox}/comm").read_text().strip() == "bwrap"
    rest, errors = proc.communicate("\n", timeout=60)
    assert proc.returncode == 0, rest + errors


def test_a_bot_that_crashes_is_output_not_a_traceback(played: Played) -> None:
    """A bot that crashes at its sixth request: that answer differs, shown with how it ended
    and its stderr, and the command exits 1."""
    bot = command(played.bots, "crash_mid_game.py")
    out = replay(str(played.log), "--bot", bot, "--seat", "0")
    assert out.returncode == 1, out.stderr
    assert re.search(r"^request 6 .*: differs: bot crash: .*exit status 1", out.stdout, re.M)
    assert "stderr| ZeroDivisionError" in out.stdout
    assert "Traceback" not in out.stderr


def test_a_crash_recorded_and_met_again_shows_its_recorded_stderr(tmp_path: Path) -> None:
    """A game in which a bot crashed, replayed with the same bot: the crash comes again,
    marked as a fault in the game, and the stderr the record keeps of it is shown under it,
    not cut at "its stderr ends:"."""
    bots = copy_bots(tmp_path / "bots")
    crash = command(bots, "crash_mid_game.py")
    other = command(bots, "first_legal.py")
    log = tmp_path / "game.jsonl"
    done = in_process.referee("play", f"c={crash}", f"a={other}", f"b={other}", "--log",
                              str(log), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = replay(str(log), "--bot", crash, "--seat", "0")
    lines = out.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "same, a fault in the game: crash:" in line)
    assert lines[at].endswith("its stderr ends:"), lines[at]
    assert [line.strip() for line in lines[at + 1:at + 4]] == [
        "Traceback (most recent call last):", "...", "ZeroDivisionError: division by zero"]


def test_what_a_bot_writes_is_shown_as_escapes(played: Played) -> None:
    """A bot's hello name, answer and stderr full of terminal escapes reach the terminal as
    `\\x1b` and `\\u202e`, never raw."""
    out = terminal.referee("replay", str(played.log), "--bot",
                           command(played.bots, "terminal_escape.py"), "--seat", "0", cwd=ROOT)
    assert out.returncode == 1, out.stderr
    terminal.assert_shown_safely(out.stdout + out.stderr, "\\x1b[2J", "\\u202e")


@pytest.mark.parametrize("args, error", [
    (["--seat", "7"], "--seat 7: game play-9 has seats 0 to 3"),
    (["--seat", "-1"], "--seat -1: game play-9 has seats 0 to 3"),
    ([], "give --seat S: whose part of the game to send to the bot (0 alice, 1 dave, 2 base, "
         "3 carol)"),
    (["--seat", "zed"], "--seat zed: no bot of game play-9 is named so (0 alice, 1 dave, 2 "
                        "base, 3 carol)"),
    (["--seat", "0", "--request", "999"], "--request 999: seat 0 (alice) was sent"),
    (["--seat", "0", "--timeout", "nan"], "is not a number of seconds"),
])
def test_user_mistakes_are_one_error_line(played: Played, args: list[str], error: str) -> None:
    out = replay(str(played.log), "--bot", played.commands["alice"], *args)
    assert out.returncode == 2
    assert error in out.stderr and "Traceback" not in out.stderr
    assert "bot started" not in out.stdout  # found before any bot starts


def test_sources_and_bots_that_cannot_be_used_are_one_error_line(played: Played,
                                                                  tmp_path: Path) -> None:
    alice = played.commands["alice"]
    not_a_game = tmp_path / "notes.jsonl"
    not_a_game.write_text('{"hello": 1}\n')
    for args, error in [
        ([str(not_a_game), "--bot", alice, "--seat", "0"], "not a game record"),
        ([str(tmp_path / "missing.jsonl"), "--bot", alice, "--seat", "0"], "no such game log"),
        ([str(played.log), "--bot", "./no-such-bot", "--seat", "0"], "not found"),
        ([str(played.log), "--bot", command(played.bots, "crash_at_start.py"), "--seat", "0"],
         "the bot closed its output before its hello"),
        ([str(played.log), "--seat", "0"], "--seat goes with --bot"),
        ([str(played.log), "--request", "2"], "--request goes with --bot"),
        ([str(played.log), "--show-request"], "--show-request goes with --bot"),
        ([str(played.transcript("alice")), "--bot", alice, "--seat", "2"],
         "the transcript is seat 0's (alice)"),
    ]:
        out = replay(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and error in lines[0], lines


def test_a_malformed_answer_is_shown_with_what_is_wrong_with_it() -> None:
    """A recorded malformed answer, as replay shows it beside the bot's: the reason (which
    quotes the line's start), not the bare line; a fault without a reason shows its line."""
    from referee.match.seat_part import RequestResult
    from referee.protocol.messages import FaultKind

    why = ("bad reply: unknown key 'value' (a reply's keys are id, action, card and amount; "
           "action 'bid' takes 'amount'); the line began '{\"value\": 3}'")
    shown = RequestResult(fault=FaultKind.MALFORMED, reason=why, line='{"value": 3}')
    assert str(shown) == f"malformed: {why}"
    assert str(RequestResult(fault=FaultKind.MALFORMED, line="x")) == "malformed: x"
