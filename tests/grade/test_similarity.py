"""Copies found: `referee grade` compares every submission with the others, the sample bots
and the baselines, and tells the teacher (grades.csv, similarity.md), never the student."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import tokenize
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.grade.similarity import (
    SourceFile,
    common_subsequence,
    compare,
    fingerprinted,
    read_folder,
    reference_bots,
    share,
)
from referee.tournament.config import Grading, load_tournament

from ..processes import BOT_PYTHON
from .test_grade import ROOT, SAMPLES, grade, grade_here

RANDOM = "sample_bots/python/random_bot.py"
THRESHOLD = Grading().similarity_threshold
RENAMED = {"rng": "chooser", "decision": "wanted", "legal": "allowed", "low": "lo",
           "high": "hi", "top": "ceiling", "message": "msg", "kind": "mtype", "bot": "player",
           "RandomBot": "Gambler", "decide": "answer", "new_game": "begin", "log": "note",
           "send": "emit", "prefix": "pre", "raw": "line", "parser": "cli", "args": "opts",
           "cards": "hand"}


def disguised_random_bot() -> str:
    """The random sample with its variables, functions and class renamed, every comment and
    docstring rewritten, and its spacing changed (tokens put back together loosely)."""
    source = (SAMPLES / "python" / "random_bot.py").read_text()
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        kind, text = tok.type, tok.string
        if kind == tokenize.NAME:
            text = RENAMED.get(text, text)
        elif kind == tokenize.STRING and text.startswith("f"):  # names in its {}
            text = re.sub(r"\{[^}]*\}", lambda braces: re.sub(
                r"\b\w+\b", lambda m: RENAMED.get(m.group(), m.group()), braces.group()), text)
        elif kind == tokenize.COMMENT:
            text = "# my own note"
        elif kind == tokenize.STRING and text.startswith('"""'):
            text = '"""Written by me."""'
        out.append((kind, text))
    return tokenize.untokenize(out)


def config_for(folder: Path, threshold: float | None = None) -> Path:
    random_bot = SAMPLES / "python" / "random_bot.py"
    path = folder / "class.toml"
    path.write_text('''
name = "class"
seed = 5
table_size = 3
format = "gauntlet"
baselines = ["random-1", "random-2"]
deals = 1
seat_orders = "rotations"
[limits]
move_time = 0.5
startup_time = 5
[grading]
otherwise = "C"
''' + ("" if threshold is None else f"similarity_threshold = {threshold}\n") + "".join(f'''
[[bots]]
name = "random-{i}"
command = "{BOT_PYTHON} {random_bot} --seed {i}"
''' for i in (1, 2)))
    return path


def flagged(report: str) -> list[str]:
    """The pairs similarity.md lists above its threshold, one line each."""
    section = report.split("## Pairs at or above", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("- ")]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None or shutil.which("perl") is None,
                    reason="node or perl is missing")
def test_a_disguised_copy_of_the_random_sample_is_flagged_for_the_teacher(
        tmp_path: Path) -> None:
    """A copy of the random sample with renamed variables and new comments is most similar
    to the random sample, above the threshold, and listed in similarity.md; the JavaScript
    and Perl samples are not flagged as alike; no feedback file mentions similarity; a change
    of threshold changes what is listed but grades no one again and changes no grade."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    for student, name, content in [
        ("mallory", "bot.py", disguised_random_bot()),
        ("bob", "bot.js", (SAMPLES / "javascript" / "bot.js").read_text()),
        ("carol", "bot.pl", (SAMPLES / "perl" / "bot.pl").read_text()),
    ]:
        (subs / student).mkdir(parents=True)
        (subs / student / name).write_text(content)
    done = grade(subs, config_for(tmp_path), out, workers=2)
    assert done.returncode == 0, done.stderr
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert rows["mallory"]["status"] == "ok"
    assert rows["mallory"]["most_similar"] == RANDOM
    assert float(rows["mallory"]["similarity"]) >= max(THRESHOLD, 0.9)
    assert rows["bob"]["most_similar"] == "sample_bots/javascript/bot.js"
    assert rows["carol"]["most_similar"] == "sample_bots/perl/bot.pl"

    report = (out / "similarity.md").read_text()
    pairs = flagged(report)
    assert [p for p in pairs if p.startswith(f"- **mallory** and **{RANDOM}** (a sample bot")]
    assert not [p for p in pairs if "bob" in p and "carol" in p]
    for path in (out / "feedback").rglob("*"):
        if path.is_file():
            text = path.read_text().lower()
            assert "similar" not in text and RANDOM not in text, path

    grades = {s: (r["status"], r["grade"], r["points"]) for s, r in rows.items()}
    again = grade_here(subs, config_for(tmp_path, threshold=0.0), out)
    assert again.returncode == 0 and again.stderr.count("unchanged") == 3
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert {s: (r["status"], r["grade"], r["points"]) for s, r in rows.items()} == grades
    assert [p for p in flagged((out / "similarity.md").read_text())
            if "bob" in p and "carol" in p]  # listed now: every pair is at or above 0


def test_no_two_sample_bots_look_alike() -> None:
    """The sample bots (and classroom.toml's baselines) in different languages, or the Python
    baseline and random bot, share far less code than the default threshold."""
    config = ROOT / "tournaments" / "classroom.toml"
    references = reference_bots(load_tournament(config), config)
    names = {r.name for r in references}
    assert {RANDOM, "sample_bots/python/baseline_bot.py", "sample_bots/javascript/bot.js",
            "sample_bots/perl/bot.pl", "sample_bots/c"} <= names
    for a, b in combinations(references, 2):
        assert share(a, b) < THRESHOLD / 2 and share(b, a) < THRESHOLD / 2, (a.name, b.name)


def test_a_student_matches_the_closest_bot_and_tiny_code_is_not_compared() -> None:
    """Each student's closest is the bot holding most of its code, the source before a fellow
    copier on a tie; a few lines are too little to compare."""
    original = (SAMPLES / "perl" / "bot.pl").read_text()
    source = fingerprinted("perl sample", True, [SourceFile("bot.pl", original)])
    reworked = "# mine\n" + original.replace("    ", "\t")
    ann = fingerprinted("ann", False, [SourceFile("bot.pl", reworked)])
    ben = fingerprinted("ben", False, [SourceFile("main.pl", original)])
    tim = fingerprinted("tim", False, [SourceFile("bot.py", "print('hello')\n")])
    found = compare([ann, ben, tim], [source])
    assert found.closest["ann"].other == found.closest["ben"].other == "perl sample"
    assert found.closest["ann"].share == 1.0
    assert found.too_little == ["tim"] and "tim" not in found.closest
    assert [(p.first, p.second) for p in found.pairs if p.score == 1.0] == [
        ("ann", "ben"), ("ann", "perl sample"), ("ben", "perl sample")]


def test_only_a_submissions_own_source_files_are_read(tmp_path: Path) -> None:
    """Code is read; notes, settings, binaries, build outputs, dependencies and links (which
    could lead out of the submission) are not."""
    sub = tmp_path / "sub"
    (sub / "src").mkdir(parents=True)
    (sub / "src" / "bot.py").write_text("print('hi')\n")
    (sub / "README.md").write_text("# My bot\n")
    (sub / "bot.toml").write_text('command = "python3 src/bot.py"\n')
    (sub / "tool.c").write_bytes(b"\x7fELF\0\0\0")  # a binary, whatever its name
    for folder in ("node_modules", "target", "__pycache__"):
        (sub / folder).mkdir()
        (sub / folder / "lib.js").write_text("var x = 1;\n")
    secret = tmp_path / "secret.py"
    secret.write_text("KEY = 1\n")
    os.symlink(secret, sub / "linked.py")
    assert [f.path for f in read_folder(sub)] == ["src/bot.py"]


def test_a_renamed_copy_is_told_apart_from_an_honest_change() -> None:
    """similarity.md says a copy with only its names, comments and layout changed is "the
    same as" its source, and a copy whose values and a few lines were changed is "derived"
    from it with the share of new code, although the fingerprints of both hold almost all
    of the source's code."""
    from referee.grade.similarity import relation

    source = (SAMPLES / "python" / "random_bot.py").read_text()
    tuned = source.replace("BID_CHANCE = 0.4", "BID_CHANCE = 0.55").replace(
        "HIDDEN_CAP = 30", "HIDDEN_CAP = 24").replace(
        "BID_SPREAD = 15", "BID_SPREAD = 12\nPATIENCE = 3  # rounds to wait")
    assert tuned.count("\n") == source.count("\n") + 1
    random_bot = fingerprinted(RANDOM, True, [SourceFile("random_bot.py", source)])
    renamed = fingerprinted("mallory", False, [SourceFile("bot.py", disguised_random_bot())])
    honest = fingerprinted("oscar", False, [SourceFile("bot.py", tuned)])
    assert share(renamed, random_bot) >= 0.9 and share(honest, random_bot) >= 0.9
    assert relation(renamed, random_bot).same
    changed = relation(honest, random_bot)
    assert not changed.same and 0 < changed.new < 0.05, changed
    from referee.grade.similarity import Similarity, compare
    from referee.grade.similarity_report import similarity_report

    found: Similarity = compare([renamed, honest], [random_bot])
    lines = flagged(similarity_report(found, THRESHOLD))
    assert any(ln.startswith(f"- **mallory** and **{RANDOM}**") and
               f"the same as {RANDOM} apart from names" in ln for ln in lines), lines
    assert any(ln.startswith(f"- **oscar** and **{RANDOM}**") and "derived from" in ln
               and "% of oscar's code new" in ln for ln in lines), lines


def test_of_two_students_the_one_that_added_code_is_said_to_be_derived() -> None:
    """Two students with the random bot, one of them with a function added: similarity.md
    says the one with the added code is derived from the other, in whichever order the two
    come, not the untouched copy from the changed one."""
    from referee.grade.similarity import compare
    from referee.grade.similarity_report import similarity_report

    source = (SAMPLES / "python" / "random_bot.py").read_text()
    added = source + ("\n\ndef crash_soon(count):\n    if count > 14:\n"
                      "        raise RuntimeError('deliberate crash at ' + str(count))\n"
                      "    return count + 1\n")
    for names in (("ann", "cid"), ("cid", "ann")):
        students = [fingerprinted(n, False, [SourceFile("bot.py",
                                                        added if n == "cid" else source)])
                    for n in names]
        lines = [ln for ln in flagged(similarity_report(compare(students, []), THRESHOLD))
                 if "**ann**" in ln and "**cid**" in ln]
        assert len(lines) == 1 and ": cid derived from ann or alike" in lines[0], lines


def longest_common_subsequence(a: list[int], b: list[int]) -> int:
    """The textbook table, row by row: the slow reference."""
    previous = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b):
            row.append(previous[j] + 1 if x == y else max(previous[j + 1], row[j]))
        previous = row
    return previous[-1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=40), st.lists(st.integers(0, 3), max_size=40))
def test_the_share_of_new_code_counts_the_longest_common_subsequence(
        a: list[int], b: list[int]) -> None:
    """"N% of its code new" counts the student's tokens outside the longest run of tokens both
    bots hold in the same order, exactly as the textbook table finds it."""
    assert common_subsequence(a, b) == longest_common_subsequence(a, b)
