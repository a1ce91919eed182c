"""Headless Chromium for the report's tests: a page that keeps every console error, page error
and request leaving file://, and a check that a screenshot is not blank."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium through playwright, or the test skipped without either."""
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Page:
    """A browser page that keeps every console error, page error and outside request; with
    `offline`, in a context whose network is off."""

    def __init__(self, browser: Any, path: Path, offline: bool = False) -> None:
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 900},
                                           offline=offline)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("request", lambda r: r.url.startswith(("file:", "data:"))
                     or self.outside.append(r.url))
        self.page.goto(path.as_uri())

    def step(self) -> int:
        return int(self.page.get_attribute("body", "data-step"))

    def done(self, shot: Path) -> None:
        self.page.screenshot(path=str(shot), full_page=True)
        assert not self.errors, self.errors
        assert not self.outside, self.outside
        assert not_blank(shot.read_bytes()), f"{shot} is blank"
        self.context.close()

    def close(self) -> None:
        self.context.close()


def not_blank(png: bytes) -> bool:
    """A PNG whose pixel data has many different values (a blank page has a handful)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(png):
        length = int.from_bytes(png[pos:pos + 4], "big")
        kind = png[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    common = max(raw.count(b) for b in (b"\x00", b"\xff"))
    return len(set(raw)) > 64 and len(raw) - common > len(raw) // 200
