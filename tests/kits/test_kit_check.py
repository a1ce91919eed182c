"""Every starter kit, as its folder is, builds without a warning and passes `referee check
FOLDER` (through the CLI, in a copy of the folder)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess

import pytest

from . import kits
from .kits import KITS, built_kit, checked_kit, kits_with_build, warnings_in
from .patched import NEW_GAME, counted, lived_through_a_bid, logged_at, patched_kit, request


@pytest.mark.slow
@pytest.mark.parametrize("kit", KITS)
def test_kit_passes_every_check(kit: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    checked = checked_kit(kit, tmp_path_factory)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "FAIL" not in checked.stdout
    assert re.search(r"^\d+ passed, 0 failed$", checked.stdout, re.MULTILINE), checked.stdout
    assert "response time: median" in checked.stdout


@pytest.mark.parametrize("kit", kits_with_build())
def test_kit_builds_without_warnings(kit: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    checked = checked_kit(kit, tmp_path_factory)
    assert checked.built, f"{kit} did not build:\n{checked.stderr}"
    assert f"building {kit}: " in checked.stderr
    assert not warnings_in(checked.build_output()), \
        f"the build of {kit} warns:\n{checked.build_output()}"


def test_a_kit_without_its_toolchain_is_skipped_naming_the_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda program, *args, **kwargs: None)
    with pytest.raises(pytest.skip.Exception, match=r"^perl is not installed \(apt-get install "
                                                    r"perl\)$"):
        kits.require_toolchain("perl")


# Each sample bot, by kit and command (None: its bot.toml's), and the fields missing in
# `missing_field_session` that it reads, so must name on stderr: `edition` of a new_game, the
# counts of a round_ended and the card of a card_played (when its strategy reads that event),
# a bid's legal.min and a price's legal.max.
MISSING_FIELD_BOTS: dict[str, tuple[str, str | None, set[str]]] = {
    "typescript": ("typescript", None, {"edition", "counts", "min", "max"}),
    "rust": ("rust", None, {"edition", "counts", "min", "max"}),
    "c": ("c", None, {"edition", "min", "max"}),  # reads no event
    "cpp": ("cpp", None, {"edition", "counts", "min", "max"}),
    "csharp": ("csharp", None, {"edition", "counts", "min", "max"}),
    "go": ("go", None, {"edition", "counts", "min", "max"}),
    "java": ("java", None, {"edition", "min", "max"}),  # reads no event
    "perl": ("perl", None, {"edition", "min", "max"}),  # reads no event
    "javascript": ("javascript", None, {"edition", "min", "max"}),  # reads no event
    "python-baseline": ("python", None, {"edition", "counts", "min", "max"}),
    "python-strong": ("python", "python3 strong_bot.py", {"edition", "card", "min", "max"}),
    "python-random": ("python", "python3 random_bot.py", {"min", "max"}),  # reads no new_game
}

def missing_field_session() -> list[dict[str, object]]:
    """A session whose messages each lack a field the protocol always sends, but for the last
    request: a new_game without its edition (its game's requests get the defaults), then a
    full one, events whose only missing field is their counts and card (a kit may read every
    field of an event), a bid without legal.min, a price without legal.max."""
    return [
        {"type": "hello", "protocol": 1, "referee": "test"},
        {key: value for key, value in NEW_GAME.items() if key != "edition"},
        request(0, "bid", {"min": 1, "max": 100, "can_pass": True}),
        NEW_GAME,
        {"type": "event", "event": {"type": "round_ended", "round": 1, "ender": 0,
                                    "ranking": [0, 1], "tiles": [30, 20], "values": [30, 20],
                                    "unsold": []}},
        {"type": "event", "event": {"type": "card_played", "seat": 1, "count": 1}},
        request(1, "bid", {"max": 100, "can_pass": True}),
        request(2, "price", {"min": 1, "can_pass": False}),
        request(3, "bid", {"min": 1, "max": 100, "can_pass": True}),
        {"type": "goodbye"},
    ]


@pytest.mark.parametrize("bot", sorted(MISSING_FIELD_BOTS))
def test_a_missing_field_is_logged_by_its_name_and_the_default_answered(
        bot: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A sample bot, built, sent messages that each lack a field the protocol always sends:
    it says on stderr which field is missing (never reading it as 0), answers a request it
    cannot read with the referee's default (pass a bid, price at legal.min), and plays on: an
    unreadable new_game or event is logged, not a crash.  A Python sample and the C# kit also
    name the line of their own code that reads the field (not the JSON reader's)."""
    kit, command, named = MISSING_FIELD_BOTS[bot]
    checked = built_kit(kit, tmp_path_factory)
    done = subprocess.run(shlex.split(command or checked.spec().command), cwd=checked.folder,
                          capture_output=True, text=True, timeout=60,
                          input="".join(json.dumps(m) + "\n" for m in missing_field_session()))
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["type"] == "hello", done.stdout
    # A bot that reads the edition answers its game's requests by the default (a bid: pass);
    # one that reads none (the random bot) plays that request as it would any other.
    first = {"id": 0, "action": "pass"} if "edition" in named else replies[1]
    assert replies[1]["id"] == 0 and replies[1:4] == [
        first, {"id": 1, "action": "pass"}, {"id": 2, "action": "price", "amount": 1}], \
        done.stdout
    assert len(replies) == 5 and replies[4]["id"] == 3, done.stdout  # answered as usual
    for name in sorted(named):
        assert re.search(rf"\b{name}\b", done.stderr), f"{name} not named:\n{done.stderr}"
    if kit == "python":  # each sample, in its own words, names the line of its code at fault
        file = shlex.split(command or checked.spec().command)[-1]
        at = re.search(rf"request 1 \(bid\): .*\b{re.escape(file)}(?::| line )(\d+)",
                       done.stderr)
        assert at, done.stderr
        assert '"min"' in (checked.folder / file).read_text().splitlines()[int(at[1]) - 1]
    if kit == "csharp":
        at = re.search(r"request 1 \(bid\): legal: no field \"min\" at (\w+\.cs):(\d+) in ",
                       done.stderr)
        assert at, done.stderr
        assert '"min"' in (checked.folder / at[1]).read_text().splitlines()[int(at[2]) - 1]


def test_the_go_kit_logs_where_in_the_code_a_strategy_panic_came_from(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The Go kit, built, sent an `offer` request with no cards to add (its strategy indexes
    `legal.Cards[0]` and panics): it answers the default (pass) and plays on, and its stderr
    line names the request, its decision and the file, line and function of the panic in the
    bot's own code, which `referee check` and `play` quote; not the runtime's."""
    folder = built_kit("go", tmp_path_factory).folder
    view = {"seat": 0, "round": 1, "money": [100, 100, 100], "hand": [0, 1],
            "hand_sizes": [2, 2, 2], "mystery_size": 0, "deck_size": 4,
            "tiles": [[0, 0]], "played": [1, 0], "bought": [[], [], []], "unsold": [],
            "auction": None, "double": {"seat": 1, "card": 2}, "turn": 1}
    cards = [{"id": i, "artist": i % 2, "type": "open"} for i in range(6)]
    time = {"move": 1, "bank": 10}
    lines = [
        {"type": "hello", "protocol": 1, "referee": "test"},
        {"type": "new_game", "game_id": "g", "seat": 0, "players": 3, "names": ["a", "b", "c"],
         "edition": {"name": "two", "artists": ["x", "y"], "cards": cards}, "variants": [],
         "time": time, "seed": 1},
        {"type": "request", "id": 1, "decision": "offer", "view": view,
         "legal": {"cards": [], "can_pass": True}, "time": time},
        {"type": "request", "id": 2, "decision": "offer", "view": view,
         "legal": {"cards": [4], "can_pass": True}, "time": time},
        {"type": "goodbye"},
    ]
    done = subprocess.run(["./bot"], cwd=folder, capture_output=True, text=True, timeout=30,
                          input="".join(json.dumps(line) + "\n" for line in lines))
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[1] == {"id": 1, "action": "pass"}, done.stdout
    assert replies[2]["id"] == 2, done.stdout  # the next request is answered as usual
    assert re.search(r"^go_baseline: request 1 \(offer\): runtime error: index out of range "
                     r"\[0\] with length 0 at strategy\.go:\d+ in \(\*Game\)\.Decide; "
                     r"falling back to the default$", done.stderr,
                     re.MULTILINE), done.stderr


def test_the_go_kit_lives_through_a_panic_in_its_event_tracking_set_up_or_a_goroutine(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """An entrant's tracking in the Go kit's `SeenEvent` reads the `payee` of a payment to
    the bank, null, through a nil pointer, its `NewGame` writes to a nil map in its second
    game, and its `Decide` for a play starts a goroutine with the kit's `Go` that indexes
    past the end (and waits for it): the bot logs each panic with its file and line (the
    event's type; the goroutine's function), in the words the referee counts as an error it
    lived through, and plays on (the requests after the event answered, the play by the
    strategy; the second game's with the defaults), where each used to crash it (a panic in a
    goroutine ends a Go program) and be retired for the game."""
    done, (set_up_line, event_line, goroutine_line) = patched_kit(
        "go", tmp_path_factory, "strategy.go", {
            "func (g *Game) SeenEvent(ev Event) {\n":
                "\tvar payee *int // an entrant's tracking, for a payment to the bank\n"
                "\tif ev.Type == \"payment\" {\n\t\tg.gone[0] += *payee // bug\n\t}\n",
            "func NewGame(seat, players int, edition *Edition) *Game {\n":
                "\tif seat == 1 {\n\t\tvar first map[int]int\n\t\tfirst[0] = 1 // bug\n\t}\n",
            "func (g *Game) Decide(decision string, view *View, legal *Legal) Reply {\n":
                "\tif decision == \"play\" && g.seat == 0 {\n\t\tdone := make(chan bool)\n"
                "\t\tGo(func() {\n\t\t\tdefer close(done)\n\t\t\t_ = legal.Cards[5] // bug\n"
                "\t\t})\n\t\t<-done\n\t}\n"})
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [reply["id"] for reply in replies[1:]] == [1, 2, 3], done.stdout
    assert replies[3]["action"] == "play" and replies[3]["card"] == 0, done.stdout  # default
    where = logged_at(done.stderr,
                      r"^go_baseline: cannot read an event \(payment: runtime error: invalid "
                      r"memory address or nil pointer dereference at strategy\.go:(\d+) in "
                      r"\(\*Game\)\.SeenEvent\), ignored$")
    assert where == event_line, done.stderr
    where = logged_at(done.stderr,
                      r"^go_baseline: cannot read new_game \(assignment to entry in nil map at "
                      r"strategy\.go:(\d+) in NewGame\); answering the defaults$")
    assert where == set_up_line, done.stderr
    where = logged_at(done.stderr,
                      r"^go_baseline: panic in a goroutine: runtime error: index out of range "
                      r"\[5\] with length 2 at strategy\.go:(\d+) in \(\*Game\)\.Decide\.func1; "
                      r"the goroutine ended$")
    assert where == goroutine_line, done.stderr
    errors = counted(done.stderr)
    assert errors.count == 4 and "SeenEvent" in errors.first, done.stderr  # and request 3's


def test_the_rust_kit_lives_through_a_panic_in_its_strategy_or_a_thread_it_starts(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """An entrant's Rust strategy unwraps a payment's `payee`, null for the bank, in
    `seen_event`, indexes a bid's (empty) `legal.cards` in `decide`, and for a play starts a
    thread named `worker` that indexes past the end, then unwraps its `join()`: the bot logs
    each panic in one line with its message and its file, line and column (the event's type;
    the request and its decision; the thread's name), in the words the referee counts as an
    error it lived through (once each: no `panicked at` nor backtrace besides, with
    RUST_BACKTRACE set), answers the bid and the play with the default and plays on, where a
    panic used to crash it, and a thread's used to be told only as `Any { .. }`."""
    done, (event_line, bid_line, thread_line) = patched_kit(
        "rust", tmp_path_factory, "src/strategy.rs", {
            "    pub fn seen_event(&mut self, event: &Json) -> Result<(), String> {\n":
                '        if event.get("type").and_then(Json::as_str) == Some("payment") {\n'
                '            let _payee = event.get("payee").and_then(Json::as_i64).unwrap(); '
                "// bug\n"
                "        }\n",
            "        let (view, legal) = (&request.view, &request.legal);\n":
                '        if request.decision == "bid" {\n'
                "            let _first = legal.cards[0]; // bug\n"
                "        }\n"
                '        if request.decision == "play" && self.seat == 0 {\n'
                '            let worker = std::thread::Builder::new().name("worker".into());\n'
                "            let cards = legal.cards.clone();\n"
                "            worker.spawn(move || cards[5]).unwrap().join().unwrap(); // bug\n"
                "        }\n"})
    errors = lived_through_a_bid(done, {
        r"^sample_rust: cannot read an event \(payment: panic: called `Option::unwrap\(\)` "
        r"on a `None` value at src/strategy\.rs:(\d+):\d+\), ignored$": event_line,
        r"^sample_rust: request 1 \(bid\): panic: index out of bounds: the len is 0 but the "
        r"index is 0 at src/strategy\.rs:(\d+):\d+; falling back to the default$": bid_line,
        r"^sample_rust: panic in thread 'worker': index out of bounds: the len is 2 but the "
        r"index is 5 at src/strategy\.rs:(\d+):\d+; the thread ended$": thread_line,
        r"^sample_rust: request 2 \(play\): panic: called `Result::unwrap\(\)` on an `Err` "
        r"value: Any \{ \.\. \} at src/strategy\.rs:(\d+):\d+; falling back to the default$":
            thread_line},
        errors=4)
    assert "panicked" not in done.stderr and "backtrace" not in done.stderr, done.stderr
    assert f"src/strategy.rs:{event_line}:" in errors.first, done.stderr


def test_the_csharp_kit_lives_through_an_exception_in_its_event_tracking(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """An entrant's C# `SeenEvent` casts a payment's `payee`, null for the bank, to a number:
    the bot logs the event's type, the exception and its file, line and method in one line,
    in the words the referee counts as an error it lived through, and plays on (every request
    answered by the strategy, in both games), where the exception used to crash it."""
    done, (line,) = patched_kit("csharp", tmp_path_factory, "Strategy.cs", {
        "    public void SeenEvent(object ev)\n    {\n":
            '        if (Json.Str(ev, "type") == "payment")\n'
            '            gone[0] += (int)(long)Json.Get(ev, "payee"); // bug\n'})
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [reply["id"] for reply in replies[1:]] == [1, 2, 3], done.stdout
    where = logged_at(done.stderr,
                      r"^csharp_baseline: cannot read an event \(payment: NullReferenceException: "
                      r".* at Strategy\.cs:(\d+) in Game\.SeenEvent\), ignored$")
    assert where == line, done.stderr
    errors = counted(done.stderr)
    assert errors.count == 1 and "SeenEvent" in errors.first, done.stderr
