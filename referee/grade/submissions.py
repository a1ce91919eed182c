"""Finding each student's bot in a folder of submissions, and copying it somewhere safe.

Each subfolder is one submission: a bot folder (`referee.bots.manifest`: a `bot.toml`, or a
file of the conventions).  A `name` in its `bot.toml` is accepted, but the bot is named after
its folder, the student.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from referee.bots.manifest import CONVENTIONS, MANIFEST, BotFolderError, read_bot_folder
from referee.bots.version import NOT_HASHED, folder_digest, inside_not_hashed
from referee.tournament.limits_table import SizeLimits

# Folders of SUBMISSIONS_DIR never taken for a student (tooling, or the grader's own --out).
SKIP = {".git", "__pycache__", "__MACOSX", "out", "node_modules", ".venv"}
# Inside a submission, what no bot needs is neither copied nor hashed.  Everything else is:
# a student's vendored node_modules, or classes shipped in out/, may be what the bot runs.
# (A .venv cannot run from a copy: its interpreter links lead out of the folder.)
NOT_COPIED = NOT_HASHED  # what a copy leaves out is what a version does not count


class WorkFolderFull(Exception):
    """A submission could not be copied for want of room in the work folder: the referee's
    failure, not the student's."""


NO_ROOM = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def copy_file(src: str, dst: str) -> None:
    """shutil.copy2, with a full disk (or quota) told apart from a file that cannot be read."""
    try:
        shutil.copy2(src, dst)
    except OSError as exc:
        if exc.errno in NO_ROOM:
            raise WorkFolderFull(f"cannot copy {src} into {dst}: {exc.strerror}") from None
        raise


def writable_folders(path: Path) -> None:
    """Give the owner every right on each folder under `path` (and on it), never following a
    link: copytree copies a read-only folder's mode, and builds make some (Go's module
    cache), which then could not be changed or removed."""
    os.chmod(path, os.lstat(path).st_mode | 0o700)
    for folder, dirs, _files in os.walk(path):
        for name in dirs:
            sub = os.path.join(folder, name)
            if not os.path.islink(sub):  # os.walk lists links to folders here too
                os.chmod(sub, os.lstat(sub).st_mode | 0o700)


def remove_copy(path: Path) -> None:
    """Remove a submission's copy (even with read-only folders); nothing if there is none."""
    if os.path.islink(path) or path.is_file():
        path.unlink()
    elif path.exists():
        writable_folders(path)
        shutil.rmtree(path)


def no_room(why: str) -> bool:
    """Whether one of shutil.Error's reasons (str of an OSError) is a full disk or quota."""
    found = re.match(r"\[Errno (\d+)\]", why)
    return found is not None and int(found.group(1)) in NO_ROOM


def shown_size(size: int) -> str:
    """A measured size in words: 1.5 GiB, 300.2 MiB, 12 KiB."""
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= unit:
            return f"{size / unit:.1f} {name}".replace(".0 ", " ")
    return f"{size} bytes"


def size_above(size: int) -> str:
    """A `submission_size` that takes `size` bytes: in whole GiB from 1 GiB up, else MiB."""
    unit, name = ((1 << 30), "G") if size > (1 << 30) else ((1 << 20), "M")
    return f"{-(-size // unit)}{name}"


def too_large(folder: Path, limits: SizeLimits) -> tuple[str | None, str, str]:
    """(why the submission is too large to copy, or None; if so, a digest for the next run,
    and the limit it is over and by how much, for the teacher).

    Counted as a copy makes them: every file, folder and link is an entry (an inode of the
    work disk, which a full disk takes from the whole class); a sparse file counts in full
    (`truncate -s 1T` takes no room in the submission and fills the work disk in its copy); a
    link to a file in a folder that is not copied counts as that file.  Nothing is read, and
    the walk stops past the entries' limit, so that a huge submission costs little.  The
    digest is of the names, sizes and times seen and of the limits, so that a change of
    either grades the submission again."""
    root = os.path.realpath(folder)
    h = hashlib.sha256(f"sizes {limits}\0".encode())
    total = entries = 0
    largest: list[tuple[int, str]] = []
    over_entries = False
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in NOT_COPIED)
        for name in sorted(files) + dirs:
            entries += 1
            if limits.entries is not None and entries > limits.entries:
                over_entries = True
                break
            path = os.path.join(here, name)
            rel = os.path.relpath(path, folder)
            try:
                info = os.lstat(path)
                if stat.S_ISLNK(info.st_mode):
                    real = os.path.realpath(path)
                    if inside_not_hashed(real, root):  # copied as its file
                        info = os.stat(real)
            except OSError:
                continue  # the copy says what cannot be read
            h.update(f"{rel}\0{info.st_mode:o}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
            if stat.S_ISREG(info.st_mode):
                total += info.st_size
                largest = sorted([*largest, (info.st_size, rel)], reverse=True)[:3]
        if over_entries:
            break
    if over_entries:
        return (f"your submission has more than {limits.entries:,} files, folders and links, "
                "too many to copy and grade (the limit is `submission_files` in the grading "
                "config's [limits]); remove what your bot does not need to run (build outputs, "
                "dependencies it can do without, data), or ask your teacher to raise the "
                "limit"), h.hexdigest(), (
                f"it has more than {limits.entries:,} files, folders and links (the limit); to "
                "grade it, raise `submission_files` in the grading config's [limits] above its "
                "count (\"off\": no limit) and run again")
    if limits.bytes is not None and total > limits.bytes:
        named = ", ".join(f"`{rel}` ({shown_size(size)})" for size, rel in largest)
        return (f"your submission is too large to copy and grade: its files come to "
                f"{shown_size(total)}, over the limit of {shown_size(limits.bytes)} "
                f"(`submission_size` in the grading config's [limits]); the largest are "
                f"{named}. A sparse file counts at its full size, as its copy would take "
                "it. Remove what your bot does not need to run (build outputs, data), or ask "
                "your teacher to raise the limit"), h.hexdigest(), (
                f"its files come to {shown_size(total)}, over the limit of "
                f"{shown_size(limits.bytes)}; to grade it, raise `submission_size` in the "
                f"grading config's [limits] (`submission_size = \"{size_above(total)}\"` takes "
                "it; \"off\": no limit) and run again")
    return None, "", ""


@dataclass
class Submission:
    student: str
    path: Path
    command: str | None
    build: str | None
    problem: str | None  # why no bot could be found, if so
    digest: str
    over_limit: str | None = None  # the size limit it is over, by how much (for the teacher)
    # Whom its feedback's heading names: None for its folder's name (`student`); on a course
    # platform, whose folder's name is its own (`submission`, `student`), the name it was
    # given (`--name`, Gradescope's metadata), or "" for no one.
    heading: str | None = None


def find_bot(folder: Path) -> tuple[str | None, str | None, str | None]:
    """(command, build, problem) for one submission folder: a wrong `bot.toml` is this
    student's problem, not the class's.  An empty folder is told it is empty and what to
    hand in, rather than to add a `bot.toml` (as if its bot's files were there)."""
    try:
        found = read_bot_folder(folder)
    except BotFolderError as exc:
        return None, None, EMPTY_FOLDER if is_empty(folder) else str(exc)
    return found.command, found.build, None


_NAMES = [name for name, _, _ in CONVENTIONS]
EMPTY_FOLDER = ("no bot found: your folder is empty (no files): hand in your bot's source "
                f"files, and a {MANIFEST} (command, build) unless one of them is "
                + ", ".join(_NAMES[:-1]) + f" or {_NAMES[-1]}")


def is_empty(folder: Path) -> bool:
    """Whether `folder` holds nothing at all (not even a hidden file); one that cannot be
    looked into is not said to be empty."""
    try:
        with os.scandir(folder) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def discover(root: Path, limits: SizeLimits = SizeLimits()) -> list[Submission]:  # noqa: B008
    """Every submission under `root`, by student: each folder, and each archive handed in
    in place of one (`handed_in_archives`, a submission with no bot); one over the `limits`
    has that as its problem, and is neither read nor copied."""
    found = [submission_at(folder, limits)
             for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name not in SKIP)]
    found += [archive_submission(root / name, student)
              for name, student in handed_in_archives(root).items()]
    return sorted(found, key=lambda s: s.student)


# What a student may hand in in place of a folder: an archive of one.
ARCHIVES = (".zip", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar", ".7z", ".rar")


def archive_student(name: str) -> str | None:
    """The student an archive handed in stands for (`alice.zip`: alice), or None for a file
    that is no archive."""
    suffix = next((a for a in ARCHIVES if name.lower().endswith(a)), None)
    return None if suffix is None or len(name) == len(suffix) else name[:-len(suffix)]


def handed_in_archives(root: Path) -> dict[str, str]:
    """The archives directly under `root` that stand for a student (file name: student): not
    hidden, and no folder of that student beside them (then the folder is graded, the archive
    is a loose file); of two archives of one student, the first by name."""
    taken = {p.name for p in root.iterdir() if p.is_dir()} | SKIP
    found: dict[str, str] = {}
    for name in sorted(n for n in os.listdir(root) if not n.startswith(".")):
        student = archive_student(name)
        if student is not None and student not in taken and not (root / name).is_dir():
            taken.add(student)
            found[name] = student
    return found


def archive_submission(path: Path, student: str) -> Submission:
    """A student who handed in an archive: no bot found, and why.  It is not unpacked:
    grading takes folders as handed in, and an archive can hold anything (links out, paths
    with `..`, a bomb); the teacher unpacks it, or the student hands in its files."""
    try:
        info = os.stat(path)
        digest = hashlib.sha256(f"archive {path.name}\0{info.st_size}\0{info.st_mtime_ns}"
                                .encode()).hexdigest()
    except OSError:
        digest = ""
    problem = (f"no bot found: you handed in {path.name}, an archive, not a folder of "
               "files, and grading does not unpack archives: hand in the files themselves (a "
               "bot.toml, or bot.py or another file of the conventions, at the top)")
    return Submission(student, path, None, None, problem, with_problem(digest, problem))


def loose_files(root: Path) -> list[str]:
    """The files directly under `root` (not hidden) that stand for no student: each has a
    folder, or an archive in its place (`handed_in_archives`)."""
    archives = handed_in_archives(root)
    return sorted(p.name for p in root.iterdir()
                  if not p.name.startswith(".") and not p.is_dir() and p.name not in archives)


def submission_at(folder: Path, limits: SizeLimits = SizeLimits(),  # noqa: B008
                  student: str | None = None) -> Submission:
    """The submission in `folder`, named `student` (by default after the folder)."""
    student = student or folder.name
    problem, digest, over = too_large(folder, limits)
    if problem is not None:
        return Submission(student, folder, None, None, problem, with_problem(digest, problem),
                          over)
    try:
        command, build, problem = find_bot(folder)
    except OSError as exc:  # a folder that cannot be looked into: that student's problem
        command, build, problem = None, None, f"cannot read {folder.name}/: {exc.strerror}"
    return Submission(student, folder, command, build, problem,
                      with_problem(folder_digest(folder), problem))


def with_problem(digest: str, problem: str | None) -> str:
    """The digest of a submission with no bot to run, the words of its problem in it: a run
    again keeps a grade while the digest stays the same, and those words can change where the
    files' digest does not (an empty folder given an empty folder, or a `.git`, is no longer
    empty; a referee that words it anew), so that a kept feedback told what no longer held.
    Grading such a submission again runs nothing."""
    if problem is None:
        return digest
    return hashlib.sha256(f"{digest}\0problem\0{problem}".encode()).hexdigest()


def unusable(path: Path, root: Path) -> str | None:
    """Why `path` cannot be copied as a file or a folder (None if it can): a dangling or looping
    symlink, a named pipe or device, a symlink to a folder that contains it, or a symlink out
    of the submission `root` (a real path).  Following such an entry would fail, never end, or
    copy the teacher's own files (`ln -s /usr big`); one student's stray link must not stop
    the run."""
    link = os.path.islink(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if link:
            return f"a symlink to {os.readlink(path)} that cannot be followed ({exc.strerror})"
        return f"cannot be read ({exc.strerror})"
    if link and not Path(os.path.realpath(path)).is_relative_to(root):
        return f"a symlink to {os.readlink(path)}, outside the submission's folder"
    if stat.S_ISDIR(mode):
        loop = link and Path(os.path.realpath(path.parent)).is_relative_to(os.path.realpath(path))
        return "a symlink to a folder that contains it (a loop)" if loop else None
    return None if stat.S_ISREG(mode) else "not a file or a folder (a named pipe, socket or device)"


def fresh_copy(submission: Submission, work: Path) -> tuple[Path, list[str]]:
    """The submission copied into its own working directory, the copy of a previous run gone,
    and a line for each entry left out because it cannot be copied (see `unusable`).  The copy
    stands alone (in the sandbox too): a symlink stays a link, made relative, to what it leads
    to in the copy (node_modules/.bin, or a script that finds its files from where it really
    is); a link to a file in a folder that is not copied becomes a copy of it, a link to such
    a folder is left out.  shutil.Error if a file that looked usable still cannot be copied;
    WorkFolderFull if `work` has no room."""
    target = work / submission.student
    remove_copy(target)
    skipped: list[str] = []
    root = Path(os.path.realpath(submission.path))

    def ignore(folder: str, names: list[str]) -> set[str]:
        here = Path(folder)
        left_out = {n for n in names if n in NOT_COPIED}
        for name in sorted(set(names) - left_out):
            why = unusable(here / name, root)
            if why is not None:
                left_out.add(name)
                at = here / name  # under the submission, or (through a link) its real path
                shown = at.relative_to(root if at.is_relative_to(root) else submission.path)
                skipped.append(f"`{shown}`: {why}")
        return left_out

    try:
        shutil.copytree(submission.path, target, symlinks=True, ignore=ignore,
                        copy_function=copy_file)
        relink(submission.path, root, target, skipped)
    except shutil.Error as exc:  # entries (source, copy, str(OSError)): mkdir, symlink, ...
        if any(no_room(why) for _src, _dst, why in exc.args[0]):
            remove_copy(target)
            raise WorkFolderFull(f"cannot copy {submission.path} into {target}: no room "
                                 "left") from None
        raise
    except (WorkFolderFull, OSError) as exc:
        remove_copy(target)  # the room it takes, on a full disk
        if isinstance(exc, OSError) and exc.errno in NO_ROOM:
            raise WorkFolderFull(f"cannot copy {submission.path} into {target}: "
                                 f"{exc.strerror}") from None
        raise
    return target, skipped


def relink(source: Path, root: Path, copy: Path, skipped: list[str]) -> None:
    """Make each link of a fresh copy of `source` (whose real path is `root`) a relative link
    to what it leads to in the copy; a link into a folder that is not copied becomes a copy
    of the file it leads to, or, to a folder there, is left out (a line in `skipped`: its own
    links could loop or lead anywhere).  The copy's folders are made writable first (copytree
    copies a read-only folder's mode).  shutil.Error lists the files that cannot be read."""
    writable_folders(copy)
    links = [Path(folder, name) for folder, dirs, files in os.walk(copy)
             for name in dirs + files if os.path.islink(os.path.join(folder, name))]
    errors = []
    for link in links:
        leads_to = Path(os.path.realpath(source / link.relative_to(copy)))
        inside = leads_to.relative_to(root)  # `unusable` left out the links that lead out
        link.unlink()
        not_copied = inside_not_hashed(str(leads_to), str(root))
        if not_copied is None:
            link.symlink_to(os.path.relpath(copy / inside, link.parent))
        elif leads_to.is_dir():
            skipped.append(f"`{link.relative_to(copy)}`: a symlink to a folder in "
                           f"{not_copied}, which is not copied")
        else:
            try:
                copy_file(str(leads_to), str(link))
            except OSError as exc:
                errors.append((str(source / link.relative_to(copy)), str(link), str(exc)))
    if errors:
        raise shutil.Error(errors)
