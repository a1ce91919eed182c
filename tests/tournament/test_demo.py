"""The README's main job: the demo tournament runs and every sample bot plays without faults."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .. import in_process

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None or shutil.which("perl") is None,
                    reason="the demo's JavaScript or Perl bot cannot run here")
def test_demo_tournament_runs_and_prints_its_leaderboard(tmp_path: Path) -> None:
    """`referee tournament run tournaments/demo.toml` plays the README's 240 games (every
    table of four sample bots, every seat order, two deals) without a fault, and its
    leaderboard places random play last, alone, below the baseline.  Run in this process and
    with one worker: what is claimed is the games and their leaderboard, the same at any
    number of workers (worker processes have tests of their own, test_worker_processes.py).
    On a busy machine, as in the suite (three tests at a time on two cores), a second worker
    process with a second set of every bot costs about a sixth more CPU; idle, the same."""
    db = tmp_path / "demo.db"
    out = in_process.referee("tournament", "run", str(ROOT / "tournaments" / "demo.toml"),
                             "--db", str(db), "--workers", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    c_builds = Path("/usr/include/cjson/cJSON.h").exists()
    if c_builds:
        assert "240 games played" in out.stderr
    else:
        assert "left out c: its build failed" in out.stderr
    board = in_process.referee("leaderboard", str(db), "--format", "json", cwd=tmp_path)
    rows = json.loads(board.stdout)["entrants"]
    expected = {"baseline", "random", "javascript", "perl"} | ({"c"} if c_builds else set())
    assert {r["name"] for r in rows} == expected
    for r in rows:
        assert sum(r["faults"].values()) == 0, r
    assert rows[-1]["name"] == "random"  # every sample strategy beats random play
    # Two deals of five tables are enough for the block model to place random play last,
    # below the baseline: its place range is 5 alone and the baseline's ends above it.
    by_name = {r["name"]: r for r in rows}
    assert by_name["random"]["place"] == {"best": len(rows), "worst": len(rows)}
    assert by_name["baseline"]["place"]["worst"] < len(rows)
    for line in ("baseline", "random", "win share"):
        assert line in out.stdout
