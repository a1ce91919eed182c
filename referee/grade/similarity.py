"""Which submissions look alike: each one against every other, the sample bots and the
baselines, by winnowed fingerprints of their tokens (MOSS's method: Schleimer, Wilkerson and
Aiken, "Winnowing: local algorithms for document fingerprinting", SIGMOD 2003).

Pygments tokenises each source file; comments and whitespace are dropped and every identifier,
string and number becomes one placeholder, so that renaming variables, rewriting comments or
re-indenting changes nothing.  The hashes of all K-token runs are winnowed (the least in every
window of WINDOW) into a submission's fingerprints; how much of one submission's fingerprints
another holds is their similarity.  It flags, it never grades (docs/grading.md, Copies found).

Two students are compared on their own code only, as MOSS's "base code" option does: a
fingerprint of a run of tokens found in any sample bot or baseline (the kit the class was given)
is left out of both, so that two students who started from the same sample are not alike for it.
"""

from __future__ import annotations

import hashlib
import os
import stat
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache, lru_cache, partial
from pathlib import Path

import pygments
from pygments.lexer import Lexer
from pygments.lexers import find_lexer_class, get_all_lexers
from pygments.token import Comment, Literal, Name, String, Text, _TokenType, is_token_subtype

from .fingerprint_store import FileIds, FingerprintStore
from .submissions import NOT_COPIED

K = 12  # tokens in a hashed run: shorter runs are common to any two programs in a language
WINDOW = 8  # every run shared over K + WINDOW - 1 tokens or more yields a shared fingerprint
MIN_FINGERPRINTS = 10  # fewer (some ten lines of code) is too little to tell a copy by
# Fingerprints not from the kit that two students must have in common for their pair to count:
# some ten lines of code (a line gives about two; sample_bots/python/baseline_bot.py, 148 lines,
# gives 315).  Four lines added to a sample give some ten fingerprints of the student's own,
# the edges of the change included, and two students who made a like change at the same place
# share a few of them; twenty takes more than a coincidence or a shared one-line fix, so that a
# student with a few fingerprints of their own is never 100% like another for a handful.
MIN_SHARED = 20
MAX_BYTES = 1 << 20  # of source read per submission: a bot's code is far less
MAX_FILE_BYTES = 256 << 10  # a larger file is taken as vendored or generated, and not read
MAX_ENTRIES = 10_000  # files and folders looked at per submission
# Folders of build outputs and dependencies, and of what a copy leaves out: not the student's.
NOT_READ = NOT_COPIED | {"node_modules", "target", "build", "out", "bin", "obj", "dist"}
# Pygments' lexers of documents, data, settings and build files (Markdown, JSON, TOML,
# Makefile, ...): the bot's code is compared, not its README or bot.toml.
NOT_CODE = {"special", "markup", "data", "configs", "make", "html", "textfmts", "textedit"}
SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"


def _code_digest() -> str:
    """This module's source, digested: every rule of how a file is read as ids (`lexer_for`,
    `placeholder`, `token_ids`, `literal_ids`, K, WINDOW, NOT_CODE) is written here, so any
    edit to it leaves the ids stored by the referee before it behind (a version number bumped
    by hand would, once forgotten, keep the old ids: another similarity than a fresh run's)."""
    try:
        return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    except OSError:  # only bytecode installed: the referee's version stands for its source
        from referee import __version__

        return f"version {__version__}"


# What a file's ids (`_file_ids`) depend on besides its name and text, under which OUT's
# fingerprints.json keeps them (`FingerprintStore`): this module's code, pygments' lexers, and
# Python's hash of a tuple of ints (a run's hash: the same in every process of one Python).
METHOD = (f"code {_code_digest()} pygments {pygments.__version__} "
          f"tuple hash {hash((1, 2, 3))}")
FINGERPRINTS = "fingerprints.json"  # the store's name in OUT
Token = tuple[_TokenType, str]  # a token of pygments' and its text


@dataclass(frozen=True)
class SourceFile:
    path: str  # relative to its submission or reference folder
    text: str


@dataclass(frozen=True)
class Fingerprinted:
    """A submission or a reference, as compared: the files read and their fingerprints."""

    name: str  # the student, or the reference's path (sample_bots/python/random_bot.py)
    reference: bool
    files: tuple[str, ...]
    fingerprints: frozenset[int]
    literal: tuple[int, ...] = ()  # its tokens with the values kept (`literal_ids`)
    runs: frozenset[int] = frozenset()  # of a reference, the hash of every K-token run in it


@dataclass(frozen=True)
class Pair:
    """Two compared bots, the first a student: the share of each one's fingerprints that the
    other holds (a copy holds all of its source's; a source, some of a larger copy's).  Of two
    students, the shares of their own fingerprints, those not from the kit (`own`)."""

    first: str
    second: str
    reference: bool  # the second is a sample bot or a baseline
    first_in_second: float
    second_in_first: float
    shared: int = 0  # the fingerprints both hold (of two students, of their own)

    @property
    def score(self) -> float:
        return max(self.first_in_second, self.second_in_first)


@dataclass(frozen=True)
class Closest:
    """A student's most similar other bot: how much of the student's code it holds (of all of
    it for a sample bot or baseline; of its own, not from the kit, for another student)."""

    other: str
    share: float


@dataclass(frozen=True)
class Similarity:
    closest: dict[str, Closest]  # students with enough code to compare, and something alike
    pairs: list[Pair]  # two students with MIN_SHARED own fingerprints in common, most alike first
    kit: list[Pair]  # every student with every reference, the most similar first
    too_little: list[str]  # students with too little code to compare (none, or a few lines)
    students: list[Fingerprinted]
    references: list[Fingerprinted]
    own: dict[str, int]  # each compared student's fingerprints not from the kit

    def started_from(self, threshold: float) -> dict[str, list[Pair]]:
        """The students grouped by the reference that holds the largest share of their code,
        where it holds at least `threshold` (the first in `kit` on a tie), each group the most
        similar first."""
        groups: dict[str, list[Pair]] = {}
        seen: set[str] = set()
        for pair in self.kit:  # the most similar first: a student's first is its largest
            if pair.first not in seen and pair.first_in_second >= threshold:
                groups.setdefault(pair.second, []).append(pair)
            seen.add(pair.first)
        return dict(sorted(groups.items()))


def is_code(lexer: Lexer) -> bool:
    return type(lexer).__module__.rsplit(".", 1)[-1] not in NOT_CODE


@cache
def builtin_lexers() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Pygments' own lexers (name, file name patterns), not those other installed packages
    add: the same files are compared wherever the referee is installed, and IPython's, found
    through its entry points, would import IPython (a quarter of a second of each grading)."""
    return tuple((name, tuple(patterns)) for name, _, patterns, _ in get_all_lexers(False))


def lexer_class(name: str) -> type[Lexer]:
    found = find_lexer_class(name)  # a builtin lexer's name is found before any plugin's
    assert found is not None, name
    return found


@cache
def builtin_lexer_classes() -> tuple[type[Lexer], ...]:
    return tuple(lexer_class(name) for name, _ in builtin_lexers())


def lexer_for(path: str, text: str) -> Lexer | None:
    """The lexer for a source file, by its name (and, where a name fits several languages,
    as `.pl` Perl and Prolog do, by its text); None for a file that is not code.  As
    pygments' `guess_lexer_for_filename`, over its builtin lexers."""
    name = os.path.basename(path)
    primary: dict[type[Lexer], bool] = {}  # by a pattern of its own, or only an alias's
    for cls in builtin_lexer_classes():
        if any(fnmatchcase(name, pattern) for pattern in cls.filenames):
            primary[cls] = True
        if any(fnmatchcase(name, pattern) for pattern in cls.alias_filenames):
            primary[cls] = False
    if not primary:
        return None
    if len(primary) == 1:
        return keep_code(next(iter(primary))())
    rated = {cls: cls.analyse_text(text) for cls in primary}  # 1.0: certainly this language
    best = max(primary, key=lambda cls: (rated[cls] == 1.0, rated[cls], primary[cls],
                                         cls.priority, cls.__name__))
    return keep_code(best())


def keep_code(lexer: Lexer) -> Lexer | None:
    return lexer if is_code(lexer) else None


def literal_ids(tokens: Sequence[Token]) -> list[int]:
    """A file's tokens with every identifier one placeholder and comments, whitespace and
    docstrings dropped, but strings and numbers kept: equal for a copy whose names and
    comments alone were changed, unequal for one whose values or code were."""
    ids: list[int] = []
    for token, value in tokens:
        shown = placeholder(token)
        if shown in ("S", "0"):
            shown = None
        shown = value.strip() if shown is None else shown
        if shown:
            ids.append(zlib.crc32(shown.encode()))
    return ids


@cache
def placeholder(token: _TokenType) -> str | None:
    """What a kind of token is compared as: `N` for every identifier, `S` for every string
    (or a piece of one), `0` for every number, "" for a token dropped (comments, whitespace,
    docstrings), None for one compared as it is (keywords, operators, punctuation, and a C
    preprocessor line, which is a comment to pygments)."""
    def kind(*kinds: _TokenType) -> bool:
        return any(is_token_subtype(token, k) for k in kinds)

    if kind(Comment.Preproc, Comment.PreprocFile):
        return None
    if kind(Comment, Text, String.Doc):
        return ""
    if kind(Name):
        return "N"
    if kind(String):
        return "S"
    return "0" if kind(Literal.Number) else None


def token_ids(tokens: Sequence[Token]) -> list[int]:
    """A file's tokens as compared (`placeholder`), each a number; the pieces of a string
    make one `S`."""
    ids: list[int] = []
    previous = ""
    for token, value in tokens:
        shown = placeholder(token)
        if shown is None:
            shown = value.strip()
        if not shown or shown == previous == "S":
            continue
        ids.append(zlib.crc32(shown.encode()))
        previous = shown
    return ids


def run_hashes(ids: Sequence[int], k: int = K) -> list[int]:
    """The hash of each `k`-token run, in order.  Hashing a tuple of ints does not depend on
    PYTHONHASHSEED, so a run's figures are the next run's."""
    return [hash(tuple(ids[i:i + k])) for i in range(len(ids) - k + 1)]


def winnow(ids: Sequence[int], k: int = K, window: int = WINDOW) -> set[int]:
    """The fingerprints of one token sequence: the least hash of each `window` consecutive
    hashes of `k`-token runs."""
    return winnowed(run_hashes(ids, k), window)


def winnowed(hashes: Sequence[int], window: int = WINDOW) -> set[int]:
    if len(hashes) <= window:
        return {min(hashes)} if hashes else set()
    return {min(hashes[i:i + window]) for i in range(len(hashes) - window + 1)}


def tokens_of(file: SourceFile) -> list[Token] | None:
    """The tokens of a code file, None for a file that is not code (`lexer_for`)."""
    lexer = lexer_for(file.path, file.text)
    return None if lexer is None else list(lexer.get_tokens(file.text))


def may_be_code(path: str) -> bool:
    """Whether a file's name is one of a language's (read only then): by name alone, a
    `.pl` may still turn out Prolog rather than Perl, which `lexer_for` tells.  As pygments'
    `find_lexer_class_for_filename`, over its builtin lexers (only the matching imported)."""
    return _code_name(os.path.basename(path))


@lru_cache(maxsize=1024)
def _code_name(name: str) -> bool:
    """`may_be_code` of a file name, matched once: a class's submissions share their names
    (`bot.py`, `bot.toml`), and each match tries every pattern of some 600 lexers."""
    matches = [(lexer_class(lexer), pattern) for lexer, patterns in builtin_lexers()
               for pattern in patterns if fnmatchcase(name, pattern)]
    if not matches:
        return False
    best, _ = max(matches, key=lambda m: (m[0].priority + ("*" not in m[1]) * 0.5,
                                          m[0].__name__))
    return best.__module__.rsplit(".", 1)[-1] not in NOT_CODE


def read_file(path: Path, shown: str, budget: int) -> SourceFile | None:
    """A regular file (never through a link) of at most MAX_FILE_BYTES and `budget`, as text,
    if its name is a language's; None for a binary (a NUL byte) or what cannot be read."""
    try:
        info = os.lstat(path)
        if (not stat.S_ISREG(info.st_mode) or info.st_size > min(MAX_FILE_BYTES, budget)
                or not may_be_code(shown)):
            return None
        with open(path, "rb") as f:
            data = f.read(info.st_size)
    except OSError:
        return None
    return None if b"\0" in data else SourceFile(shown, data.decode("utf-8", "replace"))


def read_files(candidates: list[tuple[Path, str]]) -> list[SourceFile]:
    """The candidates (path, path as shown) that may be code, in the order shown, up to
    MAX_BYTES in all."""
    files: list[SourceFile] = []
    budget = MAX_BYTES
    for path, shown in sorted(candidates, key=lambda c: c[1]):
        file = read_file(path, shown, budget)
        if file is not None:
            files.append(file)
            budget -= len(file.text.encode())
    return files


def read_folder(folder: Path) -> list[SourceFile]:
    """The files of a submission or reference folder that may be code (`read_files`).  Links
    are not followed, folders of build outputs and dependencies (NOT_READ) not entered, and
    no more than MAX_ENTRIES files looked at."""
    candidates: list[tuple[Path, str]] = []
    for here, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in NOT_READ)
        candidates += [(Path(here, n), os.path.relpath(Path(here, n), folder))
                       for n in sorted(names)]
        if len(candidates) >= MAX_ENTRIES:
            break
    return read_files(candidates[:MAX_ENTRIES])


def fingerprinted(name: str, reference: bool, files: list[SourceFile],
                  store: FingerprintStore | None = None) -> Fingerprinted:
    """A bot's fingerprints (those of each of its code files; others are skipped) and its
    tokens with their values, each file lexed once (lexing is most of the time it takes), or
    taken from the `store` of an earlier run; of a reference, also the hash of its every run
    (what is left out of two students' comparison)."""
    found: set[int] = set()
    literal: list[int] = []
    runs: set[int] = set()
    compute: Callable[[SourceFile], FileIds | None] = _reference_ids if reference else _file_ids
    for file in files:
        ids = compute(file) if store is None else store.ids(
            os.path.basename(file.path), file.text, partial(compute, file))
        if ids is not None:
            found |= ids[0]
            literal += ids[1]
            if reference:
                runs |= ids[2]
    return Fingerprinted(name, reference, tuple(f.path for f in files), frozenset(found),
                         tuple(literal), frozenset(runs))


def _file_ids(file: SourceFile) -> FileIds | None:
    """One code file's fingerprints, literal token ids and run hashes (None: not code)."""
    tokens = tokens_of(file)
    if tokens is None:
        return None
    hashes = run_hashes(token_ids(tokens))
    return frozenset(winnowed(hashes)), tuple(literal_ids(tokens)), frozenset(hashes)


# A reference's files, kept for the process: every grading run of a process reads the same
# sample bots (a few dozen files; students' files, which do not repeat, are not kept).
_reference_ids = lru_cache(maxsize=256)(_file_ids)


def share(of: Fingerprinted, other: Fingerprinted) -> float:
    return len(of.fingerprints & other.fingerprints) / len(of.fingerprints)


def own_part(student: Fingerprinted, kit: frozenset[int]) -> Fingerprinted:
    """The student with only its own fingerprints: those of no run found in the kit."""
    return Fingerprinted(student.name, False, student.files, student.fingerprints - kit)


def student_pair(a: Fingerprinted, b: Fingerprinted) -> Pair | None:
    """Two students (their `own_part`s) as a pair, if they have MIN_SHARED fingerprints of
    their own in common."""
    shared = len(a.fingerprints & b.fingerprints)
    if shared < MIN_SHARED:
        return None
    return Pair(a.name, b.name, False, shared / len(a.fingerprints),
                shared / len(b.fingerprints), shared)


def compare(students: Sequence[Fingerprinted],
            references: Sequence[Fingerprinted]) -> Similarity:
    """Each student against every reference, on all of its code, and against every other
    student, on its own code (`own_part`; pairs with fewer than MIN_SHARED such fingerprints in
    common are left out).  A student's closest is the other student holding the largest share
    of its own code if that share is larger than the largest share of all of its code that a
    reference holds; else that reference (where most of its code comes from)."""
    compared = [s for s in students if len(s.fingerprints) >= MIN_FINGERPRINTS]
    kit = frozenset().union(*(r.runs | r.fingerprints for r in references))
    own = [own_part(s, kit) for s in compared]
    kit_pairs = [Pair(s.name, r.name, True, share(s, r), share(r, s),
                      len(s.fingerprints & r.fingerprints))
                 for s in compared for r in references]
    # The most similar first; on a tie, in the students' and the references' order.
    kit_pairs.sort(key=lambda p: (-p.first_in_second, -p.second_in_first))
    pairs = [p for i, a in enumerate(own) for b in own[i + 1:]
             if (p := student_pair(a, b)) is not None]
    pairs.sort(key=lambda p: (-p.score, -p.shared, p.first, p.second))
    closest: dict[str, Closest] = {}
    for pair in kit_pairs:  # the most similar first
        closest.setdefault(pair.first, Closest(pair.second, pair.first_in_second))
    for pair in pairs:
        for student, other, held in ((pair.first, pair.second, pair.first_in_second),
                                     (pair.second, pair.first, pair.second_in_first)):
            if student not in closest or held > closest[student].share:
                closest[student] = Closest(other, held)
    names = {s.name for s in compared}
    return Similarity(closest, pairs, kit_pairs,
                      [s.name for s in students if s.name not in names], list(students),
                      list(references), {s.name: len(s.fingerprints) for s in own})
