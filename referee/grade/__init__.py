"""`referee grade`: a folder of student bots in, grades and feedback out."""

from .outcome import Outcome
from .run import grade_all
from .submissions import CONVENTIONS, discover

__all__ = ["CONVENTIONS", "Outcome", "discover", "grade_all"]
