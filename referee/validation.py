"""One line for a pydantic error, as every error message of the referee is one line."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any, get_args

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds, itself or in a list, dict or optional; None if none."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _keys_beside(model: type[BaseModel], loc: Sequence[int | str]) -> list[str]:
    """The keys the model allows where `loc`'s last key stands (its siblings), or none."""
    current: type[BaseModel] | None = model
    for part in loc[:-1]:
        if isinstance(part, int):  # an item of a list: the list's model, already taken
            continue
        field = current.model_fields.get(part) if current is not None else None
        current = None if field is None else _model_in(field.annotation)
        if current is None:
            return []
    assert current is not None
    return [f.alias or name for name, f in current.model_fields.items()]


def meant_key(err: ErrorDetails, model: type[BaseModel] | None) -> str | None:
    """The key a key the model does not have was close to (a typo), or None."""
    if err["type"] != "extra_forbidden" or model is None or not err["loc"]:
        return None
    close = difflib.get_close_matches(str(err["loc"][-1]), _keys_beside(model, err["loc"]), n=1)
    return close[0] if close else None


def _where(loc: Sequence[int | str], data: Any) -> str:
    """A file's key path as its writer counts: "bots #2 (alice) command" for the second
    `[[bots]]` entry, named by its `name` where it has one; "grading.rules #1 beats"."""
    out, after_item = "", False
    for part in loc:
        if isinstance(part, int):
            item = data[part] if isinstance(data, list) and 0 <= part < len(data) else None
            name = item.get("name") if isinstance(item, dict) else None
            out += f" #{part + 1}" + (f" ({name})" if isinstance(name, str) else "")
            data, after_item = item, True
        else:
            out += (" " if after_item else "." if out else "") + part
            data, after_item = data.get(part) if isinstance(data, dict) else None, False
    return out


def _line(err: ErrorDetails, msg: str, model: type[BaseModel] | None, data: Any = None) -> str:
    # a file's keys (a model given) as its writer counts them; a message's as they are
    where = (_where(err["loc"], data) if model is not None else
             ".".join(str(p) for p in err["loc"]))
    meant = meant_key(err, model)
    if meant is not None:
        msg += f" (did you mean {meant!r}?)"
    return f"{where}: {msg}" if where else msg  # whole-model checks name their key themselves


def first_error(exc: ValidationError, model: type[BaseModel] | None = None,
                data: Any = None) -> str:
    """The first problem, as `where: what` (`where` a dotted field path), or `what` alone;
    given the `model` of a file validated (and its `data`), a list's items are counted from 1
    (and named), and a key it does not have is given the close one it has."""
    return first_errors(exc, most=1, model=model, data=data)


def first_errors(exc: ValidationError, most: int = 3,
                 model: type[BaseModel] | None = None, data: Any = None) -> str:
    """Up to `most` problems as `first_error` gives one, joined by "; ", without pydantic's
    "Value error, " before our own validators' messages (a tournament file's keys).  A typo
    of a key comes first, and the keys then missing beside it are left unsaid: the key it
    was meant as is among them, and the others may be needed only without it (an entry that
    gives its `dir` needs no `name` or `command`)."""
    errors = exc.errors(include_url=False)
    typos = {tuple(err["loc"][:-1]) for err in errors if meant_key(err, model) is not None}
    errors = [err for err in errors
              if not (err["type"] == "missing" and tuple(err["loc"][:-1]) in typos)]
    errors.sort(key=lambda err: meant_key(err, model) is None)  # stable: the rest in order
    return "; ".join(_line(err, err["msg"].removeprefix("Value error, "), model, data)
                     for err in errors[:most])
