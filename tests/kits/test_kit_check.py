"""Every starter kit, as its folder is, builds without a warning and passes `referee check
FOLDER` (through the CLI, in a copy of the folder)."""

from __future__ import annotations

import re
import shutil

import pytest

from . import kits
from .kits import KITS, checked_kit, kits_with_build, warnings_in


@pytest.mark.slow
@pytest.mark.parametrize("kit", KITS)
def test_kit_passes_every_check(kit: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    checked = checked_kit(kit, tmp_path_factory)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "FAIL" not in checked.stdout
    assert re.search(r"^\d+ passed, 0 failed$", checked.stdout, re.MULTILINE), checked.stdout
    assert "response time: median" in checked.stdout


@pytest.mark.parametrize("kit", kits_with_build())
def test_kit_builds_without_warnings(kit: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    checked = checked_kit(kit, tmp_path_factory)
    assert checked.built, f"{kit} did not build:\n{checked.stderr}"
    assert f"building {kit}: " in checked.stderr
    assert not warnings_in(checked.build_output()), \
        f"the build of {kit} warns:\n{checked.build_output()}"


def test_a_kit_without_its_toolchain_is_skipped_naming_the_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda program, *args, **kwargs: None)
    with pytest.raises(pytest.skip.Exception, match=r"^perl is not installed \(apt-get install "
                                                    r"perl\)$"):
        kits.require_toolchain("perl")
