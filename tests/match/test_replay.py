"""The command line end to end: `referee play --log/--json`, `referee replay` of a good and of
a tampered record, and user errors that must end in one `error:` line, not a traceback."""

from __future__ import annotations

import dataclasses
import json
import signal
import subprocess
import sys
from pathlib import Path
from shlex import join as shlex_join
from typing import Any

import orjson
import pytest

from referee.match.record import RecordError, read_record
from referee.match.replay import replay
from referee.match.spec import GameSpec

from .. import in_process
from ..processes import (
    ROOT,
    bot_processes,
    command,
    copy_bots,
    leftover_processes,
    wait_until,
)

BOTS = {
    "alice": "first_legal.py",
    "bob": "garbage.py",
    "carol": "first_legal.py",
    "dave": "illegal.py --kind over_money",
}


@pytest.fixture(scope="module")
def logged_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """One `referee play --log --json` game (per test module and xdist worker)."""
    base = tmp_path_factory.mktemp("logged")
    bot_dir = copy_bots(base / "bots")
    log = base / "game.jsonl"
    args = ["play", "--seed", "9", "--move-time", "0.5", "--time-bank", "1", "--json",
            "--log", str(log)]
    args += [f"{name}={command(bot_dir, bot)}" for name, bot in BOTS.items()]
    proc = in_process.referee(*args, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert leftover_processes(f"{bot_dir}/") == []
    return log, json.loads(proc.stdout)


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(x) for x in path.read_bytes().splitlines()]


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    return path


def assert_one_error_line(proc: Any, *words: str) -> None:
    """A user error: non-zero exit, no traceback, exactly one `error:` line naming `words`."""
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.lower().startswith("error:")]
    assert len(errors) == 1, proc.stderr
    for word in words:
        assert word in errors[0], errors[0]


def test_play_json_summary(logged_game: tuple[Path, dict[str, Any]]) -> None:
    _, summary = logged_game
    assert summary["seed"] == 9
    assert [s["name"] for s in summary["seats"]] == list(BOTS)
    for seat in summary["seats"]:
        assert isinstance(seat["money"], int)
        assert seat["rank"] in (1, 2, 3, 4)
        assert isinstance(seat["faults"], list)
        for fault in seat["faults"]:
            assert set(fault) == {"kind", "reason"}
    seats = {s["name"]: s for s in summary["seats"]}
    assert seats["alice"]["faults"] == seats["carol"]["faults"] == []
    assert [f["kind"] for f in seats["bob"]["faults"]] == ["malformed"] * 3
    assert [f["kind"] for f in seats["dave"]["faults"]] == ["illegal"] * 3
    assert seats["bob"]["retired"] and seats["dave"]["retired"]
    # Retired seats rank below every other seat.
    assert max(seats["alice"]["rank"], seats["carol"]["rank"]) <= 2
    assert min(seats["bob"]["rank"], seats["dave"]["rank"]) >= 3


def test_the_standings_show_a_retired_column_only_when_a_seat_retired(
        logged_game: tuple[Path, dict[str, Any]]) -> None:
    """The readable standings of `referee play` have a retired column only in a game where a
    seat retired, never one headed by nothing."""
    from referee.cli.play import standings_table

    log, _ = logged_game
    seats = read_record(log.read_bytes()).result.seats()
    lines = standings_table(seats).splitlines()
    assert lines[0].split() == ["rank", "bot", "seat", "money", "faults", "retired"]
    rows = {line.split()[1]: line.split() for line in lines[2:6]}
    assert rows["bob"][-1] == rows["dave"][-1] == "retired"
    assert rows["alice"][-1] == "0"  # its faults: nothing after them
    calm = [dataclasses.replace(s, retired=False, faults=()) for s in seats]
    lines = standings_table(calm).splitlines()
    assert lines[0].split() == ["rank", "bot", "seat", "money", "faults"]
    assert len(lines[1].split()) == 5  # the underline: no column headed by nothing
    assert "Faults:" not in "\n".join(lines)


def test_logged_game_replays(logged_game: tuple[Path, dict[str, Any]]) -> None:
    log, summary = logged_game
    lines = read_lines(log)
    assert lines[0]["type"] == "spec" and lines[-1]["type"] == "result"
    assert lines[-1]["money"] == [s["money"] for s in summary["seats"]]
    proc = in_process.referee("replay", str(log), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "the record agrees with the rules" in proc.stdout
    assert "Game over" in proc.stdout  # the transcript
    quiet = in_process.referee("replay", "-q", str(log), cwd=ROOT)
    assert quiet.returncode == 0
    assert quiet.stdout.strip().splitlines() == [f"{log}: the record agrees with the rules"]


def test_a_logged_game_keeps_its_deal_and_each_malformed_line(
        logged_game: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """`referee play --log` writes the deck after the spec, and the line of each malformed
    reply in its fault; once the deck is edited, `referee replay` refuses the record in one
    line naming R2.3."""
    lines = read_lines(logged_game[0])
    assert lines[1]["type"] == "deal" and sorted(lines[1]["deck"]) == list(range(70))
    assert "mystery" not in lines[1]
    malformed = [x for x in lines if x["type"] == "fault" and x["kind"] == "malformed"]
    assert [x["line"] for x in malformed] == ["this is not json"] * 3
    lines[1]["deck"][:2] = lines[1]["deck"][1::-1]
    proc = in_process.referee("replay", str(write_lines(tmp_path / "dealt.jsonl", lines)),
                              cwd=ROOT)
    assert_one_error_line(proc, "the record's deck is not the one its seed 9 deals (R2.3)")
    assert proc.returncode == 2


def tamper_payment(lines: list[dict[str, Any]]) -> None:
    line = next(x for x in lines if x["type"] == "event" and x["event"]["type"] == "payment")
    line["event"]["amount"] += 1


def tamper_action(lines: list[dict[str, Any]]) -> None:
    line = next(x for x in lines if x["type"] == "apply" and "amount" in x["action"])
    line["action"]["amount"] += 1


def tamper_money(lines: list[dict[str, Any]]) -> None:
    lines[-1]["money"][0] += 10


def tamper_retired(lines: list[dict[str, Any]]) -> None:
    """Clear the retired seat from the result, and its faults, with ranks to match: the
    retired bot then ranks by its money, and replay finds the mismatch."""
    from referee.match.game import final_ranks

    result = lines[-1]
    assert result["retired"], "the logged game has a retired seat"
    result["retired"] = []
    result["faults"] = [[] for _ in result["faults"]]
    result["ranks"] = final_ranks(result["money"], [False] * len(result["money"]))


def tamper_faults(lines: list[dict[str, Any]]) -> None:
    faults = lines[-1]["faults"]
    seat = next(i for i, f in enumerate(faults) if f)
    faults[seat] = faults[seat][1:]


@pytest.mark.parametrize("tamper", [tamper_payment, tamper_action, tamper_money,
                                    tamper_retired, tamper_faults],
                         ids=["payment", "action", "money", "retired", "faults"])
def test_tampered_record_is_a_mismatch(
    tamper: Any, logged_game: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    lines = read_lines(logged_game[0])
    tamper(lines)
    proc = in_process.referee("replay", "-q", str(write_lines(tmp_path / "tampered.jsonl", lines)),
                              cwd=ROOT)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert any(line.startswith("mismatch: ") for line in proc.stderr.splitlines()), proc.stderr


def bad_edition(tmp_path: Path) -> str:
    artist = {"open": 1, "once-around": 1, "hidden": 1, "fixed-price": 1, "double": 1}
    data = {"name": "bad", "artists": [{"name": n, **artist} for n in "ABC"]}
    data["artists"][2]["hidden"] = -1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    return str(path)


GOOD = "first_legal.py"
USER_ERRORS = {
    "two-bots": (["play", GOOD, GOOD], ["3 to 5 bots, got 2"]),
    "bot-not-found": (["play", GOOD, GOOD, "/nonexistent/bot"], ["'/nonexistent/bot' not found"]),
    "bad-edition-name": (["play", GOOD, GOOD, GOOD, "--edition", "nosuch"],
                         ["no edition 'nosuch'"]),
    "bad-edition-file": (["play", GOOD, GOOD, GOOD, "--edition", "BAD_EDITION"],
                         ["artists.2.hidden"]),
    "mystery-with-4": (["play", GOOD, GOOD, GOOD, GOOD, "--variant", "mystery"],
                       ["three players only"]),
    # NaN passes every comparison: unchecked, it voided each game at its first deadline.
    "move-time-nan": (["play", GOOD, GOOD, GOOD, "--move-time", "nan"],
                      ["--move-time", "nan is not a number of seconds (more than 0)"]),
    "time-bank-nan": (["play", GOOD, GOOD, GOOD, "--time-bank", "nan"],
                      ["--time-bank", "(0 or more)"]),
    "move-time-zero": (["play", GOOD, GOOD, GOOD, "--move-time", "0"], ["--move-time"]),
    "time-bank-negative": (["play", GOOD, GOOD, GOOD, "--time-bank", "-1"], ["--time-bank"]),
    "startup-time-infinite": (["play", GOOD, GOOD, GOOD, "--startup-time", "inf"],
                              ["--startup-time"]),
    "max-faults-zero": (["play", GOOD, GOOD, GOOD, "--max-faults", "0"], ["--max-faults"]),
    # Records are JSON with 64-bit integers: a larger seed is refused before the game, not
    # when the log is written.
    "seed-too-large": (["play", GOOD, GOOD, GOOD, "--seed", str(2**63), "--log", "LOG"],
                       ["--seed"]),
    "check-move-time-nan": (["check", GOOD, "--move-time", "nan"], ["--move-time"]),
    "check-time-bank-negative": (["check", GOOD, "--time-bank", "-1"], ["--time-bank"]),
    "max-faults-huge": (["play", GOOD, GOOD, GOOD, "--max-faults", str(10**20)],
                        ["--max-faults", "1<=x<=1000000000"]),
    # prlimit cannot take it: unchecked, every bot would fail to start and be blamed for it.
    "address-space-huge": (["play", GOOD, GOOD, GOOD, "--address-space", "99999999999T"],
                           ["--address-space", "at most 1024T"]),
    "transcript-under-a-file": (["play", GOOD, GOOD, GOOD, "--transcript-dir", "UNDER_A_FILE"],
                                ["--transcript-dir", "Not a directory"]),
    "stderr-dir-under-a-file": (["play", GOOD, GOOD, GOOD, "--stderr-dir", "UNDER_A_FILE"],
                                ["--stderr-dir", "Not a directory"]),
    "check-transcript-under-a-file": (["check", GOOD, "--transcript", "UNDER_A_FILE"],
                                      ["--transcript", "is a file, not a folder"]),
    # A bot's name names its files: '../x' would write a transcript outside the folder given.
    "bot-name-with-a-path": (["play", "PATH_NAME", GOOD, GOOD, "--transcript-dir", "TDIR"],
                             ["name '../../escaped'", "without '/'"]),
    # Both seats' transcripts would go into one file, and the standings name one bot twice.
    "names-clash": (["play", "CLASH_NAME", GOOD, GOOD], ["bots 1 and 2 would both be named "
                                                         "'first_legal-2'"]),
    # A newline would split its standings row, and name a file.
    "name-with-a-newline": (["play", "NEWLINE_NAME", GOOD, GOOD], ["control characters"]),
    # An empty path would be the current folder: transcripts and logs written there unasked.
    "transcript-empty": (["play", GOOD, GOOD, GOOD, "--transcript-dir", ""],
                         ["--transcript-dir", "not an empty value"]),
    "stderr-dir-empty": (["play", GOOD, GOOD, GOOD, "--stderr-dir", " "], ["--stderr-dir"]),
    "contradictory-variants": (["play", GOOD, GOOD, GOOD, "--variant", "mystery", "--variant",
                                "mystery-winner"], ["exclude each other"]),
    "replay-spec-seed-too-large": (["replay", "BIG_SEED"], ["spec is not valid: seed:"]),
    # Python's Random ignores a seed's sign: -7 would deal the game of 7 (and a record's seed
    # turned from 1 to -1 would replay as agreeing with the rules).
    "seed-negative": (["play", GOOD, GOOD, GOOD, "--seed", "-7"], ["--seed", "0<=x"]),
    "replay-spec-seed-negative": (["replay", "NEG_SEED"], ["spec is not valid: seed:"]),
    "no-such-subcommand": (["frobnicate"], ["no such command"]),
    # csv is one table: the extras would be dropped without a word.
    "leaderboard-csv-with-extras": (["leaderboard", "x.db", "--format", "csv", "--seats"],
                                    ["--head-to-head and --seats do not fit --format csv"]),
    "replay-not-json": (["replay", "NOT_JSON"], ["NOT_JSON"]),
    "replay-not-a-record": (["replay", "NOT_RECORD"], ["not a game record"]),
    "replay-damaged-record": (["replay", "DAMAGED"], ["DAMAGED"]),
}


@pytest.mark.parametrize("case", list(USER_ERRORS))
def test_user_error_is_one_line(case: str, tmp_path: Path) -> None:
    """Each mistake: one `error:` line naming it and a non-zero exit, no traceback (the
    command run in-process: a traceback would be raised here)."""
    args, words = USER_ERRORS[case]
    bot_dir = copy_bots(tmp_path / "bots")
    (tmp_path / "not_json.jsonl").write_text("this is not json\n")
    (tmp_path / "not_record.jsonl").write_text('{"type": "result"}\n')
    spec = {"type": "spec", **GameSpec.make("g", 1, ["a", "b", "c"]).model_dump()}
    write_lines(tmp_path / "damaged.jsonl", [spec, {"type": "apply"}])
    big_seed = tmp_path / "big_seed.jsonl"  # json: orjson cannot write a seed this large
    big_seed.write_text(json.dumps({**spec, "seed": 2**70}) + "\n")
    write_lines(tmp_path / "neg_seed.jsonl", [{**spec, "seed": -1}])
    subst = {
        GOOD: f"python3 {bot_dir / GOOD}",
        "BAD_EDITION": bad_edition(tmp_path),
        "NOT_JSON": str(tmp_path / "not_json.jsonl"),
        "NOT_RECORD": str(tmp_path / "not_record.jsonl"),
        "DAMAGED": str(tmp_path / "damaged.jsonl"),
        "LOG": str(tmp_path / "game.jsonl"),
        "UNDER_A_FILE": str(tmp_path / "not_json.jsonl" / "x"),
        "PATH_NAME": f"../../escaped=python3 {bot_dir / GOOD}",
        "CLASH_NAME": f"first_legal-2=python3 {bot_dir / GOOD}",
        "NEWLINE_NAME": f"a\nb=python3 {bot_dir / GOOD}",
        "TDIR": str(tmp_path / "t" / "u"),
        "BIG_SEED": str(big_seed),
        "NEG_SEED": str(tmp_path / "neg_seed.jsonl"),
    }
    proc = in_process.referee(*[subst.get(a, a) for a in args], cwd=ROOT)
    assert_one_error_line(proc, *[subst.get(w, w) for w in words])
    assert not list(tmp_path.glob("*.transcript.jsonl")), "wrote outside --transcript-dir"


def test_names_and_limits_that_always_worked_still_do(tmp_path: Path) -> None:
    """The checks above refuse only what cannot work: a name taken from a file name with a space,
    a non-ASCII NAME=, a --max-faults that says "never retire", and a variant given twice
    still play."""
    bot_dir = copy_bots(tmp_path / "bots")
    spaced = bot_dir / "my bot.py"
    spaced.write_bytes((bot_dir / GOOD).read_bytes().replace(  # a hello name that cannot
        b'NAME = "first_legal"', b'NAME = "no/name"'))  # name files: named after its file
    proc = in_process.referee(
        "play", f"python3 '{spaced}'", f"Ålice=python3 {bot_dir / GOOD}",
        f"python3 {bot_dir / GOOD}", "--max-faults", "10000", "--transcript-dir",
        str(tmp_path / "t"), "--variant", "split-double", "--variant", "split-double", "--json",
        cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["variants"] == ["split-double"]  # once, as the bots see it
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == [
        "first_legal.transcript.jsonl", "my bot.transcript.jsonl", "Ålice.transcript.jsonl"]


def drop_action(lines: list[dict[str, Any]]) -> None:
    del next(x for x in lines if x["type"] == "apply")["action"]


def drop_event(lines: list[dict[str, Any]]) -> None:
    del next(x for x in lines if x["type"] == "event")["event"]


def line_not_object(lines: list[dict[str, Any]]) -> None:
    lines.insert(1, [1, 2])  # type: ignore[arg-type]


def retired_not_list(lines: list[dict[str, Any]]) -> None:
    lines[-1]["retired"] = 5


@pytest.mark.parametrize("damage", [drop_action, drop_event, line_not_object, retired_not_list],
                         ids=["apply-without-action", "event-without-event", "line-not-object",
                              "retired-not-a-list"])
def test_malformed_record_is_reported_not_a_traceback(
    damage: Any, logged_game: tuple[Path, dict[str, Any]]
) -> None:
    """A damaged record is a RecordError (`referee replay` exits 2 with one `error:` line)
    or a list of mismatches (exit 1), never another exception (a KeyError, AttributeError or
    TypeError), which would be a traceback."""
    lines = read_lines(logged_game[0])
    damage(lines)
    try:
        result = replay(read_record(b"".join(orjson.dumps(line) + b"\n" for line in lines)))
    except RecordError:
        return
    assert not result.ok


def test_verbose_play_shows_faults_where_they_happen(tmp_path: Path) -> None:
    """-v: each fault and the retirement appear in the game's course, before the plays that
    follow them, not only in the standings after the game."""
    bot_dir = copy_bots(tmp_path / "bots")
    proc = in_process.referee("play", f"bob={command(bot_dir, 'garbage.py')}",
                              command(bot_dir, GOOD), command(bot_dir, GOOD), "-v",
                              "--move-time", "0.5", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    faults = [i for i, line in enumerate(lines) if line.startswith("   ! bob: malformed fault: ")]
    retired = lines.index("   ! bob is retired (3 faults)")
    assert len(faults) == 3 and faults[-1] < retired < lines.index("")
    assert any(line.startswith("== Round") for line in lines[:faults[0]])


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_or_sighup_stops_every_bot_and_says_so(bot_dir: Path, signum: int) -> None:
    """A job's time limit (SIGTERM) or a closed terminal (SIGHUP) stops the referee as Ctrl-C
    does: every bot process is stopped, a grandchild that ignores SIGTERM included, and it
    says so in one line."""
    child = subprocess.Popen(
        [sys.executable, "-m", "referee", "play", command(bot_dir, "forks_grandchild.py"),
         command(bot_dir, "answers_late.py --delay 0.2"), command(bot_dir, GOOD)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # The three bots and the grandchild forks_grandchild.py forks after its hello.
    wait_until(lambda: len(bot_processes(bot_dir, child)) >= 4,
               "the three bots and the grandchild to be running", process=child)
    child.send_signal(signum)
    _, said = child.communicate(timeout=30)
    assert child.returncode == 2
    assert said == "error: interrupted; every bot process was stopped\n", said
    assert leftover_processes(f"{bot_dir}/") == []


# Plays the first legal action; takes goodbye and SIGTERM as nothing, after noting each in a
# file named by its argument (so its stop takes the referee's full grace periods).
STUBBORN = """\
import json, signal, sys, time
note = sys.argv[1]
signal.signal(signal.SIGTERM, lambda *_: open(note, "a").write("SIGTERM\\n"))
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "stubborn", "protocol": 1}), flush=True)
    elif message["type"] == "goodbye":
        open(note, "a").write("goodbye\\n")
    elif message["type"] == "request":
        legal, action = message["legal"], {"action": "pass"}
        if message["decision"] == "play":
            action = {"action": "play", "card": legal["cards"][0]}
        elif message["decision"] == "hidden_bid":
            action = {"action": "bid", "amount": 0}
        elif message["decision"] == "price":
            action = {"action": "price", "amount": legal["min"]}
        print(json.dumps({"id": message["id"], **action}), flush=True)
while True:
    time.sleep(1)
"""


def test_a_second_sigterm_waits_for_the_bots_to_be_stopped(bot_dir: Path,
                                                           tmp_path: Path) -> None:
    """The first SIGTERM stops the bots; a second one, while that takes its time (a bot that
    ignores goodbye and SIGTERM), changes nothing: the bots are all stopped, in one line."""
    (bot_dir / "stubborn.py").write_text(STUBBORN)
    note = tmp_path / "stubborn.note"
    child = subprocess.Popen(
        [sys.executable, "-m", "referee", "play", command(bot_dir, f"stubborn.py {note}"),
         command(bot_dir, "answers_late.py --delay 0.2"), command(bot_dir, GOOD)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: len(bot_processes(bot_dir, child)) >= 3, "the three bots to be running",
               process=child)
    child.send_signal(signal.SIGTERM)
    wait_until(note.exists, "the referee to be stopping the stubborn bot", process=child)
    child.send_signal(signal.SIGTERM)
    _, said = child.communicate(timeout=30)
    assert (child.returncode, said) == (2, "error: interrupted; every bot process was "
                                           "stopped\n"), said
    assert leftover_processes(f"{bot_dir}/") == []


def test_sighup_ignored_by_nohup_stays_ignored(bot_dir: Path, tmp_path: Path) -> None:
    """Under nohup a SIGHUP (a closed terminal) changes nothing: the game plays to its end."""
    child = subprocess.Popen(
        ["nohup", sys.executable, "-m", "referee", "play", command(bot_dir, GOOD),
         command(bot_dir, "answers_late.py --delay 0.1"), command(bot_dir, GOOD), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    wait_until(lambda: len(bot_processes(bot_dir, child)) >= 3, "the three bots to be running",
               process=child)
    child.send_signal(signal.SIGHUP)
    out, said = child.communicate(timeout=120)
    assert child.returncode == 0, said
    assert json.loads(out)["seats"][0]["faults"] == []


def test_a_crash_quotes_only_its_own_process_stderr(tmp_path: Path) -> None:
    """With --stderr-dir the log keeps earlier runs' lines, yet a bot that crashes silently
    is quoted only its own process's stderr, never the last run's."""
    bot_dir = copy_bots(tmp_path / "bots")
    noisy, silent = tmp_path / "noisy.py", tmp_path / "silent.py"
    noisy.write_text("import sys\nprint('PREVIOUS-RUN: an earlier crash', file=sys.stderr)\n"
                     "sys.exit(7)\n")
    silent.write_text("import sys\nsys.exit(7)\n")
    reasons = []
    for bot in (noisy, silent):
        proc = in_process.referee("play", f"x=python3 {bot}", command(bot_dir, GOOD),
                                  command(bot_dir, GOOD), "--stderr-dir", str(tmp_path / "logs"),
                                  "--json", cwd=ROOT)
        assert proc.returncode == 1, proc.stderr  # x could not start
        reasons.append(json.loads(proc.stdout)["seats"][0]["faults"][0]["reason"])
    assert "PREVIOUS-RUN" in reasons[0]
    assert reasons[1] == "closed its output before its hello; exit status 7", reasons[1]


def test_the_flush_hint_is_for_bots_that_never_sent_a_line(tmp_path: Path) -> None:
    """A timeout with nothing received hints at an unflushed output only while the bot has
    sent nothing at all: a slow bot that answered before is told it was late (or, its reply
    later than the referee's look, that it may be in a sleep), never only that it should
    check that it flushes."""
    bot_dir = copy_bots(tmp_path / "bots")
    proc = in_process.referee("play", command(bot_dir, "never_answers.py"),
                              command(bot_dir, "answers_late.py --delay 0.8"),
                              command(bot_dir, GOOD), "--move-time", "0.5", "--time-bank", "0.5",
                              "--json", cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    never, late = (json.loads(proc.stdout)["seats"][i]["faults"] for i in (0, 1))
    assert never and all("check that the bot flushes its output" in f["reason"] for f in never)
    assert late and not any("check that" in f["reason"] and "in a sleep" not in f["reason"]
                            for f in late), late


def test_a_referee_that_ignores_sigterm_and_sighup_plays(tmp_path: Path) -> None:
    """Started with both ignored (nohup under a parent that ignores SIGTERM), the referee has
    no signal to watch, and plays all the same (no 'No signals were provided' before the
    game)."""
    bot_dir = copy_bots(tmp_path / "bots")
    play = shlex_join([sys.executable, "-m", "referee", "play", command(bot_dir, GOOD),
                       command(bot_dir, GOOD), command(bot_dir, GOOD), "--json"])
    proc = subprocess.run(["sh", "-c", f"trap '' TERM HUP; exec {play}"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)["seats"]) == 3
