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
folder that cannot be read (os.walk skips a folder it cannot list, saying nothing but to its
`onerror`), or more than `MOST_ENTRIES` entries; nor a build whose command names a path
up out of its folder (`-I../common`, `cd ..`: `UP_OUT`) when no `read_only` path says what
it reads there.  A build that reads files elsewhere unseen (a Makefile's `../common`, a
compiler upgraded under `make`) cannot be vouched for either: `--rebuild` runs them all.
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

from .version import skipped_names

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
                 read_only: Sequence[Path] = (), skip: Collection[str] = ()) -> str | None:
    """The digest of a build of `command` in `folder` as things are now (module doc), or
    None if the folder cannot be vouched for (its build must run).  `skip`: the real paths of
    the run's own files, left out (`version.run_own`), a folder of them with all it holds."""
    if not read_only and UP_OUT.search(command):
        return None
    h = hashlib.sha256(json.dumps(["build", command, sandbox, _environment(),
                                   _program(command, folder)]).encode())
    for path in [folder, *read_only]:
        h.update(f"{path}\0".encode())
        if not _tree(h, path, skip):
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


def _tree(h: hashlib._Hash, top: Path, skip: Collection[str] = ()) -> bool:
    """Hash `top` (a folder, or a file) into `h`: False if it cannot be vouched for."""
    root = os.path.realpath(top)
    if os.path.isfile(root):
        return _file(h, root, ".")
    if not os.path.isdir(root):
        h.update(b"missing\0")  # a read_only path not there: it may come
        return True
    entries = 0
    # Links to folders are not followed; a folder os.walk cannot list it skips, telling only
    # `onerror`: what the build reads there would not be seen.
    unlisted: list[OSError] = []
    names = skipped_names(skip)
    for folder, subfolders, files in os.walk(root, onerror=unlisted.append):
        if unlisted:
            return False
        # the run's own folder (the stderr logs'), with all it holds: not walked
        subfolders[:] = sorted(d for d in subfolders if d not in names or os.path.realpath(
            os.path.join(folder, d)) not in skip)
        rel = os.path.relpath(folder, root)
        h.update(f"dir {rel}\0".encode())
        for name in sorted(files) + [d for d in subfolders if os.path.islink(
                os.path.join(folder, d))]:
            entries += 1
            if entries > MOST_ENTRIES:
                return False
            path = os.path.join(folder, name)
            if name in names and os.path.realpath(path) in skip:
                continue
            shown = os.path.join(rel, name)
            if os.path.islink(path):
                target = os.path.realpath(path)
                if os.path.commonpath([root, target]) != root:
                    return False  # what the build reads there is not seen
                h.update(f"link {shown}\0{os.readlink(path)}\0".encode())
            elif not _file(h, path, shown):
                return False
    return not unlisted


def _file(h: hashlib._Hash, path: str, shown: str) -> bool:
    """Hash one file, its mode and its bytes; another kind of file (a FIFO: never opened),
    by its kind.  False if it cannot be read."""
    try:
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            h.update(f"other {shown}\0{stat.S_IFMT(mode):o}\0".encode())
            return True
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            h.update(f"file {shown}\0{st.st_mode & 0o7777:o}\0{st.st_size}\0".encode())
            while chunk := f.read(1 << 20):
                h.update(chunk)
    except OSError:
        return False
    return True
