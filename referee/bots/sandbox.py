"""A bot's limits and its sandbox, applied as command prefixes.

`wrap_command(argv, cwd=..., limits=..., sandbox=...)` turns a bot's command into the one that
runs it under its limits, with util-linux's `prlimit` as a prefix (never `preexec_fn`, which is
unsafe in a threaded process), and, with `sandbox="bwrap"`, inside bubblewrap:

- no network and its own PID, IPC and UTS namespaces (`--unshare-all`), no capabilities;
- read-only: /usr, /bin, /lib..., a short list of /etc entries that runtimes need, the bot's
  own folder (`home`) or, without one, only the files its command names (never the folder
  around them, which may hold a results store, logs and other bots), the installation of its
  interpreter when that lives outside /usr, and any `read_only` paths; a private tmpfs at
  /tmp (HOME and TMPDIR) as scratch space, the only place it can write;
- nothing else of the host: other bots, results stores, home directories are not there;
- the environment cleared but for PATH (system folders), HOME, TMPDIR, LANG, LC_* and TZ.

`check_sandbox_available(mode)` raises `SandboxError` with a clear message when the sandbox
cannot run here (bubblewrap missing, user namespaces blocked); call it before any game.

The limits themselves are `limits.py`'s `BotLimits`.  Those that no rlimit can express (CPU per
game over all of a bot's processes, the number of processes, processes escaping the bot's
process group) are watched from /proc (`watchdog.py`); the rlimits set here are the hard
backstops.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from .limits import BotLimits

SandboxMode = Literal["none", "bwrap"]
SANDBOX_MODES: tuple[SandboxMode, ...] = ("none", "bwrap")

SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# /etc entries a runtime may read (dynamic linker, alternatives, locale, users and hosts files,
# the JVM's and Perl's and Python's configuration); shadow files, keys and the rest stay out.
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "timezone",
        "passwd", "group", "nsswitch.conf", "hosts", "host.conf", "gai.conf", "protocols",
        "services", "mime.types", "os-release", "debian_version", "locale.alias", "ssl/certs",
        "ca-certificates", "perl", "python3", "python3.*", "java-*", "ssl/openssl.cnf",
        "mono")  # mono's dllmap: without it mcs cannot open a source file
_ENV_KEPT = ("LANG", "LANGUAGE", "TZ")


class SandboxError(Exception):
    """The sandbox cannot be used (here, or for this bot); the message says why."""


# How to install prlimit where it is missing: util-linux is an Essential package of Debian and
# Ubuntu (in their slim images too), but not installed in every image (amazonlinux:2023, on
# which PrairieLearn's own grader images are built, needs `dnf install util-linux`).
PRLIMIT_FIX = ("install util-linux: `apt-get install util-linux` on Debian or Ubuntu, "
               "`dnf install util-linux` on Fedora or Amazon Linux")


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if name == "prlimit":
            raise SandboxError("prlimit is not installed, and every bot runs under its limits "
                               f"with it: {PRLIMIT_FIX}")
        raise SandboxError(f"{name} is not installed (Debian package bubblewrap)")
    return path


def resolve_program(argv0: str, cwd: Path) -> Path | None:
    """The program file a command runs (relative names against `cwd`, bare names on PATH)."""
    if "/" in argv0:
        path = Path(os.path.normpath(cwd / argv0))
        return path if path.is_file() and os.access(path, os.X_OK) else None
    found = shutil.which(argv0)
    return Path(found) if found else None


def named_paths(argv: Sequence[str], cwd: Path) -> list[Path]:
    """The files a bot's command names: its program when given as a relative path (`./bot`;
    an absolute one is an interpreter, shown with its installation) and its first argument
    naming a file, the script (`python3 bots/me.py` names `bots/me.py`).  The sandbox shows
    these alone of a bot without a folder of its own: the folder around them may hold the
    results store, logs and other bots (a bot of more files needs its own folder, its `dir`,
    or `read_only` paths)."""
    args = (Path(os.path.normpath(cwd / a)) for a in argv[1:] if not a.startswith("-"))
    script = next((p for p in args if p.is_file()), None)
    named = [] if script is None else [script]
    if "/" in argv[0] and not os.path.isabs(argv[0]):
        program = Path(os.path.normpath(cwd / argv[0]))
        if program.is_file() and program not in named:
            named.insert(0, program)
    return named


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def _installation(program: Path) -> Path:
    """What to show of a program outside the system folders: the folder above its `bin/`
    when that is an installation (it has `lib/`: a venv, a pyenv version, a JDK), else the
    file alone.  Never a whole home directory or /."""
    top = program.parent.parent
    homes = {Path("/root"), Path.home(), Path("/home"), Path("/")}
    if program.parent.name == "bin" and (top / "lib").is_dir() and top not in homes \
            and top.parent != Path("/home"):
        return top
    return program


def other_interpreters(names: Sequence[str] = ("python3", "node", "perl")) -> list[str]:
    """A line for each interpreter that a bare name runs in the sandbox (the system's) other
    than the one on this process's PATH (pyenv's, a virtual environment's), whose packages
    a bot may need: its bare command finds them here and not in the sandbox."""
    out = []
    for name in names:
        here, inside = shutil.which(name), shutil.which(name, path=SYSTEM_PATH)
        if not here or not inside or os.path.abspath(here) == os.path.abspath(inside):
            continue
        venv = (Path(here).parent.parent / "pyvenv.cfg").is_file()  # a link to the system's
        if venv or os.path.realpath(here) != os.path.realpath(inside):
            out.append(f"{name} on your PATH is {here}, but a bare {name} in the sandbox is "
                       f"{inside}, which may lack the packages yours has: a bot that needs "
                       "them gives the interpreter's path in its command")
    return out


def _sandbox_program(argv: list[str], cwd: Path, visible: list[Path]) -> tuple[list[str],
                                                                              list[Path]]:
    """The command as the sandbox runs it, and the host paths it needs to see besides."""
    argv0 = argv[0]
    if "/" not in argv0 and shutil.which(argv0, path=SYSTEM_PATH):
        return argv, []  # found in the sandbox's own PATH
    program = resolve_program(argv0, cwd)
    if program is None:
        return argv, []  # fails inside, with the error in its stderr
    extra: list[Path] = []
    for candidate in (program, Path(os.path.realpath(program))):
        if not _inside(candidate, visible + extra):
            extra.append(_installation(candidate))
    return [str(program), *argv[1:]], extra


def _layout(argv: Sequence[str], cwd: Path, home: Path | None,
            read_only: Sequence[Path]) -> tuple[list[Path], list[Path], list[str], list[Path]]:
    """What the sandbox shows of the host besides the system: the bot's own paths (its
    `home`, else those its command names), its `read_only` paths; the command as run inside,
    and the paths that needs (its program's installation)."""
    cwd = Path(os.path.abspath(cwd))
    own = [Path(os.path.abspath(home))] if home is not None else named_paths(argv, cwd)
    ro = [Path(os.path.abspath(p)) for p in read_only]
    system = [Path("/usr")] + [Path(p) for p in _SYSTEM_LINKS]
    run, extra = _sandbox_program(list(argv), cwd, [*system, *own, *ro])
    return own, ro, run, extra


def shown_paths(argv: Sequence[str], cwd: Path, home: Path | None = None,
                read_only: Sequence[Path] = ()) -> list[Path]:
    """The host paths the sandbox shows a bot besides the system's: its `home` (else the
    paths its command names, `named_paths`), its `read_only` paths and its program's
    installation; what `exposed` checks."""
    own, ro, _, extra = _layout(argv, cwd, home, read_only)
    return [*own, *ro, *extra]


def exposed(shown: Sequence[Path], hidden: Sequence[Path]) -> tuple[Path, Path] | None:
    """(a shown path, a hidden one it shows) when showing `shown` in the sandbox would show
    one of `hidden` (the same file, or a folder that holds it, links followed), else None."""
    real = [(s, Path(os.path.realpath(s))) for s in shown]
    for h in hidden:
        target = Path(os.path.realpath(h))
        for s, r in real:
            if _inside(target, [r]):
                return s, h
    return None


def _show(path: str) -> list[str]:
    if os.path.islink(path):
        return ["--symlink", os.readlink(path), path]
    if os.path.exists(path):
        return ["--ro-bind", path, path]
    return []


@functools.cache
def _bwrap_has_size() -> bool:
    try:
        out = subprocess.run([_tool("bwrap"), "--help"], capture_output=True, text=True,
                             timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--size" in out.stdout + out.stderr


def wrap_command(
    argv: Sequence[str],
    *,
    cwd: Path,
    limits: BotLimits = BotLimits(),  # noqa: B008
    sandbox: SandboxMode = "none",
    home: Path | None = None,
    read_only: Sequence[Path] = (),
    writable_home: bool = False,
) -> list[str]:
    """The argv that runs `argv` (in `cwd`) under `limits`, and in the sandbox if asked.

    `home` is the bot's folder the sandbox shows read-only (`writable_home` for builds);
    without one, only the files its command names (`named_paths`).  Raises SandboxError."""
    argv = list(argv)
    prlimit = _tool("prlimit")
    if sandbox == "none":
        return [prlimit, *limits.prlimit_options(argv), "--", *argv]
    if sandbox != "bwrap":
        raise SandboxError(f"unknown sandbox {sandbox!r}; known: {', '.join(SANDBOX_MODES)}")
    cwd = Path(os.path.abspath(cwd))
    own, ro, argv, extra = _layout(argv, cwd, home, read_only)
    tmp = Path("/tmp")
    for mine in own:
        if mine == tmp or mine in tmp.parents:
            raise SandboxError(f"the bot's folder {mine} holds /tmp, the sandbox's scratch "
                               "space; put the bot in a folder of its own")
    prlimit = os.path.realpath(prlimit)
    if not _inside(Path(prlimit), [Path("/usr")]):
        raise SandboxError(f"prlimit is at {prlimit}, outside /usr: the sandbox cannot run it")
    # No --die-with-parent: it ties bwrap to the thread that started it, and trio starts
    # processes from worker threads that end after 10 s idle (every bot was SIGKILLed then).
    args = [_tool("bwrap"), "--unshare-all", "--cap-drop", "ALL",
            "--clearenv", "--setenv", "PATH", SYSTEM_PATH, "--setenv", "HOME", "/tmp",
            "--setenv", "TMPDIR", "/tmp"]
    for key, value in sorted(os.environ.items()):
        if key in _ENV_KEPT or key.startswith("LC_"):
            args += ["--setenv", key, value]
    args += ["--ro-bind", "/usr", "/usr"]
    for path in _SYSTEM_LINKS:
        args += _show(path)
    for pattern in _ETC:
        for path in sorted(glob.glob(f"/etc/{pattern}")):
            args += _show(path)
    args += ["--proc", "/proc", "--dev", "/dev"]
    if _bwrap_has_size():
        args += ["--size", str(limits.scratch)]
    args += ["--tmpfs", "/tmp"]
    for shown in [*ro, *extra]:
        args += ["--ro-bind", str(shown), str(shown)]
    for mine in own:
        args += ["--bind" if writable_home else "--ro-bind", str(mine), str(mine)]
    # The root bwrap makes is a writable tmpfs (around the folders it shows): read-only, so
    # that /tmp, limited, is the only scratch space.
    args += ["--dir", str(cwd), "--chdir", str(cwd), "--remount-ro", "/"]
    return [*args, "--", prlimit, *limits.prlimit_options(argv, nproc=os.geteuid() != 0),
            "--", *argv]


@functools.cache
def _bwrap_problem() -> str | None:
    """Why bubblewrap cannot sandbox a bot here, or None when it can."""
    hint = ("--sandbox bwrap needs bubblewrap with user namespaces (check the sysctls "
            "user.max_user_namespaces, kernel.unprivileged_userns_clone and "
            "kernel.apparmor_restrict_unprivileged_userns)")
    try:
        _tool("bwrap")
        argv = wrap_command(["cat", "/proc/net/dev"], cwd=Path("/"), limits=BotLimits.off(),
                            sandbox="bwrap", home=Path("/usr/share"))
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except SandboxError as exc:
        return f"--sandbox bwrap: {exc}"
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{hint}: {exc}"
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return f"{hint}; bwrap failed here: {why}"
    interfaces = [line.split(":")[0].strip() for line in done.stdout.splitlines()[2:]]
    if any(name != "lo" for name in interfaces):
        return f"bwrap did not cut the network off here (it sees {', '.join(interfaces)})"
    return None


def check_sandbox_available(mode: str) -> None:
    """Raise SandboxError, saying why, unless sandbox `mode` can run bots here."""
    if mode == "none":
        _tool("prlimit")
        return
    if mode != "bwrap":
        raise SandboxError(f"unknown sandbox {mode!r}; known: {', '.join(SANDBOX_MODES)}")
    problem = _bwrap_problem()
    if problem is not None:
        raise SandboxError(problem)
