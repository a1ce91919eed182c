"""A bot folder as a BOT of `referee play` and `referee check`: built once in its folder before
the game, run there, named after the folder unless NAME= or its bot.toml names it; a build
that fails, or a folder with no bot, is one error line before any bot starts."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from .. import in_process
from .kits import ROOT

FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"


def referee(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` inside the test process (its bots are processes as ever)."""
    return in_process.referee(*args, cwd=cwd, timeout=120)


def bot_folder(path: Path, manifest: str | None) -> Path:
    """A folder holding first_legal.py, and `manifest` as its bot.toml."""
    path.mkdir()
    shutil.copy(FIRST_LEGAL, path / "first_legal.py")
    if manifest is not None:
        (path / "bot.toml").write_text(manifest)
    return path


def test_folders_are_built_once_run_in_their_folder_and_named(tmp_path: Path) -> None:
    # The command names the file the build makes, relative to the folder: it runs there.
    bot_folder(tmp_path / "mine", 'build = "sh -c \'cp first_legal.py built.py; '
                                  'echo built >> builds.log\'"\ncommand = "python3 built.py"\n')
    bot_folder(tmp_path / "named", 'name = "alice"\ncommand = "python3 first_legal.py"\n')
    shutil.copy(FIRST_LEGAL, bot_folder(tmp_path / "plain", None) / "bot.py")  # a convention
    done = referee("play", "mine", "mine", "me=mine", "named", "plain", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seats = json.loads(done.stdout)["seats"]
    assert [s["name"] for s in seats] == ["mine-1", "mine-2", "me", "alice", "plain"]
    assert all(s["faults"] == [] for s in seats), seats
    assert (tmp_path / "mine" / "builds.log").read_text() == "built\n"  # once for three seats
    assert done.stderr.count("building ") == 1


def test_a_failed_build_is_one_error_line_with_the_end_of_its_output(tmp_path: Path) -> None:
    bot_folder(tmp_path / "broken", 'build = "sh -c \'echo compiling; echo bot.c:3: syntax '
                                    'error >&2; exit 3\'"\ncommand = "./bot"\n')
    done = referee("check", "broken", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""  # no check ran
    lines = done.stderr.splitlines()
    errors = [line for line in lines if line.startswith("error:")]
    assert errors == [f"error: bot broken ({tmp_path / 'broken'}): its build `sh -c 'echo "
                      "compiling; echo bot.c:3: syntax error >&2; exit 3'` failed (exit status "
                      "3); its output:"], done.stderr
    assert lines[-2:] == ["  compiling", "  bot.c:3: syntax error"]
    assert "Traceback" not in done.stderr


def test_a_build_that_cannot_start_is_one_error_line_naming_its_program(tmp_path: Path) -> None:
    """A build command whose program does not exist, or is a script without its executable
    bit, is one error line that names the program (and the fix for the script), not a
    traceback, for `play` and `check` alike."""
    bot_folder(tmp_path / "typo", 'build = "mak"\ncommand = "python3 first_legal.py"\n')
    script = bot_folder(tmp_path / "script", 'build = "./build.sh"\n'
                                             'command = "python3 first_legal.py"\n')
    (script / "build.sh").write_text("#!/bin/sh\nexit 0\n")
    for folder, why in [("typo", "mak: no such program or file"),
                        ("script", "./build.sh: permission denied (not executable? chmod +x "
                                   "it)")]:
        for command in ("play", "check"):
            args = (folder, folder, folder) if command == "play" else (folder,)
            done = referee(command, *args, cwd=tmp_path)
            assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
            errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
            assert len(errors) == 1 and errors[0].endswith(f"cannot start: {why}"), done.stderr


def test_a_build_that_makes_no_program_says_so(tmp_path: Path) -> None:
    bot_folder(tmp_path / "lazy", 'build = "true"\ncommand = "./bot"\n')
    done = referee("play", "lazy", "lazy", "lazy", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"error: bot lazy-1 ({tmp_path / 'lazy'}): ./bot not "
                                            f"found in {tmp_path / 'lazy'} after its build")


NONE = ("no bot found: add a bot.toml (command, build) or one of Makefile, bot.py, main.py, "
        "bot.js, main.js, bot.pl, Bot.java")


def test_a_folder_with_no_bot_fails_before_any_bot_starts(tmp_path: Path) -> None:
    """A folder with no bot, or a bot.toml that cannot be read, is one error line before any
    bot starts, saying why and what to do where it can tell: a bot one folder down, a
    script of another name than the conventions', an archive given as it is."""
    bot_folder(tmp_path / "good", 'command = "python3 first_legal.py"\n')
    bot_folder(tmp_path / "empty", None).joinpath("first_legal.py").unlink()
    bot_folder(tmp_path / "typo", 'command = "python3 first_legal.py\n')
    bot_folder(tmp_path / "extra", 'command = "python3 first_legal.py"\nbuidl = "make"\n')
    bot_folder(tmp_path / "gone", 'command = "./not_there"\n')
    bot_folder(tmp_path / "misspelt", 'comand = "python3 first_legal.py"\n')
    nested = bot_folder(tmp_path / "nested", None)
    (nested / "first_legal.py").rename(nested / "x.py")
    (nested / "inner").mkdir()
    shutil.copy(FIRST_LEGAL, nested / "inner" / "bot.py")
    bot_folder(tmp_path / "renamed", None).joinpath("first_legal.py").rename(
        tmp_path / "renamed" / "my_bot.py")
    bot_folder(tmp_path / "zipped", None).joinpath("first_legal.py").rename(
        tmp_path / "zipped" / "bot.zip")
    for folder, why in [
        ("empty", "no bot found: add a bot.toml (command, build) or one of Makefile, bot.py"),
        ("typo", "bot.toml is not valid TOML: "),
        ("extra", "bot.toml: buidl: Extra inputs are not permitted"),
        ("misspelt", "bot.toml: comand: Extra inputs are not permitted (did you mean "
                     "'command'?)"),
        ("nested", "no bot found: add a bot.toml (command, build) or one of Makefile, bot.py, "
                   "main.py, bot.js, main.js, bot.pl, Bot.java; the folder inner/ holds bot.py: "
                   "move its files up, out of inner/"),
        ("gone", f"./not_there not found in {tmp_path / 'gone'}"),
        ("renamed", f"{NONE}; it holds my_bot.py: name it bot.py, or give a bot.toml with "
                    'command = "python3 my_bot.py"'),
        ("zipped", f"{NONE}; it holds bot.zip: unpack it, and give the files themselves"),
    ]:
        done = referee("play", "good", folder, "good", cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"error: bot 2 ({folder!r}): {why}"), done.stderr
        assert len(done.stderr.splitlines()) == 1, done.stderr


DEEP = "command = " + "[" * 600 + "\n"  # tomllib recursed into a RecursionError traceback


def test_a_bot_toml_nested_too_deeply_is_one_error_line(tmp_path: Path) -> None:
    """A `bot.toml` of 600 nested `[` (and one that is not UTF-8): `play DIR` and `check DIR`
    say what is wrong with it in one error line, exit 2, no traceback."""
    bot_folder(tmp_path / "good", 'command = "python3 first_legal.py"\n')
    bot_folder(tmp_path / "deep", DEEP)
    bot_folder(tmp_path / "latin", None).joinpath("bot.toml").write_bytes(
        b'command = "python3 first_legal.py" # caf\xe9\n')
    for folder, why, runs in [
            ("deep", "bot.toml is not valid TOML: nested too deeply",
             [["play", "good", "deep", "good"], ["check", "deep"]]),
            ("latin", "bot.toml is not UTF-8 text", [["check", "latin"]])]:
        for args in runs:
            done = referee(*args, cwd=tmp_path)
            assert done.returncode == 2, done.stderr
            assert len(done.stderr.splitlines()) == 1, done.stderr
            bot = "bot 2" if args[0] == "play" else "the bot"
            assert done.stderr.startswith(f"error: {bot} ({folder!r}): {why}"), done.stderr
