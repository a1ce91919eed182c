"""`referee autograder`: what a course platform needs to grade one submission by itself.

Gradescope (`gradescope`): a folder and its `autograder.zip`, with `setup.sh` (run once when
Gradescope builds the image: a Python of 3.11 or later, and the referee installed from the
wheel inside, its dependencies from the package registry) and `run_autograder` (run for each
submission: `referee grade-one` on /autograder/submission into
/autograder/results/results.json).  PrairieLearn (`prairielearn`): a folder for the course's
`serverFilesCourse` with the external grader's entry point `run.sh` (`grade-one` on
/grade/student into /grade/results/results.json), a Dockerfile for its image (the referee
installed from the wheel), and the `externalGradingOptions` to put in the question's
`info.json`.

Both carry the grading config and what its baselines need (the folders they run in, the files
their commands and builds name, an edition file), laid out as they are around the config, so
that every relative path in it still holds; and the referee itself as a wheel.  Nothing is
fetched at grading time.  The scripts take their paths from the environment where a test (or
a teacher trying it) needs another root: AUTOGRADER_ROOT, GRADE_ROOT, REFEREE_PYTHON.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

from referee.bots.start import split_command
from referee.tournament.config import TournamentConfig
from referee.tournament.entrants import bot_dir, unbuilt_problems

from .baseline_places import baselines_line
from .baseline_scripts import misspelt_baselines
from .platform_results import Platform, max_points
from .submissions import NOT_COPIED
from .wheel import build_wheel

# Gradescope stops an autograder after 10 minutes by default (40 at most, set per
# assignment); PrairieLearn after `timeout` seconds, 30 by default and 600 at most.  A
# submission's budget needs room beside it for starting Python and writing the results.
MARGIN = 60.0
GRADESCOPE_TIMEOUT = 600.0
PRAIRIELEARN_MAX_TIMEOUT = 600.0
GRADESCOPE_MAX_TIMEOUT = 2400.0

GRADER_FOLDER = "modern-art-grader"  # under PrairieLearn's serverFilesCourse
IMAGE = "python:3.12-slim"  # the Dockerfile's base: a Python the referee runs on


class AutograderError(ValueError):
    """The grading config cannot be made into an autograder; the message says why."""


def longest_budget(platform: str) -> tuple[str, float]:
    """The platform's name and the largest `submission_time` its longest job leaves room
    for: advice to raise the budget past it could not be followed there."""
    if platform == "prairielearn":
        return "PrairieLearn", PRAIRIELEARN_MAX_TIMEOUT - MARGIN
    return "Gradescope", GRADESCOPE_MAX_TIMEOUT - MARGIN


@dataclass
class Written:
    """What was written, and what the teacher must do with it, in lines to print."""

    root: Path
    lines: list[str]


def needed(config: TournamentConfig, config_path: Path) -> list[Path]:
    """Every file and folder grading reads besides the submission: the config, its edition
    file, each baseline's folder (its `dir`) or the files its command and build name.  A
    program named by its absolute path (`/usr/bin/python3`) is the platform's to have; any
    other absolute path is refused, since the platform would not have it."""
    paths = [config_path.resolve()]
    if config.edition_file() is not None:
        paths.append((config_path.resolve().parent / config.edition).resolve())
    for bot in config.bots:
        if bot.name not in config.baselines:
            continue
        cwd = bot_dir(config_path, bot.dir)
        if bot.dir:
            paths.append(cwd)
            continue
        for command in (shlex.split(bot.command), shlex.split(bot.build or "")):
            for i, word in enumerate(command):
                if os.path.isabs(word) and i > 0 and os.path.isfile(word):
                    raise AutograderError(
                        f"baseline {bot.name}: its command or build names {word}, a path the "
                        "platform will not have; name it relative to the config's folder (or "
                        "the bot's `dir`) so that the autograder carries it")
                if not os.path.isabs(word) and (cwd / word).exists():
                    paths.append((cwd / word).resolve())
    return paths


def copy_needed(paths: list[Path], dest: Path) -> Path:
    """Copy `paths` under `dest` at their places relative to the folder they share, so that
    the config's relative paths hold; where the config lands."""
    base = Path(os.path.commonpath([p if p.is_dir() else p.parent for p in paths]))
    ignore = shutil.ignore_patterns(*NOT_COPIED)
    for path in paths:
        target = dest / path.relative_to(base)
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            shutil.copytree(path, target, ignore=ignore, dirs_exist_ok=True)
        else:
            shutil.copy2(path, target)
    return dest / paths[0].relative_to(base)


def quoted(path: str) -> str:
    """`path` as it goes between double quotes in the scripts."""
    if any(c in path for c in '"$`\\\n'):
        raise AutograderError(f"the config's path {path!r} holds a character the scripts "
                              "cannot quote; rename its folders")
    return path


def write_script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def fresh_folder(folder: Path) -> None:
    """An empty `folder`: what an earlier run left there would be shipped too."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)


# The Debian and Ubuntu packages every starter kit in sample_bots/ needs to build and run (its
# README's `apt-get install` line), for the commented line of setup.sh and the Dockerfile: a
# teacher who uncomments it can grade a bot started from any kit (the C kit's cJSON too).
KIT_PACKAGES = ("build-essential libcjson-dev nlohmann-json3-dev golang-go rustc "
                "default-jdk-headless nodejs node-typescript mono-mcs perl")

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: a Python of 3.11
# or later, and the referee installed from its wheel (its dependencies from the registry).
set -euo pipefail
PY=python3
if ! $PY -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    apt-get update
    apt-get install -y python3.11 python3.11-venv
    PY=python3.11
fi
# Every bot runs under util-linux's prlimit: Gradescope's Ubuntu images have it (an Essential
# package); an image without it gets it here.
command -v prlimit >/dev/null || {{ apt-get update && apt-get install -y util-linux; }}
$PY -m venv /autograder/referee-venv
/autograder/referee-venv/bin/pip install --upgrade pip
/autograder/referee-venv/bin/pip install /autograder/source/wheels/*.whl
# The languages your students may write their bots in, beyond Python: this line installs
# what every starter kit in sample_bots/ needs (the C kit's cJSON, the C++ kit's JSON library
# included); keep the ones your class uses.
# apt-get install -y {kit_packages}
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for each submission: the referee grades /autograder/submission against
# the baselines and writes /autograder/results/results.json, its feedback headed with the
# names in submission_metadata.json.  AUTOGRADER_ROOT and REFEREE_PYTHON stand in for
# /autograder and its Python (to try it elsewhere).
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
PYTHON="${{REFEREE_PYTHON:-$ROOT/referee-venv/bin/python}}"
mkdir -p "$ROOT/results"
rm -rf "$ROOT/grading-work"
exec "$PYTHON" -m referee grade-one "$ROOT/submission" \\
    --config "$ROOT/source/{config}" \\
    --results "$ROOT/results/results.json" --format gradescope \\
    --metadata "$ROOT/submission_metadata.json" \\
    --work "$ROOT/grading-work" --workers "${{REFEREE_WORKERS:-1}}"
"""

RUN_SH = """#!/usr/bin/env bash
# PrairieLearn runs this for each submission (the question's externalGradingOptions
# entrypoint): the referee grades /grade/student against the baselines and writes
# /grade/results/results.json.  GRADE_ROOT and REFEREE_PYTHON stand in for /grade and the
# image's Python (to try it elsewhere).
set -euo pipefail
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
ROOT="${{GRADE_ROOT:-/grade}}"
PYTHON="${{REFEREE_PYTHON:-python3}}"
mkdir -p "$ROOT/results"
exec "$PYTHON" -m referee grade-one "$ROOT/student" \\
    --config "$HERE/{config}" \\
    --results "$ROOT/results/results.json" --format prairielearn \\
    --workers "${{REFEREE_WORKERS:-1}}"
"""

DOCKERFILE = """# The image PrairieLearn grades in: a Python and the referee (from its wheel, beside
# this file), its dependencies from the registry at build time: grading fetches nothing.
#   docker build -t YOU/modern-art-grader . && docker push YOU/modern-art-grader
FROM {image}
# Every bot runs under util-linux's prlimit.  {image} has it (util-linux is an Essential
# package of Debian, kept in its slim images); on another base, this line stops the build
# until you add util-linux (PrairieLearn's own grader images, on Amazon Linux, install it).
RUN command -v prlimit >/dev/null || {{ echo "prlimit is missing: install util-linux \
(apt-get install -y util-linux, or dnf install -y util-linux)" >&2; exit 1; }}
COPY wheels /tmp/wheels
RUN pip install --no-cache-dir /tmp/wheels/*.whl && rm -rf /tmp/wheels
# The languages your students may write their bots in, beyond Python: this line installs
# what every starter kit in sample_bots/ needs (the C kit's cJSON, the C++ kit's JSON library
# included); keep the ones your class uses.
# RUN apt-get update && apt-get install -y {kit_packages}
"""


def zip_folder(folder: Path, target: Path) -> None:
    """`folder`'s files at the root of the zip (not the folder itself: Gradescope looks for
    setup.sh at the root), with their modes, so that run_autograder stays executable."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())


def gradescope(config: TournamentConfig, config_path: Path, out: Path) -> Written:
    """OUT/autograder/ and OUT/autograder.zip, to upload as the assignment's autograder."""
    folder = out / "autograder"
    fresh_folder(folder)
    grading = copy_needed(needed(config, config_path), folder / "grading")
    build_wheel(folder / "wheels")
    config_rel = grading.relative_to(folder).as_posix()
    write_script(folder / "setup.sh", SETUP_SH.format(kit_packages=KIT_PACKAGES))
    write_script(folder / "run_autograder", RUN_AUTOGRADER.format(config=quoted(config_rel)))
    zipped = out / "autograder.zip"
    zipped.unlink(missing_ok=True)
    zip_folder(folder, zipped)
    budget = config.limits.submission_time
    lines = [f"wrote {folder} and {zipped}",
             "upload autograder.zip as the assignment's autograder (Configure Autograder, "
             "Zip file upload), then docs/grading.md, Gradescope"]
    if budget + MARGIN > GRADESCOPE_TIMEOUT:
        minutes = math.ceil((budget + MARGIN) / 60)
        lines.append(f"note: [limits] submission_time is {budget:g} s: set the assignment's "
                     f"autograder timeout to at least {minutes} minutes (10 by default, "
                     f"{GRADESCOPE_MAX_TIMEOUT / 60:g} at most)")
    return Written(folder, lines)


def prairielearn(config: TournamentConfig, config_path: Path, out: Path,
                 image: str) -> Written:
    """OUT/serverFilesCourse/modern-art-grader/ (to copy into the course's
    serverFilesCourse), OUT/Dockerfile and OUT/info.json (the question's
    externalGradingOptions)."""
    budget = config.limits.submission_time
    if budget + MARGIN > PRAIRIELEARN_MAX_TIMEOUT:
        raise AutograderError(
            f"[limits] submission_time is {budget:g} s, but PrairieLearn stops a grading job "
            f"after {PRAIRIELEARN_MAX_TIMEOUT:g} s at most: give at most "
            f"{PRAIRIELEARN_MAX_TIMEOUT - MARGIN:g} s (fewer deals, or a shorter move time)")
    server = out / "serverFilesCourse"
    folder = server / GRADER_FOLDER
    fresh_folder(folder)
    grading = copy_needed(needed(config, config_path), folder / "grading")
    wheels = out / "wheels"
    fresh_folder(wheels)
    build_wheel(wheels)
    config_rel = grading.relative_to(folder).as_posix()
    write_script(folder / "run.sh", RUN_SH.format(config=quoted(config_rel)))
    (out / "Dockerfile").write_text(DOCKERFILE.format(image=IMAGE, kit_packages=KIT_PACKAGES))
    options = {"gradingMethod": "External", "externalGradingOptions": {
        "enabled": True, "image": image, "serverFilesCourse": [f"{GRADER_FOLDER}/"],
        "entrypoint": f"/grade/serverFilesCourse/{GRADER_FOLDER}/run.sh",
        "timeout": int(min(PRAIRIELEARN_MAX_TIMEOUT, math.ceil(budget + MARGIN)))}}
    (out / "info.json").write_text(json.dumps(options, indent=2) + "\n")
    return Written(folder, [
        f"wrote {folder}, {out / 'Dockerfile'} and {out / 'info.json'}",
        f"copy {GRADER_FOLDER}/ into your course's serverFilesCourse/, build and push the "
        f"image from the Dockerfile (as {image}), and put info.json's fields into each "
        "question's info.json: docs/grading.md, PrairieLearn"])


def write_autograder(platform: Platform, config: TournamentConfig, config_path: Path,
                     out: Path, image: str) -> Written:
    """The platform's files in `out`, once no baseline names a file or folder that is not
    there (grading would stop at it for every student); the lines that say where the
    baselines were taken from (`baselines_line`), what to do with the files, a note for each
    baseline whose program is not installed here (the platform's image must have it), and
    the total a submission can earn (what the platform's assignment needs)."""
    notes = []
    misspelt = misspelt_baselines(config, config_path)
    for name, why in {**unbuilt_problems(config, config_path), **misspelt}.items():
        if name not in config.baselines:
            continue
        bot = next(b for b in config.bots if b.name == name)
        program = split_command(bot.command)[0]
        if (not bot.dir and "/" not in program and shutil.which(program) is None
                and name not in misspelt):
            notes.append(f"note: baseline {name} runs {program}, which is not installed here: "
                         "the platform's image must have it (setup.sh, or the Dockerfile)")
            continue
        raise AutograderError(f"baseline {name} cannot play: {why}; fix the grading config "
                              "(grading would stop at it for every student)")
    out.mkdir(parents=True, exist_ok=True)
    if platform == "gradescope":
        written = gradescope(config, config_path, out)
    else:
        written = prairielearn(config, config_path, out, image)
    written.lines = [baselines_line(config, config_path), *written.lines, *notes]
    written.lines.append(f"the most a submission can earn: {max_points(config):g} points"
                         + (" (set the assignment's total points to it)"
                            if platform == "gradescope" else " (its score is the points over "
                            "it)"))
    return written
