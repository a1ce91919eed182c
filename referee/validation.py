"""One line for a pydantic error, as every error message of the referee is one line."""

from __future__ import annotations

from pydantic import ValidationError
from pydantic_core import ErrorDetails


def _line(err: ErrorDetails, msg: str) -> str:
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {msg}" if where else msg  # whole-model checks name their key themselves


def first_error(exc: ValidationError) -> str:
    """The first problem, as `where: what` (`where` a dotted field path), or `what` alone."""
    return first_errors(exc, most=1)


def first_errors(exc: ValidationError, most: int = 3) -> str:
    """Up to `most` problems as `first_error` gives one, joined by "; ", without pydantic's
    "Value error, " before our own validators' messages (a tournament file's keys)."""
    return "; ".join(_line(err, err["msg"].removeprefix("Value error, "))
                     for err in exc.errors(include_url=False)[:most])
