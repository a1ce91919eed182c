"""A class's similarity: what its references are (the baselines' code and the sample bots),
and every submission against them and each other, by `similarity.py`'s method, its files'
fingerprints kept in OUT between runs (`fingerprint_store.py`).  Apart from the method, so
that the method's digest (`similarity.METHOD`, which keys that store) changes only with it."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from referee.bots.manifest import BotFolderError, read_bot_folder
from referee.tournament.config import TournamentConfig
from referee.tournament.entrants import bot_dir

from . import similarity
from .fingerprint_store import FingerprintStore
from .similarity import (
    FINGERPRINTS,
    SAMPLE_BOTS,
    Fingerprinted,
    Similarity,
    compare,
    fingerprinted,
    may_be_code,
    read_files,
    read_folder,
)
from .submissions import Submission


def shown_path(path: Path, config_path: Path) -> str | None:
    """A reference's path as a teacher reads it: from the repository's root (where
    sample_bots is) or the config's folder; None if outside both."""
    for root in (SAMPLE_BOTS.parent, config_path.resolve().parent):
        if path.is_relative_to(root):
            return str(path.relative_to(root))
    return None


def baseline_label(name: str) -> str:
    """A baseline's label when its files are outside both roots of `shown_path`: worded so
    that it reads as one whatever the name (a baseline named `baseline` would read "baseline
    baseline", a typo to the eye)."""
    return f"the baseline '{name}'"


def reference_bots(config: TournamentConfig, config_path: Path,
                   samples: Path | None = SAMPLE_BOTS,
                   store: FingerprintStore | None = None) -> list[Fingerprinted]:
    """The baselines (the code files their commands and builds name, else their `dir`) and each
    sample bot (a folder built as one bot; in one without a build, each file is a bot, as
    sample_bots/python holds the baseline and the random bot).  Each set of files once."""
    found: dict[tuple[Path, ...], str] = {}
    for bot in config.bots:
        if bot.name not in config.baselines:
            continue
        cwd = bot_dir(config_path, bot.dir)
        words = [*shlex.split(bot.command), *shlex.split(bot.build or "")]
        named = tuple(sorted({(cwd / w).resolve() for w in words
                              if (cwd / w).is_file() and may_be_code(w)}))
        if named:
            name = shown_path(named[0], config_path) if len(named) == 1 else None
            found.setdefault(named, name or baseline_label(bot.name))
        elif bot.dir is not None:
            found.setdefault((cwd,), shown_path(cwd, config_path) or baseline_label(bot.name))
    if samples is not None and samples.is_dir():
        for folder in sorted(p.resolve() for p in samples.iterdir() if p.is_dir()):
            try:
                one_bot = read_bot_folder(folder).build is not None
            except (BotFolderError, OSError):
                continue
            sets: list[tuple[Path, ...]] = [(folder,)] if one_bot else [
                (f.resolve(),) for f in sorted(folder.iterdir()) if f.is_file()]
            for paths in sets:
                found.setdefault(paths, shown_path(paths[0], config_path) or str(paths[0]))
    references = []
    for paths, name in found.items():
        files = (read_folder(paths[0]) if paths[0].is_dir()
                 else read_files([(p, p.name) for p in paths]))
        if files:
            references.append(fingerprinted(name, True, files, store))
    return references


def compare_class(submissions: Sequence[Submission], config: TournamentConfig,
                  config_path: Path, samples: Path | None = SAMPLE_BOTS,
                  out: Path | None = None) -> Similarity:
    """Every submission (its own folder, as handed in) against the others and the references
    (`reference_bots`); with `out`, each file lexed by an earlier run into it taken from its
    FINGERPRINTS, which then keeps the files compared."""
    store = FingerprintStore(None if out is None else out / FINGERPRINTS, similarity.METHOD)
    students = [fingerprinted(s.student, False, read_folder(s.path), store)
                for s in submissions]
    similar = compare(students, reference_bots(config, config_path, samples, store))
    store.save()
    return similar
