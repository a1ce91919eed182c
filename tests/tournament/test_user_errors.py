"""Mistakes in a tournament file or on the command line: one `error:` line naming the key,
option or file, exit status 2, no traceback, and nothing stored lost or changed."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.bots.limits import MAX_FAULTS
from referee.tournament.config import TournamentConfig

from .. import in_process
from ..disk import files_limited_to, without_reading_all
from ..processes import BOT_PYTHON, wait_until

ROOT = Path(__file__).resolve().parents[2]
FIRST_LEGAL = ROOT / "tests" / "scripted_bots" / "first_legal.py"


def referee(*args: str, cwd: Path, env: dict[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout,
                          env=None if env is None else {**os.environ, **env})


def write_config(folder: Path, extra: str = "", bot_extra: str = "") -> Path:
    """Three bots at tables of three, one deal in rotations: three games.  `bot_extra` goes
    into the second bot's entry."""
    lines = ['name = "errors"', "seed = 3", "table_size = 3", 'seat_orders = "rotations"',
             extra]
    for i in range(3):
        lines += ["[[bots]]", f'name = "b{i}"', f'command = "{BOT_PYTHON} {FIRST_LEGAL}"']
        if i == 1:
            lines.append(bot_extra)
    path = folder / "t.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def refused(out: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    for text in expected:
        assert text in lines[0], lines[0]


def run(config: Path, db: Path, *more: str,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`tournament run` inside the test process (`in_process`; its bots are processes as
    ever)."""
    return in_process.referee("tournament", "run", str(config), "--db", str(db), "-q", *more,
                              cwd=config.parent, timeout=timeout)


def test_max_faults_is_bounded_and_named(tmp_path: Path) -> None:
    """A huge limit once reached the game record and voided every game (orjson's integers)."""
    for value in ("99999999999999999999999", str(MAX_FAULTS + 1)):
        config = write_config(tmp_path, extra=f"[limits]\nmax_faults = {value}")
        refused(run(config, tmp_path / "x.db"), "limits.max_faults",
                f"less than or equal to {MAX_FAULTS}")
    TournamentConfig.model_validate({"name": "n", "limits": {"max_faults": MAX_FAULTS},
                                     "bots": [{"name": f"b{i}", "command": "x"}
                                              for i in range(4)]})


@pytest.mark.parametrize(("line", "says"), [
    ("seed = 12345678901234567890123", f"seed: Input should be less than or equal to {2**63 - 1}"),
    ("seed = -1", "seed: Input should be greater than or equal to 0"),
    ("deals = true", "deals: Input should be a valid integer"),
    ("[limits]\nopen_files = true", 'limits.open_files: expected a number (or a text such as '
                                    '"off"), got true'),
])
def test_seeds_out_of_range_and_booleans_for_numbers_are_named(tmp_path: Path, line: str,
                                                              says: str) -> None:
    """A seed is 0 to 2**63-1 in a tournament file as on `referee play --seed` (a 23-digit or
    a negative seed was taken), and `deals = true` is a mistake, not one deal: each is one
    line naming the key."""
    config = write_config(tmp_path, extra="" if line.startswith("seed") else line)
    config.write_text(config.read_text().replace("seed = 3", line if line.startswith("seed")
                                                  else "seed = 3"))
    refused(in_process.referee("tournament", "plan", str(config), cwd=tmp_path), says)


def test_a_baseline_listed_twice_is_named(tmp_path: Path) -> None:
    config = write_config(tmp_path, extra='format = "gauntlet"\nbaselines = ["b0", "b0"]')
    refused(run(config, tmp_path / "x.db"), "baselines: 'b0' is listed twice")


@pytest.mark.parametrize("key", ["command", "build", "dir"])
def test_a_nul_character_in_a_bot_entry_is_named(tmp_path: Path, key: str) -> None:
    if key == "command":
        config = write_config(tmp_path)
        config.write_text(config.read_text().replace(f'{FIRST_LEGAL}"', f'{FIRST_LEGAL}\\u0000"',
                                                     1))
    else:
        config = write_config(tmp_path, bot_extra=f'{key} = "true\\u0000"')
    which = "#1 (b0)" if key == "command" else "#2 (b1)"
    refused(run(config, tmp_path / "x.db"), f"bots {which} {key}: contains a NUL character")


def test_a_foreign_database_is_refused_unchanged(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    for n, tables in enumerate(["games (x)", "notes (x)"]):
        db = tmp_path / f"foreign{n}.db"
        with sqlite3.connect(db) as con:
            con.execute(f"CREATE TABLE {tables}")
            con.execute(f"INSERT INTO {tables.split()[0]} VALUES (1)")
        con.close()
        before = db.read_bytes()
        refused(run(config, db), f"{db} is not a results store")
        assert db.read_bytes() == before
        assert sorted(p.name for p in tmp_path.glob(f"foreign{n}.db*")) == [db.name]
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")  # an empty file is a new store, like a missing one
    out = run(config, empty)
    assert out.returncode == 0, out.stderr
    with sqlite3.connect(empty) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3
    con.close()


def test_commands_that_read_leave_a_foreign_database_and_its_wal_unchanged(
        tmp_path: Path) -> None:
    """The reading commands open a store so that they can tidy up its -wal file; given
    another program's WAL-mode database by mistake, they folded its -wal file into it and
    deleted it and its -shm (the same rows, but another file).  A foreign file is looked at
    read-only and refused unchanged."""
    db = tmp_path / "app.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], "
         "isolation_level=None); c.execute('PRAGMA journal_mode=WAL'); c.execute('CREATE "
         "TABLE notes (x)'); c.execute('INSERT INTO notes VALUES (1)'); print('written', "
         "flush=True); time.sleep(60)", str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "written\n"
    finally:
        holder.kill()  # as a program that crashed leaves it: the row is in app.db-wal
        holder.wait()

    def files() -> dict[str, bytes]:  # (-shm is SQLite's index of the -wal file, rebuilt)
        return {p.name: b"" if p.name.endswith("-shm") else p.read_bytes()
                for p in tmp_path.glob("app.db*")}

    before = files()
    assert sorted(before) == ["app.db", "app.db-shm", "app.db-wal"] and before["app.db-wal"]
    for args in (["leaderboard", str(db)], ["report", str(db), "--out", "site"],
                 ["replay", "--db", str(db), "g"],
                 ["tournament", "merge", str(db), "--out", "m.db"]):
        refused(in_process.referee(*args, cwd=tmp_path), f"{db} is not a results store")
        assert files() == before, args


def test_a_store_named_in_bytes_that_are_not_utf8_is_read(tmp_path: Path) -> None:
    """A name that is not UTF-8 goes into SQLite's URI as its bytes: the store is made and
    read, with no UnicodeEncodeError traceback."""
    config = write_config(tmp_path)
    name = os.fsdecode(b"r\xe9sultats.db")
    assert run(config, tmp_path / name).returncode == 0
    out = in_process.referee("leaderboard", name, cwd=tmp_path)
    assert out.returncode == 0 and "b0" in out.stdout, out.stderr


def test_the_shard_count_is_bounded_and_merge_does_not_count_to_it(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    refused(run(config, tmp_path / "x.db", "--shard", "1/99999999999999999999"),
            "--shard", "N must be between 1 and 10000")
    shard = tmp_path / "s1.db"
    assert run(config, shard, "--shard", "1/10000").returncode == 0
    out = in_process.referee("tournament", "merge", str(shard), "--out", str(tmp_path / "m.db"),
                  cwd=tmp_path, timeout=60)
    refused(out, "gap: shard(s) 2/10000, 3/10000, 4/10000, 5/10000, 6/10000 and 9994 more")
    # A store labelled by an older referee (or by hand) with a huge N is refused as quickly.
    with sqlite3.connect(shard) as con:
        con.execute("UPDATE meta SET value = '1/99999999999999999999' WHERE key = 'shard'")
    con.close()
    out = in_process.referee("tournament", "merge", str(shard), "--out", str(tmp_path / "m.db"),
                  cwd=tmp_path, timeout=60)
    refused(out, "gap: shard(s) 2/99999999999999999999")
    assert not (tmp_path / "m.db").exists()


def test_a_merge_into_a_store_that_is_there_says_how_to_merge_again(tmp_path: Path) -> None:
    """A ladder run in shards merges after every run: a second merge into the same --out is
    refused in one line, the store left as it was, saying to remove an earlier merge of the
    same shards first (their stores hold its games)."""
    merged = tmp_path / "cup.db"
    merged.write_bytes(b"an earlier merge")
    out = in_process.referee("tournament", "merge", "s1.db", "s2.db", "--out", str(merged),
                             cwd=tmp_path, timeout=60)
    refused(out, f"{merged} exists already; merge into a new file (to merge the shards again "
                 "after they played on, remove it first if it holds only their earlier merge)")
    assert merged.read_bytes() == b"an earlier merge"


@pytest.mark.parametrize("address", ["not a url", "tcp://127.0.0.1:1"])
def test_an_unreachable_scheduler_is_named(tmp_path: Path, address: str) -> None:
    """The wait is Dask's connect timeout, 30 s unless configured, as here, to 2 s (in the
    test process, as DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=2s would configure it)."""
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    config = write_config(tmp_path)
    db = tmp_path / "x.db"
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        out = run(config, db, "--executor", "dask", "--scheduler", address, timeout=60)
    refused(out, f"error: --scheduler {address}: cannot connect: ")
    assert not db.exists()


def test_a_refused_run_keeps_a_store_another_run_has_open(tmp_path: Path) -> None:
    """The store a refused run made is removed only if nobody else uses it: a second run
    started on the same --db while the first waits for its scheduler keeps every result."""
    pytest.importorskip("distributed")
    config = write_config(tmp_path)
    db = tmp_path / "x.db"
    first = subprocess.Popen(
        [sys.executable, "-m", "referee", "tournament", "run", str(config), "--db", str(db),
         "-q", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"})
    deadline = time.monotonic() + 30
    other = None
    while other is None and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
        if db.exists():
            other = sqlite3.connect(db)  # as a second run's store would, once it is one
            try:
                other.execute("SELECT COUNT(*) FROM games").fetchone()
            except sqlite3.OperationalError:  # no tables yet
                other.close()
                other = None
    assert other is not None, "the first run ended before its store was made"
    try:
        _, err = first.communicate(timeout=60)
        assert first.returncode == 2 and "cannot connect" in err, err
        assert db.exists()
        other.execute("INSERT INTO voids VALUES ('g', 1, 'still here', 0)")
        other.commit()
    finally:
        other.close()
    assert sqlite3.connect(db).execute("SELECT reason FROM voids").fetchall() == [
        ("still here",)]


def test_edition_shard_and_store_mistakes_name_what_is_wrong(tmp_path: Path) -> None:
    """An empty or missing edition names the `edition` key; an empty --shard is refused (not
    taken for the whole schedule); a store missing a table says which."""
    config = write_config(tmp_path, extra='edition = ""')
    refused(run(config, tmp_path / "x.db"), "edition: String should have at least 1 character")
    config = write_config(tmp_path, extra='edition = "nope.toml"')
    refused(run(config, tmp_path / "x.db"), "t.toml: edition: no edition")
    config = write_config(tmp_path)
    refused(run(config, tmp_path / "x.db", "--shard", ""), "--shard ''")
    assert not (tmp_path / "x.db").exists()
    half = tmp_path / "half.db"
    with sqlite3.connect(half) as db:
        db.execute("CREATE TABLE meta (k, v)")
        db.execute("CREATE TABLE games (x)")
    before = half.read_bytes()
    refused(run(config, half), f"{half} is not a results store (no table voids)")
    with sqlite3.connect(tmp_path / "users.db") as db:
        db.execute("CREATE TABLE users (name)")
    refused(run(config, tmp_path / "users.db"),
            "is not a results store (it holds other tables)")
    assert half.read_bytes() == before


def test_a_store_given_for_the_tournament_file_names_the_file(tmp_path: Path) -> None:
    """`tournament run t.db` (the store, where the file was meant): one line saying it is a
    database and naming t.toml beside it, not a complaint about its bytes."""
    config = write_config(tmp_path)
    db = tmp_path / "t.db"
    with sqlite3.connect(db) as made:
        made.execute("CREATE TABLE meta (k, v)")
    for command in ("run", "plan"):
        refused(in_process.referee("tournament", command, str(db), cwd=tmp_path),
                f"{db} is an SQLite database (a results store?), not a TOML file: give the "
                f"tournament file, {config}?")


def test_a_name_used_twice_names_both_entries(tmp_path: Path) -> None:
    """Two entries named alike, one by the bot.toml of its folder (so the file shows the name
    once): the error names both entries by number and folder, and says where a name comes
    from."""
    for folder, toml in (("alpha", ""), ("imposter", 'name = "alpha"\n')):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "bot.toml").write_text(f'{toml}command = "{BOT_PYTHON} '
                                                    f'{FIRST_LEGAL}"\n')
    config = write_config(tmp_path)
    config.write_text(config.read_text() + '[[bots]]\ndir = "alpha"\n'
                      '[[bots]]\ndir = "imposter"\n')
    refused(in_process.referee("tournament", "plan", str(config), cwd=tmp_path),
            "bots: the name 'alpha' is used twice: #4 (dir alpha) and #5 (dir imposter) (an "
            "entry with a dir and no name is named by its folder's bot.toml, else after the "
            "folder)")


def test_a_store_in_a_read_only_folder_says_the_folder_must_be_writable(
        tmp_path: Path) -> None:
    """A run whose store's folder is on a read-only mount (a read-only bind mount, made by
    bubblewrap: root ignores permission bits): one line saying the folder cannot be written
    and that the store's -wal file goes beside it, not SQLite's 'unable to open'."""
    ro = tmp_path / "ro"
    ro.mkdir()
    config = write_config(ro)
    mount = ["bwrap", "--dev-bind", "/", "/", "--ro-bind", str(ro), str(ro)]
    if shutil.which("bwrap") is None or subprocess.run([*mount, "true"],
                                                       capture_output=True).returncode != 0:
        pytest.skip("bubblewrap cannot make a read-only bind mount here")
    done = subprocess.run([*mount, sys.executable, "-m", "referee", "tournament", "run",
                           str(config), "-q"], capture_output=True, text=True, timeout=60)
    refused(done, f"cannot open {ro / 't.db'}: its folder {ro} cannot be written, and a run "
                  "writes the store and its -wal and -shm files beside it: give --db in a "
                  "folder you can write")


def test_plan_of_a_gauntlet_whose_baseline_cannot_run_is_an_error(tmp_path: Path) -> None:
    """A gauntlet baseline whose program is mistyped sits at every table: `plan` ends in one
    error line naming it, as `run` would, not a warning and exit status 0."""
    config = write_config(tmp_path, 'format = "gauntlet"\nbaselines = ["b0", "b1"]')
    config.write_text(config.read_text().replace(f'name = "b1"\ncommand = "{BOT_PYTHON}',
                                                 'name = "b1"\ncommand = "pyhton3'))
    refused(in_process.referee("tournament", "plan", str(config), cwd=tmp_path),
            "no game could be played: every game needs a bot that run would leave out (b1: "
            "its command cannot run")


def test_a_bot_dir_that_is_a_file_is_said_so(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a folder")
    config = write_config(tmp_path, bot_extra='dir = "afile"')
    out = in_process.referee("tournament", "run", str(config), "--db", str(tmp_path / "x.db"),
                  cwd=tmp_path)
    assert f"its directory {tmp_path / 'afile'} is a file, not a folder" in out.stdout + \
        out.stderr, out.stdout + out.stderr


def test_a_run_that_can_play_no_game_is_an_error(tmp_path: Path) -> None:
    """An error line and exit status 2, not '0 games played' and 0, so that a script can
    tell; `plan` says so first, as one error line too."""
    config = write_config(tmp_path, bot_extra='dir = "no-such-folder"')  # 2 left: no table
    refused(in_process.referee("tournament", "plan", str(config), cwd=tmp_path),
            "no game could be played: every game needs a bot that run would leave out (b1: "
            "its directory")
    out = in_process.referee("tournament", "run", str(config), "--db", str(tmp_path / "x.db"),
                             cwd=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    missing = tmp_path / "no-such-folder"
    assert out.stderr.strip().splitlines()[-1] == (
        "error: no game could be played: the 3 games left need a bot that was left out "
        f"(b1: its directory {missing} does not exist)")
    assert not (tmp_path / "x.db").exists()  # made by this run, and nothing in it
    (tmp_path / "kept.db").touch()  # not made by this run: kept, though nothing is in it
    refused(run(config, tmp_path / "kept.db"), "(b1: its directory")
    assert (tmp_path / "kept.db").exists()
    (tmp_path / "link.db").symlink_to(tmp_path / "stores" / "target.db")  # leads nowhere yet
    (tmp_path / "stores").mkdir()
    refused(run(config, tmp_path / "link.db"), "(b1: its directory")
    assert (tmp_path / "link.db").is_symlink()  # the user's link is not removed,
    assert not (tmp_path / "stores" / "target.db").exists()  # the store made through it is
    (tmp_path / "afile").write_text("")
    refused(run(config, tmp_path / "s.db", "--stderr-dir", str(tmp_path / "afile" / "sub")),
            "--stderr-dir", "afile/sub: cannot create the folder")  # not a traceback
    assert not (tmp_path / "s.db").exists()
    refused(run(config, tmp_path / "q.db"), "(b1: its directory")  # -q: the reason is here
    gauntlet = write_config(tmp_path, extra='format = "gauntlet"\nbaselines = ["b0", "b1"]')
    text = gauntlet.read_text()
    gauntlet.write_text(text[:text.rindex("[[bots]]")])  # only the two baselines
    for shard in ([], ["--shard", "1/2"]):
        refused(run(gauntlet, tmp_path / "y.db", *shard), "t.toml: the schedule has no games")
        assert not (tmp_path / "y.db").exists()


def test_a_shard_past_the_last_game_plays_none_and_succeeds(tmp_path: Path) -> None:
    """A job array may have more tasks than games (README): those shards are not errors."""
    config = write_config(tmp_path)  # three games
    out = run(config, tmp_path / "s.db", "--shard", "9/9")
    assert out.returncode == 0 and out.stderr == "", out.stderr


def test_a_store_that_fails_mid_run_ends_it_in_one_line_and_loses_nothing(
        tmp_path: Path) -> None:
    """A full disk during a run: one line naming the store (no ExceptionGroup traceback),
    the games stored before it are kept, no bot is left running, and running again (with
    room) plays exactly the rest."""
    bot = tmp_path / "limited_store_bot.py"  # its own path, to look for leftover processes
    bot.write_text(FIRST_LEGAL.read_text())
    config = tmp_path / "t.toml"
    config.write_text('name = "full"\nseed = 5\ntable_size = 3\nseat_orders = "all"\n'
                      "deals = 8\n" + "".join(
                          f'[[bots]]\nname = "b{i}"\ncommand = "{BOT_PYTHON} {bot}"\n'
                          for i in range(3)))
    db = tmp_path / "full.db"
    out = subprocess.run(
        [sys.executable, "-m", "referee", "tournament", "run", str(config), "--db", str(db),
         "-q", "--workers", "2"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        preexec_fn=files_limited_to(128 * 1024))  # room for a few games
    refused(out, f"the results store failed: {db}: ",  # SQLite: "disk I/O error"
            "the games stored before it are kept: run again to resume")
    kept = sqlite3.connect(db).execute("SELECT game_id FROM games").fetchall()
    assert 0 < len(kept) < 48
    leftover = subprocess.run(["pgrep", "-f", str(bot)], capture_output=True, text=True)
    assert leftover.stdout == "", "bot processes left running"
    again = run(config, db)
    assert again.returncode == 0, again.stderr
    games = sqlite3.connect(db).execute("SELECT game_id FROM games").fetchall()
    assert len(games) == 48 and set(kept) <= set(games)


def test_a_merge_that_runs_out_of_room_leaves_no_half_merged_store(tmp_path: Path) -> None:
    """Its inserts failing (a full disk) end the merge in one line, and no half-merged file
    is left."""
    config = write_config(tmp_path, extra="deals = 8")  # 24 games: shards of about 72 KiB
    shards = [tmp_path / f"s{i}.db" for i in (1, 2)]
    for i, shard in enumerate(shards, 1):
        assert run(config, shard, "--shard", f"{i}/2").returncode == 0
    merged = tmp_path / "m.db"
    out = subprocess.run(
        [sys.executable, "-m", "referee", "tournament", "merge", *map(str, shards), "--out",
         str(merged)], cwd=tmp_path, capture_output=True, text=True, timeout=60,
        preexec_fn=files_limited_to(96 * 1024))  # more than SQLite's 32 KiB -shm files
    refused(out, f"{merged}: ")
    assert not merged.exists()
    assert in_process.referee("tournament", "merge", *map(str, shards), "--out", str(merged),
                   cwd=tmp_path, timeout=60).returncode == 0
    assert sqlite3.connect(merged).execute("SELECT COUNT(*) FROM games").fetchone() == (24,)
    # A shard whose 32 KiB -shm file cannot be written is not "not a results store".
    out = subprocess.run(
        [sys.executable, "-m", "referee", "tournament", "merge", *map(str, shards), "--out",
         str(tmp_path / "m2.db")], cwd=tmp_path, capture_output=True, text=True, timeout=60,
        preexec_fn=files_limited_to(16 * 1024))
    refused(out, f"cannot open {shards[0]}: disk I/O error")


READER = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1])  # an empty database, which the run makes its store
c.execute("PRAGMA journal_mode=WAL").fetchone()
c.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # a reader of the WAL from now
print("reading", flush=True)
time.sleep(60)
"""


READERS = """
import json, os, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from tests import in_process
done = []
for args in json.loads(sys.argv[3]):
    out = in_process.referee(*args, cwd=Path.cwd(), timeout=60)
    done.append([out.returncode, out.stdout, out.stderr, sorted(os.listdir(sys.argv[2]))])
print(json.dumps(done))
"""


def read_as_user(cwd: Path, folder: Path, *commands: list[str]
                 ) -> list[tuple[subprocess.CompletedProcess[str], list[str]]]:
    """Each `referee` command run, one after the other, in one process without root's power
    over permissions (`without_reading_all`): a folder it may not write holds for it; with
    the names in `folder` as each ended.  The commands run as `in_process` runs them (a
    process for each would start Python, numpy and scipy again for each)."""
    out = subprocess.run([*without_reading_all(), sys.executable, "-c", READERS, str(ROOT),
                          str(folder), json.dumps(commands)], cwd=cwd, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [(subprocess.CompletedProcess(["referee", *args], code, stdout, stderr), beside)
            for args, (code, stdout, stderr, beside) in zip(commands, json.loads(out.stdout),
                                                           strict=True)]


@pytest.mark.slow
def test_a_store_is_read_where_it_cannot_be_written_and_readers_leave_nothing_beside_it(
        tmp_path: Path) -> None:
    """A store is in WAL mode.  In a folder its readers cannot write (published results, a
    class share), a store with no -wal file is read as it is (not "attempt to write a
    readonly database"), and one whose -wal file holds games is refused with one line saying
    so, also through a link (never partial results).  Everywhere else a reader or `merge`
    leaves no -shm or -wal file beside it, and a reader that closes last, as a run ends, folds
    the last games into the store, so that whoever copies the store alone has them all."""
    shared = tmp_path / "shared"
    shared.mkdir()
    config = write_config(tmp_path, extra="deals = 1")
    db = shared / "r.db"
    assert run(config, db).returncode == 0
    first = game_ids(db)[0]
    readers = (["leaderboard", str(db)], ["report", str(db), "--out", "site"],
               ["replay", "--db", str(db), "-q", first])
    try:
        shared.chmod(0o555)
        for args, (out, beside) in zip(readers, read_as_user(tmp_path, shared, *readers),
                                       strict=True):
            assert out.returncode == 0, (args, out.stderr)
            assert beside == ["r.db"], args
    finally:
        shared.chmod(0o755)
    # A reader open as the run ends (then killed): the last games stay in the -wal file.
    db.unlink()
    reader = subprocess.Popen([sys.executable, "-c", READER, str(db)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert reader.stdout is not None and reader.stdout.readline() == "reading\n"
        assert run(config, db).returncode == 0
    finally:
        reader.kill()
        reader.wait()
    (shared / "r.db-shm").unlink()  # as when the store is copied with its -wal file only
    assert (shared / "r.db-wal").stat().st_size > 0
    (tmp_path / "link.db").symlink_to(db)
    paths = (db, tmp_path / "link.db")
    try:
        shared.chmod(0o555)
        for path, (out, _) in zip(paths, read_as_user(tmp_path, shared, *(
                ["leaderboard", str(path)] for path in paths)), strict=True):
            refused(out, f"cannot open {path}: ",
                    "its -wal file holds games not yet written into it")
    finally:
        shared.chmod(0o755)
    assert in_process.referee("leaderboard", str(db), cwd=tmp_path).returncode == 0  # folds them in
    assert sorted(p.name for p in shared.iterdir()) == ["r.db"]
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone() == (3,)
    (shared / "r.db-wal").touch()  # an empty one holds nothing: the store is read
    try:
        shared.chmod(0o555)
        [(out, _)] = read_as_user(tmp_path, shared, ["leaderboard", str(db)])
        assert out.returncode == 0, out.stderr
    finally:
        shared.chmod(0o755)
    # Where the folder can be written, merge leaves nothing beside the shards either.
    shards = [tmp_path / f"s{i}.db" for i in (1, 2)]
    for i, shard in enumerate(shards, 1):
        assert run(config, shard, "--shard", f"{i}/2").returncode == 0
    merged = in_process.referee("tournament", "merge", *map(str, shards), "--out",
                                str(tmp_path / "m.db"), cwd=tmp_path)
    assert merged.returncode == 0, merged.stderr
    assert sorted(p.name for p in tmp_path.glob("*.db*")) == ["link.db", "m.db", "s1.db",
                                                              "s2.db"]


def test_a_reader_in_the_middle_of_a_read_does_not_hold_up_a_run(tmp_path: Path) -> None:
    """A run resumes and finishes while `report` or `leaderboard` is partway through a read
    of its store (which holds its read transaction until it is killed): the store is in WAL
    mode, so the writer neither waits for the reader nor fails with "database is locked"."""
    config = write_config(tmp_path)
    db = tmp_path / "r.db"
    assert run(config, db).returncode == 0
    reader = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], "
         "isolation_level=None); c.execute('BEGIN'); c.execute('SELECT * FROM games')"
         ".fetchone(); print('reading', flush=True); sys.stdin.read()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert reader.stdout is not None and reader.stdout.readline() == "reading\n"
        again = run(config, db)
        assert again.returncode == 0, again.stderr
        assert reader.poll() is None, "the reader was gone before the run ended"
    finally:
        reader.kill()
        reader.wait()


def test_a_second_run_on_a_store_being_written_is_refused(tmp_path: Path) -> None:
    """A second run on a --db that a run is writing is refused in one line, and leaves the
    first's store alone: the games are not all played twice, each run claiming them all."""
    gate = tmp_path / "go"
    held = tmp_path / "held.py"  # says hello once `gate` exists: the first run waits for it
    held.write_text(f"import os, runpy, time\nwhile not os.path.exists({str(gate)!r}):\n"
                    f"    time.sleep(0.01)\nrunpy.run_path({str(FIRST_LEGAL)!r}, "
                    f"run_name='__main__')\n")
    config = write_config(tmp_path, extra="[limits]\nstartup_time = 120")
    config.write_text(config.read_text().replace(str(FIRST_LEGAL), str(held), 1))
    db = tmp_path / "x.db"
    first = subprocess.Popen([sys.executable, "-m", "referee", "tournament", "run", str(config),
                              "--db", str(db), "-q"], cwd=tmp_path, stderr=subprocess.PIPE,
                             text=True)
    try:
        wait_until(lambda: db.exists() and db.stat().st_size > 0, "the first run's store",
                   process=first)
        second = run(config, db)
    finally:
        gate.touch()
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    refused(second, f"{db} is being written by another run")
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone() == (3,)
    again = in_process.referee("tournament", "run", str(config), "--db", str(db), cwd=tmp_path)
    assert again.returncode == 0 and "0 games played, 3 were already stored" in \
        again.stderr, again.stderr


def test_tables_in_a_gauntlet_is_named(tmp_path: Path) -> None:
    """`tables` samples a round robin; in a gauntlet it is refused, not silently ignored."""
    config = write_config(tmp_path, extra='format = "gauntlet"\nbaselines = ["b0", "b1"]\n'
                                          "tables = 1")
    refused(run(config, tmp_path / "x.db"), "tables: a gauntlet plays every entrant's table")


def game_ids(db: Path) -> list[str]:
    """The ids of the games stored in `db`, in order."""
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id")]
    finally:
        con.close()


def test_a_write_protected_store_is_read_and_nothing_left_beside_it(tmp_path: Path) -> None:
    """chmod 444 in a folder that can be written: readers leave no -shm or -wal file beside
    it (they could not fold one in or remove it)."""
    config = write_config(tmp_path, extra="deals = 1")
    db = tmp_path / "r.db"
    assert run(config, db).returncode == 0
    first = game_ids(db)[0]
    db.chmod(0o444)
    readers = (["leaderboard", str(db)], ["replay", "--db", str(db), "-q", first])
    for args, (out, beside) in zip(readers, read_as_user(tmp_path, tmp_path, *readers),
                                   strict=True):
        assert out.returncode == 0, (args, out.stderr)
        assert [name for name in beside if name.startswith("r.db")] == ["r.db"], args


def test_a_damaged_game_in_a_store_is_named_not_a_traceback(tmp_path: Path) -> None:
    """A store damaged or edited by hand: a record that is not zlib, or not JSON lines, gets
    the report's "no viewer" page (the site keeps its index) and one line from replay; a
    result without its ranks is one line naming the game.  None is a traceback (zlib.error,
    JSONDecodeError, KeyError)."""
    config = write_config(tmp_path, extra="deals = 1")
    db = tmp_path / "r.db"
    assert run(config, db).returncode == 0
    one, two, three = game_ids(db)[:3]
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET record = x'00ff' WHERE game_id = ?", (one,))
        con.execute("UPDATE games SET record = ? WHERE game_id = ?",
                    (__import__("zlib").compress(b"not json\n"), two))
    for game in (one, two):
        refused(in_process.referee("replay", "--db", str(db), game, cwd=tmp_path),
                f"the stored record of game {game} cannot be read")
    site = in_process.referee("report", str(db), "--out", "site", "--all-games", cwd=tmp_path)
    assert site.returncode == 0, site.stderr
    assert (tmp_path / "site" / "index.html").exists()
    assert "cannot be read" in (tmp_path / "site" / "games" / f"{one}.html").read_text()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET result = json_remove(result, '$.ranks') "
                    "WHERE game_id = ?", (three,))
    for args in (["leaderboard", str(db)], ["report", str(db), "--out", "site2"]):
        refused(in_process.referee(*args, cwd=tmp_path),
                f"the stored result of game {three} is damaged: ranks: Field required")
    assert not (tmp_path / "site2").exists()


def test_a_tournament_file_that_cannot_be_read_as_toml_is_one_line(tmp_path: Path) -> None:
    """A tournament file nested 600 levels deep (a RecursionError traceback before), one that
    is not UTF-8, one over the size bound, a named pipe (a hang before), and a bot's script
    given for the file (said to be most likely the wrong file): `run` (and `plan`) says what
    is wrong with it in one line, and makes no store."""
    cases: list[tuple[str, str]] = []
    deep = tmp_path / "deep.toml"
    deep.write_text(write_config(tmp_path).read_text() + "x = " + "[" * 600 + "\n")
    cases.append((str(deep), "is not valid TOML: nested too deeply"))
    latin = tmp_path / "latin.toml"
    latin.write_bytes(write_config(tmp_path).read_bytes() + b"# caf\xe9\n")
    cases.append((str(latin), "is not UTF-8 text"))
    huge = tmp_path / "huge.toml"
    huge.write_text(write_config(tmp_path).read_text() + "#" * (9 * 1024 * 1024) + "\n")
    cases.append((str(huge), "is larger than 8 MiB"))
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    cases.append((str(fifo), "is not a regular file"))
    script = tmp_path / "bot.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    cases.append((str(script), "is not valid TOML: Expected '=' after a key in a key/value "
                               "pair (at line 1, column 8); a TOML file is wanted here, and "
                               "this is a .py file: the wrong file?"))
    refused(referee("tournament", "run", str(deep), "--db", str(tmp_path / "x.db"),
                    cwd=tmp_path, timeout=60),  # a process: Python's stack as a user's is
            f"error: {deep} is not valid TOML: nested too deeply")
    for path, why in cases:  # `plan` reads the file as `run` does; here (the stack a
        # process has is the run's above), with a hang guard for the pipe
        refused(in_process.referee("tournament", "plan", path, "--db", str(tmp_path / "x.db"),
                                   cwd=tmp_path, timeout=60), f"error: {path} {why}")
    assert not (tmp_path / "x.db").exists()


def test_plan_refuses_what_run_would_refuse_naming_the_changed_setting(tmp_path: Path) -> None:
    """A file whose seed changed since its store was made, and one naming an edition that is
    not there: `plan` says so in the one line `run` would, not a plan `run` then refuses;
    the line names the setting that changed, and the store's tournament where the file names
    another."""
    config, db = write_config(tmp_path), tmp_path / "t.db"
    assert run(config, db).returncode == 0
    config.write_text(config.read_text().replace("seed = 3", "seed = 4"))
    for command in ("plan", "run"):
        refused(in_process.referee("tournament", command, str(config), "--db", str(db), "-q"
                                   if command == "run" else "--json", cwd=tmp_path),
                f"{db} holds the games of tournament 'errors' and this file changes seed (3 in "
                "the store, 4 in this file), which changes the games: give another --db, or "
                "restore the file")
    config.write_text(config.read_text().replace('name = "errors"', 'name = "winter"'))
    refused(in_process.referee("tournament", "run", str(config), "--db", str(db), "-q",
                               cwd=tmp_path),
            "holds the games of tournament 'errors', not 'winter', and this file changes seed")
    config.write_text(config.read_text().replace('name = "winter"', 'name = "errors"')
                      .replace("seed = 4", "seed = 3") + "[limits]\nmove_time = 0.5\n")
    refused(in_process.referee("tournament", "plan", str(config), cwd=tmp_path),
            "this file changes limits.move_time (1 in the store, 0.5 in this file)")
    config.write_text(config.read_text().replace("[limits]\nmove_time = 0.5\n", "")
                      .replace("seed = 3", 'seed = 3\nedition = "modern"'))
    refused(in_process.referee("tournament", "plan", str(config), cwd=tmp_path),
            "edition: no edition")


def test_plan_names_the_looks_of_a_run_that_stops_when_settled(tmp_path: Path) -> None:
    """`until`: `plan` names the looks and the error each may spend, as `run` does; with too
    few deals for a look before the last, it says that `until` cannot stop the run early, and
    with too few for the exact test to reach its level at all, that it can settle nothing."""
    config = write_config(tmp_path, 'until = "separated"\ndeals = 16')
    text = in_process.referee("tournament", "plan", str(config), cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert ("until the leader is found stronger than every other entrant: looks after 8 "
            "(1.25%), 16 (3.75%) deals") in text.stdout
    as_json = in_process.referee("tournament", "plan", str(config), "--json", cwd=tmp_path)
    assert json.loads(as_json.stdout)["until"].startswith("until the leader")
    assert "one look" not in text.stdout
    config = write_config(tmp_path, 'until = "separated"\ndeals = 6')
    few = in_process.referee("tournament", "plan", str(config), cwd=tmp_path).stdout
    assert ("; one look, after the last deal, so it cannot stop the run early: the first look "
            "comes after 8 deals; deals = 9 or more let it stop early") in few, few
    config = write_config(tmp_path, 'until = "separated"\ndeals = 4')
    fewer = in_process.referee("tournament", "plan", str(config), cwd=tmp_path).stdout
    assert "; the run can settle nothing: at 4 deals" in fewer and \
        "; deals = 6 or more would let it" in fewer, fewer


def test_plan_names_deals_from_which_on_every_run_can_stop_early(tmp_path: Path) -> None:
    """The deals `plan` says would let a run stop early let every run with as many or more
    do so: one table of three until ranked cannot stop early with 15 deals (its first look
    gets too little error for the exact test), and plan says 17 or more, not 9 (15 is more
    than 9); and a field of several tables, judged by the block model, can stop early from
    9 deals on (its first look after 8), not from the 17 a single table would need."""
    from referee.leaderboard.sequential import Until, deals_to_settle, first_possible

    def plan(deals: int, extra: str, bots: int) -> str:
        path = write_config(tmp_path, f"deals = {deals}\n{extra}")
        path.write_text(path.read_text() + "".join(
            f'[[bots]]\nname = "r{i}"\ncommand = "{BOT_PYTHON} {FIRST_LEGAL}"\n'
            for i in range(bots - 3)))
        out = in_process.referee("tournament", "plan", str(path), cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        return out.stdout

    one_table = plan(15, 'until = "ranked"', 3)
    assert ("the run cannot stop early: the first look that could settle anything is the "
            "last, after 15 deals") in one_table and \
        "; deals = 17 or more let it stop early" in one_table, one_table
    tables = plan(6, 'until = "ranked"', 5)
    assert "; deals = 9 or more let it stop early" in tables, tables
    fields: list[tuple[Until, int]] = [("separated", 4), ("ranked", 3), ("ranked", 40)]
    for until, entrants in fields:  # from the deals said on, every run's first look can
        early = deals_to_settle(until, entrants, early=True)
        assert all((first_possible(most, until, entrants, True) or most) < most
                   for most in range(early, 200)), (until, entrants, early)


def gauntlet_file(tmp_path: Path, deals: int, bots: int, extra: str = "") -> Path:
    """`write_config`'s file as a gauntlet of `deals` deals: baselines b0 and b1, and
    candidates b2 up to b{bots - 1} (first-legal bots)."""
    path = write_config(tmp_path, f'format = "gauntlet"\ndeals = {deals}\n'
                                  f'baselines = ["b0", "b1"]\n{extra}')
    path.write_text(path.read_text() + "".join(
        f'[[bots]]\nname = "b{i}"\ncommand = "{BOT_PYTHON} {FIRST_LEGAL}"\n'
        for i in range(3, bots)))
    return path


def test_plan_says_where_a_qualifiers_looks_could_first_settle_anything(
        tmp_path: Path) -> None:
    """A gauntlet qualifier of 5 candidates until the top 2 are known: at a look, the exact
    test over 8 deals cannot reach Holm's first level for its 10 pairs, so `plan` names the
    first look that could settle anything and why; with 16 deals that is the last, so the run
    cannot stop early, and with 4 it can settle nothing: each says how many deals would."""
    def qualifier(deals: int) -> str:
        path = gauntlet_file(tmp_path, deals, 7, 'until = "top"\ntop = 2')
        out = in_process.referee("tournament", "plan", str(path), cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        return out.stdout

    why = ("at 8 deals the exact sign-flip test's smallest p-value, 1/2^8 = 0.391%, is above "
           "Holm's first level there, {} over 20 one-sided tests (10 pairs, both ways) = {}")
    assert ("; the first look that could settle anything is after 16 deals: "
            + why.format("0.312%", "0.0156%")) in qualifier(32)
    assert ("; the run cannot stop early: the first look that could settle anything is the "
            f"last, after 16 deals ({why.format('1.25%', '0.0625%')}); deals = 17 or more let "
            "it stop early") in qualifier(16)
    assert ("; the run can settle nothing: at 4 deals the exact sign-flip test's smallest "
            "p-value, 1/2^4 = 6.25%, is above Holm's first level there, 5% over 20 one-sided "
            "tests (10 pairs, both ways) = 0.25%; deals = 9 or more would let it"
            ) in qualifier(4)


def test_an_entrant_that_sets_a_variable_as_a_shell_would_is_told_to_write_env(
        tmp_path: Path) -> None:
    """A command that begins `VAR=value`, as in a shell (no shell runs it): `plan` warns that
    a run would leave the entrant out, and says to write `env VAR=value ...`."""
    config = write_config(tmp_path)
    config.write_text(config.read_text() + '[[bots]]\nname = "seeded"\n'
                      'command = "PYTHONHASHSEED=0 python3 bot.py"\n')
    planned = in_process.referee("tournament", "plan", str(config), cwd=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert ("warning: run would leave out seeded: its command cannot run: command "
            "'PYTHONHASHSEED=0' not found (to set a variable, write env PYTHONHASHSEED=0 "
            "python3 bot.py)") in planned.stdout, planned.stdout


def test_an_entrant_whose_script_is_not_there_is_left_out(tmp_path: Path) -> None:
    """An entrant whose command runs an interpreter on a script that is not there (a typo in
    its path) is left out with a line naming the script, as one whose program is missing
    is; it is not played to crash in every game and sit last as if it had played.  `plan`
    warns of it first, and of an entrant whose dir is not there, without building anything."""
    config = write_config(tmp_path)
    config.write_text(config.read_text() + '[[bots]]\nname = "typo"\n'
                      f'command = "{BOT_PYTHON} -u bots/firstlegal.py --seed 2"\n'
                      '[[bots]]\nname = "gone"\ncommand = "./bot"\nbuild = "make"\n'
                      'dir = "nothere"\n')
    planned = in_process.referee("tournament", "plan", str(config), cwd=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert (f"warning: run would leave out typo: its command cannot run: bots/firstlegal.py "
            f"not found in {tmp_path}") in planned.stdout, planned.stdout
    assert (f"warning: run would leave out gone: its directory {tmp_path / 'nothere'} does "
            "not exist (up to 18 of its games would be skipped: those not stored)"
            ) in planned.stdout, planned.stdout
    as_json = in_process.referee("tournament", "plan", str(config), "--json", cwd=tmp_path)
    assert sorted(json.loads(as_json.stdout)["left_out"]) == ["gone", "typo"]
    db = tmp_path / "t.db"
    out = run(config, db)
    assert out.returncode == 0, out.stderr
    assert (f"left out typo: its command cannot run: bots/firstlegal.py not found in "
            f"{tmp_path}") in out.stderr
    assert "27 games skipped (left-out bots)" in out.stderr, out.stderr


def test_plan_warns_of_rotations_over_an_odd_number_of_deals(tmp_path: Path) -> None:
    """`seat_orders = "rotations"` over one deal keeps each table in one cyclic order: `plan`
    warns that copies of one bot can come out apart, and names the remedies; two deals (the
    second reversing the first) and balanced orders get no such warning."""
    config = write_config(tmp_path)
    text = in_process.referee("tournament", "plan", str(config), cwd=tmp_path).stdout
    assert ('warning: seat_orders = "rotations" with an odd number of deals' in text
            and "two copies of one bot can come out apart" in text), text
    as_json = in_process.referee("tournament", "plan", str(config), "--json", cwd=tmp_path)
    assert "balanced" in json.loads(as_json.stdout)["seat_orders_warning"]
    (tmp_path / "balanced").mkdir()
    (tmp_path / "two").mkdir()
    balanced = write_config(tmp_path / "balanced")
    balanced.write_text(balanced.read_text().replace('"rotations"', '"balanced"'))
    for fair in (write_config(tmp_path / "two", "deals = 2"), balanced):
        out = in_process.referee("tournament", "plan", str(fair), cwd=fair.parent)
        assert out.returncode == 0 and "warning: seat_orders" not in out.stdout, \
            (fair, out.stdout)


def test_plan_warns_of_a_gauntlet_with_too_few_deals_to_separate_anything(
        tmp_path: Path) -> None:
    """A gauntlet of 2 baselines and 13 candidates over 6 deals: every deal is at every
    table, so pairs are compared deal by deal, and the board's pairs, the 13 candidates'
    (baselines are not placed), need 12 deals before any can be separated (15 entrants would
    need 13): `plan` warns and names them (and --json); 12 deals, or a round robin of many
    tables over one deal (judged by the block model), get no such warning.  The plan says it
    is a gauntlet, and of which baselines."""
    def gauntlet(deals: int) -> Path:
        return gauntlet_file(tmp_path, deals, 15)

    says = ("warning: with 6 deals the leaderboard can separate no pair: every deal is at "
            "every table, so entrants are compared deal by deal (the exact test), and 13 "
            "candidates need at least 12 deals (familywise error 0.05); give deals = 12 or more")
    text = in_process.referee("tournament", "plan", str(gauntlet(6)), cwd=tmp_path).stdout
    assert says in text, text
    assert ("a gauntlet: 13 candidates, each at tables of its own with the baselines b0, b1; "
            "the board places the candidates alone") in text, text
    as_json = in_process.referee("tournament", "plan", str(gauntlet(6)), "--json", cwd=tmp_path)
    assert json.loads(as_json.stdout)["deals_warning"] == says.removeprefix("warning: ")
    assert json.loads(as_json.stdout)["baselines"] == ["b0", "b1"]
    text = in_process.referee("tournament", "plan", str(gauntlet(12)), cwd=tmp_path).stdout
    assert "can separate no pair" not in text, text
    field = write_config(tmp_path)
    field.write_text(field.read_text() + "".join(
        f'[[bots]]\nname = "r{i}"\ncommand = "{BOT_PYTHON} {FIRST_LEGAL}"\n' for i in range(3)))
    text = in_process.referee("tournament", "plan", str(field), cwd=tmp_path).stdout
    assert "20 tables of 3" in text and "can separate no pair" not in text, text


def test_plan_warns_of_a_sample_of_one_deal_that_seats_every_entrant_once(
        tmp_path: Path) -> None:
    """A sampled final of 6 entrants at 2 tables of 3 over one deal: each plays one deal of
    one table, which the block model fits exactly, so no pair can be separated, and `plan`
    says so (and --json); two deals, or a field whose entrants sit at several tables, get no
    such warning.  Over two deals the two tables still share nobody, so the board can name
    no winner (no pair across them is compared), and `plan` says that instead, naming the
    tables that would link the field; 10 entrants at 5 tables that link them are not told so."""
    def sample(deals: int, tables: int) -> Path:
        path = write_config(tmp_path, f"deals = {deals}\ntables = {tables}")
        path.write_text(path.read_text() + "".join(
            f'[[bots]]\nname = "r{i}"\ncommand = "{BOT_PYTHON} {FIRST_LEGAL}"\n'
            for i in range(3)))
        return path

    says = ("warning: with 1 deal the leaderboard can separate no pair: every entrant plays one "
            "deal of one table, which fits its strength exactly and leaves no residual to show "
            "its noise (the block model's tests are over deals); give deals = 2 or more")
    text = in_process.referee("tournament", "plan", str(sample(1, 2)), cwd=tmp_path).stdout
    assert "2 tables of 3" in text and says in text, text
    as_json = in_process.referee("tournament", "plan", str(sample(1, 2)), "--json",
                                 cwd=tmp_path)
    assert json.loads(as_json.stdout)["deals_warning"] == says.removeprefix("warning: ")
    for deals, tables in ((2, 2), (1, 4)):
        text = in_process.referee("tournament", "plan", str(sample(deals, tables)),
                                  cwd=tmp_path).stdout
        assert "can separate no pair" not in text, text
        assert ("can name no winner" in text) == (tables == 2), text
    text = in_process.referee("tournament", "plan", str(sample(2, 2)), cwd=tmp_path).stdout
    assert ("warning: with 2 tables the leaderboard can name no winner: its tables split the "
            "entrants into 2 groups that share no table, and no game links a pair across "
            "groups: none is compared, however many deals are played; give tables = 3 or more, "
            "so that every entrant is linked to every other") in text, text
    linked = sample(2, 5)  # 10 entrants at 5 tables of 3 that link them all
    linked.write_text(linked.read_text() + "".join(
        f'[[bots]]\nname = "s{i}"\ncommand = "{BOT_PYTHON} {FIRST_LEGAL}"\n' for i in range(4)))
    text = in_process.referee("tournament", "plan", str(linked), cwd=tmp_path).stdout
    assert "5 tables of 3" in text and "can name no winner" not in text, text


@pytest.mark.parametrize(("change", "says"), [
    (("seed = 3", "seed = 3\ndeal = 2"), "deal: Extra inputs are not permitted (did you mean "
                                         "'deals'?)"),
    (('name = "b1"\ncommand', 'name = "b1"\ncomand'), "bots #2 (b1) comand: Extra inputs are "
                                                       "not permitted (did you mean 'command'?)"),
    (('name = "b1"\n', ''), "bots #2: name: give one: an entry with its own command is not "
                            "named by its folder or bot.toml, as an entry of a dir alone is"),
    (("seed = 3", "seed = 3\n[limit]\nmove_time = 1"), "did you mean 'limits'?"),
    (('name = "b1"', 'name = "b 1"'), "bots #2 (b 1) name: 'b 1': a name may hold only letters, "
                                      "digits and _ . + -"),
    (('name = "b1"\ncommand', 'name = "b1"\nbuild'), "bots #2 (b1): give its command (what "
                                                     "runs the bot) or its dir (a folder "
                                                     "holding the bot)"),
    (("seed = 3", 'seed = 3\nbaselines = ["b0", "b1"]'),
     'baselines: go with format = "gauntlet" (a round robin plays every entrant alike): set '
     "it, or remove baselines"),
    (("seed = 3", 'seed = 3\nformat = "gauntlet"\nbaselines = ["b0", "b1"]\nuntil = "ranked"'),
     "until: a gauntlet's looks compare its candidates, and it has one: there is nothing to "
     "settle; remove until"),
])
def test_a_mistyped_key_is_named_with_the_key_it_was_meant_to_be(
        tmp_path: Path, change: tuple[str, str], says: str) -> None:
    """A key of the file, of a bot or of a table misspelt is one line naming it and the key
    meant; a bot's name that cannot name files says which characters it may hold; an entry
    with neither command nor dir, one with a command and no name (which no folder names),
    baselines in a round robin and `until` in a gauntlet of one candidate say what they
    need."""
    config = write_config(tmp_path)
    assert change[0] in config.read_text()
    config.write_text(config.read_text().replace(*change, 1))
    refused(in_process.referee("tournament", "plan", str(config), cwd=tmp_path), says)


def test_run_makes_the_folder_of_its_store_and_readers_name_a_missing_one(
        tmp_path: Path) -> None:
    """`run --db results/t.db` makes results/, as `--stderr-dir` makes its folder; a
    reader given a store in a folder that is not there names the folder."""
    config = write_config(tmp_path)
    db = tmp_path / "results" / "day1" / "t.db"
    assert run(config, db).returncode == 0
    assert db.is_file()
    from referee.tournament.store import Store, StoreError

    with pytest.raises(StoreError, match=r"the folder .*gone is not there"):
        Store.for_reading(tmp_path / "gone" / "t.db")


def test_until_separated_on_an_adaptive_schedule_is_refused_as_the_file_key_is(
        tmp_path: Path) -> None:
    """`--until-separated` with `schedule = "adaptive"` is refused in one line, as `until` in
    the file is, before any store is made."""
    config = write_config(tmp_path, 'schedule = "adaptive"\nrounds = 2')
    refused(in_process.referee("tournament", "run", str(config), "--until-separated",
                               cwd=tmp_path),
            "--until-separated: goes with a fixed schedule; an adaptive one stops at its budget")
    assert not (tmp_path / "t.db").exists()


def test_a_store_given_to_a_file_of_another_name_is_renamed_with_a_warning(
        tmp_path: Path) -> None:
    """A file whose tournament has another name than the store's, the games the same: the
    run says the store held the other tournament and is renamed, so that a --db mixed up
    does not pass unseen; the store then holds the file's name.  `plan` says so before, with
    the entrants the run would withdraw (in the store, not in the file)."""
    config, db = write_config(tmp_path), tmp_path / "t.db"
    assert run(config, db).returncode == 0
    config.write_text(config.read_text().replace('name = "errors"', 'name = "winter"'))
    three = config.read_text()
    config.write_text(three + f'[[bots]]\nname = "b3"\ncommand = "{BOT_PYTHON} {FIRST_LEGAL}"\n')
    config.write_text(config.read_text().replace('name = "b0"', 'name = "b9"'))
    planned = in_process.referee("tournament", "plan", str(config), "--db", str(db),
                                 cwd=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert (f"warning: {db} holds tournament 'errors': a run renames it 'winter' (another "
            "--db keeps tournaments apart)\n") in planned.stdout, planned.stdout
    assert re.search(r"\nwarning: a run withdraws b0: in the store, not in the file; its "
                     r"(\d+) stored games are kept, out of the leaderboard, and so out of 2 "
                     r"other entrants' records too \(games each loses: b1 \1, b2 \1\); they "
                     r"count again if the file names it again, unchanged\n",
                     planned.stdout), planned.stdout
    config.write_text(three)
    again = in_process.referee("tournament", "run", str(config), "--db", str(db),
                               cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (f"warning: {db} held tournament 'errors': it is 'winter' now, as this file names "
            "it") in again.stderr, again.stderr
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'name'").fetchone() == ("winter",)
