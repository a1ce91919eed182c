"""The limits and the sandbox themselves: the wrapped command, what the sandbox shows, clear
errors where it cannot run, the command line and tournament files."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from referee.bots import sandbox
from referee.bots.build import run_build
from referee.bots.crash import limit_hint
from referee.bots.limits import BotLimits, GiB, MiB, parse_amount, parse_size
from referee.bots.sandbox import SandboxError, check_sandbox_available, wrap_command
from referee.tournament.config import TournamentError, load_tournament
from referee.tournament.executors.local import LocalExecutor
from referee.tournament.session import run_tournament
from referee.tournament.store import open_store

from ..processes import ROOT, command, leftover_processes, referee


def test_limits_are_a_prlimit_prefix() -> None:
    argv = wrap_command(["./bot", "--fast"], cwd=Path("/"), limits=BotLimits())
    assert Path(argv[0]).name == "prlimit"
    assert argv[1:7] == ["--core=0:0", f"--as={2 * GiB}:{2 * GiB}", "--cpu=3600:3605",
                         f"--fsize={GiB}:{GiB}", "--nofile=256:256", "--"]
    assert argv[7:] == ["./bot", "--fast"]
    java = wrap_command(["java", "-cp", "out", "Bot"], cwd=Path("/"))
    assert f"--as={8 * GiB}:{8 * GiB}" in java  # auto: the JVM reserves more
    off = wrap_command(["./bot"], cwd=Path("/"), limits=BotLimits.off())
    assert off[1:] == ["--core=0:0", "--", "./bot"]


def test_sizes_parse() -> None:
    assert parse_size("2G") == 2 * GiB
    assert parse_size("512MiB") == 512 * MiB
    assert parse_size("1.5g") == 3 * GiB // 2
    assert parse_size(4096) == 4096
    assert parse_size("off") is None
    for bad in ("lots", "-1G", "0", "2 parsecs"):
        with pytest.raises(ValueError):
            parse_size(bad)
    # prlimit cannot take these: unchecked, every bot would fail to start and be blamed.
    assert parse_size("1024T") == 1024 * 1024 * GiB
    for huge in ("1025T", "99999999999T", 10**23):
        with pytest.raises(ValueError, match=r"at most 1024T \(or 'off'"):
            parse_size(huge)


def test_amounts_parse() -> None:
    assert parse_amount("3600") == parse_amount(3600) == 3600.0
    assert parse_amount("off") is None
    for bad in ("nan", "inf", math.nan, -1, 0, True, "lots"):
        with pytest.raises(ValueError, match="expected a"):
            parse_amount(bad)
    with pytest.raises(ValueError, match=r"at most 1e\+09 \(or 'off'"):
        parse_amount(1e30)


@pytest.mark.parametrize(("ending", "tail", "hint"), [
    ("killed by SIGXCPU", "", "over the CPU-time limit of 3600 s per process"),
    ("killed by SIGXFSZ", "", "over the file-size limit of 1 GiB"),
    ("killed by SIGABRT", "terminate called after throwing an instance of 'std::bad_alloc'",
     "probably over the address-space limit of 2 GiB"),
    ("exit status 1", "Error occurred during initialization of VM\nCould not reserve enough "
     "space for object heap", "probably over the address-space limit of 2 GiB"),
    ("exit status 1", "OSError: [Errno 24] Too many open files", "open-files limit of 256"),
    ("exit status 1", "BlockingIOError: [Errno 11] Resource temporarily unavailable",
     "limit of 64 processes"),
    ("exit status 3", "ZeroDivisionError", None),
])
def test_limit_hints(ending: str, tail: str, hint: str | None) -> None:
    said = limit_hint(ending, tail, ["./bot"], BotLimits(), sandboxed=False)
    assert (said is None) if hint is None else (said is not None and hint in said)


# A bot-like probe: prints what it can see and do inside the sandbox as one JSON object.
PROBE = """\
import json, os, socket, sys
def can(f):
    try:
        f()
        return True
    except OSError:
        return False
def tree(top, installations):
    # What is visible under `top`, the installations themselves counted but not their files.
    if not os.path.isdir(top):
        return None
    seen = []
    for path, dirs, files in os.walk(top):
        if path in installations:
            dirs[:] = []
            continue
        seen += [os.path.relpath(os.path.join(path, name), top) for name in dirs + files]
    return sorted(seen)
home = sys.argv[2]
out = {
    "shadow": os.path.exists("/etc/shadow"),
    "etc": sorted(os.listdir("/etc")),
    "home_tree": tree(home, sys.argv[3:]),
    "other": os.path.exists(sys.argv[1]),
    "listing": sorted(os.listdir(".")),
    "write_own": can(lambda: open(os.path.join(os.path.dirname(__file__), "x"), "w")),
    "write_tmp": can(lambda: open("/tmp/x", "w").write("ok")),
    "tmp": os.environ.get("TMPDIR"), "home_env": os.environ.get("HOME"),
    "leaked_env": "PROBE_SECRET" in os.environ,
    "interfaces": [l.split(":")[0].strip() for l in open("/proc/net/dev").readlines()[2:]],
    "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "cap_eff": [l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff")][0],
    "cwd": os.getcwd(),
}
print(json.dumps(out))
"""


def test_the_sandbox_shows_only_what_it_should(tmp_path: Path, bwrap: str) -> None:
    me = tmp_path / "me"
    me.mkdir()
    (me / "probe.py").write_text(PROBE)
    (me / "notes.txt").write_text("beside the bot's script, not its own")
    other = tmp_path / "other_bot"
    other.mkdir()
    home = Path.home()
    # The interpreter needs its installation: a venv's and the Python it was made from.
    installations = {Path(sys.prefix), Path(sys.base_prefix)}
    installations = {p for p in installations if not any(q in p.parents for q in installations)}
    argv = wrap_command([sys.executable, "probe.py", str(other), str(home),
                         *map(str, sorted(installations))], cwd=me, sandbox="bwrap")
    env = {**os.environ, "PROBE_SECRET": "hunter2"}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30, env=env, cwd=me)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["shadow"] is False and "shadow" not in seen["etc"]
    assert "passwd" in seen["etc"] and "ld.so.cache" in seen["etc"]
    # Of the home directory, only the interpreter's installations (pyenv, a venv) and the
    # folders that lead to them are there: no other file or folder.
    expected = set()
    for installation in installations:
        if home in installation.parents:
            parts = installation.relative_to(home).parts
            expected |= {os.path.join(*parts[:n]) for n in range(1, len(parts) + 1)}
    if expected:
        assert seen["home_tree"] == sorted(expected)
    else:
        assert seen["home_tree"] in (None, [])
    assert seen["other"] is False  # another bot's folder, next to this one
    # Of its folder, only the script its command names is shown (not the file beside it),
    # and no write reaches the host's folder (in the sandbox's /tmp here).
    assert seen["listing"] == ["probe.py"]
    assert not (me / "x").exists() and seen["write_tmp"] is True
    assert seen["tmp"] == "/tmp" and seen["home_env"] == "/tmp"
    assert seen["leaked_env"] is False
    assert seen["interfaces"] == ["lo"]
    assert len(seen["pids"]) <= 3  # its own PID namespace: bwrap's pid 1, itself
    assert int(seen["cap_eff"], 16) == 0
    assert seen["cwd"] == str(me)


def test_missing_bubblewrap_is_a_clear_error(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    prlimit = shutil.which("prlimit")
    assert prlimit is not None
    (bin_dir / "prlimit").symlink_to(prlimit)
    monkeypatch.setenv("PATH", str(bin_dir))
    sandbox._bwrap_problem.cache_clear()
    try:
        with pytest.raises(SandboxError, match=r"bwrap is not installed \(Debian package "
                                               r"bubblewrap\)"):
            check_sandbox_available("bwrap")
        check_sandbox_available("none")
    finally:
        sandbox._bwrap_problem.cache_clear()


def test_missing_prlimit_names_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where util-linux's prlimit is not installed (an image that lacks it), no bot can run:
    the error says so and how to install it on Debian or Ubuntu and on Amazon Linux."""
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SandboxError) as raised:
        check_sandbox_available("none")
    assert str(raised.value) == (
        "prlimit is not installed, and every bot runs under its limits with it: install "
        "util-linux: `apt-get install util-linux` on Debian or Ubuntu, `dnf install "
        "util-linux` on Fedora or Amazon Linux")


FAKE_BWRAP = """#!/bin/sh
echo "bwrap: No permissions to create new namespace, likely because the kernel does not allow \
non-privileged user namespaces." >&2
exit 1
"""


def blocked_path(tmp_path: Path) -> str:
    """A PATH whose bwrap fails as it does where user namespaces are blocked."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "bwrap"
    fake.write_text(FAKE_BWRAP)
    fake.chmod(0o755)
    return f"{bin_dir}:{os.environ['PATH']}"


def test_blocked_user_namespaces_are_a_clear_error(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", blocked_path(tmp_path))
    sandbox._bwrap_problem.cache_clear()
    try:
        with pytest.raises(SandboxError) as info:
            check_sandbox_available("bwrap")
    finally:
        sandbox._bwrap_problem.cache_clear()
    assert "user namespaces" in str(info.value)
    assert "No permissions to create new namespace" in str(info.value)


def test_cli_refuses_an_unusable_sandbox_before_any_game(tmp_path: Path) -> None:
    """Not a silent fallback: one error line, exit status 2, no game played."""
    first = command(ROOT / "tests" / "scripted_bots", "first_legal.py")
    env = {**os.environ, "PATH": blocked_path(tmp_path)}
    for args in (["play", first, first, first, "--sandbox", "bwrap", "--log",
                  str(tmp_path / "game.jsonl")],
                 ["check", first, "--sandbox", "bwrap"]):
        done = subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True,
                              text=True, timeout=60, env=env, cwd=ROOT)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stdout == ""
        assert done.stderr.startswith("error: --sandbox bwrap needs bubblewrap with user "
                                      "namespaces"), done.stderr
        assert done.stderr.count("\n") == 1
    assert not (tmp_path / "game.jsonl").exists()


def test_cli_play_in_the_sandbox(bot_dir: Path, bwrap: str) -> None:
    first = command(bot_dir, "first_legal.py")
    done = referee("play", first, first, first, "--sandbox", "bwrap", "--address-space", "1G",
                   "--json")
    assert done.returncode == 0, done.stderr
    seats = json.loads(done.stdout)["seats"]
    assert [s["faults"] for s in seats] == [[], [], []]
    bad = referee("play", first, first, first, "--address-space", "lots")
    assert bad.returncode == 2 and "error: --address-space: expected a size" in bad.stderr


TOURNAMENT = """\
name = "sandboxed"
seed = 5
table_size = 3
deals = 1
seat_orders = "rotations"
sandbox = "bwrap"

[limits]
move_time = 0.5
time_bank = 0.5
address_space = "1G"
cpu_per_game = 30
file_size = "64M"
open_files = 128
processes = "off"

[[bots]]
name = "first"
command = "{python} first_legal.py"
dir = "bots"
address_space = "off"

[[bots]]
name = "second"
command = "{python} first_legal.py"
dir = "bots"

[[bots]]
name = "snoop"
command = "{python} snoop.py --read {store} --read {other}"
dir = "bots"
"""


def test_tournament_file_sandbox_hides_the_store_and_other_bots(bot_dir: Path,
                                                               bwrap: str) -> None:
    """`sandbox = "bwrap"` in the file: the snooping entrant finds neither the results store
    nor another entrant's folder, and crashes each game; everyone else plays clean."""
    base = bot_dir.parent
    other = base / "other_bot"
    other.mkdir()
    (other / "strategy.py").write_text("SECRET = 1\n")
    db = base / "sandboxed.db"
    path = base / "sandboxed.toml"
    path.write_text(TOURNAMENT.format(python=sys.executable, store=db, other=other))
    config = load_tournament(path)
    limits = config.limits.bot_limits()
    assert (limits.address_space, limits.processes, limits.open_files) == (GiB, None, 128)
    assert config.limits.bot_limits("off").address_space is None
    store = open_store(db)
    try:
        summary = trio.run(run_tournament, config, path, store, LocalExecutor(2),
                           lambda m: None)
        results = list(store.results())
    finally:
        store.close()
    assert summary.played == len(results) == 3
    for result in results:
        for name, faults in zip(result.names, result.faults, strict=True):
            if name == "snoop":
                assert [f.kind for f in faults] == ["crash"]
                assert f"No such file or directory: '{db}'" in faults[0].reason
            else:
                assert faults == (), (name, faults)


def test_tournament_file_limits_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    for key, value, message in [
        ("limits.file_size", '"lots"', r"limits\.file_size: expected a size"),
        ("limits.processes", "2.5", r"limits\.processes: expected a whole number"),
        ("limits.scratch", '"off"', r"limits\.scratch: the scratch space cannot be off"),
        ("sandbox", '"docker"', r"sandbox: Input should be 'none' or 'bwrap'"),
        # TOML has nan and inf; NaN passes every comparison and would void every game.
        ("limits.move_time", "nan", r"limits\.move_time: Input should be a finite number"),
        ("limits.time_bank", "inf", r"limits\.time_bank: Input should be a finite number"),
        ("limits.cpu_per_game", "nan", r"limits\.cpu_per_game"),
        ("limits.cpu_per_game", '"nan"', r"limits\.cpu_per_game: expected a positive number"),
        # prlimit cannot take these: unchecked, every bot would fail to start and be blamed.
        ("limits.cpu_time", "1e30", r"limits\.cpu_time: expected at most 1e\+09"),
        ("limits.file_size", '"99999999999T"', r"limits\.file_size: a size must be at most"),
    ]:
        section, _, name = key.rpartition(".")
        head = f"{name} = {value}\n" if not section else ""
        limits = f"[limits]\n{name} = {value}\n" if section else ""
        path.write_text(f'name = "t"\ntable_size = 3\n{head}{limits}' + "".join(
            f'[[bots]]\nname = "b{i}"\ncommand = "x"\n' for i in range(3)))
        with pytest.raises(TournamentError, match=message):
            load_tournament(path)


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_a_build_that_runs_too_long_leaves_nothing_running(tmp_path: Path, mode: str) -> None:
    """Past its time, or cancelled (Ctrl-C, SIGTERM), a build is stopped with all it started:
    not only its first process (all that trio itself stops) but its own children and, in the
    sandbox, everything inside bwrap."""
    if mode == "bwrap":
        try:
            check_sandbox_available("bwrap")
        except SandboxError as exc:
            pytest.skip(str(exc))
    marker = f"sleep 7{os.getpid() % 1000}"
    argv = ["sh", "-c", f"{marker} & {marker}; true"]
    if mode == "bwrap":
        argv = sandbox.wrap_command(argv, cwd=tmp_path, limits=BotLimits.off(), sandbox="bwrap",
                                    home=tmp_path, writable_home=True)

    async def build() -> None:
        with pytest.raises(trio.TooSlowError):
            await run_build(argv, tmp_path, 1.0)

    trio.run(build)
    assert leftover_processes(marker) == []


def test_a_build_that_leaves_a_child_behind_leaves_nothing_running(tmp_path: Path) -> None:
    """The build's first process exits at once; a child it left holds its output open, so
    the build lasts until its time limit, and then that child is stopped too."""
    marker = f"sleep 8{os.getpid() % 1000}"

    async def build() -> None:
        with pytest.raises(trio.TooSlowError):
            await run_build(["sh", "-c", f"{marker} & echo started"], tmp_path, 1.0)

    trio.run(build)
    assert leftover_processes(marker) == []
