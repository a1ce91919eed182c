"""The running referee as a wheel, for a course platform to install (`autograder.py`).

Built from the package that runs (its files) and its installed metadata (name, version,
dependencies, the `referee` command), not from a source tree: a teacher ships the referee they
graded with, and no build backend has to be fetched (the project's needs a newer setuptools
than many machines have).  The layout is PEP 427's: the package, then `NAME-VERSION.dist-info`
with METADATA, WHEEL, entry_points.txt and RECORD (each file's SHA-256 and size).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import zipfile
from pathlib import Path

import referee

DISTRIBUTION = "modern-art-referee"
LEFT_OUT = {"__pycache__"}
STAMP = (1980, 1, 1, 0, 0, 0)  # a fixed time in the zip: the same files give the same wheel


class WheelError(Exception):
    """The referee's metadata cannot be found: it was not installed (`pip install .`)."""


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(
        b"=").decode()


def package_files() -> list[tuple[str, Path]]:
    """Every file of the running `referee` package (no caches), as (path in the wheel, file)."""
    root = Path(referee.__file__).resolve().parent
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root.parent)
        if path.is_file() and not LEFT_OUT & set(rel.parts) and path.suffix != ".pyc":
            out.append((rel.as_posix(), path))
    return out


def build_wheel(folder: Path) -> Path:
    """Write the referee's wheel into `folder`; its path."""
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise WheelError(f"the referee's package metadata ({DISTRIBUTION}) is not installed; "
                         "install it (pip install .) to build its wheel") from None
    # An editable install run from its source folder is found through the folder's
    # *.egg-info (setuptools writes it there), which names the metadata PKG-INFO.
    metadata = dist.read_text("METADATA") or dist.read_text("PKG-INFO")
    if metadata is None:
        raise WheelError(f"{DISTRIBUTION} is installed without its METADATA")
    name = dist.metadata["Name"].replace("-", "_")
    version = dist.version
    info = f"{name}-{version}.dist-info"
    entry_points = dist.read_text("entry_points.txt") or ""
    wheel_text = ("Wheel-Version: 1.0\nGenerator: referee autograder\nRoot-Is-Purelib: true\n"
                  "Tag: py3-none-any\n")
    files = [(arcname, path.read_bytes()) for arcname, path in package_files()]
    files += [(f"{info}/METADATA", metadata.encode()), (f"{info}/WHEEL", wheel_text.encode())]
    if entry_points:
        files.append((f"{info}/entry_points.txt", entry_points.encode()))
    record = "".join(f"{arcname},{_digest(data)},{len(data)}\n" for arcname, data in files)
    files.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as whl:
        for arcname, data in files:
            entry = zipfile.ZipInfo(arcname, STAMP)
            entry.external_attr = 0o644 << 16
            whl.writestr(entry, data, zipfile.ZIP_DEFLATED)
    return target
