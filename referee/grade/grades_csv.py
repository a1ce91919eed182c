"""OUT/grades.csv: one row per student, for a teacher's spreadsheet."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.text import visible

from .result import StudentResult, fault_count
from .similarity import Closest

CSV_COLUMNS = ["student", "status", "grade", "games", "win_share", "placement",
               "placement_low", "placement_high", "money", "faults"]


def csv_columns(baselines: list[str]) -> list[str]:
    """CSV_COLUMNS, the rule, for each baseline the verdict, difference and interval, the
    most similar other bot and the share of the student's code it holds (similarity.py: of
    its code not from the kit, for another student; a flag, not part of the grade), and the
    points and checks passed (last, so that older columns keep their places)."""
    return [*CSV_COLUMNS, "rule",
            *(f"vs_{b}{part}" for b in baselines for part in ("", "_diff", "_low", "_high")),
            "most_similar", "similarity", "points", "checks_passed"]


def csv_row(o: StudentResult, baselines: list[str], closest: Closest | None) -> list[Any]:
    p = o.placement or {}

    def number(x: float | None) -> str:
        return "" if x is None else f"{x:.4f}"

    compared = []
    for b in baselines:
        v = o.versus.get(b)
        compared += ["", "", "", ""] if v is None else \
            [v.verdict, number(v.diff), number(v.low), number(v.high)]
    return [visible(o.student), o.status, o.grade, o.games, number(o.win_share),
            *("" if k not in p else f"{p[k]:.4f}" for k in ("mean", "low", "high")),
            "" if o.money is None else f"{o.money['mean']:.1f}",
            fault_count(o),
            o.rule, *compared, "" if closest is None else visible(closest.other),
            "" if closest is None else f"{closest.share:.2f}", f"{o.points:g}",
            o.checks_passed]


def write_grades(path: Path, outcomes: list[StudentResult], baselines: list[str],
                 closest: Mapping[str, Closest]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(csv_columns(baselines))
        for o in outcomes:
            writer.writerow(csv_row(o, baselines, closest.get(o.student)))
