"""One line for a pydantic error, as every error message of the referee is one line."""

from __future__ import annotations

from pydantic import ValidationError


def first_error(exc: ValidationError) -> str:
    """The first problem, as `where: what` (`where` a dotted field path), or `what` alone."""
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else err["msg"]
