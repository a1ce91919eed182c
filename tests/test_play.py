"""`referee play` and `referee replay` show what a hostile bot wrote as escapes; `play` names
the bots given without a name as their hellos say."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

from referee.game import DecisionKind
from referee.match.record import read_record
from referee.match.seat_part import part_from_record
from referee.match.timing import DECISION_WORDS

from . import in_process, terminal
from .processes import BOT_PYTHON
from .terminal import assert_shown_safely

ROOT = Path(__file__).resolve().parent.parent
PY = BOT_PYTHON
BOTS = ROOT / "tests" / "scripted_bots"


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    return terminal.referee(*args, cwd=ROOT, timeout=120)


def test_a_bots_escape_sequences_do_not_reach_the_terminal(tmp_path: Path) -> None:
    """A bot whose stderr clears the screen, sets the window title and reverses text before
    it crashes: `play` (the standings, its faults and the transcript) shows those sequences as
    `\\x1b`, `\\x07` and `\\u202e`, and the organiser's terminal is left alone."""
    log = tmp_path / "game.jsonl"
    out = referee("play", f"{PY} {BOTS / 'terminal_escape.py'}", f"{PY} {BOTS / 'first_legal.py'}",
                  f"{PY} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}", "-v",
                  "--log", str(log))
    assert out.returncode == 0, out.stderr
    assert_shown_safely(out.stdout + out.stderr, "crash fault: closed its output",
                        "Traceback: \\x1b[2J\\x1b]0;pwned\\x07", "\\u202edeliaf\\x1b[0m")
    assert "\n      ALL BOTS PASSED" in out.stdout  # the tail, indented under its fault


def test_replay_shows_a_records_names_as_escapes(tmp_path: Path) -> None:
    """A game record whose bot names hold escape sequences (a record is a file anyone can
    hand over): `replay` prints its transcript with them as escapes."""
    log = tmp_path / "game.jsonl"
    first_legal = f"{PY} {BOTS / 'first_legal.py'}"
    played = referee("play", f"a={first_legal}", f"b={first_legal}", f"c={first_legal}",
                     "--log", str(log))
    assert played.returncode == 0, played.stderr
    evil = "\x1b]0;pwned\x07\rALL BOTS PASSED\u202e"
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    for line in lines:
        if "names" in line:
            line["names"][0] = evil
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = referee("replay", str(log))
    assert_shown_safely(out.stdout + out.stderr,
                        "\\x1b]0;pwned\\x07\\rALL BOTS PASSED\\u202e plays")


def test_bots_given_without_a_name_are_named_by_their_hello(tmp_path: Path) -> None:
    """Two copies of the random bot and the baseline, given as commands: the standings (`--json`,
    one line), the record and the bots' stderr logs and transcripts use the names their hellos
    say, the copies numbered by seat."""
    random_bot = f"{PY} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
    out = referee("play", random_bot, random_bot,
                  f"{PY} {ROOT / 'sample_bots' / 'python' / 'baseline_bot.py'}", "--json",
                  "--stderr-dir", str(tmp_path / "stderr"),
                  "--transcript-dir", str(tmp_path / "transcripts"))
    assert out.returncode == 0, out.stderr
    names = ["random_bot-1", "random_bot-2", "baseline"]
    assert out.stdout.count("\n") == 1  # one line: games in a loop make a JSON Lines file
    assert [s["name"] for s in json.loads(out.stdout)["seats"]] == names
    assert sorted(p.name for p in (tmp_path / "stderr").iterdir()) == sorted(
        f"{n}.stderr.log" for n in names)
    transcript = (tmp_path / "transcripts" / "baseline.transcript.jsonl").read_text()
    assert '{"from_bot":{"type":"hello","name":"baseline","protocol":1}}' in transcript
    assert '"names":["random_bot-1","random_bot-2","baseline"]' in transcript


def test_a_hello_name_that_cannot_name_files_leaves_the_file_name(tmp_path: Path) -> None:
    """A hello name with '/', '..' or spaces around it cannot name a bot's files: that bot is
    named after its file, as is one that never says hello; a bot given NAME= keeps it."""
    bot = f"{PY} {BOTS / 'hello_name.py'} --name"
    out = referee("play", f"{bot} a/b", f"{bot} ..", f"{bot} ' x'", f"me={bot} other",
                  f"{PY} {BOTS / 'crash_at_start.py'}", "--json")
    assert out.returncode == 1, out.stderr  # crash_at_start could not start
    assert [s["name"] for s in json.loads(out.stdout)["seats"]] == [
        "hello_name-1", "hello_name-2", "hello_name-3", "me", "crash_at_start"]


def test_bots_whose_hellos_swap_their_names_keep_their_own_files(tmp_path: Path) -> None:
    """Bot 1, file a.py, says it is b; bot 2, file b.py, says it is a: each one's files end
    under the name its hello says, not mixed with the other's."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_bytes((BOTS / "hello_name.py").read_bytes())
    (tmp_path / "first_legal.py").write_bytes((BOTS / "first_legal.py").read_bytes())
    out = referee("play", f"{PY} {tmp_path / 'a.py'} --name b",
                  f"{PY} {tmp_path / 'b.py'} --name a", f"{PY} {tmp_path / 'first_legal.py'}",
                  "--transcript-dir", str(tmp_path / "t"), "--stderr-dir", str(tmp_path / "s"))
    assert out.returncode == 0, out.stderr
    for name in ("a", "b"):  # a's files are b.py's, which said "a"
        said = (tmp_path / "t" / f"{name}.transcript.jsonl").read_text()
        assert f'"from_bot":{{"type":"hello","name":"{name}"' in said
        assert (tmp_path / "s" / f"{name}.stderr.log").exists()
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == [
        "a.transcript.jsonl", "b.transcript.jsonl", "first_legal.transcript.jsonl"]


def test_a_bot_ending_its_lines_with_crlf_plays_without_a_fault(tmp_path: Path) -> None:
    """protocol/README.md §1: a CR before the LF is JSON whitespace, so a bot that writes
    `\\r\\n` (as text mode on Windows does) plays a whole game without a fault."""
    crlf_bot = tmp_path / "crlf_bot.py"
    crlf_bot.write_text((BOTS / "first_legal.py").read_text().replace(
        'json.dumps(message) + "\\n"', 'json.dumps(message) + "\\r\\n"'))
    assert "\\r\\n" in crlf_bot.read_text()
    first_legal = f"{PY} {BOTS / 'first_legal.py'}"
    out = referee("play", f"crlf={PY} {crlf_bot}", first_legal, first_legal, "--json")
    assert out.returncode == 0, out.stderr
    seats = json.loads(out.stdout)["seats"]
    assert [s["faults"] for s in seats] == [[], [], []], seats


def test_a_bot_that_cannot_start_makes_play_exit_1_naming_its_seat(tmp_path: Path) -> None:
    """A bot that dies before its hello: the game is played with its seat retired and
    printed, and `play` exits 1 with one line on stderr naming the seat and why (the error its
    stderr ends with), with no note of errors it lived through.  A command whose script is
    missing plays no game: one error line names
    the script, before any bot starts; `sh -c '...'` naming a script plays."""
    out = referee("play", f"{PY} {BOTS / 'crash_at_start.py'}", f"{PY} {BOTS / 'first_legal.py'}",
                  f"{PY} {BOTS / 'first_legal.py'}", "--json")
    assert out.returncode == 1, out.stdout + out.stderr
    assert [s["retired"] for s in json.loads(out.stdout)["seats"]] == [True, False, False]
    assert out.stderr.splitlines() == [
        "error: seat 0 (crash_at_start) could not start: closed its output before its hello; "
        "exit status 3 (a module it imports was not found by the interpreter that ran it, on the "
        "machine that ran it: install it for that interpreter, name one that has it in the "
        "command, or bring it in the bot's folder); its stderr ends: ModuleNotFoundError: No "
        "module named 'numpy'; the game was played without it"]
    table = referee("play", f"{PY} {BOTS / 'crash_at_start.py'}", f"{PY} {BOTS / 'first_legal.py'}",
                    f"{PY} {BOTS / 'first_legal.py'}")
    assert "note:" not in table.stdout, table.stdout  # not an error it lived through
    missing = referee("play", f"{PY} {BOTS / 'first_legal.py'}", f"{PY} {BOTS / 'first_legal.py'}",
                      f"{PY} {tmp_path / 'missing.py'}")
    assert missing.returncode == 2 and missing.stdout == "", missing.stdout
    assert missing.stderr == (f"error: bot 3 ('{PY} {tmp_path / 'missing.py'}'): "
                              f"{tmp_path / 'missing.py'} not found\n")
    # a shell's command line naming a script is the shell's to run: no file is looked for
    shell = f"sh -c 'exec {PY} {BOTS / 'first_legal.py'}'"
    played = referee("play", shell, f"{PY} {BOTS / 'first_legal.py'}",
                     f"{PY} {BOTS / 'first_legal.py'}")
    assert played.returncode == 0, played.stderr


def test_play_v_and_replay_show_a_crash_with_its_stderr_where_it_happened(
        tmp_path: Path) -> None:
    """`play -v` with a bot that crashes mid-game: the crash's line in the transcript is
    followed at once, indented under it, by the end of the bot's stderr (the traceback's
    error), before the seat's retirement; the same tail is not left for the end alone.
    `replay` of the game's log shows the same transcript, the crash and retirement in it."""
    log = tmp_path / "game.jsonl"
    out = referee("play", f"{PY} {BOTS / 'crash_mid_game.py'}", f"{PY} {BOTS / 'first_legal.py'}",
                  f"{PY} {BOTS / 'first_legal.py'}", "-v", "--log", str(log))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("   ! crash_mid_game: crash"))
    assert lines[at].endswith("its stderr ends:"), lines[at]
    assert lines[at + 1:at + 5] == [
        "       Traceback (most recent call last):", "         ...",
        "       ZeroDivisionError: division by zero", "   ! crash_mid_game is retired (crash)"]
    replayed = referee("replay", str(log))
    assert replayed.returncode == 0, replayed.stderr
    transcript = lines[:lines.index("")]  # play -v: the transcript, a blank line, standings
    assert replayed.stdout.splitlines() == [*transcript,
                                            f"{log}: the record agrees with the rules"]


def test_a_crash_quotes_the_error_that_a_long_stack_trace_follows(tmp_path: Path) -> None:
    """A bot that panics as Rust does with RUST_BACKTRACE=1 (two lines, then 12 frames): the
    crash's reason quotes the panic's two lines and those after them, "...", and the last two
    lines, not only the frames that end its stderr."""
    out = referee("play", f"{PY} {BOTS / 'crash_mid_game.py'} --backtrace",
                  f"{PY} {BOTS / 'first_legal.py'}", f"{PY} {BOTS / 'first_legal.py'}")
    assert out.returncode == 0, out.stderr
    quoted = out.stdout[out.stdout.index("its stderr ends:"):].splitlines()[1:9]
    assert [line.strip() for line in quoted] == [
        "thread 'main' panicked at src/strategy.rs:188:39:",
        "index out of bounds: the len is 0 but the index is 2", "stack backtrace:",
        "0: frame_0", "1: frame_1", "... (9 lines)", "11: frame_11",
        "note: Some details are omitted, run with `RUST_BACKTRACE=full`."], out.stdout


def test_a_crash_on_an_event_is_said_to_be_perhaps_on_the_events_before_its_request(
        tmp_path: Path) -> None:
    """A bot that crashes reading a sale event is found gone at its next request: `play`'s
    fault line says it crashed on the request or on one of the events it was sent since its
    last answer, and names them, the sale among them, as `referee check` says it."""
    legal = f"{PY} {BOTS / 'first_legal.py'}"
    out = in_process.referee("play", f"{PY} {BOTS / 'crash_mid_game.py'} --on-event "
                             "auction_won", legal, legal, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    crash = next(line for line in out.stdout.splitlines() if ": crash (request" in line)
    assert re.fullmatch(r"  crash_mid_game: crash \(request \d+: [a-z ]+\): closed its output; "
                        r"exit status 1; it crashed on this request or on one of the \d+ "
                        r"events sent since its last answer \([^;]*\bauction_won\b[^;]*\); "
                        r"its stderr ends:",
                        crash), out.stdout


def test_answers_slower_than_the_move_time_are_said_after_the_standings(
        tmp_path: Path) -> None:
    """A bot whose every eighth answer takes longer than the move time, but never so long
    as to empty its time bank: no fault, and `play` says under the standings how many
    answers were late, the slowest (its 16th: the request as `replay --bot --request N`
    counts them, and its decision in words), and how much of the bank they spent; with a
    smaller bank,
    that its timeouts came when they had left too little of it; a timeout is no slow answer:
    a bot whose one slow request timed out gets no note."""
    bot = tmp_path / "slow.py"
    bot.write_text(f"import json, sys, time\nsys.path.insert(0, {str(BOTS)!r})\n"
                   "from first_legal import first_legal, send\nn = 0\n"
                   "for line in sys.stdin:\n    m = json.loads(line)\n"
                   "    if m['type'] == 'hello':\n"
                   "        send({'type': 'hello', 'name': 'slow', 'protocol': 1})\n"
                   "    elif m['type'] == 'request':\n        n += 1\n"
                   "        if n % 8 == 0:\n            time.sleep(0.8 if n == 16 else 0.6)\n"
                   "        send({'id': m['id'], **first_legal(m)})\n"
                   "    elif m['type'] == 'goodbye':\n        break\n")
    legal = f"{PY} {BOTS / 'first_legal.py'}"
    out = in_process.referee("play", f"{PY} {bot}", f"quick={legal}", f"brisk={legal}",
                             "--move-time", "0.5", "--log", "game.jsonl", cwd=tmp_path,
                             timeout=120)
    assert out.returncode == 0, out.stderr
    notes = [line for line in out.stdout.splitlines() if line.startswith("note: slow: ")]
    assert len(notes) == 1, out.stdout
    sixteenth = part_from_record(read_record((tmp_path / "game.jsonl").read_bytes()),
                                 0).requests[15]
    decision = DECISION_WORDS[DecisionKind(sixteenth.decision)]
    assert re.fullmatch(r"note: slow: \d+ answers took longer than the move time of 0.5 s "
                        r"\(the slowest 0\.8\d s, at request 16: " + re.escape(decision)
                        + r"\), spending \d+\.\d s of its 10 s time bank; "
                        r"once it is spent, a late answer is a timeout", notes[0]), notes[0]
    short = in_process.referee("play", f"{PY} {bot}", f"quick={legal}", f"brisk={legal}",
                               "--move-time", "0.5", "--time-bank", "0.15", cwd=tmp_path,
                               timeout=120)
    assert "slow: timeout (request " in short.stdout, short.stdout  # the bank is spent
    assert re.search(r"\nnote: slow: \d+ answers? took longer than the move time of 0.5 s .*"
                     r"; the timeouts above came when too little of it was left\n",
                     short.stdout), \
        short.stdout
    hang = tmp_path / "hang.py"
    hang.write_text(bot.read_text().replace("n % 8 == 0", "n == 3").replace("0.6", "1.2"))
    once = in_process.referee("play", f"{PY} {hang}", f"quick={legal}", f"brisk={legal}",
                              "--move-time", "0.5", "--time-bank", "0.2", cwd=tmp_path,
                              timeout=120)
    assert "slow: timeout (request " in once.stdout and "note: slow" not in once.stdout, \
        once.stdout


def test_timeouts_while_a_bot_is_stuck_in_an_earlier_request_name_that_request(
        tmp_path: Path) -> None:
    """A bot caught in an endless loop at its second request (one kind of decision) times out
    there, then at the requests that follow, which it never reads: those faults say that it
    has not read them and is still busy with the request of id 2, the one to look at, and
    the line to send that request again says how to see where it is stuck.  A bot that reads
    every request and never answers is not said to be busy."""
    bot = tmp_path / "stuck.py"
    bot.write_text(f"import json, sys, time\nsys.path.insert(0, {str(BOTS)!r})\n"
                   "from first_legal import first_legal, send\nn = 0\n"
                   "for line in sys.stdin:\n    m = json.loads(line)\n"
                   "    if m['type'] == 'hello':\n"
                   "        send({'type': 'hello', 'name': 'stuck', 'protocol': 1})\n"
                   "    elif m['type'] == 'request':\n        n += 1\n"
                   "        while n == 2:\n            time.sleep(0.01)\n"
                   "        send({'id': m['id'], **first_legal(m)})\n"
                   "    elif m['type'] == 'goodbye':\n        break\n")
    legal = f"{PY} {BOTS / 'first_legal.py'}"
    limits = ("--move-time", "0.2", "--time-bank", "0.1")
    out = in_process.referee("play", f"{PY} {bot}", f"quick={legal}", f"brisk={legal}",
                             *limits, cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    faults = [line for line in out.stdout.splitlines() if line.startswith("  stuck: timeout")]
    busy = ("(the bot has not read this request: most likely it is still busy with the "
            "request of id 2, which timed out; it has written nothing since)")
    assert len(faults) == 3 and faults[0].startswith("  stuck: timeout (request 2: "), \
        out.stdout
    assert busy not in faults[0] and all(f.endswith(busy) for f in faults[1:]), out.stdout
    assert out.stdout.endswith("--seat stuck --request 2\nIt timed out there: add --pause to "
                               "wait for it with no time limit and see where it is stuck "
                               "(docs/play.md, `referee replay`)\n"), out.stdout
    silent = in_process.referee("play", f"{PY} {BOTS / 'never_answers.py'}", f"quick={legal}",
                                f"brisk={legal}", *limits, cwd=tmp_path, timeout=120)
    assert silent.stdout.count("never_answers: timeout (request ") == 3, silent.stdout
    assert "still busy" not in silent.stdout, silent.stdout


def test_errors_a_bot_lived_through_are_said_after_the_standings(tmp_path: Path) -> None:
    """The Python baseline with a bug in its buying, which its safety net catches and logs
    before answering the default: no fault, and `play` says how many of its stderr lines look
    like errors, quoting the first, where a bot with a quiet stderr gets no note."""
    source = (ROOT / "sample_bots" / "python" / "baseline_bot.py").read_text()
    buggy = source.replace('        if kind == "play":\n',
                           '        if kind == "play":\n            raise KeyError("price")\n'
                           '        if kind == "play":\n', 1)
    assert buggy != source
    (tmp_path / "buggy.py").write_text(buggy)
    raised = buggy.splitlines().index('            raise KeyError("price")') + 1  # its line
    legal = f"{PY} {BOTS / 'first_legal.py'}"
    out = in_process.referee("play", f"buggy={PY} buggy.py", f"quick={legal}",
                             f"brisk={legal}", "--seed", "4", cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    notes = [line for line in out.stdout.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1, out.stdout
    assert re.fullmatch(r"note: buggy: \d+ lines? of its stderr looks? like errors it "
                        r"lived through, the first: \"baseline: request \d+ \(play\): no field "
                        rf"or key 'price' \(KeyError\) at buggy\.py:{raised} in decide; "
                        r"falling back\"; an answer after an "
                        r"error may be its kit's default, not its strategy's \(--stderr-dir "
                        r"DIR keeps its stderr\)", notes[0]), notes[0]


def test_lines_that_answer_no_request_are_said_after_the_standings(tmp_path: Path) -> None:
    """A bot that replies to new_game, events and game_end, which want none: no fault (the
    referee skips them), and `play` says how many lines it skipped and when they become a
    fault; a bot whose one late answer followed its timeout gets no such note; one that
    wrote debug lines before its replies is told the skipped lines are most likely its real
    answers, pushed out of step by its malformed lines, and that stdout is for the protocol."""
    legal = f"{PY} {BOTS / 'first_legal.py'}"
    out = in_process.referee("play", f"{PY} {BOTS / 'replies_unasked.py'} --to "
                             "new_game,event,game_end", f"a={legal}", f"b={legal}",
                             cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^note: replies_unasked: \d+ lines it wrote answered no request \(a "
                     r"second reply to one request, or replies to new_game, events or "
                     r"game_end, which want none\): the referee skipped them, but more than 16 "
                     r"while a request waits are a wrong_id fault$", out.stdout, re.M), out.stdout
    late = in_process.referee("play", f"{PY} {BOTS / 'answers_late.py'} --only 3 --delay 0.4",
                              f"a={legal}", f"b={legal}", "--move-time", "0.1",
                              "--time-bank", "0.1", cwd=tmp_path, timeout=120)
    assert "answers_late: timeout" in late.stdout and "answered no request" not in late.stdout
    debug = in_process.referee("play", f"{PY} {BOTS / 'replies_unasked.py'} --debug 2",
                               f"a={legal}", f"b={legal}", cwd=tmp_path, timeout=120)
    assert debug.stdout.count("replies_unasked: malformed") == 2, debug.stdout
    assert debug.stdout.splitlines()[-1] == (
        "note: replies_unasked: 2 lines it wrote answered no request: most likely its real "
        "answers, pushed out of step by its 2 malformed lines above (each taken as its "
        "request's answer, the real one coming after it): the referee skipped them (stdout is "
        "for protocol messages only: write logs and debug output to stderr)"), debug.stdout


def test_play_creates_the_folders_of_its_log_and_page_before_the_game(tmp_path: Path) -> None:
    """`--log` and `--html` into folders not there yet: the folders are made before any bot
    starts, and the game's record and page are written there, not lost after the game."""
    bot = f"{PY} {BOTS / 'first_legal.py'}"
    log, page = tmp_path / "logs" / "day1" / "game.jsonl", tmp_path / "pages" / "game.html"
    done = in_process.referee("play", bot, bot, bot, "--log", str(log), "--html", str(page),
                              cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(log.read_text().splitlines()[0])["type"] == "spec"
    assert "<html" in page.read_text().lower()


def test_a_seat_order_a_game_does_not_have_is_one_error_line(tmp_path: Path) -> None:
    """Three bots have seat orders 0 to 5: `--seat-order 6` is refused in one line saying
    so, before any bot starts."""
    bot = f"{PY} {BOTS / 'first_legal.py'}"
    done = in_process.referee("play", bot, bot, bot, "--seat-order", "6", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: --seat-order 6: a game of 3 bots has 6 seat orders, 0 to 5\n"


def test_replay_without_a_game_or_given_a_transcript_says_what_to_give(tmp_path: Path) -> None:
    """`replay` with no game, `replay --db` with no game id, and `replay` of a bot's
    transcript without `--bot` each say in one line what to give instead; for a store, with
    a few of its game ids, those with faults first."""
    from referee.tournament.store import open_store

    from .leaderboard.support import a_tournament, stored

    transcript = tmp_path / "bot.transcript.jsonl"
    transcript.write_text('{"to_bot": {"type": "hello", "protocol": 1}}\n')
    db, clean = tmp_path / "cup.db", tmp_path / "clean.db"
    for path, faulted in ((db, {"g2", "g4"}), (clean, set())):
        store = open_store(path)
        store.bind(a_tournament(), "f")
        for i in range(6):
            seats = ["a", "b", "c"]
            fault = [{"kind": "timeout", "reason": "slow"}] if f"g{i}" in faulted else []
            result = {"money": [1, 2, 3], "ranks": [3, 2, 1], "retired": [],
                      "faults": [fault, [], []]}
            store.save(f"g{i}", seats, i, stored(f"g{i}", seats, result), b"", 0.0, 1,
                       ["v1"] * 3)
        store.close()
    for args, says in (
            ((), "give a game's log (`referee play --log`), a bot's transcript with --bot, or "
                 "--db DB GAME_ID"),
            (("--db", str(db)), "give the GAME_ID of a game in the store, such as these with "
                                "faults: g2, g4: the pages `referee report` writes list them"),
            (("--db", str(clean)), "give the GAME_ID of a game in the store, such as g0, g1, "
                                   "g2: the pages"),
            (("--db", str(tmp_path / "none.db")), "no results store at"),
            ((str(transcript),), "not a game record: the first line is not a spec (a bot's "
                                 "transcript: replay it with --bot BOT)")):
        out = in_process.referee("replay", *args, cwd=tmp_path)
        assert out.returncode == 2, out.stderr
        assert out.stderr.count("\n") == 1 and says in out.stderr, out.stderr


def test_replay_of_a_record_edited_to_a_seat_the_game_has_not_names_the_mismatch(
        tmp_path: Path) -> None:
    """A record whose event names seat 9 of a three-seat game: `replay` prints the transcript
    (the seat as "seat 9") and the mismatch, and exits 1, without a traceback."""
    log = tmp_path / "game.jsonl"
    first_legal = f"{PY} {BOTS / 'first_legal.py'}"
    assert referee("play", first_legal, first_legal, first_legal, "--log",
                   str(log)).returncode == 0
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    edited = next(x for x in lines if x["type"] == "event" and "seat" in x["event"])
    edited["event"]["seat"] = 9
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = referee("replay", str(log))
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert "seat 9" in out.stdout and "mismatch: step 0:" in out.stderr, out.stdout + out.stderr


def test_faults_name_their_request_and_how_to_send_it_again(tmp_path: Path) -> None:
    """Each fault in play's list names the request it answered, counted as `replay --bot
    --request N` counts them, and its decision; the line under the list, run as it is, sends
    the bot that game again up to that request and shows the recorded fault there, at the
    decision play named."""
    bad = f"{PY} {BOTS / 'illegal.py'} --kind over_money"
    good = f"{PY} {BOTS / 'first_legal.py'}"
    log = tmp_path / "game.jsonl"
    done = in_process.referee("play", bad, good, good, "--seed", "3", "--log", str(log),
                              cwd=tmp_path)
    found = re.findall(r"^  illegal-over_money: illegal \(request (\d+): ([^)]+)\): ",
                       done.stdout, re.M)
    numbers = [int(n) for n, _ in found]
    assert len(numbers) == 3 and numbers == sorted(set(numbers)), done.stdout
    hint = re.search(r"^To send a bot a request of this game again and see its answer: "
                     r"(referee replay .*)$", done.stdout, re.M)
    assert hint and hint[1].endswith(f"--seat illegal-over_money --request {numbers[0]}"), \
        done.stdout
    assert "It timed out there" not in done.stdout, done.stdout  # for timeouts only
    again = in_process.referee(*shlex.split(hint[1])[1:], "-q", cwd=tmp_path)
    same = re.search(rf"^request {numbers[0]} \(id \d+, (\w+)\): same, a fault in the game: ",
                     again.stdout, re.M)
    assert same, again.stdout
    from referee.game import DecisionKind
    from referee.match.timing import DECISION_WORDS

    assert found[0][1] == DECISION_WORDS[DecisionKind(same[1])]  # play names replay's decision


def test_the_line_to_send_a_request_again_keeps_the_plays_limits(tmp_path: Path) -> None:
    """A game played with --address-space 3G (and --sandbox bwrap where bwrap runs): the line
    under the faults that sends the request again carries both, and run as it is, the bot
    runs under them again (its stderr, shown by replay, says its address-space limit, and
    that it cannot see the repository from the sandbox)."""
    from .bots.conftest import bwrap_problem

    bot = tmp_path / "limited.py"  # illegal.py, saying its limits on stderr as it starts
    said = ("import os, resource\nprint('address space', "
            "resource.getrlimit(resource.RLIMIT_AS)[0], 'sees the repository', "
            f"os.path.exists({str(ROOT / 'referee')!r}), file=sys.stderr, flush=True)\n")
    main = 'if __name__ == "__main__":'
    bot.write_text((BOTS / "illegal.py").read_text().replace(main, said + main))
    sandbox = ["--sandbox", "bwrap"] if bwrap_problem() is None else []
    good = f"{PY} {BOTS / 'first_legal.py'}"
    done = in_process.referee("play", f"limited={PY} {bot} --kind over_money", good, good,
                              "--seed", "3", "--log", "game.jsonl", "--address-space", "3G",
                              *sandbox, cwd=tmp_path)
    hint = re.search(r"^To send a bot a request of this game again and see its answer: "
                     r"(referee replay .*)$", done.stdout, re.M)
    assert hint and hint[1].endswith(" ".join([*sandbox, "--address-space", "3G"])), \
        done.stdout
    again = in_process.referee(*shlex.split(hint[1])[1:], cwd=tmp_path)
    assert f"stderr| address space {3 << 30} sees the repository {not sandbox}" \
        in again.stdout, again.stdout
    assert re.search(r"^request \d+ \(id \d+, \w+\): same, a fault in the game: ",
                     again.stdout, re.M), again.stdout
