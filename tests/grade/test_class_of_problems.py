"""A class whose four students each show one thing a teacher must be told: grading goes to
its end, and grades.csv, the feedback and similarity.md name each for what it is."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from .test_grade import BOTS, SAMPLES, grade_here
from .test_similarity import RANDOM, config_for, disguised_random_bot, flagged, started

# A random bot that takes 0.75 s (one and a half move times) over its first two answers of
# each graded game (those naming the baselines; not the check's, which would only take
# longer), which its time bank pays for: slower than the move time, never a timeout.
SLOW = '''
import time
_slow = {"left": 0}
'''


def slow_random_bot() -> str:
    code = (SAMPLES / "python" / "random_bot.py").read_text()
    new_game = "                bot.new_game(message)\n"
    request = "            elif kind == \"request\":\n"
    assert new_game in code and request in code
    code = code.replace("import sys\n", "import sys\n" + SLOW, 1)
    code = code.replace(new_game, new_game + (
        "                _slow[\"left\"] = 2 * (\"random-1\" in message.get(\"names\", []))\n"))
    return code.replace(request, request + ("                if _slow[\"left\"]:\n"
                                            "                    _slow[\"left\"] -= 1\n"
                                            "                    time.sleep(0.75)\n"))


@pytest.mark.slow
def test_a_class_of_four_problems_is_graded_with_each_named(tmp_path: Path) -> None:
    """One student's bot.toml nested 600 deep (its "build failed", the class goes on), one
    bot that crashes in the check ("crashed", and "no game was played because"), one slower
    than the move time (its feedback says how many answers and the longest) and one renamed
    copy of the random sample (similarity.md: started from it, as is)."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    folders = {name: subs / name for name in ("nina", "carl", "sam", "rita")}
    for folder in folders.values():
        folder.mkdir(parents=True)
    (folders["nina"] / "bot.toml").write_text("x = " + "[" * 600 + "]" * 600 + "\n")
    (folders["nina"] / "bot.py").write_text("print('never run')\n")
    (folders["carl"] / "bot.py").write_text((BOTS / "crash_at_start.py").read_text())
    (folders["sam"] / "bot.py").write_text(slow_random_bot())
    (folders["rita"] / "bot.py").write_text(disguised_random_bot())
    done = grade_here(subs, config_for(tmp_path), out, workers=2)
    assert done.returncode == 0, done.stderr
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert rows["nina"]["status"] == "build failed"
    assert rows["carl"]["status"] == "crashed" and rows["carl"]["games"] == "0"
    assert rows["sam"]["games"] != "0" and rows["rita"]["status"] == "ok"
    feedback = {s: (out / "feedback" / f"{s}.md").read_text() for s in rows}
    assert "nested too deeply" in feedback["nina"] or "nest" in feedback["nina"]
    assert "no game was played** because it crashed in the check" in feedback["carl"]
    assert "It answers slower than the move time" in feedback["sam"]
    assert "took longer than the move time of 0.5 s" in feedback["sam"]
    report = (out / "similarity.md").read_text()
    assert flagged(report) == []  # no two students alike beyond the kit
    assert "rita (100%, as is)" in started(report)[RANDOM], report
    assert rows["rita"]["most_similar"] == RANDOM
