"""The `[grading]` table of a tournament file: the rules `referee grade` gives grades by."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat


class GradeRule(BaseModel):
    """A grade and what earns it: beat these baselines (mean placement points separated above
    each by the paired one-sided test over deals), be level with these (not separated below
    each), and/or reach a mean placement."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    grade: str = Field(min_length=1, max_length=20)
    beats: list[str] = []
    level_with: list[str] = []  # level with each, or better: not separated below it
    min_placement: StrictFloat | None = Field(None, ge=0, le=1)
    min_points: StrictFloat | None = Field(None, ge=0)  # `[grading] points`, docs/grading.md
    also_broken: StrictBool = False  # the rule may grade a bot that does not work (its points)


class Points(BaseModel):
    """`[grading] points`: partial credit, per check passed and per game metric (see
    docs/grading.md)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    check: StrictFloat = Field(1, ge=0)  # per check of `referee check` passed
    placement: StrictFloat = Field(0, ge=0)  # times the mean placement points (0 to 1)
    win_share: StrictFloat = Field(0, ge=0)  # times its share of the wins (0 to 1)
    beats: StrictFloat = Field(0, ge=0)  # per baseline it beats, by the test the rules use


class Grading(BaseModel):
    """`referee grade`: the first rule a working submission meets gives its grade."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    rules: list[GradeRule] = []
    otherwise: str = "F"  # working, but meets no rule
    broken: str = "F"  # did not build, crashed, too slow, or failed the check
    points: Points = Points()
    # Each comparison with a baseline is a one-sided test at 1 - confidence; above 0.5, so
    # that a bot is never separated both above and below one baseline.
    confidence: StrictFloat = Field(0.95, gt=0.5, lt=1)
    # similarity.md lists the pairs of students where one holds at least this share of the
    # other's code not from the kit, and under each sample the students it holds this share of
    # (docs/grading.md, Copies found); it flags, it never grades.
    similarity_threshold: StrictFloat = Field(0.5, ge=0, le=1)
