"""Students graded before and no longer in the class's folder: named, taken out of the state,
and their files moved out of what a teacher hands out, never deleted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .feedback import FEEDBACK_TITLE
from .markdown import plain_or_code
from .result import StudentResult
from .similarity_report import PAIRS_HEADING
from .state import Spent


def _ours(path: Path) -> bool:
    """Whether a file of OUT/feedback is a student's feedback that grading wrote (not a
    teacher's own notes, never moved)."""
    try:
        with path.open("rb") as f:
            return f.read(len(FEEDBACK_TITLE)) == FEEDBACK_TITLE
    except OSError:
        return False


def set_aside_withdrawn(out: Path, root: Path, students: list[str],
                        known: dict[str, StudentResult], spent: dict[str, Spent],
                        say: Callable[[str], None]) -> bool:
    """Each student graded before (in the state, or with a feedback file) who is no longer
    among `students` (the folders of `root`): named in one line, taken out of the state, and
    their feedback file and game records moved out of OUT/feedback, which a teacher hands
    out, and their games' store out of OUT/games, to OUT/withdrawn (never deleted; under a
    new name if one is there).  Whether the state lost any."""
    feedback = out / "feedback"
    written = {p.name[:-3] for p in feedback.iterdir()
               if p.name.endswith(".md") and p.is_file() and _ours(p)}
    gone = sorted((set(known) | written) - set(students))
    for student in gone:
        known.pop(student, None)
        spent.pop(student, None)
        said = f"{student}: graded before, no longer in {root.name}/: left out of grades.csv"
        md, records = feedback / f"{student}.md", feedback / student
        store = out / "games" / f"{student}.db"
        if md.is_file() or records.is_dir() or store.is_file():
            aside, n = out / "withdrawn" / student, 1
            while any(p.exists() or p.is_symlink() for p in (aside, *(
                    aside.with_name(aside.name + end)
                    for end in (".md", ".db", ".db-wal", ".db-shm")))):
                n += 1
                aside = out / "withdrawn" / f"{student}-{n}"
            aside.parent.mkdir(exist_ok=True)
            moved = []
            if md.is_file():
                md.rename(aside.with_name(aside.name + ".md"))
                moved.append(f"its feedback moved to {aside}.md")
            if records.is_dir():
                records.rename(aside)
                moved.append(f"its game records {'' if moved else 'moved '}to {aside}/")
            if store.is_file():
                for suffix in ("", "-wal", "-shm"):  # a store stopped mid-write keeps these
                    part = store.with_name(store.name + suffix)
                    if part.exists():
                        part.rename(aside.with_name(aside.name + ".db" + suffix))
                moved.append(f"its games' store {'' if moved else 'moved '}to {aside}.db")
            said += "; " + ", ".join(moved)
        kept = _keep_similarity(out, student)
        if kept is not None:
            said += f"; the similarity.md that names it kept as {kept}"
        say(said)
    return bool(gone)


def _keep_similarity(out: Path, student: str) -> Path | None:
    """A copy of the last similarity.md, where one of its pairs names `student`, in
    OUT/withdrawn: the next one compares the class without the student, and a teacher whose
    copying pair was flagged found the flag gone with the student who withdrew."""
    report = out / "similarity.md"
    try:
        text = report.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    # Its pairs' lines only (`pair_line`: "- **ann** and **bob**: ..."), and the name as they
    # show it: a team "50" is not named by "at least 50%", nor a student "pair" by "Each pair".
    pairs = text.partition(PAIRS_HEADING)[2].partition("\n## ")[0]
    name = f"**{plain_or_code(student)}**"
    if not any(line.startswith("- **") and name in line
               for line in pairs.splitlines()):
        return None
    kept, n = out / "withdrawn" / f"{student}.similarity.md", 1
    while kept.exists() or kept.is_symlink():
        n += 1
        kept = out / "withdrawn" / f"{student}-{n}.similarity.md"
    kept.parent.mkdir(exist_ok=True)
    kept.write_text(text, encoding="utf-8")
    return kept
