"""The `referee` command line: thin wrappers over the library's layers, one module per
command group.

Every mistake a user can make ends in one `error:` line and a non-zero exit, not a traceback.
Text a bot wrote (names, reasons, stderr tails, build output) goes through `visible` as it is
printed, so that no escape sequence of a bot's reaches the terminal.

A command's module is imported only when that command runs (`COMMANDS`): importing every
layer costs a `referee play` or a one-line error about half of its start-up.
"""

from __future__ import annotations

import importlib

import click

from .. import __version__

# Each command: the module of referee.cli that defines it, and its name there.
COMMANDS = {
    "autograder": ("autograder", "autograder_cmd"),
    "check": ("play", "check_cmd"),
    "grade": ("grade", "grade_cmd"),
    "grade-one": ("autograder", "grade_one_cmd"),
    "leaderboard": ("leaderboard", "leaderboard_cmd"),
    "play": ("play", "play"),
    "replay": ("play", "replay_cmd"),
    "report": ("leaderboard", "report_cmd"),
    "tournament": ("tournament", "tournament"),
    "view": ("view", "view_cmd"),
}


class LazyGroup(click.Group):
    """A group whose commands are imported from `COMMANDS` when asked for by name (or all,
    for `--help`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(f"{__name__}.{module}"), name)
            assert isinstance(command, click.Command) and command.name == cmd_name
            self.add_command(command)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """Run games and tournaments between Modern Art bots.

    A bot is a program that speaks the line-delimited JSON protocol in protocol/README.md.
    Start with `referee play` to watch one game.
    """
