"""What a bot's build leaves behind, as one digest: a build is known to be up to date, and is
not run again, when the digest taken just after its last successful build is the digest now.

The digest covers everything the build could read or write that the referee can see: every
file of the folder it runs in, byte for byte with its mode, build output and caches included
(a deleted program, or a cache another tool rewrote, is a change), every folder and where each
link leads; the `read_only` paths the sandbox shows it; the build command, the sandbox, and
the environment it inherits, less the variables of a terminal or a session that no build
reads (`SESSION_ONLY`), which change from one login to the next; and the build's program as
installed (its path, size and time), so that a compiler upgraded in place builds again.

A folder that cannot be vouched for has no digest (None), and its build always runs: one
with a link that leads out of it (what the build reads there is not seen), a file or a
folder that cannot be read, or more than `MOST_ENTRIES` entries; nor a build whose command
names a path up out of its folder (`-I../common`, `cd ..`: `UP_OUT`) when no `read_only`
path says what it reads there.  A build that reads files elsewhere unseen (a Makefile's
`../common`, a compiler upgraded under `make`) cannot be vouched for either: `--rebuild` runs
them all.

The folder is walked by `folder_walk.py`, the version's walker too (`BuildReading` is what
this digest makes of it), and the version can be taken in the same walk (`build_digest`'s
`versions`).  Since that walker, a folder with subfolders has another digest than before (its
entries in the version's order): its build ran once more, at the first run after the upgrade;
so may one with a link to a folder (the old walk hashed such links after the files); a
folder of files and of links to files alone kept its digest.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import stat
from collections.abc import Collection, Sequence
from pathlib import Path

from .folder_walk import DIR, LINK, UNLISTED, Entry, read_folder, text_bytes
from .version import VersionReading

# Variables of a terminal, a login or a batch system: they differ between two runs of the
# same tournament (another ssh login, another job), and no build reads them.
SESSION_ONLY = frozenset({
    "_", "PWD", "OLDPWD", "SHLVL", "TERM", "COLORTERM", "COLUMNS", "LINES", "LS_COLORS",
    "DISPLAY", "WINDOWID", "STY", "MAIL", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND",
    "HISTFILE", "HISTSIZE", "HISTFILESIZE", "HISTCONTROL", "LESS", "LESSOPEN", "LESSCLOSE",
    "PAGER", "EDITOR", "VISUAL", "INVOCATION_ID", "JOURNAL_STREAM", "MOTD_SHOWN",
    "SESSION_MANAGER", "DESKTOP_SESSION"})
SESSION_PREFIXES = ("SSH_", "XDG_", "TMUX", "TERM_", "DBUS_", "GPG_", "KRB5", "SLURM_", "PBS_",
                    "SGE_", "LSB_", "LSF_", "VSCODE_")
MOST_ENTRIES = 200_000  # files, folders and links: past this, a folder is not a bot's
# `..` as a path's part in a build command (not `...`): it reads or runs something out of its
# folder, which the digest does not see.
UP_OUT = re.compile(r"(?:^|[^.])\.\.(?:[/\\\s'\";&|)]|$)")


def build_digest(command: str, folder: Path, sandbox: str,
                 read_only: Sequence[Path] = (), skip: Collection[str] = (),
                 versions: dict[str, str] | None = None) -> str | None:
    """The digest of a build of `command` in `folder` as things are now (module doc), or
    None if the folder cannot be vouched for (its build must run).  `skip`: the real paths of
    the run's own files, left out (`version.run_own`), a folder of them with all it holds.
    `versions`: where to keep, under the folder's real path, its `version.folder_digest`
    (with the same `skip`) taken in the same walk, which reads each file once for both."""
    if not read_only and UP_OUT.search(command):
        return None
    h = hashlib.sha256(json.dumps(["build", command, sandbox, _environment(),
                                   _program(command, folder)]).encode())
    for path in [folder, *read_only]:
        h.update(text_bytes(f"{path}\0"))
        if not _tree(h, path, skip, versions if path == folder else None):
            return None
    return h.hexdigest()


def _environment() -> list[tuple[str, str]]:
    return sorted((k, v) for k, v in os.environ.items()
                  if k not in SESSION_ONLY and not k.startswith(SESSION_PREFIXES))


def _program(command: str, folder: Path) -> list[object]:
    """The build's program as found (a path in the folder is hashed with the folder):
    where it is, its size and time."""
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return []
    found = (str(folder / program) if "/" in program else shutil.which(program))
    if found is None:
        return [program]
    try:
        st = os.stat(found)
    except OSError:
        return [program]
    return [os.path.realpath(found), st.st_size, st.st_mtime_ns]


def _tree(h: hashlib._Hash, top: Path, skip: Collection[str] = (),
          versions: dict[str, str] | None = None) -> bool:
    """Hash `top` (a folder, or a file) into `h`: False if it cannot be vouched for.  With
    `versions`, a folder's version digest is taken in the same walk and kept there."""
    root = os.path.realpath(top)
    if os.path.isfile(root):
        return _file(h, root, ".")
    if not os.path.isdir(root):
        h.update(b"missing\0")  # a read_only path not there: it may come
        return True
    build = BuildReading(h, root)
    if versions is None:
        return read_folder(root, [build], skip)[0]
    version = VersionReading(root)
    vouched = read_folder(root, [build, version], skip)[0]
    versions[root] = version.hexdigest()
    return vouched


class BuildReading:
    """The build digest's reading of a folder walk (`folder_walk.Reading`): nothing left out
    but the run's own files (a cache a build rewrites is a change); every folder by its path;
    a file by its path, mode, size and bytes; another kind of file (a FIFO: never opened) by
    its kind; a link by where it leads.  It cannot vouch for a folder (False) with a link
    out of it (what the build reads there is not seen), a folder it cannot list or a file it
    cannot read, or more than `MOST_ENTRIES` entries."""

    not_hashed: frozenset[str] = frozenset()

    def __init__(self, h: hashlib._Hash, root: str) -> None:
        self.h = h
        self.root = root  # the folder's real path
        self.entries = 0

    def entry(self, entry: Entry) -> bool:
        if entry.kind == UNLISTED:
            return False
        if entry.kind == DIR:
            self.h.update(text_bytes(f"dir {entry.rel}\0"))
        elif entry.kind == LINK:
            target = os.path.realpath(entry.path)
            if os.path.commonpath([self.root, target]) != self.root:
                return False  # what the build reads there is not seen
            self.h.update(text_bytes(f"link {_shown(entry)}\0{os.readlink(entry.path)}\0"))
        else:
            try:
                mode = os.lstat(entry.path).st_mode
            except OSError:
                return False
            self.h.update(text_bytes(f"other {_shown(entry)}\0{stat.S_IFMT(mode):o}\0"))
        return self._counted()

    def file_head(self, entry: Entry, st: os.stat_result) -> bool:
        self.h.update(text_bytes(
            f"file {_shown(entry)}\0{st.st_mode & 0o7777:o}\0{st.st_size}\0"))
        return self._counted()

    def update(self, data: bytes) -> None:
        self.h.update(data)

    def file_end(self, entry: Entry, error: OSError | None, head: bool) -> bool:
        return error is None

    def _counted(self) -> bool:
        self.entries += 1
        return self.entries <= MOST_ENTRIES


def _shown(entry: Entry) -> str:
    """How the digest names an entry: as the walker before `folder_walk` did, "./NAME" at the
    top, so that a folder of files alone (no subfolder, nor a link to one) has the digest
    it had then."""
    return entry.rel if "/" in entry.rel else f"./{entry.rel}"


def _file(h: hashlib._Hash, path: str, shown: str) -> bool:
    """Hash one file (a `read_only` path), its mode and its bytes; another kind of file (a
    FIFO: never opened), by its kind.  False if it cannot be read."""
    try:
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            h.update(text_bytes(f"other {shown}\0{stat.S_IFMT(mode):o}\0"))
            return True
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            h.update(text_bytes(f"file {shown}\0{st.st_mode & 0o7777:o}\0{st.st_size}\0"))
            while chunk := f.read(1 << 20):
                h.update(chunk)
    except OSError:
        return False
    return True
