"""The starter kits: every `sample_bots/*/bot.toml`, found anew on each run (a kit added there
is tested with no edit here), what each needs installed, and a built copy of each.

A kit is built once per test session, in a copy of its folder (the copy must be all it needs,
and the source tree gets no build outputs), by `referee check COPY` itself: the CLI reads its
`bot.toml`, runs its build there and checks the bot.  Under pytest -n the workers share that
run: a lock in the session's folder lets the first worker build a kit while the others wait.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shlex
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

from referee.bots.launch import BotSpec, folder_bot
from referee.bots.manifest import MANIFEST, read_bot_folder

from .. import in_process

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots"
KITS = sorted(p.parent.name for p in SAMPLES.glob(f"*/{MANIFEST}"))

# The Debian package of each program a kit may name, to say what to install.
PACKAGES = {
    "cc": "gcc", "gcc": "gcc", "g++": "g++", "make": "make", "go": "golang-go",
    "rustc": "rustc", "cargo": "cargo", "javac": "default-jdk-headless",
    "java": "default-jdk-headless", "node": "nodejs", "tsc": "node-typescript",
    "mcs": "mono-mcs", "mono": "mono-runtime", "perl": "perl", "python3": "python3",
    "kotlinc": "kotlin",
}
# What a kit's build needs beyond the programs its bot.toml names (those behind `make`, and
# libraries): a program, or a header file and its package.
NEEDS: dict[str, list[str | tuple[Path, str]]] = {
    "c": ["cc", (Path("/usr/include/cjson/cJSON.h"), "libcjson-dev")],
    "cpp": ["g++", (Path("/usr/include/nlohmann/json.hpp"), "nlohmann-json3-dev")],
    "go": ["go"],
}
CHECK_TIMEOUT = 900  # seconds for a kit's build and check on a busy machine (Go's first build)


def kits_with_build() -> list[str]:
    return [k for k in KITS if read_bot_folder(SAMPLES / k).build is not None]


def kits_without_build() -> list[str]:
    return [k for k in KITS if read_bot_folder(SAMPLES / k).build is None]


def require_toolchain(kit: str) -> None:
    """Skip, naming the program and its Debian package, when the kit cannot be built or run
    here: a program its bot.toml or its build needs is not installed, or a header is not."""
    found = read_bot_folder(SAMPLES / kit)
    programs = [shlex.split(c)[0] for c in (found.build, found.command) if c is not None]
    for need in [*(p for p in programs if "/" not in p), *NEEDS.get(kit, [])]:
        if isinstance(need, tuple):
            header, package = need
            if not header.exists():
                pytest.skip(f"{header} is missing (apt-get install {package})")
        elif shutil.which(need) is None:
            known = PACKAGES.get(need)
            pytest.skip(f"{need} is not installed"
                        + (f" (apt-get install {known})" if known else ""))


def ignored(kit: str) -> list[str]:
    """The names the kit's .gitignore keeps out of git (its build outputs): not copied."""
    gitignore = SAMPLES / kit / ".gitignore"
    lines = gitignore.read_text().splitlines() if gitignore.is_file() else []
    return [line.strip().strip("/") for line in lines
            if line.strip() and not line.startswith(("#", "!"))] + ["__pycache__"]


@dataclass(frozen=True)
class Checked:
    """A kit's copy, built, and what `referee check COPY` said."""

    folder: Path
    returncode: int
    stdout: str
    stderr: str

    @property
    def built(self) -> bool:
        """The CLI stops with status 2 and an `error:` line when the build fails."""
        return self.returncode in (0, 1)

    def build_output(self) -> str:
        """What the build printed: the CLI shows it indented under `building KIT: ...`."""
        lines = self.stderr.splitlines()
        start = next((i for i, line in enumerate(lines) if line.startswith("building ")), None)
        if start is None:
            return ""
        block = []
        for line in lines[start + 1:]:
            if not line.startswith("  "):
                break
            block.append(line[2:])
        return "\n".join(block)

    def spec(self, name: str | None = None) -> BotSpec:
        """How to run the built copy (its build already run), named `name` or after its kit."""
        return folder_bot(self.folder, name or self.folder.name, self.folder.name)


def checked_kit(kit: str, tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """The kit copied and built once per session by `referee check COPY` (in the test
    process), shared by the workers; skips when its toolchain is missing."""
    require_toolchain(kit)
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    shared = base / "kits"
    shared.mkdir(exist_ok=True)
    folder = shared / kit
    result = shared / f"{kit}.check.json"
    with (shared / f"{kit}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not result.exists():
            shutil.rmtree(folder, ignore_errors=True)
            shutil.copytree(SAMPLES / kit, folder, ignore=shutil.ignore_patterns(*ignored(kit)))
            # A move time no stall of a loaded machine reaches: a kit must pass every check.
            done = in_process.referee("check", str(folder), "--move-time", "5", cwd=shared,
                                      timeout=CHECK_TIMEOUT)
            checked = Checked(folder, done.returncode, done.stdout, done.stderr)
            result.write_text(json.dumps({**asdict(checked), "folder": str(folder)}))
    data = json.loads(result.read_text())
    return Checked(Path(data["folder"]), data["returncode"], data["stdout"], data["stderr"])


def built_kit(kit: str, tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """`checked_kit`, failing (with the CLI's error) when the kit did not build."""
    checked = checked_kit(kit, tmp_path_factory)
    assert checked.built, f"{kit} did not build:\n{checked.stderr}"
    return checked


WARNING = re.compile(r"warning", re.IGNORECASE)
NO_WARNING = re.compile(r"\b0 warning", re.IGNORECASE)  # "Compilation succeeded - 0 warning(s)"


def warnings_in(output: str) -> list[str]:
    return [line for line in output.splitlines()
            if WARNING.search(line) and not NO_WARNING.search(line)]
