"""The `referee` command line: thin wrappers over the library's layers."""

from __future__ import annotations

import click

from . import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """Run games and tournaments between Modern Art bots."""
