"""`referee grade`: a folder of student bots in, grades and feedback out."""

from .run import Outcome, grade_all
from .submissions import CONVENTIONS, discover

__all__ = ["CONVENTIONS", "Outcome", "discover", "grade_all"]
