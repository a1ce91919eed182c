"""`tournaments/classroom.toml` as a teacher runs it: the luck of the cards gives no grade.

A copy of the random sample bot is level with the random baselines, whatever the deals (five
master seeds); the Python baseline sample beats both of them.  Real subprocess games, as
`referee grade` plays them.
"""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pytest

from referee.grade.result import compare
from referee.leaderboard.stats import Games
from referee.tournament.config import load_tournament
from referee.tournament.store import open_store

from .test_grade import ROOT, SAMPLES, grade_here

CLASSROOM = ROOT / "tournaments" / "classroom.toml"


def classroom_with_seed(folder: Path, seed: int) -> Path:
    """tournaments/classroom.toml with another master seed (other deals), its bots' paths
    made absolute so that it runs from `folder`."""
    text = CLASSROOM.read_text()
    text, n = re.subn(r"^seed = \d+$", f"seed = {seed}", text, flags=re.M)
    assert n == 1
    path = folder / "classroom.toml"
    path.write_text(text.replace("../sample_bots", str(SAMPLES)))
    return path


def graded(tmp_path: Path, source: Path, config: Path) -> tuple[dict[str, str], str]:
    """Grade one student whose bot.py is a byte-identical copy of `source`: its grades.csv
    row and its feedback."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    (subs / "ann").mkdir(parents=True)
    shutil.copy(source, subs / "ann" / "bot.py")
    done = grade_here(subs, config, out, workers=2)
    assert done.returncode == 0, done.stderr
    (row,) = csv.DictReader((out / "grades.csv").open())
    return row, (out / "feedback" / "ann.md").read_text()


def test_a_copy_of_the_random_bot_is_level_with_the_random_baselines(tmp_path: Path) -> None:
    """Graded with the classroom's baselines and rules under another seed, a copy of the random
    sample bot is level with both random bots (never "beats" them) and gets C by the rule that
    asks for that, as grades.csv and its feedback say.  (How often equal bots are graded
    apart over many seeds is `benchmarks/grading_power.py`'s to measure.)"""
    config = classroom_with_seed(tmp_path, 2)
    row, feedback = graded(tmp_path, SAMPLES / "python" / "random_bot.py", config)
    assert row["status"] == "ok" and row["games"] == "60", row  # 5 deals, 12 seat orders
    assert (row["vs_random-1"], row["vs_random-2"]) == ("level", "level"), row
    assert row["vs_baseline"] == "below", row
    assert (row["grade"], row["rule"]) == ("C", "level with random-1, random-2"), row
    for b in ("random-1", "random-2"):
        low, diff, high = (float(row[f"vs_{b}{k}"]) for k in ("_low", "_diff", "_high"))
        # The verdict is the exact sign-flip test over the 5 deals; the interval shown is the
        # t interval, which need not exclude zero exactly where that test separates.
        assert low <= diff <= high, row
        assert f"level with {b}, not separated either way" in feedback
    assert "- grade: **C**, by the rule: level with random-1, random-2" in feedback


@pytest.mark.slow
def test_the_baseline_sample_beats_both_random_baselines(tmp_path: Path) -> None:
    """Graded with tournaments/classroom.toml as it is, a copy of the Python baseline sample
    beats both random bots (grade B by the rule naming them) and is level with the baseline
    itself; at a confidence of 97% the same 5 deals could not say "beats" (the smallest
    one-sided p of 5 deals is 1/32)."""
    row, feedback = graded(tmp_path, SAMPLES / "python" / "baseline_bot.py", CLASSROOM)
    assert (row["vs_random-1"], row["vs_random-2"], row["vs_baseline"]) == (
        "beats", "beats", "level"), row
    assert (row["grade"], row["rule"]) == ("B", "beats random-1, random-2"), row
    for b in ("random-1", "random-2"):
        assert float(row[f"vs_{b}_low"]) > 0, row
        assert f"you beat {b} (one-sided p = 0.031)" in feedback
    assert "level with baseline, not separated either way" in feedback

    store = open_store(tmp_path / "out" / "games" / "ann.db")
    games = Games.load(store.results(), store.seeds())
    store.close()
    baselines = load_tournament(CLASSROOM).baselines
    strict = compare(games, "ann", baselines, confidence=0.97)
    assert {b: v.verdict for b, v in strict.items()} == dict.fromkeys(baselines, "level")
