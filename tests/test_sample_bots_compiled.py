"""The compiled sample bots (sample_bots/c with cJSON, sample_bots/java) build and play clean.

Each bot is built the way its README says, in a copy of its folder (so the copy is all it
needs, and the source tree gets no build outputs), then plays real games through
`referee play --json` against first_legal.py: no seat may have a fault.  Skipped when the
compiler, or cJSON's header, is missing (CI needs: apt-get install -y libcjson-dev).
Under pytest -n the workers share one build of each bot (javac alone takes seconds of CPU).
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.bots.launch import BotSpec
from referee.match.bot_session import BotPlayer
from referee.match.game import play_game
from referee.match.player import Fault
from referee.match.spec import GameSpec

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_bots"
FIRST_LEGAL = shlex.join([sys.executable, str(ROOT / "tests" / "scripted_bots" / "first_legal.py")])
CJSON_HEADER = Path("/usr/include/cjson/cJSON.h")
SEEDS = (1, 2)
BUILD_OUTPUTS = shutil.ignore_patterns("bot", "out", "*.o", "*.class")


def _require(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")


def _run(argv: list[str], cwd: Path) -> str:
    result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{argv} failed:\n{result.stdout}{result.stderr}"
    return result.stdout + result.stderr


def _built(tmp_path_factory: pytest.TempPathFactory, lang: str, argv: list[str]) -> Path:
    """A copy of sample_bots/LANG, built with `argv` once per test session; the folder.

    Under xdist every worker's temporary directory has the session's as its parent; a lock
    there lets the first worker build while the others wait for it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / "sample_bots_compiled" / lang
    folder.parent.mkdir(exist_ok=True)
    with (folder.parent / f"{lang}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        log = folder.parent / f"{lang}.build.log"
        if not log.exists():
            shutil.rmtree(folder, ignore_errors=True)
            shutil.copytree(SAMPLES / lang, folder, ignore=BUILD_OUTPUTS)
            log.write_text(_run(argv, folder))
    output = log.read_text()
    assert "warning" not in output.lower(), f"the build of {lang} warns:\n{output}"
    return folder


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The C bot built with `make` (its Makefile) in a copy of sample_bots/c; its command."""
    _require("make", "cc")
    if not CJSON_HEADER.exists():
        pytest.skip(f"{CJSON_HEADER} is missing (apt-get install libcjson-dev)")
    folder = _built(tmp_path_factory, "c", ["make"])
    assert (folder / "bot").is_file()
    return shlex.quote(str(folder / "bot"))


@pytest.fixture(scope="module")
def java_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Java bot compiled with `javac -d out Bot.java` in a copy of sample_bots/java."""
    _require("javac", "java")
    folder = _built(tmp_path_factory, "java", ["javac", "-d", "out", "Bot.java"])
    assert (folder / "out" / "Bot.class").is_file()
    return f"java -cp {shlex.quote(str(folder / 'out'))} Bot"


def referee_play(bots: dict[str, str], seed: int, *options: str) -> dict[str, Any]:
    """`referee play NAME=COMMAND ... --json`, and its result."""
    argv = [sys.executable, "-m", "referee", "play", *(f"{n}={c}" for n, c in bots.items()),
            "--seed", str(seed), "--json", *options]
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def assert_no_faults(result: dict[str, Any]) -> None:
    bad = {s["name"]: s["faults"] for s in result["seats"] if s["faults"] or s["retired"]}
    assert not bad, f"faults: {bad}"


@pytest.mark.parametrize("seed", SEEDS)
def test_mixed_four_player_game_has_no_faults(c_bot: str, java_bot: str, seed: int) -> None:
    bots = {"c": c_bot, "java": java_bot, "first_legal": FIRST_LEGAL, "c2": c_bot}
    result = referee_play(bots, seed)
    assert [s["name"] for s in result["seats"]] == list(bots)
    assert_no_faults(result)


def test_three_player_variants_have_no_faults(c_bot: str, java_bot: str) -> None:
    """Mystery decisions, split doubles and others' money hidden (null in the view)."""
    bots = {"java": java_bot, "c": c_bot, "first_legal": FIRST_LEGAL}
    result = referee_play(bots, 3, "--variant", "mystery", "--variant", "split-double",
                          "--variant", "hidden-money", "--edition", "classic")
    assert_no_faults(result)


def test_bots_keep_their_process_across_games(c_bot: str, java_bot: str) -> None:
    """Two games with the same players (as in a tournament): one process each, no faults."""
    names = ["c", "java", "first_legal"]
    players = [BotPlayer(BotSpec(n, c)) for n, c in zip(names, [c_bot, java_bot, FIRST_LEGAL],
                                                            strict=True)]

    async def run() -> list[tuple[tuple[Fault, ...], ...]]:
        try:
            return [(await play_game(GameSpec.make(f"g{seed}", seed, names), players))
                    .result.faults for seed in SEEDS]
        finally:
            for player in players:
                await player.aclose()

    faults = trio.run(run)
    assert faults == [((), (), ())] * len(SEEDS)
    assert [p.starts for p in players] == [1, 1, 1]
    assert [p.hello_name for p in players[:2]] == ["sample_c", "sample_java"]
