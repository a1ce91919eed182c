"""One walk of a bot's folder for both of its digests: its version (`version.py`, which says
an entrant changed since the last run) and its build's digest (`build_state.py`, which lets a
resumed run reuse its build).

They were two walkers, and differed in ways nobody had chosen (one stopped at a folder it
could not list, the other never saw it; one ordered a folder's files before its folders):
a fix to one missed the other.  Here the walk is one, and what each digest makes of it is a
`Reading` with its differences said as data and in two small methods:

- `not_hashed`: names left out with all they hold (the version's caches, `NOT_HASHED`; the
  build's digest leaves out nothing, a deleted or rewritten cache being a change);
- what a link, another kind of file, a folder that cannot be listed or a file that cannot be
  read means (`entry`, `file_end`): the version hashes what it sees and goes on, the build's
  digest gives up (None: it cannot vouch for the folder) at a link out of it or at anything it
  cannot read;
- how a file's mode and bytes are framed (`file_head`, `file_end`).

The run's own files (`skip`, `version.run_own`) are left out of every reading, a folder of
them with all it holds, and so are the build locks (`LOCK_SUFFIX`).  Both digests of one
folder taken together (`read_folder` with two readings) read each file once: `tournament
plan`, and a resumed run whose builds are reused, take both.

Entries come in one order, depth first, each folder's names sorted (as Python sorts
strings), a folder's entries right after it: the order `sorted(Path.rglob("*"))` gave the
version, so that versions stored before this walker are the versions it takes.  Each file is
opened once (`os.open`, no buffered file object), its size and mode read from that descriptor,
and its bytes read in one call when small: at 20,000 small files the walk's cost is Python's
per-file work, which these keep small (`benchmarks/digest.py`).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Sequence
from typing import NamedTuple, Protocol

CHUNK = 1 << 20  # bytes read at once from a large file
# The files in which referees take turns to build a folder (`build_lock.py`), beside it: left
# out of every walk, as one beside an entrant's folder may lie in another's (`dir = "."`).
LOCK_SUFFIX = ".referee-build-lock"

DIR, FILE, LINK, OTHER, UNLISTED = "dir", "file", "link", "other", "unlisted"


def text_bytes(text: str) -> bytes:
    """A digest's text as bytes: UTF-8, as it always was, and a file name that is not UTF-8
    (Python gives its odd bytes as escapes) as the bytes it has on disk."""
    return text.encode("utf-8", "surrogateescape")


class Entry(NamedTuple):
    """One thing in the folder walked.  `rel`: its path from the folder ("." for the folder
    itself), '/'-separated; `path`: its path to open; `kind`: DIR (a real folder, walked
    next), FILE (a regular file), LINK (a symbolic link, never followed), OTHER (a FIFO, a
    socket, a device: never opened) or UNLISTED (a folder that could not be listed, its
    contents unseen); `under`: the names of `marks` on its path, itself included."""

    rel: str
    path: str
    kind: str
    under: frozenset[str]


class Reading(Protocol):
    """What one digest makes of the walk.  Each method returns False once the reading cannot
    vouch for the folder: it is given nothing more."""

    not_hashed: frozenset[str]

    def entry(self, entry: Entry) -> bool:
        """Take a folder, a link, another kind of file or a folder that cannot be listed."""
        ...

    def file_head(self, entry: Entry, st: os.stat_result) -> bool:
        """Take a file's mode and size, before its bytes (given to `update`)."""
        ...

    def file_end(self, entry: Entry, error: OSError | None, head: bool) -> bool:
        """End a file: its bytes all read (`error` None), or it could not be opened or read
        (`head`: whether `file_head` had been given it)."""
        ...

    def update(self, data: bytes) -> None:
        """A file's bytes, in order, between `file_head` and `file_end`."""
        ...


def read_folder(top: str, readings: Sequence[Reading], skip: Collection[str] = ()) -> list[bool]:
    """Walk `top` once for every reading; whether each can vouch for it.  `skip`: the real
    paths of the run's own files, left out (a folder of them with all it holds)."""
    alive = [True] * len(readings)
    # A name none of the readings hashes is not walked; one that some hash is walked and
    # marked, and left out by those that do not.
    prune = frozenset.intersection(*(r.not_hashed for r in readings))
    marks = frozenset.union(*(r.not_hashed for r in readings)) - prune
    for entry in walk(top, skip, prune, marks):
        live = [i for i, r in enumerate(readings)
                if alive[i] and not (entry.under and entry.under & r.not_hashed)]
        if not live:
            if not any(alive):
                break
            continue
        if entry.kind != FILE:
            for i in live:
                alive[i] = readings[i].entry(entry)
            continue
        headed: list[int] = []  # the readings given this file's head
        error: OSError | None = None
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO swapped in: no wait
        except OSError as exc:
            error = exc
        else:
            try:
                st = os.fstat(fd)
                for i in live:
                    headed.append(i)
                    alive[i] = readings[i].file_head(entry, st)
                feeding = [readings[i] for i in live if alive[i]]
                want = st.st_size + 1 if st.st_size < CHUNK else CHUNK  # small: one read
                while data := os.read(fd, want):
                    for r in feeding:
                        r.update(data)
                    want = CHUNK
            except OSError as exc:
                error = exc
            finally:
                os.close(fd)
        for i in live:
            if alive[i]:
                alive[i] = readings[i].file_end(entry, error, i in headed)
    return alive


def walk(top: str, skip: Collection[str] = (), prune: Collection[str] = (),
         marks: Collection[str] = ()) -> Iterator[Entry]:
    """Every entry of the folder `top` (itself first, as DIR or UNLISTED), depth first, each
    folder's names sorted; the run's own files (`skip`, real paths), names in `prune` and the
    build locks (`LOCK_SUFFIX`) left out with all they hold; an entry under a name of `marks`
    says so (`Entry.under`).  Iterative: a folder deeper than Python's recursion limit is
    walked all the same."""
    # Only an entry of one of these names is looked up by its real path (a lookup for every
    # file more than doubled a folder's digest); a link of another name to one of them is
    # taken as a link.
    names = frozenset(os.path.basename(p) for p in skip)
    listing = _listing(top)
    if listing is None:
        yield Entry(".", top, UNLISTED, frozenset())
        return
    yield Entry(".", top, DIR, frozenset())
    stack: list[tuple[str, frozenset[str], Iterator[os.DirEntry[str]]]] = [
        ("", frozenset(), iter(listing))]
    while stack:
        prefix, under, entries = stack[-1]
        found = next(entries, None)
        if found is None:
            stack.pop()
            continue
        name = found.name
        if name in prune or name.endswith(LOCK_SUFFIX) or (
                name in names and os.path.realpath(found.path) in skip):
            continue
        rel = prefix + name
        here = under | {name} if name in marks else under
        if found.is_symlink():
            yield Entry(rel, found.path, LINK, here)
        elif found.is_dir(follow_symlinks=False):
            inside = _listing(found.path)
            if inside is None:
                yield Entry(rel, found.path, UNLISTED, here)
            else:
                yield Entry(rel, found.path, DIR, here)
                stack.append((rel + "/", here, iter(inside)))
        elif found.is_file(follow_symlinks=False):
            yield Entry(rel, found.path, FILE, here)
        else:
            yield Entry(rel, found.path, OTHER, here)


def _listing(folder: str) -> list[os.DirEntry[str]] | None:
    """A folder's entries sorted by name, or None if it cannot be listed."""
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError:
        return None
