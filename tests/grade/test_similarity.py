"""Copies found: `referee grade` compares every submission with the others, the sample bots
and the baselines, and tells the teacher (grades.csv, similarity.md), never the student.  Two
students are compared on their code not from the kit (the sample bots and baselines)."""

from __future__ import annotations

import csv
import hashlib
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

from referee.grade import similarity
from referee.grade.class_similarity import compare_class, reference_bots
from referee.grade.similarity import (
    FINGERPRINTS,
    MIN_SHARED,
    Similarity,
    SourceFile,
    Token,
    compare,
    fingerprinted,
    read_folder,
    share,
)
from referee.grade.similarity_report import (
    common_subsequence,
    percent,
    relation,
    similarity_report,
)
from referee.grade.submissions import discover
from referee.tournament.config import load_tournament
from referee.tournament.grading_table import Grading

from ..processes import BOT_PYTHON
from .test_grade import ROOT, SAMPLES, grade_here

RANDOM = "sample_bots/python/random_bot.py"
BASELINE = "sample_bots/python/baseline_bot.py"
THRESHOLD = Grading().similarity_threshold
RENAMED = {"rng": "chooser", "decision": "wanted", "legal": "allowed", "low": "lo",
           "high": "hi", "top": "ceiling", "message": "msg", "kind": "mtype", "bot": "player",
           "RandomBot": "Gambler", "decide": "answer", "new_game": "begin", "log": "note",
           "send": "emit", "prefix": "pre", "raw": "line", "parser": "cli", "args": "opts",
           "cards": "hand"}


def disguised_random_bot() -> str:
    """The random sample with its variables, functions and class renamed, every comment and
    docstring rewritten, and its spacing changed (tokens put back together loosely)."""
    return disguised((SAMPLES / "python" / "random_bot.py").read_text(), RENAMED)


def disguised(source: str, renamed: dict[str, str]) -> str:
    """Python source with the names in `renamed` renamed, every comment and docstring
    rewritten, and its spacing changed (tokens put back together loosely)."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        kind, text = tok.type, tok.string
        if kind == tokenize.NAME:
            text = renamed.get(text, text)
        elif kind == tokenize.STRING and text.startswith("f"):  # names in its {}, not
            text = re.sub(r"\{[^}]*\}", lambda braces: re.sub(  # the strings among them
                r"(?<!['\"])\b\w+\b(?!['\"])", lambda m: renamed.get(m.group(), m.group()),
                braces.group()), text)
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


def section(report: str, heading: str) -> list[str]:
    """The list items of similarity.md's section whose heading starts with `heading`."""
    text = report.split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]
    return [line for line in text.splitlines() if line.startswith("- ")]


def flagged(report: str) -> list[str]:
    """The pairs of students similarity.md lists above its threshold, one line each."""
    return section(report, "Students alike beyond the kit")


def started(report: str) -> dict[str, str]:
    """similarity.md's students grouped by the sample they started from: by the sample's
    path, the rest of its line (the students, with their shares)."""
    found = {}
    for line in section(report, "Started from the kit"):
        match = re.fullmatch(r"- started from \*\*(.+?)\*\*, holding at least \d+% of their "
                             r"code: (.*)", line)
        assert match, line
        found[match.group(1)] = match.group(2)
    return found


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
    done = grade_here(subs, config_for(tmp_path), out, workers=2)
    assert done.returncode == 0, done.stderr
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert rows["mallory"]["status"] == "ok"
    assert rows["mallory"]["most_similar"] == RANDOM
    assert float(rows["mallory"]["similarity"]) >= max(THRESHOLD, 0.9)
    assert rows["bob"]["most_similar"] == "sample_bots/javascript/bot.js"
    assert rows["carol"]["most_similar"] == "sample_bots/perl/bot.pl"

    report = (out / "similarity.md").read_text()
    assert "mallory (100%, as is)" in started(report)[RANDOM]
    assert flagged(report) == []  # none of the three wrote code of their own
    for path in (out / "feedback").rglob("*"):
        if path.is_file():
            text = path.read_text().lower()
            assert "similar" not in text and RANDOM not in text, path

    grades = {s: (r["status"], r["grade"], r["points"]) for s, r in rows.items()}
    again = grade_here(subs, config_for(tmp_path, threshold=0.0), out)
    assert again.returncode == 0 and again.stderr.count("unchanged") == 3
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert {s: (r["status"], r["grade"], r["points"]) for s, r in rows.items()} == grades
    report = (out / "similarity.md").read_text()  # written again, at the new threshold
    assert "\n## Students alike beyond the kit, at or above 0%\n" in report


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


def test_a_baseline_from_elsewhere_is_named_as_a_baseline(tmp_path: Path) -> None:
    """A baseline whose file is outside both the repository and the config's folder is
    "the baseline 'baseline'" in grades.csv's most_similar and in similarity.md, not
    "baseline baseline", which reads as a typo."""
    kit = tmp_path / "kit"
    kit.mkdir()
    source = (SAMPLES / "python" / "baseline_bot.py").read_text()
    (kit / "baseline_bot.py").write_text(source)
    (tmp_path / "cfg").mkdir()
    config = config_for(tmp_path / "cfg")
    config.write_text(config.read_text().replace('baselines = ["random-1", "random-2"]',
                                                 'baselines = ["baseline", "random-1"]')
                      + f'[[bots]]\nname = "baseline"\ncommand = "{BOT_PYTHON} '
                        '../kit/baseline_bot.py"\n')
    references = reference_bots(load_tournament(config), config, samples=None)
    assert {r.name for r in references} == {"the baseline 'baseline'", RANDOM}
    ann = fingerprinted("ann", False, [SourceFile("bot.py", source)])
    found = compare([ann], references)
    assert found.closest["ann"].other == "the baseline 'baseline'"
    assert list(started(similarity_report(found, THRESHOLD))) == ["the baseline 'baseline'"]


def test_a_student_matches_the_closest_bot_and_tiny_code_is_not_compared() -> None:
    """Each student's closest is the bot holding most of its code, the source before a fellow
    copier; two students with nothing but the sample are no pair; a few lines are too little
    to compare."""
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
    assert found.pairs == [] and found.own == {"ann": 0, "ben": 0}
    assert [(p.first, p.second, p.score) for p in found.kit] == [
        ("ann", "perl sample", 1.0), ("ben", "perl sample", 1.0)]


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
    """similarity.md says a copy with only its names, comments and layout changed is "as is"
    under the sample it started from, and a copy whose values and a few lines were changed
    has the share of its code that is new, although the fingerprints of both hold almost all
    of the source's code."""
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
    found: Similarity = compare([renamed, honest], [random_bot])
    line = started(similarity_report(found, THRESHOLD))[RANDOM]
    assert "mallory (100%, as is)" in line, line
    assert re.search(r"oscar \(\d+%, [0-9.]+% new\)", line) and "oscar (100%, as is)" not in line


def test_code_left_out_of_a_sample_is_a_little_new_code_and_some_own_fingerprints() -> None:
    """A student who deleted semicolons from the C sample and added one token is "<0.1% new"
    under it (it read "0.0% new", as if nothing had changed), while "Files compared" counts
    dozens of fingerprints of its own; similarity.md says why the two differ (a new
    fingerprint spans tokens, and a deletion adds none)."""
    source = (SAMPLES / "c" / "bot.c").read_text()
    edited = source.replace("return 0;", "return 0").replace("main(void)", "main((void)")
    assert edited.count("return 0") == source.count("return 0;") >= 10
    sample = fingerprinted("sample_bots/c", True, [SourceFile("bot.c", source)])
    eve = fingerprinted("eve", False, [SourceFile("bot.c", edited)])
    assert 0 < relation(eve, sample).new < 0.0005
    report = similarity_report(compare([eve], [sample]), THRESHOLD)
    assert re.fullmatch(r"eve \(9\d%, <0\.1% new\)", started(report)["sample_bots/c"]), report
    own = re.search(r"- eve: bot\.c \((\d+) of its \d+ fingerprints not from the kit\)", report)
    assert own and int(own.group(1)) >= 20, report
    assert "the share of the student's tokens that are new" in report
    assert ("A fingerprint stands for a run of 12 tokens, so an edit that adds no token (a `;` "
            "or a line deleted) still gives the student two or three fingerprints of its own"
            ) in report
    assert [percent(x) for x in (0, 0.0002, 0.004, 0.04)] == ["0%", "<0.1%", "0.4%", "4%"]


def test_of_two_students_the_one_that_added_code_is_said_to_be_derived() -> None:
    """Two students with the random bot, one of them with a function added: similarity.md
    counts the new code in the one with the added code, in whichever order the two come, not
    in the untouched copy."""
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
        assert len(lines) == 1 and ": alike in order but for " in lines[0], lines
        assert " of cid's code, not in ann's" in lines[0], lines


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


BASELINE_SOURCE = (SAMPLES / "python" / "baseline_bot.py").read_text()


def edited(source: str, *changes: tuple[str, str]) -> str:
    """`source` with each (old, new) replaced once; each old must be in it."""
    for old, new in changes:
        assert old in source, old
        source = source.replace(old, new, 1)
    return source


# Two students' tunings of the baseline: other constants, and a few lines of their own.
BOB = edited(BASELINE_SOURCE, ("MARGIN = 0.8", "MARGIN = 0.7"),
             ("TILES = (30, 20, 10)", "TILES = (30, 20, 10)\nLAST_ROUND_PUSH = 1.2"),
             ('            amount = int(value * (0.55 if mine else 0.65))\n',
              '            amount = int(value * (0.5 if mine else 0.7))\n'
              '            if view["round"] == 4:\n'
              '                amount = int(amount * LAST_ROUND_PUSH)  # nothing carries over\n'))
CAROL = edited(BASELINE_SOURCE, ("MARGIN = 0.8", "MARGIN = 0.85"),
               ("amount = int(value * 0.75)", "amount = int(value * 0.8)"),
               ("\ndef main() -> None:", '\ndef note(text: str) -> None:\n'
                '    print(f"carol: {text}", file=sys.stderr, flush=True)\n\n\n'
                'def main() -> None:'),
               ("            game = Game(msg)\n",
                '            game = Game(msg)\n            note(f"seat {game.seat}")\n'))

# Original code, in no sample: a bot written from scratch.
PEGGY = '''"""My Modern Art bot: it counts each artist's cards and bids by a simple estimate."""
import json
import sys

TILE_VALUES = [30, 20, 10]
BID_LIMIT = 25


def estimate(view):
    counts = {}
    for artist, number in enumerate(view.get("played") or []):
        counts[artist] = number
    ranking = sorted(counts, key=lambda artist: -counts[artist])
    return {artist: TILE_VALUES[place] for place, artist in enumerate(ranking[:3])}


def pick_card(cards, view, artists):
    values = estimate(view)
    best_card, best_score = cards[0], -1
    for card in cards:
        score = values.get(artists.get(card, -1), 0)
        if score > best_score:
            best_score, best_card = score, card
    return best_card


def answer(request, artists):
    decision = request["decision"]
    legal = request.get("legal") or {}
    view = request.get("view") or {}
    if decision == "play":
        return {"action": "play", "card": pick_card(legal["cards"], view, artists)}
    if decision == "bid":
        if legal["min"] <= min(legal["max"], BID_LIMIT):
            return {"action": "bid", "amount": legal["min"]}
        return {"action": "pass"}
    if decision == "hidden_bid":
        return {"action": "bid", "amount": max(legal.get("min", 0), min(legal["max"], 18))}
    if decision == "price":
        return {"action": "price", "amount": max(legal["min"], min(legal["max"], 20))}
    if decision == "buy":
        return {"action": "buy"} if legal["price"] <= 15 else {"action": "pass"}
    return {"action": "pass"}


def run():
    artists = {}
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "hello":
            print(json.dumps({"type": "hello", "name": "peggy", "protocol": 1}), flush=True)
        elif message.get("type") == "new_game":
            artists = {c["id"]: c["artist"] for c in message["edition"]["cards"]}
        elif message.get("type") == "request":
            reply = answer(message, artists)
            reply["id"] = message["id"]
            print(json.dumps(reply), flush=True)
        elif message.get("type") == "goodbye":
            break


if __name__ == "__main__":
    run()
'''
TRENT = disguised(PEGGY, {
    "estimate": "guess_worth", "pick_card": "choose", "answer": "respond", "run": "loop",
    "counts": "tally", "artist": "painter", "number": "n", "ranking": "order",
    "place": "rank", "values": "worth", "best_card": "chosen", "best_score": "top",
    "card": "c", "score": "points", "decision": "what", "legal": "allowed", "view": "seen",
    "message": "msg", "reply": "out", "artists": "painters", "TILE_VALUES": "PRIZES",
    "BID_LIMIT": "MAX_BID", "cards": "options"})

# Some forty lines of a student's own, added to the baseline: what each player has paid.
SPENDING = '''

class Spending:
    """What each player has paid so far, from the auctions won."""

    def __init__(self, players: int) -> None:
        self.paid = [0] * players
        self.bought = [0] * players
        self.history: list[tuple[int, int]] = []

    def seen(self, ev: dict) -> None:
        if ev.get("type") != "auction_won":
            return
        buyer = ev.get("buyer")
        price = ev.get("price", 0)
        if buyer is None:
            return
        self.paid[buyer] += price
        self.bought[buyer] += 1
        self.history.append((buyer, price))

    def thriftiest(self, me: int) -> int:
        spent = [(paid, seat) for seat, paid in enumerate(self.paid) if seat != me]
        return min(spent)[1] if spent else me

    def average_price(self) -> float:
        if not self.history:
            return 0.0
        return sum(price for _, price in self.history) / len(self.history)

    def recent_prices(self, count: int) -> list[int]:
        return [price for _, price in self.history[-count:]]

    def pressure(self, me: int) -> float:
        others = [paid for seat, paid in enumerate(self.paid) if seat != me]
        if not others:
            return 1.0
        ratio = (self.paid[me] + 1) / (sum(others) / len(others) + 1)
        return max(0.5, min(1.5, ratio))
'''
AMY = edited(BASELINE_SOURCE, ("MARGIN = 0.8", "MARGIN = 0.75"),
             ("\n\nclass Game:", SPENDING + "\n\nclass Game:"),
             ("        self.gone = [0] * len(self.artists)",
              "        self.spending = Spending(self.players)\n"
              "        self.gone = [0] * len(self.artists)"),
             ('        if ev["type"] == "round_ended":',
              '        self.spending.seen(ev)\n        if ev["type"] == "round_ended":'),
             ("limit = value * (MARGIN - (0.25 if mine else 0.0))",
              "limit = value * (MARGIN - (0.25 if mine else 0.0)) / self.spending.pressure(me)"))
# Amy's bot taken whole, its names changed, some values retuned.
BEN = disguised(edited(AMY, ("max(0.5, min(1.5, ratio))", "max(0.6, min(1.4, ratio))"),
                      ("MARGIN = 0.75", "MARGIN = 0.8")),
                {"Spending": "Ledger", "paid": "outlay", "bought": "wins", "history": "sales",
                 "thriftiest": "most_careful", "average_price": "mean_price",
                 "recent_prices": "last_prices", "pressure": "squeeze", "spending": "ledger",
                 "spent": "costs", "ratio": "factor", "others": "rest"})


def class_of(tmp_path: Path, bots: dict[str, str]) -> Similarity:
    """A class whose students each handed in one bot.py (student: its code), compared with
    the sample bots and the baselines of `config_for` as `referee grade` compares them."""
    subs = tmp_path / "subs"
    for student, code in bots.items():
        (subs / student).mkdir(parents=True)
        (subs / student / "bot.py").write_text(code)
    config = config_for(tmp_path)
    return compare_class(discover(subs), load_tournament(config), config)


def test_a_class_compared_again_unchanged_lexes_nothing_and_finds_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grading run keeps what it computed of each file it compared (OUT/fingerprints.json):
    run again with nothing changed, it finds the same pairs and shares without lexing the kit
    or the submissions again (some 0.7 s of CPU a run); a store it cannot read is computed
    afresh, and a file changed since is lexed again, as is every file once the referee's
    similarity.py has changed (a store of another METHOD)."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    for student, code in {"bob": BOB, "carol": CAROL}.items():
        (subs / student).mkdir(parents=True)
        (subs / student / "bot.py").write_text(code)
    out.mkdir()
    config = config_for(tmp_path)

    def compared() -> Similarity:  # the baselines' random_bot.py as the kit: lexed fast
        return compare_class(discover(subs), load_tournament(config), config, None, out=out)

    first = compared()
    assert first.kit and first.closest
    lexed: list[str] = []
    lex = similarity.tokens_of

    def lexing(file: SourceFile) -> list[Token] | None:
        lexed.append(file.path)
        return lex(file)

    monkeypatch.setattr(similarity, "tokens_of", lexing)
    similarity._reference_ids.cache_clear()  # as a new process: the kit from the store alone
    assert compared() == first and lexed == []
    (out / FINGERPRINTS).write_text("{not json")
    assert compared() == first and sorted(lexed) == ["bot.py", "bot.py", "random_bot.py"]
    lexed.clear()
    (subs / "carol" / "bot.py").write_text(CAROL + "\n# tuned again\n")
    compared()
    assert lexed == ["bot.py"]
    lexed.clear()
    source = hashlib.sha256(Path(similarity.__file__).read_bytes()).hexdigest()
    assert f"code {source[:16]} " in similarity.METHOD  # an edit to it is another METHOD
    monkeypatch.setattr(similarity, "METHOD", similarity.METHOD + " edited")
    similarity._reference_ids.cache_clear()
    compared()
    assert sorted(lexed) == ["bot.py", "bot.py", "random_bot.py"]


def test_students_who_tuned_the_same_sample_are_grouped_under_it_not_paired(
        tmp_path: Path) -> None:
    """Two students who started from the baseline sample, changed its constants and added a
    few lines each are no pair in similarity.md, however much of the sample they share: both
    are listed under the sample, with the share of their code it holds, and grades.csv names
    the sample as what each one's code is most like."""
    found = class_of(tmp_path, {"bob": BOB, "carol": CAROL})
    report = similarity_report(found, THRESHOLD)
    assert flagged(report) == []
    assert re.fullmatch(r"bob \(9\d%, [0-9.]+% new\), carol \(9\d%, [0-9.]+% new\)",
                        started(report)[BASELINE]), started(report)
    for student in ("bob", "carol"):
        assert found.closest[student].other == BASELINE
        assert found.closest[student].share >= 0.9


def test_the_same_small_change_to_a_sample_makes_no_pair(tmp_path: Path) -> None:
    """Two students who made the same few-line change to the baseline (a logging helper, a
    last-round price) each hold all of the other's code not from the kit, but that is too
    little to tell a copy by: no pair, and each one's closest is the sample."""
    same = (("\ndef main() -> None:", '\ndef note(text: str) -> None:\n'
             '    print(f"bot: {text}", file=sys.stderr, flush=True)\n\n\ndef main() -> None:'),
            ('        if kind == "price":\n',
             '        if kind == "price" and view["round"] == 4:\n'
             '            return {"action": "price", "amount": legal["max"]}\n'
             '        if kind == "price":\n'))
    found = class_of(tmp_path, {"dan": edited(BASELINE_SOURCE, *same),
                                "eve": edited(BASELINE_SOURCE, ("MARGIN = 0.8", "MARGIN = 0.6"),
                                              *same)})
    assert 0 < found.own["dan"] == found.own["eve"] < MIN_SHARED
    assert found.pairs == []
    assert found.closest["dan"].other == found.closest["eve"].other == BASELINE


def test_original_code_shared_with_names_changed_is_listed_first(tmp_path: Path) -> None:
    """Two students whose bots are the same original code (in no sample) with every name
    and comment changed are the first pair similarity.md lists, "the same apart from names",
    each holding all of the other's code, and each one's closest in grades.csv; the students
    who tuned a sample come after, under the sample, and in no pair."""
    found = class_of(tmp_path, {"alice": disguised_random_bot(), "bob": BOB, "carol": CAROL,
                                "peggy": PEGGY, "trent": TRENT})
    report = similarity_report(found, THRESHOLD)
    pairs = flagged(report)
    assert len(pairs) == 1 and pairs[0].startswith(
        "- **peggy** and **trent**: peggy is the same as trent apart from names, comments and "
        "layout; of their code not from the kit ("), pairs
    assert pairs[0].endswith("trent holds 100% of peggy's, peggy 100% of trent's"), pairs
    assert report.index("## Students alike beyond the kit") < report.index(
        "## Started from the kit")
    assert set(started(report)) == {BASELINE, RANDOM}
    assert "alice (100%, as is)" in started(report)[RANDOM]
    assert found.closest["peggy"].other == "trent" and found.closest["peggy"].share == 1.0
    assert found.closest["trent"].other == "peggy"


def test_a_copy_of_what_a_student_added_to_the_kit_is_caught(tmp_path: Path) -> None:
    """Amy started from the baseline and added some forty lines of her own; Ben handed in her
    bot with its names changed and a few values retuned; Carol tuned the baseline on her own.
    similarity.md lists Amy and Ben, on the code Amy added (all of it in Ben's), and neither
    with Carol; grades.csv names Amy as what Ben's code is most like, and the baseline for
    Carol."""
    found = class_of(tmp_path, {"amy": AMY, "ben": BEN, "carol": CAROL})
    assert found.own["amy"] >= 3 * MIN_SHARED  # the forty lines, and no more
    amy_in_sample = next(p for p in found.kit if (p.first, p.second) == ("amy", BASELINE))
    assert 0.5 < amy_in_sample.first_in_second < 0.9  # the sample is most of Amy's code ...
    report = similarity_report(found, THRESHOLD)
    pairs = flagged(report)
    assert len(pairs) == 1 and pairs[0].startswith("- **amy** and **ben**: "), pairs
    assert " alike in order but for " in pairs[0] and "ben holds 100% of amy's" in pairs[0], \
        pairs
    assert found.pairs[0].first_in_second >= 0.9 and found.pairs[0].second_in_first >= 0.9
    assert found.closest["ben"].other == "amy" and found.closest["ben"].share >= 0.9
    assert found.closest["amy"].other == "ben"  # ... but Ben holds more of what is Amy's own
    assert found.closest["carol"].other == BASELINE
    assert started(report)[BASELINE].startswith("carol (")


def test_a_student_who_took_anothers_tuned_kit_whole_is_named_beside_them(
        tmp_path: Path) -> None:
    """Bob tuned the baseline; Erin handed in Bob's bot with its names changed: too little
    code of their own to be a pair, but the sample's line names them together as having
    changed it alike, values and all; Carol, who tuned it otherwise, is not named so."""
    erin = disguised(BOB, {"Game": "Match", "seen_event": "observe", "decide": "choose"})
    assert erin != BOB
    found = class_of(tmp_path, {"bob": BOB, "carol": CAROL, "erin": erin})
    line = started(similarity_report(found, THRESHOLD))[BASELINE]
    assert line.endswith("; changed it alike, the same apart from names, comments and layout, "
                         "its values too: bob and erin"), line


def test_a_flagged_pair_is_kept_when_one_of_them_withdraws(tmp_path: Path) -> None:
    """Peggy and Trent handed in one bot, names changed; Trent then withdraws. The next
    similarity.md compares the class without him, so the one that flagged the pair is kept in
    withdrawn/ beside his feedback, and the line naming him says where; a student named in
    no pair (only under "Files compared", or a sample) leaves no copy."""
    from referee.grade.feedback import FEEDBACK_TITLE
    from referee.grade.withdrawn import set_aside_withdrawn

    out = tmp_path / "out"
    (out / "feedback").mkdir(parents=True)
    report = similarity_report(class_of(tmp_path, {"peggy": PEGGY, "trent": TRENT,
                                                   "bob": BOB}), THRESHOLD)
    (out / "similarity.md").write_text(report)
    for student in ("peggy", "trent", "bob"):
        (out / "feedback" / f"{student}.md").write_bytes(FEEDBACK_TITLE + student.encode())
    said: list[str] = []
    set_aside_withdrawn(out, tmp_path / "subs", ["peggy"], {}, {}, said.append)
    kept = out / "withdrawn" / "trent.similarity.md"
    assert said[1].endswith(f"; the similarity.md that names it kept as {kept}"), said
    assert kept.read_text() == report and "**peggy** and **trent**" in report
    assert not said[0].endswith(".similarity.md") and not (
        out / "withdrawn" / "bob.similarity.md").exists()


def test_a_withdrawn_student_named_in_no_pair_leaves_no_copy_whatever_their_name(
        tmp_path: Path) -> None:
    """A student whose folder name is a word or number of similarity.md's text (a team "50",
    the threshold being 50%; a "pair") but who is in no flagged pair withdraws: no copy of
    similarity.md is kept, and the line naming them does not say one names them."""
    from referee.grade.feedback import FEEDBACK_TITLE
    from referee.grade.withdrawn import set_aside_withdrawn

    out = tmp_path / "out"
    (out / "feedback").mkdir(parents=True)
    report = similarity_report(class_of(tmp_path, {"peggy": PEGGY, "trent": TRENT,
                                                   "bob": BOB}), THRESHOLD)
    number = f"{THRESHOLD:.0%}".rstrip("%")
    assert f"at least {number}%" in report and "Each pair" in report
    (out / "similarity.md").write_text(report)
    for student in (number, "pair"):
        (out / "feedback" / f"{student}.md").write_bytes(FEEDBACK_TITLE + student.encode())
    said: list[str] = []
    set_aside_withdrawn(out, tmp_path / "subs", ["peggy", "trent", "bob"], {}, {},
                        said.append)
    assert len(said) == 2 and not any("similarity.md" in line for line in said), said
    assert not list((out / "withdrawn").glob("*.similarity.md"))


def test_a_pair_that_is_the_same_names_both_students(tmp_path: Path) -> None:
    """Graded, a student's bot of her own and another's copy of it with a name changed are
    one pair in similarity.md, whose line names both students on each side of what it says
    (`**carol** and **grace**: carol is the same as grace apart from names, ...`)."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    own = (ROOT / "tests" / "scripted_bots" / "crash_mid_game.py").read_text()
    for student, code in [("carol", own),
                          ("grace", own.replace("ANSWERED_BEFORE_CRASH", "HOW_MANY"))]:
        (subs / student).mkdir(parents=True)
        (subs / student / "bot.py").write_text(code)
    done = grade_here(subs, config_for(tmp_path), out, workers=2)
    assert done.returncode == 0, done.stderr
    pairs = flagged((out / "similarity.md").read_text())
    assert len(pairs) == 1 and pairs[0].startswith(
        "- **carol** and **grace**: carol is the same as grace apart from names, comments and "
        "layout; of their code not from the kit ("), pairs
    assert pairs[0].endswith("grace holds 100% of carol's, carol 100% of grace's"), pairs
