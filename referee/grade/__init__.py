"""`referee grade`: a folder of student bots in, grades and feedback out.

The names below are imported when first asked for (PEP 562), not with the package: every
module of `referee.grade` imports this package first, and `referee grade` reads and checks its
config (`grade.config`) before it may say a mistake in one line; importing the grading run with
it (numpy, scipy, trio, pydantic's models) cost that line some 0.4 s of CPU.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..bots.manifest import CONVENTIONS
    from .result import StudentResult
    from .run import grade_all
    from .submissions import discover

__all__ = ["CONVENTIONS", "StudentResult", "discover", "grade_all"]

_WHERE = {"CONVENTIONS": "referee.bots.manifest", "StudentResult": "referee.grade.result",
          "grade_all": "referee.grade.run", "discover": "referee.grade.submissions"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name]), name)
