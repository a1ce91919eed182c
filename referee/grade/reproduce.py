"""The commands a student runs to meet a problem again, naming files as the student has them:
their own bot's command, run in their own folder, and the sample bots under `$REFEREE` (their
copy of this repository), never a folder of the teacher's machine."""

from __future__ import annotations

import functools
import hashlib
import json
import re
import shlex
import shutil
import string
from collections.abc import Callable
from pathlib import Path

from referee.bots.limits import (
    DEFAULT_ADDRESS_SPACE,
    DEFAULT_MAX_FAULTS,
    DEFAULT_MOVE_TIME,
    DEFAULT_STARTUP_TIME,
    DEFAULT_TIME_BANK,
)
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.entrants import bot_dir

# The sample bots of the repository this package sits in; a student's copy has them too.
SAMPLES = Path(__file__).resolve().parents[2] / "sample_bots"
# Stands for the student's copy of the repository in a command (expanded by their shell).
REFEREE = "$REFEREE"
# The sample bots' files by their hashes, for an installed referee (`_sample_files`).
SAMPLE_MANIFEST = Path(__file__).with_name("sample_bots.json")
# The files of a sample bot that a baseline's command may name (not its build outputs).
_SOURCES = frozenset({".py", ".js", ".ts", ".pl", ".c", ".cpp", ".go", ".rs", ".java", ".cs"})
# What a command may hold and still go inside double quotes with `$REFEREE` expanded.
_QUOTABLE = frozenset(string.ascii_letters + string.digits + " _.,:/=+-@%")


# Said with a game's command when grading ran the bots in the sandbox.
SANDBOX_NOTE = ("grading ran the bots in a sandbox (no network, no files but their own "
                "folders'); with bubblewrap installed (Linux), add --sandbox bwrap to run "
                "them so")


def limit_flags(config: TournamentConfig, max_faults: bool = False) -> list[str]:
    """The options that give `referee check` or `referee play` the grading config's time
    limits and address space, where they are not the command's own defaults.  Not its
    sandbox: `--sandbox bwrap` fails where bubblewrap is not installed (a student's Mac), and a
    bot plays alike in it (`SANDBOX_NOTE`)."""
    limits = config.limits
    words = []
    flags = [("--move-time", limits.move_time, DEFAULT_MOVE_TIME),
             ("--time-bank", limits.time_bank, DEFAULT_TIME_BANK),
             ("--startup-time", limits.startup_time, DEFAULT_STARTUP_TIME)]
    if max_faults:
        flags.append(("--max-faults", limits.max_faults, DEFAULT_MAX_FAULTS))
    for flag, value, default in flags:
        if value != default:
            words += [flag, f"{value:g}"]
    if limits.address_space != DEFAULT_ADDRESS_SPACE:
        words += ["--address-space", str(limits.address_space)]
    return words


def check_command(command: str, config: TournamentConfig) -> str:
    """`referee check` as grading ran it, so that a student sees what the grader saw."""
    return shlex.join(["referee", "check", *limit_flags(config), command])


def exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a word too long to be a file name
        return False


def sample_file(path: Path) -> str | None:
    """Where under sample_bots the file `path` is, or which sample file it is a byte-for-byte
    copy of (the autograder's packages copy the sample bots, a teacher may too); None for a
    file of the teacher's own."""
    resolved = path.resolve()
    samples = SAMPLES.resolve()
    if resolved.is_relative_to(samples):
        return resolved.relative_to(samples).as_posix()
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    except OSError:
        return None
    return _sample_files().get(digest) if digest is not None else None


@functools.cache
def _sample_files() -> dict[str, str]:
    """The sample bots' source files by the SHA-256 of their bytes: read from sample_bots/
    where the referee runs from its repository, else from SAMPLE_MANIFEST (an installed
    referee, such as a platform's, has no sample_bots/ beside it)."""
    if SAMPLES.is_dir():
        return sample_hashes(SAMPLES)
    try:
        found = json.loads(SAMPLE_MANIFEST.read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def sample_hashes(folder: Path) -> dict[str, str]:
    """The source files under `folder` by the SHA-256 of their bytes (the first by path of
    any that are alike): what SAMPLE_MANIFEST holds for sample_bots/ (a test keeps it so)."""
    found: dict[str, str] = {}
    for file in sorted(folder.rglob("*")):
        if file.is_file() and file.suffix in _SOURCES and file.stat().st_size < 1 << 20:
            found.setdefault(hashlib.sha256(file.read_bytes()).hexdigest(),
                             file.relative_to(folder).as_posix())
    return found


def sample_command(bot: BotEntry, config_path: Path) -> str | None:
    """A baseline's command with each file it names under `$REFEREE/sample_bots`, and its
    program by its name alone (`python3`, found on the student's PATH); None when it names a
    file that is not a sample bot's (the teacher's own), or cannot be quoted plainly."""
    cwd = bot_dir(config_path, bot.dir)
    words = []
    for i, word in enumerate(shlex.split(bot.command)):
        path = Path(word) if Path(word).is_absolute() else cwd / word
        inside = sample_file(path) if exists(path) else None
        if inside is not None:
            word = f"{REFEREE}/sample_bots/{inside}"
        elif i == 0 and "/" in word and shutil.which(Path(word).name):
            word = Path(word).name  # an interpreter: /usr/bin/python3 is python3 anywhere
        elif "/" in word or exists(path):
            return None  # a file of the teacher's
        words.append(word)
    text = " ".join(words)
    return text if set(text) <= _QUOTABLE | {"$"} and text.count("$") == text.count(REFEREE) \
        else None


def play_command(config: TournamentConfig, config_path: Path, seats: list[str], me: str,
                 command: str, seed: int, order: int = 0) -> tuple[str, list[str]]:
    """`referee play` of one graded game, its seats in order, from the student's folder; and
    a line for each thing of the teacher's it cannot name: a baseline that is not a sample
    bot (the random sample bot sits in its place, so that game differs from the graded one),
    an edition file (named by its file name)."""
    words = ["referee", "play", "--seed", str(seed)]
    if order:  # so that every seat gets the seed for its randomness it got in that game
        words += ["--seat-order", str(order)]
    notes = []
    if config.edition != "cmon":
        edition = config.edition
        if config.edition_file() is not None:
            edition = Path(edition).name
            notes.append(f"the edition is your teacher's file {edition}: ask for a copy")
        words += ["--edition", shlex.quote(edition)]
    for variant in config.variants:
        words += ["--variant", variant]
    words += [shlex.quote(w) for w in limit_flags(config, max_faults=True)]
    if config.sandbox != "none":
        notes.append(SANDBOX_NOTE)
    entries = {b.name: b for b in config.bots}
    for name in seats:
        if name == me:
            words.append(shlex.quote(f"{name}={command}"))
            continue
        baseline = sample_command(entries[name], config_path) if name in entries else None
        if baseline is None:
            notes.append(f"{name} is your teacher's own bot, not a sample bot: the random sample "
                         "bot sits in its place, so the game goes otherwise")
            baseline = f"python3 {REFEREE}/sample_bots/python/random_bot.py"
        words.append(f'"{name}={baseline}"' if set(name) <= _QUOTABLE
                     else shlex.quote(f"{name}=") + f'"{baseline}"')
    return " ".join(words), notes


class Scrub:
    """Takes the teacher's folders out of text bound for a student: the copy the bot ran in
    and the submission itself become the student's own folder (`helper.py`, `.`), and the
    grading and submissions folders a placeholder.  Each folder as given and as resolved."""

    def __init__(self, own: list[Path], others: dict[str, Path]) -> None:
        pairs = {}
        for shown, folder in [*((".", f) for f in own), *others.items()]:
            for form in {str(folder), str(folder.resolve())}:
                if form != "/":
                    pairs[form] = shown
        self.pairs = sorted(pairs.items(), key=lambda p: -len(p[0]))  # the longest first

    def text(self, text: str, quote: Callable[[str], str] = lambda s: s) -> str:
        for folder, shown in self.pairs:
            within = "" if shown == "." else shown + "/"
            text = text.replace(quote(folder + "/"), quote(within))
            text = re.sub(re.escape(quote(folder)) + r"(?![\w.-])", quote(shown).replace(
                "\\", "\\\\"), text)
        return text

    def json(self, data: bytes) -> bytes:
        """JSON lines with the folders taken out of their strings, still JSON lines."""
        text = self.text(data.decode("utf-8", "surrogateescape"),
                         lambda s: json.dumps(s, ensure_ascii=False)[1:-1])
        return text.encode("utf-8", "surrogateescape")
