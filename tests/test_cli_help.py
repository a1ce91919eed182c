"""`referee --help`, the first command a newcomer types: every command listed with its line,
at once (nothing but the command line itself imported)."""

from __future__ import annotations

import subprocess
import sys

import click

from referee.cli import COMMANDS, main

from . import in_process
from .processes import ROOT


def test_every_command_is_listed_with_its_line_and_runs_its_own_help() -> None:
    """Each command `referee` runs appears in `--help` on its own row with its own short help
    (one line each), and each one's `--help` works."""
    listing = in_process.referee("--help", cwd=ROOT)
    assert listing.returncode == 0, listing.stderr
    commands = listing.stdout.split("Commands:\n", 1)[1]
    rows = dict(line.strip().split(None, 1) for line in commands.splitlines() if line.strip())
    context = click.Context(main)
    for name in sorted(COMMANDS):
        command = main.get_command(context, name)
        assert command is not None and command.short_help, name
        assert rows[name] == command.short_help, (name, commands)
        own = in_process.referee(name, "--help", cwd=ROOT)
        assert own.returncode == 0 and "Usage:" in own.stdout, (name, own.stderr)


def test_the_listing_imports_no_command() -> None:
    """`referee --help` in a fresh process imports no command's module (and so none of the
    layers under them: grading, the leaderboard's statistics, the match runner)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "referee", "--help"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    imported = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:") and "|" in line]
    ours = [m for m in imported if m.startswith("referee.") and m != "referee.cli"]
    assert ours == [], ours
    assert "Commands:" in done.stdout


def test_a_mistake_in_the_options_is_one_error_line() -> None:
    """An unknown option or command, a missing argument or a bad value is said in one
    `error:` line naming the mistake and the `--help` to read, with exit status 2, for the
    top command, a command and a `tournament` subcommand alike (a command of the other group
    named where it is); a group given no command still shows its help."""
    for args, said, help_of in (
            (["play", "--bogus", "x"], "error: no such option '--bogus'", "referee play"),
            (["play"], "error: missing argument 'BOT BOT BOT", "referee play"),
            (["play", "--edition"], "error: option '--edition' requires an argument",
             "referee play"),
            (["grade", "--workers", "many", "x"], "error: invalid value for '--workers'",
             "referee grade"),
            (["bogus"], "error: no such command 'bogus'", "referee"),
            (["tournament", "leaderboard", "x.db"], "error: no such command 'leaderboard' in "
             "'referee tournament': it is 'referee leaderboard'", "referee tournament"),
            (["run", "x.toml"], "error: no such command 'run' in 'referee': it is 'referee "
             "tournament run'", "referee"),
            (["grade-one", "tests", "--config", "c.toml", "--results", "r.json"],
             "error: missing option '--format'. Choose from: gradescope, prairielearn",
             "referee grade-one"),
            (["tournament", "run", "--bogus", "t.toml"], "error: no such option '--bogus'",
             "referee tournament run"),
            (["tournament", "plan"], "error: missing argument 'FILE'",
             "referee tournament plan")):
        done = in_process.referee(*args, cwd=ROOT)
        assert done.returncode == 2 and done.stdout == "", (args, done)
        assert done.stderr.startswith(said), (args, done.stderr)
        assert done.stderr.endswith(f"; see '{help_of} --help'\n"), (args, done.stderr)
        assert done.stderr.count("\n") == 1, (args, done.stderr)
    shown = in_process.referee("tournament", cwd=ROOT)
    assert "Commands:" in shown.stdout + shown.stderr and "run" in shown.stdout + shown.stderr
