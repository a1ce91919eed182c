"""A kit's built copy with an entrant's bug patched into its strategy, run through one
session of protocol lines, and what its stderr says of the errors it lived through: for the
tests of how each kit survives a bug (`test_kit_check.py`, `test_kit_errors.py`)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess

import pytest

from referee.bots.caught import ErrorLines
from referee.bots.manifest import read_bot_folder

from .kits import built_kit

VIEW = {"seat": 0, "round": 1, "money": [100, 100, 100], "hand": [0, 1],
        "hand_sizes": [2, 2, 2], "mystery_size": 0, "deck_size": 4, "tiles": [[0, 0]],
        "played": [1, 0], "bought": [[], [], []], "unsold": [],
        "auction": {"cards": [2], "type": "open", "auctioneer": 1, "high_bid": 0,
                    "high_bidder": None, "price": None},
        "double": None, "turn": 1}
NEW_GAME = {"type": "new_game", "game_id": "g", "seat": 0, "players": 3, "names": ["a", "b", "c"],
            "edition": {"name": "two", "artists": ["x", "y"],
                        "cards": [{"id": i, "artist": i % 2, "type": "open"} for i in range(6)]},
            "variants": [], "time": {"move": 1, "bank": 10}, "seed": 1}


def request(id_: int, decision: str, legal: dict[str, object]) -> dict[str, object]:
    return {"type": "request", "id": id_, "decision": decision, "view": VIEW, "legal": legal,
            "time": {"move": 1, "bank": 10}}


def patched_kit(kit: str, tmp_path_factory: pytest.TempPathFactory, file: str,
                patches: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], list[int]]:
    """A copy of the built `kit` whose `file` has each line `patches` names followed by an
    entrant's buggy code, rebuilt if it has a build (Rust unoptimised: cheap) and run through
    a session with a payment to the bank (its `payee` null), a bid and a play, then a second
    game (its seat 1) and a play: what it did, and the numbers of the lines marked `// bug`
    (`# bug` in Perl), in order."""
    folder = tmp_path_factory.mktemp(f"{kit}_bug") / kit
    shutil.copytree(built_kit(kit, tmp_path_factory).folder, folder)
    source = folder / file
    text = source.read_text()
    for start, bug in patches.items():
        assert start in text, start
        text = text.replace(start, start + bug)
    source.write_text(text)
    places = [n for n, line in enumerate(text.splitlines(), 1)
              if line.endswith(("// bug", "# bug"))]
    build = "make RUSTFLAGS=" if kit == "rust" else read_bot_folder(folder).build
    if build is not None:
        subprocess.run(shlex.split(build), cwd=folder, check=True, capture_output=True,
                       timeout=120)
    session = [
        {"type": "hello", "protocol": 1, "referee": "test"},
        NEW_GAME,
        {"type": "event", "event": {"type": "payment", "payer": 1, "payee": None, "amount": 5}},
        request(1, "bid", {"min": 1, "max": 100, "can_pass": True}),
        request(2, "play", {"cards": [0, 1], "can_pass": False}),
        {**NEW_GAME, "game_id": "g2", "seat": 1},
        request(3, "play", {"cards": [0, 1], "can_pass": False}),
        {"type": "goodbye"},
    ]
    done = subprocess.run(shlex.split(built_kit(kit, tmp_path_factory).spec().command),
                          cwd=folder, capture_output=True, text=True, timeout=30,
                          env={**os.environ, "RUST_BACKTRACE": "1"},
                          input="".join(json.dumps(line) + "\n" for line in session))
    return done, places




def counted(stderr: str) -> ErrorLines:
    """The lines of `stderr` the referee counts as errors the bot lived through."""
    errors = ErrorLines()
    errors.feed(stderr.encode())
    return errors


def logged_at(stderr: str, pattern: str) -> int:
    """The line number (the pattern's first group) of the whole line of `stderr` that
    `pattern` matches: where the kit says the error was; fails, showing `stderr`, if none."""
    found = re.search(pattern, stderr, re.MULTILINE)
    assert found, stderr
    return int(found[1])


def lived_through_a_bid(done: subprocess.CompletedProcess[str], logged: dict[str, int],
                        errors: int) -> ErrorLines:
    """The patched session ended well: request 1's bid answered with the default (pass),
    request 2 played, each pattern of `logged` (its first group a line number) logged in a
    line of its own at its line, and `errors` lines the referee counts as errors the bot lived
    through; those lines."""
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[1] == {"id": 1, "action": "pass"}, done.stdout
    assert replies[2]["id"] == 2 and replies[2]["action"] == "play", done.stdout
    for pattern, line in logged.items():
        assert logged_at(done.stderr, pattern) == line, done.stderr
    found = counted(done.stderr)
    assert found.count == errors, done.stderr
    return found
