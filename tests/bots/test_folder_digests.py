"""A bot folder's two digests, its version and its build's digest, come from one walk: an
entrant whose folder has not changed keeps the version the referee stored before that walk
(its games are not played again after an upgrade), and a version taken in the walk of a build
digest (as `plan` and a resumed run take it) is the version taken alone."""

from __future__ import annotations

import os
from pathlib import Path

from referee.bots.build_state import build_digest
from referee.bots.version import folder_digest

# The version of `layout`'s folder as the walker before `folder_walk.py` took it
# (`sorted(folder.rglob("*"))`, at d130957).
STORED_VERSION = "eaca17f8b2fbef117374dddc30c4954bbf8dd31b76e99c8bdbe6279abbd45cf9"


def layout(top: Path) -> None:
    """Names that sort differently by path and by part (`a/x`, `a-b`, `a.b`), a dotfile, an
    empty folder, caches a version leaves out, an executable, and links: to a file, to a
    folder, out of the folder and into a cache."""
    for rel, text in {"a/x": "1", "a/y/z": "2", "a-b": "3", "a.b": "4", ".hidden": "5",
                      "__pycache__/bot.pyc": "cached", "sub/.mypy_cache/c": "cached",
                      ".gocache/q": "built", "bot.py": "print(1)\n"}.items():
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text(text)
    (top / "b").mkdir()
    (top / "bot.py").chmod(0o755)
    for name, target in {"l1": "bot.py", "l2": "a", "up": "..", "into": ".gocache/q"}.items():
        os.symlink(target, top / name)


def test_an_unchanged_folder_keeps_the_version_stored_before_the_one_walk(
        tmp_path: Path) -> None:
    """The version of a folder of every kind of entry is the one stored by the referee
    before both digests shared a walker: an upgrade supersedes no entrant's games."""
    layout(tmp_path / "bot")
    assert folder_digest(tmp_path / "bot") == STORED_VERSION


def test_a_version_taken_with_the_build_digest_is_the_version_taken_alone(
        tmp_path: Path) -> None:
    """Read in one walk with the build's digest, a folder's version (caches left out) is the
    one `folder_digest` takes, and the build's digest (caches in) is the one taken alone;
    the cache changed, only the build's digest changes."""
    bot = tmp_path / "bot"
    layout(bot)
    os.unlink(bot / "up")  # a link out of the folder: a build digest cannot vouch for it
    taken: dict[str, str] = {}
    digest = build_digest("make", bot, "none", versions=taken)
    assert digest is not None and digest == build_digest("make", bot, "none")
    version = folder_digest(bot)
    assert taken == {str(bot.resolve()): version}
    (bot / "__pycache__" / "bot.pyc").write_text("cached again")
    assert build_digest("make", bot, "none", versions=taken) != digest
    assert taken == {str(bot.resolve()): version} == {str(bot.resolve()): folder_digest(bot)}


def test_a_file_name_that_is_not_utf8_has_digests_that_tell_its_changes(tmp_path: Path) -> None:
    """A folder holding a file whose name is not UTF-8 (a Latin-1 `café`) has a version and a
    build digest, and both change when that file's bytes change."""
    bot = tmp_path / "bot"
    bot.mkdir()
    odd = os.path.join(os.fsencode(bot), b"caf\xe9.txt")
    with open(odd, "wb") as f:
        f.write(b"1")
    before = folder_digest(bot), build_digest("make", bot, "none", ())
    with open(odd, "wb") as f:
        f.write(b"2")
    after = folder_digest(bot), build_digest("make", bot, "none", ())
    assert None not in before and before[0] != after[0] and before[1] != after[1]


def test_a_build_lock_beside_a_bots_folder_and_in_another_changes_neither_digest(
        tmp_path: Path) -> None:
    """The lock in which referees take turns to build a folder lies beside it (`lock_paths`),
    so inside the folder that holds it (a `dir = "."` entrant's beside the others'): neither
    that folder's version nor its build's digest counts it, nor what a build wrote in it."""
    from referee.bots.build_lock import lock_paths

    (tmp_path / "ann").mkdir()
    (tmp_path / "bot.py").write_text("print(1)\n")
    before = folder_digest(tmp_path), build_digest("make", tmp_path, "none")
    lock = lock_paths(tmp_path / "ann")[0]
    assert lock.parent == tmp_path
    lock.write_text("0" * 64 + "\n")
    assert (folder_digest(tmp_path), build_digest("make", tmp_path, "none")) == before
