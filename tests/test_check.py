"""`referee check`: good bots pass every check; a broken bot fails with the right reasons."""

from __future__ import annotations

import functools
import json
import os
import pty
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from referee.check import CHECK_COUNT
from referee.check.situations import SCENARIOS

from . import in_process, terminal
from .disk import files_limited_to
from .processes import BOT_PYTHON, bot_processes, leftover_processes, wait_until

ROOT = Path(__file__).resolve().parent.parent
PY = BOT_PYTHON


def check(command: str, *options: str) -> subprocess.CompletedProcess[str]:
    """`referee check` in the test process (`in_process`): these tests read what it says."""
    return in_process.referee("check", command, *options, cwd=ROOT, timeout=120)


@functools.cache
def checked(command: str, *options: str) -> subprocess.CompletedProcess[str]:
    """`check` of a bot whose run several tests look at, run once."""
    return check(command, *options)


OVER_MONEY = f"{PY} tests/scripted_bots/illegal.py --kind over_money"
NEVER_ANSWERS = (f"{PY} tests/scripted_bots/never_answers.py", "--move-time", "0.05",
                 "--time-bank", "0.05")


# A move time no stall of a loaded machine reaches (one of a second was seen at load 13), for
# tests whose bots must pass every check: a slow answer there is the machine's, not the bot's.
UNHURRIED = ("--move-time", "5")


@pytest.mark.parametrize("bot", ["sample_bots/python/baseline_bot.py",
                                 "sample_bots/python/random_bot.py",
                                 "sample_bots/python/strong_bot.py",
                                 "tests/scripted_bots/first_legal.py"])
def test_good_python_bots_pass_every_check(bot: str) -> None:
    result = checked(f"{PY} {bot}", *UNHURRIED)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout and "WARN" not in result.stdout
    assert "note:" not in result.stdout  # nothing in its stderr looks like an error
    assert "21 passed, 0 failed\n" in result.stdout
    assert result.stdout.count("PASS  ") == CHECK_COUNT == 21
    assert "response time: median" in result.stdout


SIX = "plays an edition with 6 artists and other card counts: in an edition with 6 artists " \
      "and 83 cards (test-six), "


def test_a_bot_that_exits_without_five_artists_fails_saying_the_edition() -> None:
    """A bot that assumes five artists and exits in any other edition passes every check in
    cmon and classic, and fails the six-artist edition's, whose reason names the edition."""
    result = check(f"{PY} tests/scripted_bots/five_artists_only.py")
    assert result.returncode == 1
    # "closed its output" or "stopped reading its input": which the referee sees first
    assert f"FAIL  {SIX}the bot crashed: " in result.stdout
    assert "five_artists_only: expected 5 artists, got 6" in result.stdout
    assert "PASS  plays the classic edition: " in result.stdout
    assert "20 passed, 1 failed" in result.stdout, result.stdout


def test_a_bot_that_answers_wrongly_without_five_artists_fails_saying_the_edition() -> None:
    result = check(f"{PY} tests/scripted_bots/five_artists_only.py --then pass")
    assert result.returncode == 1
    assert f"FAIL  {SIX}" in result.stdout
    assert "answers failed; first: illegal: a hidden bid is asked" in result.stdout
    assert "scenario six-artists (the bot at seat 4), round 1, request id" in result.stdout
    assert "20 passed, 1 failed" in result.stdout, result.stdout


def test_a_bot_that_hard_codes_cmons_artists_fails_in_the_other_editions() -> None:
    result = check(f"{PY} tests/scripted_bots/cmon_artists.py")
    assert result.returncode == 1
    out = result.stdout
    assert "FAIL  plays the classic edition: in the classic edition, the bot crashed: " in out
    assert "KeyError: 'Lite Metal'" in out
    assert f"FAIL  {SIX}the bot crashed: " in out and "KeyError: 'Ana Six'" in out
    assert "PASS  plays a card as auctioneer" in out


def test_the_games_name_the_bot_as_its_hello_does(tmp_path: Path) -> None:
    """A bot given without NAME= plays the checks' games under the name of its hello; a
    hello name that cannot name files leaves it named after its file."""
    for hello, named in (("Clever Bot", "Clever Bot"), ("a/b", "hello_name")):
        transcript = tmp_path / "check.jsonl"
        result = check(f"{PY} tests/scripted_bots/hello_name.py --name {hello!r}",
                       "--transcript", str(transcript))
        assert result.returncode == 0, result.stdout
        assert f"hello from {hello!r}" in result.stdout
        new_game = next(line["to_bot"] for line in map(json.loads, transcript.open())
                        if line.get("to_bot", {}).get("type") == "new_game")
        assert new_game["names"][new_game["seat"]] == named


def test_illegal_bids_fail_with_reasons_and_the_exchange() -> None:
    """A bot that bids more than its money fails each bidding check with the reason and the
    exchange; a check whose first fault is one an earlier check failed on, its amounts aside
    (an edition's, a table size's, another bid's), says so, as that fault is not its own."""
    result = checked(OVER_MONEY)
    assert result.returncode == 1
    out = result.stdout
    assert "FAIL  bids in another's open auction" in out
    assert re.search(r"is more than seat \d's money", out), out
    assert "referee> " in out and '"type":"request"' in out  # the request it got
    assert 'bot>     ' in out and '"action":"bid"' in out  # and what it answered
    assert "PASS  plays a card as auctioneer" in out
    assert re.search(r"^FAIL  plays the classic edition: .*; first: illegal: .* \(as in "
                     r"'.+' above\)$", out, re.M), out
    # one mistake, its amounts aside: said once, then pointed back to
    fails = [line for line in out.splitlines() if line.startswith("FAIL  ") and
             re.search(r"is more than seat \d's money", line)]
    assert len(fails) > 2 and all(line.endswith("above)") for line in fails[1:]), out


def test_a_bot_that_takes_seat_0s_money_for_its_own_fails_where_it_sits_elsewhere(
        tmp_path: Path) -> None:
    """The check seats the bot elsewhere than seat 0 in most scenarios, as a tournament does:
    a bot that reads its money as `view.money[0]` (all its answers legal at seat 0) bids more
    than it has there, and the failed check's exchange says at which seat the bot sat, the
    seat its fault names.  The auctioneer scenarios seat it elsewhere too, so that it fails
    bidding on its own lot there, in the scenario made for that check.  Under hidden money,
    the money it is shown is its own seat's only.  A mystery decision comes at the last seat
    of its table too (a bot whose left neighbour is `seat + 1` without wrapping crashes)."""
    transcript = tmp_path / "check.jsonl"
    result = check(f"{PY} tests/scripted_bots/seat0_money.py", "--transcript", str(transcript))
    assert result.returncode == 1, result.stdout
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines)
              if line.startswith("FAIL  bids in another's open auction: "))
    fault = re.search(r"is more than seat (\d)'s money", lines[at])
    assert fault and fault[1] != "0", lines[at]
    assert re.fullmatch(rf"      scenario [\w-]+ \(the bot at seat {fault[1]}\), round \d, "
                        r"request id \d+ \(bid in another seat's open auction\):",
                        lines[at + 1]), lines[at + 1]
    assert f'"view":{{"seat":{fault[1]},' in lines[at + 2]
    assert "PASS  plays a card as auctioneer: " in result.stdout
    own = lines.index(next(line for line in lines if line.startswith(
        "FAIL  bids as auctioneer in an open auction: ")))
    assert re.match(r"      scenario auctioneer-open \(the bot at seat [1-9]\)", lines[own + 1])
    sent = [line["to_bot"] for line in map(json.loads, transcript.open()) if "to_bot" in line]
    seats = {m["game_id"]: m["seat"] for m in sent if m.get("type") == "new_game"}
    assert seats == {f"check-{sc.name}": sc.seat for sc in SCENARIOS}
    assert 0 not in {sc.seat for sc in SCENARIOS if sc.deck_type is not None}
    hidden = [m["view"] for m in sent if m.get("type") == "request" and m["view"]["money"][0]
              is None]
    assert hidden and all(view["seat"] == 3 and [m is not None for m in view["money"]]
                          == [False, False, False, True, False] for view in hidden)
    # a mystery decision at the table's last seat, where a bot that takes `seat + 1` for its
    # left neighbour (`bought[seat + 1]`) reads past the end and crashes
    assert any(m["decision"] == "mystery" and m["view"]["seat"] == len(m["view"]["money"]) - 1
               for m in sent if m.get("type") == "request")


def test_card_not_held_fails_the_play_check() -> None:
    result = check(f"{PY} tests/scripted_bots/illegal.py --kind card_not_held")
    assert result.returncode == 1
    assert "FAIL  plays a card as auctioneer" in result.stdout
    assert re.search(r"not in seat \d's hand \(R3\.1\)", result.stdout), result.stdout


def test_a_bot_that_cannot_start_fails_with_its_traceback() -> None:
    """A bot that exits before its hello fails the first check with its stderr, and the last
    line counts the checks that could not run."""
    result = check(f"{PY} tests/scripted_bots/crash_at_start.py")
    assert result.returncode == 1
    assert "FAIL  starts and says hello" in result.stdout
    assert "\n0 passed, 1 failed, 20 not run (it did not start)\n" in result.stdout
    assert "exit status 3" in result.stdout and "ModuleNotFoundError" in result.stdout
    assert "Traceback" not in result.stderr  # the referee itself did not crash


def test_a_request_that_never_reached_the_bot_is_shown_as_such() -> None:
    """A bot that closed its input cannot be sent its request: the failed check says so
    instead of showing an exchange that did not happen."""
    result = check(f"{PY} tests/scripted_bots/crash_mid_game.py --close-input")
    assert result.returncode == 1
    assert "crash: stopped reading its input; exit status 3" in result.stdout
    assert "(the request never reached the bot: it had stopped reading its input" in result.stdout


def test_a_full_disk_is_the_referees_failure_in_one_line() -> None:
    """The checks' transcript cannot be written (a full disk): that is the referee's failure,
    not the bot's, and it says so in one line, not a traceback ending in RefereeError."""
    result = subprocess.run([sys.executable, "-m", "referee", "check",
                             f"{PY} tests/scripted_bots/first_legal.py"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120,
                            preexec_fn=files_limited_to(16 * 1024))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("error: the referee failed, not the bot: ")
    assert "File too large" in result.stderr


def test_no_room_for_the_transcript_is_the_referees_failure_in_one_line() -> None:
    """With no temporary folder it can write in, check fails in one line (no
    FileNotFoundError traceback)."""
    result = subprocess.run([sys.executable, "-m", "referee", "check",
                             f"{PY} tests/scripted_bots/first_legal.py"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120,
                            preexec_fn=files_limited_to(0))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("error: the referee failed, not the bot: the checks' "
                                    "transcript cannot be made: ")


def test_ctrl_c_ends_the_check_in_one_line_and_stops_the_bot(tmp_path: Path) -> None:
    bot = tmp_path / "never_answers.py"
    bot.write_bytes((ROOT / "tests" / "scripted_bots" / "never_answers.py").read_bytes())
    child = subprocess.Popen([sys.executable, "-m", "referee", "check", f"python3 {bot}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: bot_processes(tmp_path, child), "the bot to be running", process=child)
    child.send_signal(signal.SIGINT)
    _, said = child.communicate(timeout=30)
    assert child.returncode == 2
    assert said == "error: interrupted; the bot was stopped\n", said
    assert not leftover_processes(str(bot))


def test_a_crash_shows_no_reply_not_the_next_process_hello() -> None:
    """The bot crashes at a request: its exchange ends in "(no reply)", never in the hello of
    the process started for the next game as if it were the answer."""
    result = checked(f"{PY} tests/scripted_bots/crash_mid_game.py")
    assert result.returncode == 1
    assert "ZeroDivisionError" in result.stdout
    assert "bot>     (no reply)" in result.stdout
    assert 'bot>     {"type":"hello"' not in result.stdout


def test_a_crash_on_an_event_is_said_to_be_perhaps_on_the_events_before_the_request() -> None:
    """A bot that crashes reading a sale event is found gone at the next request, whose check
    it fails (the referee cannot know which line the bot ended on): each failed line that
    tells the crash says it crashed on the request or on one of the events it was sent since
    its last answer, and names them, the sale among them."""
    result = check(f"{PY} tests/scripted_bots/crash_mid_game.py --on-event auction_won")
    crashed = [line for line in result.stdout.splitlines()
               if line.startswith("FAIL  ") and "crash" in line]
    assert crashed and all(
        re.search(r"(first: crash|the bot crashed): closed its output; exit status 1; it "
                  r"crashed on this request or on one of the \d+ events sent since its last "
                  r"answer \([^;]*\bauction_won\b[^;]*\)", line)
        for line in crashed), result.stdout
    assert "KeyError: 'no such field'" in result.stdout


def test_a_bots_escape_sequences_are_shown_not_obeyed() -> None:
    """A bot whose hello name, reply and stderr would clear the screen, set the window title
    and overwrite a line with "ALL BOTS PASSED": `check` shows them as `\\x1b`, `\\x07` and
    `\\r`, the stderr tail indented under its check, and still fails the bot."""
    result = terminal.referee("check", f"{PY} tests/scripted_bots/terminal_escape.py", cwd=ROOT,
                              timeout=120)
    assert result.returncode == 1
    terminal.assert_shown_safely(
        result.stdout + result.stderr,
        "hello from '\\x1b[2J\\x1b]0;pwned\\x07\\rALL BOTS PASSED'",
        "bot>     \\x1b[2J\\x1b]0;pwned\\x07",
        "its stderr ends:\n      Traceback: \\x1b[2J\\x1b]0;pwned\\x07\n"
        "      ALL BOTS PASSED\\u202edeliaf\\x1b[0m\n")
    assert "\nALL BOTS PASSED" not in result.stdout


def test_a_check_cut_short_passes_nothing_it_did_not_see() -> None:
    """A bot that never answers: the check stops after its first game, so "plays several
    games in one process" and the situation the bot's own play decides are not run (SKIP),
    neither passed on one game's evidence nor failed for the timeouts' sake; a failed "keeps
    playing after a warning" says why; a bot started afresh after crashing in each game is
    not told whether one process plays them all, and one whose processes each played a game
    before crashing in the next is."""
    slow = checked(*NEVER_ANSWERS)
    assert ("SKIP  plays several games in one process: the bot process was started once "
            "for 1 game; the check stopped after 1 of 11; one game tells nothing of whether "
            "one process plays them all") in slow.stdout, slow.stdout
    assert "SKIP  offers or declines a second card for its own double: not reached" in \
        slow.stdout
    crashing = checked(f"{PY} tests/scripted_bots/crash_mid_game.py")
    # requests, not answers: the one it crashed at got none
    assert "FAIL  keeps playing after a warning: 3 requests after the warning, 1 of them " \
           "failed; first: crash: closed its output; exit status 1" in crashing.stdout
    assert ("SKIP  plays several games in one process: the bot process was started 11 "
            "times for 11 games; it was started afresh after crashing in its games (below)"
            ) in crashing.stdout, crashing.stdout
    second = check(f"{PY} tests/scripted_bots/crash_mid_game.py --in-game 2")
    assert "PASS  plays several games in one process: " in second.stdout, second.stdout


def test_a_check_cut_short_in_its_second_game_does_not_pass_several_games() -> None:
    """A bot that times out three times in the check's second game (as a bot slower than the
    move time does once its bank is spent): the check stops there, so whether one process
    plays all its games is not seen, and "plays several games in one process" is a SKIP, not a
    PASS that earns a point in a grade."""
    # the first game asks 66 requests of a bot that plays the first legal card: 70-72 are
    # in the second
    late = check(f"{PY} tests/scripted_bots/answers_late.py --only 70 --only 71 --only 72 "
                 "--delay 0.3", "--move-time", "0.05", "--time-bank", "0.05")
    assert "the check stopped before scenario 'auctioneer-hidden'" in late.stdout, late.stdout
    assert ("SKIP  plays several games in one process: the bot process was started once for "
            "2 games; the check stopped after 2 of 11, before it could tell whether one "
            "process plays them all\n") in late.stdout, late.stdout


def test_stderr_keeps_what_the_bot_wrote_there_game_by_game(tmp_path: Path) -> None:
    """`check --stderr FILE` keeps the bot's stderr, each game's under its heading, so that a
    crash's whole traceback can be read, not only the end its reason quotes."""
    kept = tmp_path / "logs" / "bot.stderr.log"
    done = check(f"{PY} tests/scripted_bots/crash_mid_game.py", "--stderr", str(kept))
    assert done.returncode == 1, done.stdout
    text = kept.read_text()
    assert text.startswith("=== game check-auctioneer-open ===\nTraceback (most recent call "
                           "last):\n"), text
    assert text.count("ZeroDivisionError: division by zero") > 1


def test_a_bug_its_kit_catches_passes_every_check_and_is_noted(tmp_path: Path) -> None:
    """The Python baseline with a bug in every decision, which its safety net catches and
    logs before answering the default: every check passes, and a note under the response times
    quotes the first error line, says that with more errors than half its answers most of
    them may have been the default, and says where its stderr is kept."""
    source = (ROOT / "sample_bots" / "python" / "baseline_bot.py").read_text()
    buggy = source.replace('        me = self.seat\n',
                           '        me = self.seat\n        raise KeyError("card")\n', 1)
    assert buggy != source
    (tmp_path / "buggy.py").write_text(buggy)
    raised = buggy.splitlines().index('        raise KeyError("card")') + 1  # its line
    kept = tmp_path / "bot.stderr.log"
    done = in_process.referee("check", f"{PY} buggy.py", "--stderr", str(kept), cwd=tmp_path,
                              timeout=120)
    assert done.returncode == 0, done.stdout
    assert re.search(r"\nnote: \d+ lines of its stderr look like errors it lived through, the "
                     r"first: \"baseline: request \d+ \(\w+\): no field or key 'card' "
                     rf"\(KeyError\) at buggy\.py:{raised} in decide; falling back\"; more "
                     r"than half as many as its [\d,]+ accepted answers: most of its answers "
                     r"may have been its kit's default, not its strategy's \(its stderr is "
                     rf"in {re.escape(str(kept))}\)\n21 passed, 0 failed\n", done.stdout), \
        done.stdout


def test_errors_it_lived_through_are_noted_beside_the_checks_they_failed(
        tmp_path: Path) -> None:
    """A bot that catches its own KeyError in every price decision and answers pass fails the
    price checks (pass is no price); the note on its stderr's error lines comes too, as they
    are what the failures come from."""
    scripted = str(ROOT / "tests" / "scripted_bots")
    (tmp_path / "catches.py").write_text(
        f"import json, sys\nsys.path.insert(0, {scripted!r})\n"
        "from first_legal import first_legal, send\n"
        "for line in sys.stdin:\n    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        send({'type': 'hello', 'name': 'catches', 'protocol': 1})\n"
        "    elif m['type'] == 'request' and m['decision'] == 'price':\n"
        "        print(\"bot: KeyError('price'); falling back to pass\", file=sys.stderr,"
        " flush=True)\n        send({'id': m['id'], 'action': 'pass'})\n"
        "    elif m['type'] == 'request':\n        send({'id': m['id'], **first_legal(m)})\n"
        "    elif m['type'] == 'goodbye':\n        break\n")
    done = in_process.referee("check", f"{PY} catches.py", cwd=tmp_path, timeout=120)
    assert done.returncode == 1 and "FAIL  names a fixed price" in done.stdout, done.stdout
    assert re.search(r"\nnote: \d+ lines? of its stderr looks? like errors it lived through, "
                     r"the first: \"bot: KeyError\('price'\); falling back to pass\"",
                     done.stdout), done.stdout


def test_one_crash_in_many_checks_quotes_its_stderr_once() -> None:
    """A bot that crashes the same way in game after game fails many checks; the first quotes
    the end of its stderr (the traceback), and the others say it ends as in that one, so the
    output is not the same traceback nine times over."""
    done = checked(f"{PY} tests/scripted_bots/crash_mid_game.py")
    assert done.returncode == 1
    fails = [line for line in done.stdout.splitlines() if line.startswith("FAIL  ")]
    assert len(fails) > 3, done.stdout
    assert done.stdout.count("Traceback (most recent call last):") == 1, done.stdout
    first = fails[0].split(":")[0].removeprefix("FAIL  ")
    assert all(f"its stderr ends as in {first!r} above" in line for line in fails[1:]
               if "crash" in line), done.stdout


def test_a_bot_kept_running_after_goodbye_by_a_thread_is_noted(tmp_path: Path) -> None:
    """A bot that plays well but starts a thread that outlives its goodbye passes every
    check, and a note says it had to be stopped and what usually keeps a bot running."""
    bot = tmp_path / "linger.py"
    scripted = str(ROOT / "tests" / "scripted_bots")
    bot.write_text(f"import json, sys, threading, time\nsys.path.insert(0, {scripted!r})\n"
                   "from first_legal import first_legal, send\n"
                   "threading.Thread(target=lambda: time.sleep(60), daemon=False).start()\n"
                   "for line in sys.stdin:\n    m = json.loads(line)\n"
                   "    if m['type'] == 'hello':\n"
                   "        send({'type': 'hello', 'name': 'linger', 'protocol': 1})\n"
                   "    elif m['type'] == 'request':\n"
                   "        send({'id': m['id'], **first_legal(m)})\n"
                   "    elif m['type'] == 'goodbye':\n        break\n")
    done = in_process.referee("check", f"{PY} {bot}", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout
    assert ("\nnote: told goodbye, the bot had not ended half a second later and was stopped: "
            "a thread or child process still running?") in done.stdout, done.stdout


def test_a_bot_stuck_in_a_decision_is_said_to_be_busy_with_it_at_goodbye(tmp_path: Path) -> None:
    """A bot that never returns from its first request (a loop that does not end, here a long
    sleep): after its timeouts the check says goodbye, and the note says it is most likely
    still busy with a request it never answered, not that a thread outlived it."""
    bot = tmp_path / "stuck.py"
    bot.write_text("import json, sys, time\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                   "    if m['type'] == 'hello':\n        print(json.dumps({'type': 'hello', "
                   "'name': 'stuck', 'protocol': 1}), flush=True)\n"
                   "    elif m['type'] == 'request':\n        time.sleep(3600)\n")
    done = in_process.referee("check", f"{PY} {bot}", "--move-time", "0.05", "--time-bank",
                              "0.05", cwd=tmp_path, timeout=120)
    assert done.returncode == 1, done.stdout
    assert ("\nnote: told goodbye, the bot had not ended half a second later and was stopped: "
            "after its timeouts, most likely still busy with a request it never answered") \
        in done.stdout, done.stdout


def test_a_bot_that_never_answers_is_asked_no_more_after_three_timeouts() -> None:
    """A bot that never answers costs its author three move times, not a whole game of
    them: after three timeouts the check stops asking, and says so where a situation then
    never came up: such checks are not run (SKIP), not failed, so that the failure that
    stopped the check stands out; the exit status is 1 all the same."""
    result = checked(*NEVER_ANSWERS)
    assert "FAIL  answers in time: 3 answers timed out" in result.stdout, result.stdout
    assert ("SKIP  bids in another's open auction: this situation never came up: the bot was "
            "not asked it (the check stopped asking after 3 answers timed out)") in result.stdout
    assert "SKIP  keeps playing after a warning: never warned" in result.stdout
    found = re.search(r"\n(\d+) passed, (\d+) failed, (\d+) not run \(other failures kept "
                      r"them from being told\)\n", result.stdout)
    assert found, result.stdout
    assert int(found[3]) > int(found[2]) and result.returncode == 1
    marks = re.findall(r"^(PASS|FAIL|SKIP|WARN)  ", result.stdout, re.MULTILINE)
    assert len(marks) == sum(int(x) for x in found.groups())


def test_beginners_mistakes_get_a_hint(tmp_path: Path) -> None:
    """What a beginner does wrong is named with how to fix it: a program in the current
    folder given without ./, a Python script given alone (with or without ./, not
    executable: its interpreter is named), a variable set as a shell would (read as
    NAME=COMMAND), a script that is not there, a misspelt one, one in a folder not there, one
    not built yet (its folder, which builds it, is what to give, `(.)` from inside it), debug
    output on stdout before the hello, a pretty-printed hello, a byte-order mark, output that
    is never flushed, a bot that reads all its input before it answers, and a JVM that cannot
    start."""
    def run(command: str, *more: str) -> subprocess.CompletedProcess[str]:
        return in_process.referee("check", command, *more, cwd=tmp_path, timeout=120)

    (tmp_path / "bot").write_text("#!/bin/sh\n")
    (tmp_path / "bot").chmod(0o755)
    assert run("bot").stderr == ("error: the bot ('bot'): 'bot' is not a command on PATH; for "
                                 "the file bot here, write ./bot\n")
    (tmp_path / "my_bot.py").write_text("print()\n")
    assert run("my_bot.py").stderr == ("error: the bot ('my_bot.py'): 'my_bot.py' is not a "
                                       "command on PATH; for the file my_bot.py here, write "
                                       "python3 my_bot.py\n")
    assert run("./my_bot.py").stderr == ("error: the bot ('./my_bot.py'): ./my_bot.py is not "
                                         "executable (write python3 ./my_bot.py, or chmod +x "
                                         f"{tmp_path / 'my_bot.py'})\n")
    assert run("PYTHONHASHSEED=0 python3 my_bot.py").stderr.endswith(
        "command '0' not found; it was read as NAME=COMMAND, the bot 'PYTHONHASHSEED' running "
        "'0 python3 my_bot.py' (to set a variable, write env PYTHONHASHSEED=0 python3 "
        "my_bot.py)\n")
    assert run("python3 not_mine.py").stderr == ("error: the bot ('python3 not_mine.py'): "
                                                 f"not_mine.py not found in {tmp_path}\n")
    assert run("./bott").stderr == ("error: the bot ('./bott'): command './bott' not found "
                                    "(did you mean ./bot?)\n")
    assert run("./gone/bot").stderr == ("error: the bot ('./gone/bot'): command './gone/bot' not "
                                        "found (there is no folder ./gone)\n")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "Makefile").write_text("bot:\n\tcc -o bot bot.c\n")
    assert run("./c/bot").stderr == ("error: the bot ('./c/bot'): command './c/bot' not found "
                                     "(not built yet? give the folder ./c instead: it is built "
                                     "with `make` first)\n")
    inside = in_process.referee("check", "./bot", cwd=tmp_path / "c", timeout=120)
    assert inside.stderr == ("error: the bot ('./bot'): command './bot' not found (not built "
                             "yet? give the folder (.) instead: it is built with `make` "
                             "first)\n")
    hello = '{"type": "hello", "name": "b", "protocol": 1}'
    for prints, hint in (
            ('print("Bot starting up")', "write logs and debug output to stderr"),
            (f"print(json.dumps({hello}, indent=2))", "do not pretty-print it"),
            (f"sys.stdout.write('\\ufeff' + json.dumps({hello}) + '\\n')", "byte-order mark"),
            (f"sys.stdout.write(json.dumps({hello}) + '\\n'); time.sleep(30)",
             "check that the bot flushes its output"),
            ("sys.stdin.read()", "that it answers each line as it comes, not once its input "
                                 "ends"),
            ('print("Error occurred during initialization of VM")',
             "the JVM could not start: most likely it could not reserve its heap")):
        bot = tmp_path / "b.py"
        bot.write_text(f"import json, sys, time\n{prints}\nsys.stdout.flush()\ntime.sleep(30)\n"
                       if "sleep(30)" not in prints else
                       f"import json, sys, time\nsys.stdout = open(1, 'w', buffering=65536)\n"
                       f"{prints}\n")
        said = run(f"python3 {bot}", "--startup-time", "1").stdout
        assert "FAIL  starts and says hello: " in said and hint in said, said
    ended = check(f"{PY} tests/scripted_bots/exits_after_game.py")
    assert ("it exited between games; exit status 0 (it ended after its last game: one "
            "process plays every game, until goodbye or the end of its input)"
            ) in ended.stdout, ended.stdout


def test_a_bot_that_never_flushes_fails_even_where_python_is_told_not_to_buffer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PYTHONUNBUFFERED=1 in the shell that runs `referee check` does not reach the bot, so a
    Python bot that never flushes fails there as it would on any other machine and in the
    sandbox, with the hint to flush."""
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    bot = tmp_path / "b.py"
    bot.write_text("import json, time\nprint(json.dumps({'type': 'hello', 'name': 'b', "
                   "'protocol': 1}))\ntime.sleep(30)\n")
    said = in_process.referee("check", f"{PY} {bot}", "--startup-time", "1", cwd=tmp_path,
                              timeout=120).stdout
    assert "FAIL  starts and says hello: " in said and "flushes its output" in said, said


def test_a_late_answer_in_a_failed_exchange_says_it_was_skipped(tmp_path: Path) -> None:
    """A bot that prints a debug line after every reply: each debug line is read as the next
    request's answer, so that reply comes late; the failed check's exchange shows it marked
    as an answer to the request before, skipped, not as a reply with a wrong id."""
    bot = tmp_path / "after.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'name': 'after', 'protocol': 1}), "
        "flush=True)\n"
        "    elif m['type'] == 'request':\n"
        "        print(json.dumps({'id': m['id'], 'action': 'pass'}), flush=True)\n"
        "        print('DEBUG done with', m['id'], flush=True)\n"
        "    elif m['type'] == 'goodbye':\n"
        "        break\n")
    said = in_process.referee("check", f"{PY} {bot}", cwd=tmp_path, timeout=120).stdout
    late = re.search(r'\n      referee> \{"type":"request","id":(\d+),.*\n      bot>     '
                     r'\{"id":(\d+),"action":"pass"\}  \(an answer to earlier request (\d+): '
                     r"skipped\)\n      bot>     DEBUG done with", said)
    assert late, said
    assert int(late[2]) == int(late[3]) == int(late[1]) - 1


def test_a_bot_whose_every_answer_fails_is_not_said_to_have_been_warned_or_timed(
        tmp_path: Path) -> None:
    """A bot that prints a debug line before every reply has no answer accepted: the
    warning check says the bot was never warned (the test warning follows an accepted
    answer), the timing check is not run rather than passed, the closing line says no
    answer was accepted, not that none was timed, and the warning of lines that answer no
    request says each is a real reply pushed back by the debug line before it."""
    bot = tmp_path / "chatty.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'name': 'chatty', 'protocol': 1}), "
        "flush=True)\n"
        "    elif m['type'] == 'request':\n"
        "        print('thinking about', m['decision'], flush=True)\n"
        "        print(json.dumps({'id': m['id'], 'action': 'pass'}), flush=True)\n"
        "    elif m['type'] == 'goodbye':\n"
        "        break\n")
    said = in_process.referee("check", f"{PY} {bot}", cwd=tmp_path, timeout=120).stdout
    assert ("SKIP  keeps playing after a warning: never warned: the test warning follows an "
            "accepted answer, and none came") in said, said
    assert "no response times: no answer was accepted" in said, said
    assert ("SKIP  answers within the move time: no answer was accepted (the failures above), "
            "so whether its answers come in time is not told" in said), said  # not a PASS
    # its real replies, each read after the debug line taken as its answer, are skipped
    warned = re.search(r"^WARN  writes replies to requests only: (\d+) lines .*; (\d+) of them "
                       r"came after a line that was not the bot's reply and was taken as that "
                       r"request's answer \(the faults above\): a line of debug output on "
                       r"stdout pushes the bot's real answer back", said, re.M)
    assert warned and warned[1] == warned[2], said


def test_outside_trio_a_second_sigterm_does_not_cut_the_clean_up_short() -> None:
    """signals_interrupt (merge, the Dask executor): the first SIGTERM raises
    KeyboardInterrupt; one more during the clean-up does not raise again inside it."""
    code = """
import os, signal, time
from referee.interrupts import signals_interrupt
try:
    with signals_interrupt():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        finally:  # the clean-up, as merge's removes its partial file
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.1)
            print("cleaned up")
except KeyboardInterrupt:
    print("interrupted")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.stdout == "cleaned up\ninterrupted\n", done.stderr


def test_answers_late_routinely_fail_and_a_few_or_one_near_the_move_time_warn() -> None:
    """Late answers at a move time of 0.2 s, each taken from the time bank (no fault): seven,
    one in about a hundred, fail the check, naming the slowest answer, its time and its
    exchange; two of 0.66 s at a move time of 0.3 s (over twice it), as a loaded machine's
    stalls made for a bot that answers in a third of it, are a warning and pass, as up to 1 in
    200 answers are, each late by less than the move time or 1 s; one of 1.5 s (late by more
    than 1 s), or one the time bank could not absorb (a timeout), fails; a slow first answer
    is said to be the first, whose set-up belongs before the hello.  One of 1.7 s at a move
    time of 2 s, over 80% of it: a warning.  Each verdict holds with one more late answer
    from a stall of the machine running the test."""
    late = f"{PY} tests/scripted_bots/answers_late.py"
    often = "".join(f" --only {n}" for n in range(5, 700, 100))  # one in each of 7 games
    over = check(f"{late}{often} --delay 0.3", "--move-time", "0.2")
    assert over.returncode == 1, over.stdout
    failed = re.search(r"^FAIL  answers within the move time: (\d+) of \d+ accepted answers "
                       r"took longer than the move time of 0.2 s \(the slowest \d+ ms\); .* "
                       r"\(a busy machine's stalls are forgiven: up to \d late answers, 1 in 200 "
                       r"and at least one, each within 1.2 s\)", over.stdout, re.M)
    assert failed is not None and int(failed[1]) >= 7, over.stdout
    lines = over.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL  answers within"))
    assert re.match(r"      scenario [\w-]+ \(the bot at seat \d\), round \d, request id "
                    r"\d+ ", lines[at + 1]), lines[at + 1]
    assert lines[at + 2].startswith('      referee> {"type":"request","id":')
    assert "20 passed, 1 failed\n" in over.stdout

    stalls = check(f"{late} --only 5 --only 9 --delay 0.66", "--move-time", "0.3")
    assert stalls.returncode == 0, stalls.stdout
    assert re.search(r"^WARN  answers within the move time: [23] of \d+ accepted answers took "
                     r"longer than the move time of 0.3 s \(the slowest \d+ ms\): the time "
                     r"bank absorbed them, and up to \d late answers, 1 in 200 and at least one, "
                     r"each within 1.3 s, can be a busy machine's stalls", stalls.stdout,
                     re.M), stalls.stdout
    assert "first answer" not in stalls.stdout
    first = check(f"{late} --only 1 --delay 0.3", "--move-time", "0.2")
    assert re.search(r"^WARN  answers within the move time: [12] of .* The bot's first "
                     r"answer was late: set-up done then .* is better done before its hello",
                     first.stdout, re.M), first.stdout
    far = check(f"{late} --only 5 --delay 1.5", "--move-time", "0.2")
    assert far.returncode == 1 and re.search(
        r"^FAIL  answers within the move time: [12] of", far.stdout, re.M), far.stdout
    timed_out = check(f"{late} --only 5 --delay 1.5", "--move-time", "1", "--time-bank", "0.2")
    assert re.search(r"^FAIL  answers within the move time: 1 request timed out \(no answer "
                     r"within the move time and what was left of the time bank\)",
                     timed_out.stdout, re.M), timed_out.stdout

    near = check(f"{late} --only 5 --delay 1.7", "--move-time", "2")
    assert near.returncode == 0, near.stdout
    assert re.search(r"^WARN  answers within the move time: 1 of \d+ accepted answers took "
                     r"over 80% of the move time of 2 s", near.stdout, re.M), near.stdout
    assert "21 passed, 0 failed, 1 with a warning\n" in near.stdout


def test_a_bot_late_at_every_answer_is_not_told_to_move_its_set_up(tmp_path: Path) -> None:
    """A bot late at every answer, its first among them, fails the move-time check with a
    sentence that ends before the next begins, and is not told its set-up belongs before its
    hello (set-up is not what makes every answer late); one late only at its first answer
    is."""
    from referee.check.run import _move_time_result
    from referee.check.situations import Asked
    from referee.game.actions import DecisionKind

    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text("")

    def answers(*seconds: float) -> list[Asked]:
        return [Asked("open", DecisionKind.PLAY, None, False, None, t, i)
                for i, t in enumerate(seconds, 1)]

    always = _move_time_result(answers(*[1.2] * 40), 1.0, transcript)
    assert not always.passed and always.reason.startswith(
        "40 of 40 accepted answers took longer than the move time of 1 s"), always.reason
    assert "timeout The" not in always.reason and "first answer" not in always.reason, \
        always.reason
    setup = _move_time_result(answers(2.5, 1.2, 1.2, *[0.01] * 37), 1.0, transcript)
    assert not setup.passed and "every late answer is a timeout (a busy machine's stalls " \
        "are forgiven: up to 1 late answer, 1 in 200 and at least one, each within 2 s). " \
        "The bot's first answer was late: set-up done then" in setup.reason, setup.reason


def test_slow_answers_and_timeouts_are_counted_alike_in_every_line(tmp_path: Path) -> None:
    """A bot that sleeps 0.5 s at every fourth bid, at a move time of 0.2 s: the early ones
    come out of the time bank, the later ones, once it is spent, time out.  Every line counts
    them alike: the move-time check's timeouts are those "answers in time" counts, its
    accepted answers are the requests sent but those timeouts, and the response times are of
    those same answers."""
    bot = tmp_path / "sleepy.py"
    bot.write_text("import json, sys, time\n"
                   f"sys.path.insert(0, {str(ROOT / 'tests' / 'scripted_bots')!r})\n"
                   "from first_legal import first_legal, send\nbids = 0\n"
                   "for line in sys.stdin:\n    m = json.loads(line)\n"
                   "    if m['type'] == 'hello':\n"
                   "        send({'type': 'hello', 'name': 'sleepy', 'protocol': 1})\n"
                   "    elif m['type'] == 'request':\n"
                   "        if m['decision'] in ('bid', 'hidden_bid'):\n"
                   "            bids += 1\n"
                   "            if bids % 4 == 0:\n"
                   "                time.sleep(0.5)\n"
                   "        send({'id': m['id'], **first_legal(m)})\n"
                   "    elif m['type'] == 'goodbye':\n        break\n")
    sent = tmp_path / "transcript.jsonl"
    out = check(f"{PY} {bot}", "--move-time", "0.2", "--time-bank", "1", "--transcript",
                str(sent))
    slow = re.search(r"^FAIL  answers within the move time: (\d+) of (\d+) accepted answers "
                     r"took longer than the move time of 0.2 s \(the slowest \d+ ms\), and "
                     r"(\d+) requests timed out \(no answer within the move time and what was "
                     r"left of the time bank\)", out.stdout, re.M)
    assert slow, out.stdout
    over, answers, timeouts = (int(n) for n in slow.groups())
    requests = [line for line in map(json.loads, sent.read_text().splitlines())
                if line.get("to_bot", {}).get("type") == "request"]
    assert 0 < over <= answers and answers + timeouts == len(requests), out.stdout
    assert f"FAIL  answers in time: {timeouts} answers timed out" in out.stdout, out.stdout
    assert re.search(rf"^response time: median .* over {answers} accepted answers \(answers "
                     r"that were faults, and timeouts, are not counted\)$", out.stdout, re.M), \
        out.stdout


def test_replies_to_messages_that_want_none_are_a_warning() -> None:
    """A bot that replies to every new_game and game_end with its last request's id (no
    fault: the referee skips them): the check passes with a warning that counts those lines
    and shows the first."""
    result = check(f"{PY} tests/scripted_bots/replies_unasked.py --to new_game,game_end")
    assert result.returncode == 0, result.stdout
    assert re.search(r"^WARN  writes replies to requests only: \d+ lines the bot wrote answer "
                     r"no request", result.stdout, re.M), result.stdout
    assert re.search(r'^      bot>     \{"id":\d+,"action":"pass"\}', result.stdout, re.M)
    assert "21 passed, 0 failed, 1 with a warning\n" in result.stdout
    assert "pushes the bot's real answer back" not in result.stdout  # no line came before


def test_a_failed_answer_shows_its_legal_choices_and_where_it_was_asked() -> None:
    """Every failed check's exchange shows the request's `legal` (the view is what is cut),
    and the line above it names the scenario, round and decision where it was asked: an
    illegal bid as auctioneer of a once-around auction is shown from the scenario that deals
    once-around cards, not from a later round of the open one."""
    out = checked(OVER_MONEY).stdout
    requests = [line for line in out.splitlines() if line.startswith("      referee> ")]
    assert len(requests) >= 10 and all('"legal":{' in line for line in requests), out
    lines = out.splitlines()
    at = lines.index(next(line for line in lines
                          if line.startswith("FAIL  bids as auctioneer in a once-around")))
    seat = next(sc.seat for sc in SCENARIOS if sc.name == "auctioneer-once-around")
    assert re.fullmatch(rf"      scenario auctioneer-once-around \(the bot at seat {seat}\), "
                        r"round 1, request id \d+ \(bid in its own once-around auction\):",
                        lines[at + 1]), lines[at + 1]
    assert '"decision":"bid","legal":{"min":' in lines[at + 2]


def test_the_own_double_check_gives_the_same_verdict_for_the_same_play() -> None:
    """A bot whose every bid is illegal plays the same game as first_legal (its bids are
    replaced by first_legal's answers, the defaults): "not reached" for its own double is
    the same verdict, with the same count of chances declined, not a failure blamed on
    faults elsewhere."""
    def own_double(out: str) -> str:
        return next(line for line in out.splitlines() if "for its own double" in line)

    first_legal = own_double(checked(f"{PY} tests/scripted_bots/first_legal.py",
                                     *UNHURRIED).stdout)
    assert re.fullmatch(r"PASS  offers or declines a second card for its own double: not "
                        r"reached: \d+ times the bot held a double and a second card of its "
                        r"artist, and played another card", first_legal), first_legal
    assert own_double(checked(OVER_MONEY).stdout) == first_legal


def on_a_terminal(bot: str, interrupt_at: str | None = None) -> tuple[int, str, str]:
    """`referee check BOT` with its stderr on a terminal (a pty): its exit status, stdout, and
    all it showed on the terminal; with `interrupt_at`, Ctrl-C (SIGINT) once that is shown."""
    controller, terminal_side = pty.openpty()
    shown = b""
    try:
        proc = subprocess.Popen([sys.executable, "-m", "referee", "check", bot], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=terminal_side, text=True)
        os.close(terminal_side)
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # EIO: the process and its terminal side are gone
                break
            if not chunk:
                break
            shown += chunk
            if interrupt_at is not None and interrupt_at.encode() in shown:
                proc.send_signal(signal.SIGINT)
                interrupt_at = None
        out, _ = proc.communicate(timeout=300)
    finally:
        os.close(controller)
    return proc.returncode, out, shown.decode()


def test_on_a_terminal_check_says_which_game_is_on_and_leaves_no_line_behind() -> None:
    """A slow bot's check takes minutes: on a terminal, stderr shows which of the scenario
    games is being played, each over the last, and is cleared before the results."""
    code, out, said = on_a_terminal(f"{PY} tests/scripted_bots/first_legal.py")
    assert code == 0 and f"{CHECK_COUNT} passed, 0 failed" in out, out
    games = re.findall(r"\r\x1b\[Kchecking: game (\d+) of (\d+) \(([\w-]+)\)", said)
    assert games == [(str(n), str(len(SCENARIOS)), sc.name)
                     for n, sc in enumerate(SCENARIOS, start=1)], said
    assert said.endswith("\r\x1b[K"), said


def test_ctrl_c_on_a_terminal_clears_the_progress_line_before_its_error() -> None:
    """Interrupted on a terminal, check's one error line starts a line of its own, the
    progress line cleared before it."""
    code, _, said = on_a_terminal(f"{PY} tests/scripted_bots/answers_late.py --delay 0.05",
                                  interrupt_at="checking: game 2 of")
    assert code == 2, said
    assert said.endswith("\r\x1b[Kerror: interrupted; the bot was stopped\r\n"), repr(said)
