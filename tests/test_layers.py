"""The layer table of docs/architecture.md, as a test: each layer of `referee` imports only the
layers it may, no module imports itself back through others, and `FaultKind` has one import
path.  Read from the source (every import, at the top, inside functions or under
TYPE_CHECKING alike), so nothing needs to be run or installed."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What each layer may import besides itself, from the bottom layer up (docs/architecture.md,
# Layers).  The small modules beside the layers have a level of their own.
MAY_IMPORT: dict[str, set[str]] = {
    "game": set(),
    "protocol": {"game"},
    "bots": set(),
    "match": {"game", "protocol", "bots"},
    "check": {"game", "protocol", "bots", "match"},  # check/, at the level of match
    "edition_files": {"game"},
    "tournament": {"game", "match", "bots", "edition_files"},
    "leaderboard": {"match"},  # the results of match/record.py; handed them, never a store
    # bots: the stderr lines that look like errors a bot lived through (bots/caught.py)
    "report": {"leaderboard", "tournament", "match", "game", "bots"},
    "grade": {"tournament", "leaderboard", "match", "bots", "check"},
}
TOP = {"cli", "__main__"}  # the command line may import every layer
# Import nothing of referee, and any layer may use them: the package's own `__init__` (its
# version), text made safe to show, a pydantic error as one line, Ctrl-C and signals alike,
# a user's TOML file read safely, a file written whole.
UTILITIES = {"", "text", "validation", "interrupts", "toml_files", "files"}
# The imports that go against the table, each with its reason.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("referee.tournament.until", "leaderboard"):
        "a run with `until` asks the leaderboard's verdicts and stopping rule whether it may "
        "stop after a look; the leaderboard imports nothing of the tournament",
}
# FaultKind is the one name of the protocol every layer above it may import: the kinds of
# fault a record, a check and a leaderboard count are those a warning to a bot names.
FAULT_KIND = ("referee.protocol.messages", "FaultKind")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module imported (a package's submodule where it names one)
    names: tuple[str, ...]  # the names taken from it (`from target import ...`), if any
    where: str  # file:line


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the `referee` package under `root`, by its dotted name."""
    named = {}
    for path in sorted((root / "referee").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        named[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return named


def imports(known: dict[str, Path]) -> Iterator[Import]:
    """Every import in the modules `known` (of `referee` or not; `crossings` keeps those of
    `referee`), with where it is."""
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        top = len(path.parts) - len(name.split(".")) - (path.name == "__init__.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            where = f"{'/'.join(path.parts[top:])}:{node.lineno}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield Import(name, alias.name, (), where)
            else:
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                subs = [a.name for a in node.names if f"{base}.{a.name}" in known]
                for sub in subs:
                    yield Import(name, f"{base}.{sub}", (), where)
                rest = tuple(a.name for a in node.names if a.name not in subs)
                if rest:
                    yield Import(name, base, rest, where)


def layer(module: str) -> str:
    """The layer of a `referee` module: its package (or module) under `referee`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def crossings(known: dict[str, Path]) -> list[str]:
    """Each import against the layer table, as a line saying which and why it may not."""
    wrong = []
    for imp in imports(known):
        if imp.target.split(".")[0] != "referee":
            continue
        mine, theirs = layer(imp.source), layer(imp.target)
        if mine == theirs or mine in TOP or theirs in UTILITIES:
            continue
        if (imp.target, *imp.names) == FAULT_KIND or (imp.source, theirs) in EXCEPTIONS:
            continue
        allowed = MAY_IMPORT.get(mine, set())
        if theirs not in allowed:
            may = ", ".join(sorted(allowed)) or "nothing of referee"
            wrong.append(f"{imp.where}: {imp.source} ({mine or 'referee'}) imports "
                         f"{imp.target} ({theirs}); {mine or 'referee'} may import: {may}")
    return wrong


def cycles(known: dict[str, Path]) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others (Tarjan)."""
    graph: dict[str, set[str]] = {m: set() for m in known}
    for imp in imports(known):
        if imp.target in known and imp.target != imp.source:
            graph[imp.source].add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for n in graph[m]:
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            group = []
            while True:
                n = stack.pop()
                group.append(n)
                if n == m:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for m in graph:
        if m not in index:
            visit(m)
    return found


def test_every_layer_imports_only_the_layers_below_it_that_it_may() -> None:
    wrong = crossings(modules())
    assert not wrong, "imports against the layer table of docs/architecture.md:\n" + \
        "\n".join(wrong)


def test_every_module_in_the_table_has_a_layer() -> None:
    """A new package under referee/ needs its row in the table (and here)."""
    layers = {layer(m) for m in modules()}
    assert layers <= set(MAY_IMPORT) | TOP | UTILITIES


def test_no_modules_import_each_other() -> None:
    """Not even through a function or TYPE_CHECKING: a cycle means two modules that are one."""
    found = cycles(modules())
    assert not found, "modules that import each other: " + "; ".join(
        " <-> ".join(group[:6]) + (f" and {len(group) - 6} more" if len(group) > 6 else "")
        for group in found)


def test_fault_kind_has_one_import_path() -> None:
    path, name = FAULT_KIND
    others = [f"{imp.where}: from {imp.target}" for imp in imports(modules())
              if name in imp.names and imp.target != path]
    assert not others, f"{name} is imported from {path} only:\n" + "\n".join(others)


def test_the_exceptions_are_still_needed() -> None:
    """An exception nothing uses any more is taken out of the table."""
    used = {(imp.source, layer(imp.target)) for imp in imports(modules())}
    assert set(EXCEPTIONS) <= used


def test_an_upward_import_is_found(tmp_path: Path) -> None:
    """The check itself, on a package whose rules import the command line."""
    for folder in ("referee", "referee/game", "referee/cli"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "referee" / "game" / "state.py").write_text("import referee.cli\n")
    assert crossings(modules(tmp_path)) == [
        "referee/game/state.py:1: referee.game.state (game) imports referee.cli (cli); game may "
        "import: nothing of referee"]
