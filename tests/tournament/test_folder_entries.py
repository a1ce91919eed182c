"""A tournament entry may give only its folder: the command, build and name come from the
folder's bot.toml, or else from a file of the conventions, as `referee play DIR` takes them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .. import in_process
from ..processes import BOT_PYTHON
from .test_field import FIRST_LEGAL, board, run


def test_an_entry_with_a_dir_and_no_command_takes_the_folders_bot(tmp_path: Path) -> None:
    """`dir` alone: the folder's bot.toml gives the command, the build (run before the games)
    and the name; a folder of the conventions (bot.py) is named after itself; a `name` in the
    file wins.  A folder with no bot, or not there, leaves its entrant out, with why, as a
    failed build does: `plan` warns of it, and `run` plays the others' games."""
    built = tmp_path / "entries" / "built"
    built.mkdir(parents=True)
    shutil.copy(FIRST_LEGAL, built / "source.py")
    (built / "bot.toml").write_text(f'name = "ann"\nbuild = "cp source.py made.py"\n'
                                    f'command = "{BOT_PYTHON} made.py"\n')
    for folder in ("plain", "other"):
        (tmp_path / "entries" / folder).mkdir()
        shutil.copy(FIRST_LEGAL, tmp_path / "entries" / folder / "bot.py")
    file = tmp_path / "cup.toml"
    file.write_text('name = "cup"\nseed = 2\ntable_size = 3\nseat_orders = "rotations"\n'
                    '[[bots]]\ndir = "entries/built"\n[[bots]]\ndir = "entries/plain"\n'
                    '[[bots]]\nname = "cal"\ndir = "entries/other"\n')
    said = run(file)
    assert "3 games played" in said, said
    assert (built / "made.py").is_file()
    entrants = json.loads(board(tmp_path / "cup.db"))["entrants"]
    assert sorted(e["name"] for e in entrants) == ["ann", "cal", "plain"]
    assert all(e["games"] == 3 for e in entrants)

    (tmp_path / "entries" / "empty").mkdir()
    file.write_text(file.read_text() + '[[bots]]\nname = "dan"\ndir = "entries/empty"\n'
                    '[[bots]]\ndir = "entries/gone"\n')
    planned = in_process.referee("tournament", "plan", str(file), cwd=tmp_path)
    assert planned.returncode == 0, planned.stderr
    no_bot = (f"dan: its directory {tmp_path / 'entries' / 'empty'}: no bot found: add a "
              "bot.toml (command, build) or one of Makefile, bot.py")
    gone = f"gone: its directory {tmp_path / 'entries' / 'gone'} does not exist"
    assert f"warning: run would leave out {no_bot}" in planned.stdout, planned.stdout
    assert f"warning: run would leave out {gone}" in planned.stdout, planned.stdout
    said = run(file)
    assert f"left out {no_bot}" in said and f"left out {gone}" in said, said
    assert "0 games played, 3 were already stored" in said, said


def test_a_typo_of_dir_is_named_alone_not_with_the_keys_it_then_lacks(tmp_path: Path) -> None:
    """`dri = "..."` in an entry: the one line names that key and the one it was meant as,
    not also `name` and `command` (which an entry giving its `dir` does not need)."""
    (tmp_path / "t.toml").write_text(
        'name = "t"\n' + "".join(f'[[bots]]\nname = "b{i}"\ncommand = "x"\n' for i in range(3))
        + '[[bots]]\ndri = "b3"\n')
    out = in_process.referee("tournament", "plan", "t.toml", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr == ("error: t.toml: bots #4 dri: Extra inputs are not permitted (did you "
                          "mean 'dir'?)\n"), out.stderr
