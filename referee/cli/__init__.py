"""The `referee` command line: thin wrappers over the library's layers, one module per
command group.

Every mistake a user can make ends in one `error:` line and a non-zero exit, not a traceback.
Text a bot wrote (names, reasons, stderr tails, build output) goes through `visible` as it is
printed, so that no escape sequence of a bot's reaches the terminal.
"""

from __future__ import annotations

import click

from .. import __version__
from .autograder import autograder_cmd, grade_one_cmd
from .grade import grade_cmd
from .leaderboard import leaderboard_cmd, report_cmd
from .play import check_cmd, play, replay_cmd
from .tournament import tournament
from .view import view_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """Run games and tournaments between Modern Art bots.

    A bot is a program that speaks the line-delimited JSON protocol in protocol/README.md.
    Start with `referee play` to watch one game.
    """


for command in (play, replay_cmd, view_cmd, check_cmd, tournament, leaderboard_cmd, grade_cmd,
                grade_one_cmd, autograder_cmd, report_cmd):
    main.add_command(command)
