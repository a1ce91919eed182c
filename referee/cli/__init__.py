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
from typing import IO, Any

import click

from .. import __version__

# Each command: the module of referee.cli that defines it, its name there, and its line in
# `referee --help` (the command's `short_help`, given here so that listing the commands
# imports none of them: importing every layer took `referee --help` 0.6-0.8 s of CPU).
COMMANDS = {
    "autograder": ("autograder", "autograder_cmd",
                   "Write a Gradescope or PrairieLearn autograder for a class."),
    "check": ("check", "check_cmd", "Run BOT through scripted situations: is it ready to play?"),
    "grade": ("grade", "grade_cmd", "Grade a folder of student bots: grades.csv and feedback."),
    "grade-one": ("autograder", "grade_one_cmd",
                  "Grade one submission, as an autograder platform runs it."),
    "leaderboard": ("leaderboard", "leaderboard_cmd",
                    "Print the standings of the games in a store."),
    "play": ("play", "play", "Play one game between BOTs and print the standings."),
    "replay": ("replay", "replay_cmd", "Re-check a recorded game, or replay it to one bot."),
    "report": ("leaderboard", "report_cmd", "Write a store's games as a static site."),
    "tournament": ("tournament", "tournament",
                   "Plan, run and merge tournaments described by a tournament file."),
    "view": ("view", "view_cmd", "Write one game as an HTML page."),
}


def short_help(name: str) -> str:
    """The line of command `name` in `referee --help` (`COMMANDS`)."""
    return COMMANDS[name][2]


# A group given no command shows its help: a UsageError since click 8.2, kept as click shows it.
_NO_COMMAND: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())


class OptionMistake(click.ClickException):
    """A mistake in a command's options or arguments, said as every other mistake is: one
    `error:` line (click's own message, then where the help is), exit status 2, instead of
    click's usage line, hint and message."""

    exit_code = 2

    def __init__(self, mistake: click.UsageError, fallback: click.Context) -> None:
        said = " ".join(mistake.format_message().split()).rstrip(".")  # one line
        if mistake.ctx is not None:
            command = mistake.ctx.command_path
        else:  # found before the command's context was made: the command being started
            command = f"{fallback.command_path} {fallback.invoked_subcommand or ''}".strip()
        super().__init__(f"{said[:1].lower()}{said[1:]}; see '{command} --help'")

    def show(self, file: IO[Any] | None = None) -> None:
        from ..text import visible  # not for `referee --help` (`test_the_listing_imports…`)

        click.echo(f"error: {visible(self.format_message())}", err=True)


class OneLineMistakes(click.Group):
    """A command group whose option mistakes, its own or a command's, are one line each
    (`OptionMistake`)."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except _NO_COMMAND:
            raise
        except click.UsageError as exc:
            raise OptionMistake(exc, click.Context(self, info_name=info_name)) from None

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """As click's, but a command of another group is named where it is (`referee
        tournament leaderboard` is `referee leaderboard`)."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            name = args[0] if args else ""
            root = ctx.find_root()
            for group, where in _groups(root):
                if group is not self and name in group.list_commands(root):
                    raise click.UsageError(f"No such command {name!r} in "
                                           f"'{ctx.command_path}': it is '{where} {name}'",
                                           ctx) from None
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except _NO_COMMAND:
            raise
        except click.UsageError as exc:
            raise OptionMistake(exc, ctx) from None


def _groups(root: click.Context) -> list[tuple[click.Group, str]]:
    """The root's group and those of its commands, each with its command path."""
    top = root.command
    if not isinstance(top, click.Group):
        return []
    found: list[tuple[click.Group, str]] = [(top, root.command_path)]
    for name in top.list_commands(root):
        if name in COMMANDS and COMMANDS[name][0] != "tournament":
            continue  # importing every command to ask costs a mistake's one line its speed
        sub = top.get_command(root, name)
        if isinstance(sub, click.Group):
            found.append((sub, f"{root.command_path} {name}"))
    return found


class LazyGroup(OneLineMistakes):
    """A group whose commands are imported from `COMMANDS` when asked for by name; its
    `--help` lists them from the table, importing none."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name, _ = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(f"{__name__}.{module}"), name)
            assert isinstance(command, click.Command) and command.name == cmd_name
            self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, short_help(name) if name in COMMANDS
                 else self.commands[name].get_short_help_str()) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """Run games and tournaments between Modern Art bots.

    A bot is a program that speaks the line-delimited JSON protocol in protocol/README.md.
    Start with `referee play` to watch one game.
    """
