"""A built program older than its sources: the entrant edited their bot and checks or plays the
binary of before, whose behaviour then makes no sense to them.  `check` and `play` say so
before it runs: for a program given as a command, and for a folder's once it is built (a
build that wrote another file)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from .errors import StartError
from .launch import BotSpec, give_folder
from .manifest import BotFolderError, read_bot_folder
from .start import split_command

# The sources a built program is made from, by what the program is: a native binary (ELF), a
# .NET assembly (MZ), JavaScript compiled from TypeScript, a Java archive.
NATIVE_SOURCES = (".rs", ".go", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".zig",
                  ".nim", ".hs", ".ml", ".d", ".f90", ".pas", ".swift", ".kt")
DOTNET_SOURCES = (".cs", ".fs", ".vb")
SOURCES_BY_SUFFIX = {".js": (".ts", ".mts", ".cts", ".tsx"), ".cjs": (".ts", ".cts"),
                     ".mjs": (".ts", ".mts"), ".jar": (".java", ".kt", ".scala"),
                     ".class": (".java", ".kt", ".scala"),
                     ".exe": DOTNET_SOURCES, ".dll": DOTNET_SOURCES}

# A project's root, where its sources are looked for: the folder of its build file.
PROJECT_FILES = ("Cargo.toml", "go.mod", "Makefile", "makefile", "GNUmakefile",
                 "CMakeLists.txt", "tsconfig.json", "package.json", "build.gradle", "pom.xml",
                 "bot.toml", "dune-project", "build.zig")
# Folders of build output, dependencies and tools, not the entrant's sources.
SKIPPED = {"target", "node_modules", "out", "build", "bin", "obj", "dist", "vendor",
           "__pycache__", "zig-cache", "_build", "venv", "env", "site-packages"}
ENVIRONMENTS = {"venv", "env", "virtualenv"}  # a Python environment's programs are not built
# Where an absolute path names the system's files, not an entrant's build.
SYSTEM = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib32/", "/lib64/", "/opt/", "/nix/", "/snap/",
          "/etc/", "/proc/")
# A word naming a file for a program to run: a script's or a compiled file's name (`bot.py`,
# `out/bot.js`); a program given by its absolute path and followed by one is a runtime.
RUN_FILE = re.compile(r"\.[A-Za-z]\w*$")
MOST_FILES = 5000  # looked at in a project at most: a huge folder is not a bot's
UP = 3  # folders above the program's own looked at for its project's root
SLACK = 1.0  # seconds: a source written in the same second as the build


def stale_program(spec: BotSpec) -> str | None:
    """A note that the program `spec` runs is older than a source of its project (the newest
    named, with how much newer), or None: not a built program, no sources found, or built
    since they changed.  For a bot whose build has just run, that the build did not write it
    (a Rust entrant's `cargo build --release` wrote target/release/bot, and the command ran
    the ./bot an earlier `make` had left)."""
    cwd = spec.cwd or Path.cwd()
    try:
        words = split_command(spec.command)
    except StartError:
        return None
    for word, program, root in _programs(words, cwd):
        suffixes = _sources_of(program)
        if suffixes is None:
            continue
        try:
            built = program.stat().st_mtime
        except OSError:
            return None
        newest = _newest_source(root, suffixes)
        if newest is None or newest[1] <= built + SLACK:
            return None
        source = _shown(newest[0], cwd)
        if spec.build is not None:
            return (f"note: {word} is older than {source} ({_age(newest[1] - built)}) after "
                    f"its build (`{spec.build}`): if that is one of its sources, the build did "
                    "not write the program the command runs, which plays the bot as it was "
                    "before; make the build write it, or the command run what the build writes")
        return (f"note: {word} was built before {source} last changed "
                f"({_age(newest[1] - built)} later): this runs the bot as it was then; "
                f"{_rebuild(root, cwd)}")
    return None


def _programs(words: list[str], cwd: Path) -> Iterator[tuple[str, Path, Path]]:
    """The files of the command an entrant builds, as the command names them, with the
    project folder their sources are looked for in: the program, or the file its runtime
    runs, and for `java -cp DIR Main` the main class's file (a Java entrant's edited Bot.java
    ran as the Bot.class compiled before, unnoted)."""
    runtime = _runs_a_file(words, cwd)
    for i, word in enumerate(words[:3]):
        if _the_entrants(word, cwd, program=i == 0, runtime=runtime):
            program = Path(os.path.normpath(cwd / word))
            yield word, program, _project_root(program.parent, cwd)
    main = _java_main(words)
    if main is not None:
        folder, name = main
        if _the_entrants(folder, cwd, program=False, runtime=True) and (cwd / folder).is_dir():
            word = os.path.normpath(os.path.join(folder, name.replace(".", "/") + ".class"))
            classes = Path(os.path.normpath(cwd / folder))
            root = _project_root(classes, cwd)
            if root == classes and classes != Path(os.path.normpath(cwd)):
                root = classes.parent  # out/ beside the sources, with no build file
            yield word, Path(os.path.normpath(cwd / word)), root


def _java_main(words: list[str]) -> tuple[str, str] | None:
    """The class path's first folder and the main class of a `java` command (`java -cp out
    Bot`), or None: not java, or a jar (`-jar`, which the program's file covers)."""
    if not words or os.path.basename(words[0]) != "java":
        return None
    path, rest = ".", iter(words[1:])
    for word in rest:
        if word in ("-cp", "-classpath", "--class-path"):
            path = next(rest, ".")
        elif word in ("-jar", "--module", "-m"):
            return None
        elif not word.startswith("-"):
            return path.split(os.pathsep)[0] or ".", word
    return None


def _runs_a_file(words: list[str], cwd: Path) -> bool:
    """Whether a word after the command's program names a file for it to run (`bot.py`,
    `out/bot.js`, `-jar bot.jar`): then the program is a runtime, not the entrant's."""
    return any(not w.startswith("-") and (RUN_FILE.search(w) or (cwd / w).is_file())
               for w in words[1:])


def _the_entrants(word: str, cwd: Path, program: bool, runtime: bool) -> bool:
    """Whether a word of the command names a file an entrant builds: a path outside the
    system's folders (for the `program`, a relative one with a slash, else it is found on
    PATH; or an absolute one, unless it is a `runtime` given a file to run), not through a
    hidden folder (`.venv/bin/python`) or an environment's (`venv/bin/python`, copied), and
    not a link (a virtual environment's interpreter).  So an interpreter on PATH or given by
    its absolute path is not theirs, while their native program may be given by its absolute
    path (`/home/me/rs/target/release/bot`), as a file its runtime runs may (`mono
    /home/me/bot/bot.exe`)."""
    if os.path.isabs(word):
        if word.startswith(SYSTEM) or (program and runtime):
            return False
    elif program and "/" not in word:
        return False
    parts = Path(word).parts
    if any((p.startswith(".") and p not in (".", "..")) or p in ENVIRONMENTS for p in parts):
        return False
    return not (cwd / word).is_symlink()


def _sources_of(program: Path) -> tuple[str, ...] | None:
    """The suffixes of the sources `program` is built from, None if it is not a built
    program."""
    try:
        if not program.is_file():
            return None
        with program.open("rb") as f:
            magic = f.read(4)
    except OSError:
        return None
    suffix = program.suffix.lower()
    if suffix in SOURCES_BY_SUFFIX:
        return SOURCES_BY_SUFFIX[suffix]
    if magic == b"\x7fELF":
        return NATIVE_SOURCES
    if magic[:2] == b"MZ":
        return DOTNET_SOURCES
    return None


def _project_root(folder: Path, cwd: Path) -> Path:
    """The nearest folder at or above `folder` (at most `UP` above, and not above `cwd`, the
    folder the command runs in, unless the program is outside it) holding a build file, else
    `folder`."""
    for candidate in [folder, *folder.parents][:UP + 1]:
        if candidate != folder and folder.is_relative_to(cwd) and \
                not candidate.is_relative_to(cwd):
            break
        if any((candidate / name).is_file() for name in PROJECT_FILES):
            return candidate
    return folder


def _newest_source(root: Path, suffixes: tuple[str, ...]) -> tuple[Path, float] | None:
    """The most recently changed source under `root` (build output, dependencies and hidden
    folders left out), with its time; None if there is none among the first files."""
    newest: tuple[Path, float] | None = None
    seen = 0
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if d not in SKIPPED and not d.startswith(".")]
        for name in files:
            seen += 1
            if seen > MOST_FILES:
                return newest
            if not name.endswith(suffixes) or name.endswith(".d.ts"):  # declarations
                continue
            path = Path(folder, name)
            try:
                changed = path.stat().st_mtime
            except OSError:
                continue
            if newest is None or changed > newest[1]:
                newest = (path, changed)
    return newest


def _age(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} days"


def _rebuild(root: Path, cwd: Path) -> str:
    """How to play the bot as its sources are: its folder, where a bot.toml builds it."""
    try:
        build = read_bot_folder(root).build
    except (BotFolderError, OSError):
        build = None
    if build is None:
        return "rebuild it first"
    return (f"rebuild it first, or {give_folder(_shown(root, cwd))}: it is built with "
            f"`{build}` first")


def _shown(path: Path, cwd: Path) -> str:
    """`path` relative to `cwd` when it is in it, else as it is (absolute): a program given
    by its absolute path elsewhere is not told of `../../home/me/rs/src/main.rs`."""
    shown = os.path.relpath(path, cwd)
    return str(path) if shown == ".." or shown.startswith("../") else shown
