"""`check` and `play` say when the program they run was built before its sources last
changed: an entrant who edits a bot and forgets to rebuild otherwise watches the old bot and
cannot tell why their change did nothing."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from referee.bots.launch import BotSpec
from referee.bots.stale import stale_program
from tests.in_process import referee

HOUR = 3600.0


def _project(tmp_path: Path, built_ago: float, source_ago: float) -> Path:
    """A Rust-like project: a native program in target/ and its source in src/, each last
    changed that many seconds ago."""
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "target").mkdir()
    (root / "Cargo.toml").write_text("[package]\nname = 'bot'\n")
    program = root / "target" / "bot"
    shutil.copy(shutil.which("false") or "/bin/false", program)
    source = root / "src" / "main.rs"
    source.write_text("fn main() {}\n")
    now = time.time()
    os.utime(program, (now - built_ago, now - built_ago))
    os.utime(source, (now - source_ago, now - source_ago))
    return root


def test_a_program_older_than_its_source_is_named_with_the_source(tmp_path: Path) -> None:
    """A binary built an hour before its source last changed: the note names the binary, the
    source and how much later it changed."""
    _project(tmp_path, built_ago=2 * HOUR, source_ago=HOUR)
    note = stale_program(BotSpec("bot", "./proj/target/bot", cwd=tmp_path))
    assert note is not None
    assert "./proj/target/bot was built before proj/src/main.rs last changed (60 min later)" \
        in note
    assert "rebuild it first" in note


def test_a_program_built_since_its_sources_changed_is_not_noted(tmp_path: Path) -> None:
    """Rebuilt after the last edit: nothing to say."""
    _project(tmp_path, built_ago=60, source_ago=HOUR)
    assert stale_program(BotSpec("bot", "./proj/target/bot", cwd=tmp_path)) is None


def test_sources_in_build_output_and_dependencies_are_not_the_entrants(tmp_path: Path) -> None:
    """A newer .rs under target/ (generated) or node_modules/ is not an edit of the bot."""
    root = _project(tmp_path, built_ago=60, source_ago=HOUR)
    for folder in ("target/debug/build", "node_modules/x"):
        (root / folder).mkdir(parents=True)
        (root / folder / "gen.rs").write_text("")
    assert stale_program(BotSpec("bot", "./proj/target/bot", cwd=tmp_path)) is None


def test_compiled_typescript_is_compared_with_its_typescript(tmp_path: Path) -> None:
    """`node out/bot.js` compiled from src/bot.ts: an edit of the .ts after the build is
    noted; the folder's bot.toml, which builds it, is offered."""
    (tmp_path / "src").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "bot.toml").write_text('build = "tsc"\ncommand = "node out/bot.js"\n')
    (tmp_path / "tsconfig.json").write_text("{}")
    script, source = tmp_path / "out" / "bot.js", tmp_path / "src" / "bot.ts"
    script.write_text("")
    source.write_text("")
    now = time.time()
    os.utime(script, (now - HOUR, now - HOUR))
    note = stale_program(BotSpec("bot", "node out/bot.js", cwd=tmp_path))
    assert note is not None
    assert "out/bot.js was built before src/bot.ts last changed" in note
    assert "give the folder (.): it is built with `tsc` first" in note


def test_a_script_is_not_noted_and_a_build_that_left_the_program_old_is(
        tmp_path: Path) -> None:
    """A Python script is its own source.  A folder's build runs before it plays: a program
    still older than its sources after it was not written by that build (`cargo build`
    writes target/release/bot, the command runs ./target/bot), which the note says."""
    (tmp_path / "bot.py").write_text("")
    assert stale_program(BotSpec("bot", "python3 bot.py", cwd=tmp_path)) is None
    _project(tmp_path, built_ago=2 * HOUR, source_ago=HOUR)
    built_first = BotSpec("bot", "./target/bot", cwd=tmp_path / "proj", build="cargo build")
    assert stale_program(built_first) == (
        "note: ./target/bot is older than src/main.rs (60 min) after its build (`cargo "
        "build`): if that is one of its sources, the build did not write the program the "
        "command runs, which plays the bot as it was before; make the build write it, or the "
        "command run what the build writes")


def test_play_of_a_folder_whose_build_writes_another_file_says_so(tmp_path: Path) -> None:
    """A bot folder whose build succeeds without writing the program its command runs:
    `play` builds it, then notes that the program is older than its sources."""
    root = _project(tmp_path, built_ago=2 * HOUR, source_ago=HOUR)
    (root / "bot.toml").write_text('build = "touch target/other"\ncommand = "./target/bot"\n')
    result = referee("play", str(root), "python3 -c pass", "python3 -c pass", "--seed", "1",
                     cwd=tmp_path)
    assert "note: ./target/bot is older than src/main.rs (60 min) after its build (`touch " \
        "target/other`): if that is one of its sources, the build did not write" \
        in result.stderr, result.stderr


def test_check_prints_the_note_before_it_runs_the_bot(tmp_path: Path) -> None:
    """`referee check` on a stale binary: the note is the first line on stderr; the checks
    still run (here, a program that never says hello fails the first)."""
    _project(tmp_path, built_ago=2 * HOUR, source_ago=HOUR)
    result = referee("check", "./proj/target/bot", cwd=tmp_path)
    assert result.stderr.startswith("note: ./proj/target/bot was built before "
                                    "proj/src/main.rs last changed")
    assert "FAIL  starts and says hello" in result.stdout
    assert result.returncode == 1


def test_an_interpreter_is_not_taken_for_the_entrants_build(tmp_path: Path) -> None:
    """A program given by its absolute path (a Python under ~/.pyenv, beside a Makefile and
    C sources), a virtual environment's link to its Python, or one in a hidden folder, runs a
    bot without being built from the sources around it: no note."""
    root = _project(tmp_path, built_ago=2 * HOUR, source_ago=HOUR)
    program = root / "target" / "bot"
    assert stale_program(BotSpec("bot", f"{program} bot.py", cwd=tmp_path)) is None
    (root / "venv" / "bin").mkdir(parents=True)
    (root / "venv" / "bin" / "python").symlink_to(program)
    assert stale_program(BotSpec("bot", "venv/bin/python bot.py", cwd=root)) is None
    (root / ".venv").mkdir()
    shutil.copy(program, root / ".venv" / "python")
    os.utime(root / ".venv" / "python", (0, 0))
    assert stale_program(BotSpec("bot", ".venv/python bot.py", cwd=root)) is None


def test_a_built_file_its_runtime_runs_by_an_absolute_path_is_noted(tmp_path: Path) -> None:
    """`mono /home/me/bot/bot.exe`: the assembly given by its absolute path, compiled before
    its .cs source last changed, is noted as the relative path is (a C# entrant's edit played
    as the old bot, unnoted)."""
    root = tmp_path / "cs"
    root.mkdir()
    (root / "bot.exe").write_bytes(b"MZ\x90\x00")
    (root / "Strategy.cs").write_text("class Strategy {}\n")
    os.utime(root / "bot.exe", (0, 0))
    note = stale_program(BotSpec("bot", f"mono {root / 'bot.exe'}", cwd=tmp_path))
    assert note is not None and f"{root / 'bot.exe'} was built before cs/Strategy.cs" in note, \
        note


def test_a_program_named_by_its_absolute_path_is_noted_once_with_whole_paths(
        tmp_path: Path) -> None:
    """`referee play ~/bot/target/bot ~/bot/target/bot ...` (the shell makes the path whole),
    built before its source last changed: one note for both seats, naming the source and the
    folder as whole paths too, not as `../` from where play runs."""
    root = _project(tmp_path, built_ago=2 * HOUR, source_ago=HOUR)
    (tmp_path / "elsewhere").mkdir()
    program = str(root / "target" / "bot")
    result = referee("play", program, program, "python3 -c pass", "--seed", "1",
                     cwd=tmp_path / "elsewhere")
    assert result.stderr.count("was built before") == 1, result.stderr
    assert f"note: {program} was built before {root / 'src' / 'main.rs'} last changed " \
        "(60 min later)" in result.stderr, result.stderr


def test_a_native_program_given_by_its_absolute_path_is_noted(tmp_path: Path) -> None:
    """`/home/me/rs/target/release/bot`: a native program given by its absolute path, built
    before its source last changed, is noted as `./target/bot` is, its source named by its
    absolute path when the command runs elsewhere; given a script to run, or in the system's
    folders, an absolutely named program is a runtime, not the entrant's: no note."""
    root = _project(tmp_path, built_ago=2 * HOUR, source_ago=HOUR)
    program = root / "target" / "bot"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    note = stale_program(BotSpec("bot", f"{program} --quiet", cwd=elsewhere))
    assert note is not None and note.startswith(
        f"note: {program} was built before {root / 'src' / 'main.rs'} last changed (60 min "
        "later)"), note
    assert stale_program(BotSpec("bot", f"{program} bot.py", cwd=elsewhere)) is None
    system = shutil.which("true") or "/bin/true"
    assert stale_program(BotSpec("bot", os.path.realpath(system), cwd=elsewhere)) is None


def test_a_copied_environment_and_type_declarations_are_not_the_bots_sources(
        tmp_path: Path) -> None:
    """A virtual environment made with --copies (a real interpreter in venv/bin) beside a C
    header newer than it, and a hand-written bot.js beside a newer types.d.ts: no note."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "Makefile").write_text("")
    venv = tmp_path / "proj" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "include").mkdir()
    shutil.copy(shutil.which("false") or "/bin/false", venv / "bin" / "python")
    os.utime(venv / "bin" / "python", (0, 0))
    (venv / "include" / "header.h").write_text("")
    assert stale_program(BotSpec("bot", "venv/bin/python bot.py", cwd=tmp_path / "proj")) \
        is None
    js = tmp_path / "js"
    js.mkdir()
    (js / "bot.js").write_text("")
    os.utime(js / "bot.js", (0, 0))
    (js / "types.d.ts").write_text("")
    assert stale_program(BotSpec("bot", "node bot.js", cwd=js)) is None


def test_a_java_class_compiled_before_its_source_changed_is_noted(tmp_path: Path) -> None:
    """`java -cp out Bot` runs out/Bot.class: compiled an hour before Bot.java last changed,
    the note names the class file and the source (a Java entrant's edit played as the old
    bot); a packaged class (`-cp out app.Main`) is found under its package's folder."""
    (tmp_path / "bot.toml").write_text('command = "java -cp out Bot"\n')
    (tmp_path / "out" / "app").mkdir(parents=True)
    now = time.time()
    for name in ("out/Bot.class", "out/app/Main.class"):
        (tmp_path / name).write_bytes(b"\xca\xfe\xba\xbe")
        os.utime(tmp_path / name, (now - 2 * HOUR, now - 2 * HOUR))
    (tmp_path / "Bot.java").write_text("class Bot {}\n")
    os.utime(tmp_path / "Bot.java", (now - HOUR, now - HOUR))
    note = stale_program(BotSpec("bot", "java -cp out Bot", cwd=tmp_path))
    assert note is not None and note.startswith(
        "note: out/Bot.class was built before Bot.java last changed (60 min later)"), note
    note = stale_program(BotSpec("bot", "java -Xmx1g -classpath out app.Main", cwd=tmp_path))
    assert note is not None and note.startswith("note: out/app/Main.class was built before"), \
        note
    os.utime(tmp_path / "out/Bot.class", (now, now))
    assert stale_program(BotSpec("bot", "java -cp out Bot", cwd=tmp_path)) is None
    assert stale_program(BotSpec("bot", "java -jar bot.jar", cwd=tmp_path)) is None
