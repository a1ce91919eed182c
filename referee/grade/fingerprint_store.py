"""OUT/fingerprints.json: what `similarity.py` computed of each code file it compared (its
fingerprints, its tokens with their values, the hash of its every run), by the file's name and
bytes.  Lexing is most of what comparing a class costs, and each run compared the same files
again: the sample bots and baselines (some 0.6 s of CPU a run for the kit alone) and every
unchanged submission.  A run now lexes only the files not in the store, and keeps the files it
compared (those no longer compared, of a submission changed or withdrawn, are dropped).

A cache, not a record: a store that cannot be read, or of another `method` (another
similarity.py, another pygments, a Python that hashes a tuple otherwise), is computed afresh,
and one that cannot be written costs the next run its time, nothing else."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from referee.files import write_whole

# A code file's fingerprints, its literal token ids and its run hashes (`similarity._file_ids`).
FileIds = tuple[frozenset[int], tuple[int, ...], frozenset[int]]


class FingerprintStore:
    """The files' ids a run found stored, and those it compares (`ids`), to be kept (`save`)."""

    def __init__(self, path: Path | None, method: str) -> None:
        self.path = path
        self.method = method
        self._stored = {} if path is None else _read(path, method)
        self._compared: dict[str, FileIds | None] = {}

    def ids(self, name: str, text: str, compute: Callable[[], FileIds | None]
            ) -> FileIds | None:
        """The ids of the file `name` (as the lexer is chosen by: its base name) holding
        `text`: as stored, else `compute()`d (None: not code)."""
        key = hashlib.sha256(f"{name}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
        if key not in self._compared:
            self._compared[key] = self._stored[key] if key in self._stored else compute()
        return self._compared[key]

    def save(self) -> None:
        """Keep the files compared, where they are not what was stored already."""
        if self.path is None or self._compared.keys() == self._stored.keys():
            return
        files = {key: None if ids is None else [sorted(ids[0]), list(ids[1]), sorted(ids[2])]
                 for key, ids in sorted(self._compared.items())}
        with suppress(OSError):  # a cache: the next run computes what it lacks
            write_whole(self.path, json.dumps({"method": self.method, "files": files},
                                              separators=(",", ":")))


def _read(path: Path, method: str) -> dict[str, FileIds | None]:
    """The stored ids of `path` under `method`; none for a store missing, damaged or of
    another method."""
    try:
        data: Any = json.loads(path.read_bytes())
        if data["method"] != method:
            return {}
        return {str(key): None if ids is None else
                (frozenset(ids[0]), tuple(ids[1]), frozenset(ids[2]))
                for key, ids in data["files"].items()}
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return {}
