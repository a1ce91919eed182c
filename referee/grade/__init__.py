"""`referee grade`: a folder of student bots in, grades and feedback out."""

from ..bots.manifest import CONVENTIONS
from .outcome import Outcome
from .run import grade_all
from .submissions import discover

__all__ = ["CONVENTIONS", "Outcome", "discover", "grade_all"]
