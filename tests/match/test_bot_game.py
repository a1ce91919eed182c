"""Bots given without a name are named by their hellos, as far as the names can name files."""

from __future__ import annotations

from referee.bots.launch import BotSpec
from referee.match.bot_game import named_by_hellos


def test_hello_names_are_numbered_and_unusable_ones_left_out() -> None:
    bots = [BotSpec.parse("python3 a.py"), BotSpec.parse("python3 b.py"),
            BotSpec.parse("python3 c.py"), BotSpec.parse("given=python3 d.py")]
    named = named_by_hellos(bots, ["twin", "twin", "x/y", "hello"])
    assert [s.name for s in named] == ["twin-1", "twin-2", "c", "given"]


def test_names_that_numbers_would_make_alike_are_left_as_they_were() -> None:
    """Two hellos say `x` beside a bot given the name `x-1`: numbering them would give two
    bots the name `x-1`, so every bot keeps the name it had."""
    bots = [BotSpec.parse("python3 a.py"), BotSpec.parse("python3 b.py"),
            BotSpec.parse("x-1=python3 c.py")]
    assert [s.name for s in named_by_hellos(bots, ["x", "x", None])] == ["a", "b", "x-1"]
