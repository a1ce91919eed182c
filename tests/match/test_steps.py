"""The one walk over a game record that replay and seat parts share (`match/steps.py`)."""

from __future__ import annotations

from pathlib import Path

from referee.match.record import ApplyLine, EventLine, read_record
from referee.match.steps import walk

PLAYED = Path(__file__).resolve().parents[1] / "data" / "records" / "play.jsonl"


def test_a_walk_keeps_every_line_of_a_record_once_and_in_order() -> None:
    """Replay and seat parts read the same steps: one per `apply` line, each with the events
    recorded after it, and every other line (faults, answers, retirements) once, in order."""
    record = read_record(PLAYED.read_bytes())
    steps = walk(record.lines)
    applies = [ln for ln in record.lines if isinstance(ln, ApplyLine)]
    assert [s.applied for s in steps.steps] == applies and applies
    events = [ln.event for ln in record.lines if isinstance(ln, EventLine)]
    assert steps.opening + [e for s in steps.steps for e in s.events] == events
    assert steps.opening, "the deal's events come before the first step"
    others = [ln for ln in record.lines if not isinstance(ln, ApplyLine | EventLine)]
    assert steps.every_line() == others
