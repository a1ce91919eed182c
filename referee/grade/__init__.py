"""`referee grade`: a folder of student bots in, grades and feedback out."""

from ..bots.manifest import CONVENTIONS
from .result import StudentResult
from .run import grade_all
from .submissions import discover

__all__ = ["CONVENTIONS", "StudentResult", "discover", "grade_all"]
