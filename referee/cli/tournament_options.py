"""The options `tournament run` and `tournament plan` share, each with one meaning: the folder
of the bots' stderr logs, and the shard of the schedule to play or count."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..bots.limits import DEFAULT_STDERR_PER_GAME, format_size
from ..tournament.merge import MAX_SHARDS, unshardable
from .common import OutputPath, fail

if TYPE_CHECKING:
    from ..tournament.config import TournamentConfig


# One option for `run` and `plan`, one meaning: the folder of the bots' stderr logs, which no
# entrant's version or build digest counts (`isolation.own_files`).  `plan` writes nothing
# there: given the folder a run keeps its logs in, inside an entrant's, it does not count the
# logs as a change of that entrant.
stderr_dir_option = click.option(
    "--stderr-dir", type=OutputPath(file_okay=False, path_type=Path),
    help=f"Keep each bot's stderr here ({format_size(DEFAULT_STDERR_PER_GAME)} per game); no "
         "entrant's version counts it (plan writes nothing there).")


def parse_shard(text: str | None, config: TournamentConfig) -> tuple[int, int] | None:
    """I/N, with N bounded so that `tournament merge` need not count to a huge N; one error
    line if `config` cannot be sharded."""
    if text is None:
        return None
    index, _, count = text.partition("/")
    try:
        i, n = int(index), int(count)
    except ValueError:
        fail(f"--shard {text!r}: write it as I/N, e.g. 2/8")
    if not 1 <= n <= MAX_SHARDS:
        fail(f"--shard {text!r}: N must be between 1 and {MAX_SHARDS}")
    if not 1 <= i <= n:
        fail(f"--shard {text!r}: I must be between 1 and N")
    if (why := unshardable(config)) is not None:
        fail(why)
    return i, n
