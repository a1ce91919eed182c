"""Limits and a sandbox for untrusted bots, applied as command prefixes.

`wrap_command(argv, cwd=..., limits=..., sandbox=...)` turns a bot's command into the one that
runs it under its limits, with util-linux's `prlimit` as a prefix (never `preexec_fn`, which is
unsafe in a threaded process), and, with `sandbox="bwrap"`, inside bubblewrap:

- no network and its own PID, IPC and UTS namespaces (`--unshare-all`), no capabilities;
- read-only: /usr, /bin, /lib..., a short list of /etc entries that runtimes need, the bot's
  own folder (`home`), the installation of its interpreter when that lives outside /usr, and
  any `read_only` paths; a private tmpfs at /tmp (HOME and TMPDIR) as scratch space;
- nothing else of the host: other bots, results stores, home directories are not there;
- the environment cleared but for PATH (system folders), HOME, TMPDIR, LANG, LC_* and TZ.

`check_sandbox_available(mode)` raises `SandboxError` with a clear message when the sandbox
cannot run here (bubblewrap missing, user namespaces blocked); call it before any game.

Limits that no rlimit can express (CPU per game over all of a bot's processes, the number of
processes, processes escaping the bot's process group) are checked by `BotPlayer` from /proc
(`procs.py`); the rlimits set here are the hard backstops.
"""

from __future__ import annotations

import functools
import glob
import math
import os
import re
import resource
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

AUTO = -1  # address_space: DEFAULT_ADDRESS_SPACE, or JVM_ADDRESS_SPACE for `java`
DEFAULT_ADDRESS_SPACE = 2 * GiB
# The JVM reserves 1 GiB of class space up front and sizes its heap to half the limit.
JVM_ADDRESS_SPACE = 8 * GiB

SandboxMode = Literal["none", "bwrap"]
SANDBOX_MODES: tuple[SandboxMode, ...] = ("none", "bwrap")

SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# /etc entries a runtime may read (dynamic linker, alternatives, locale, users and hosts files,
# the JVM's and Perl's and Python's configuration); shadow files, keys and the rest stay out.
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "timezone",
        "passwd", "group", "nsswitch.conf", "hosts", "host.conf", "gai.conf", "protocols",
        "services", "mime.types", "os-release", "debian_version", "locale.alias", "ssl/certs",
        "ca-certificates", "perl", "python3", "python3.*", "java-*", "ssl/openssl.cnf")
_ENV_KEPT = ("LANG", "LANGUAGE", "TZ")


class SandboxError(Exception):
    """The sandbox cannot be used (here, or for this bot); the message says why."""


def format_size(size: int) -> str:
    for unit, name in ((GiB, "GiB"), (MiB, "MiB"), (KiB, "KiB")):
        if size >= unit and size % (unit // 8 or 1) == 0:
            return f"{size / unit:g} {name}"
    return f"{size} bytes"


# prlimit takes numbers below 2**64; beyond these, a limit is better written "off".
MAX_SIZE = 1 << 50  # 1 PiB
MAX_AMOUNT = 1e9  # CPU seconds (30 years), files, processes

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_OFF = ("off", "none", "unlimited", "no")


def parse_size(value: str | int | None) -> int | None:
    """`"2G"`, `"512MiB"`, `"64m"`, a number of bytes; `"off"` (or None) for no limit."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"expected a size like '2G' or 'off', got {value!r}")
    if isinstance(value, int):
        if value <= 0:
            raise ValueError(f"a size must be positive, got {value}")
        return _at_most_max_size(value, value)
    if value.strip().lower() in _OFF:
        return None
    match = _SIZE.match(value)
    if not match:
        raise ValueError(f"expected a size like '2G', '512M' or 'off', got {value!r}")
    scale = {"": 1, "k": KiB, "m": MiB, "g": GiB, "t": 1024 * GiB}[match.group(2).lower()]
    size = int(float(match.group(1)) * scale)
    if size <= 0:
        raise ValueError(f"a size must be positive, got {value!r}")
    return _at_most_max_size(size, value)


def _at_most_max_size(size: int, value: str | int) -> int:
    if size > MAX_SIZE:
        raise ValueError(f"a size must be at most 1024T (or 'off' for no limit), got {value!r}")
    return size


def parse_amount(value: str | float | None) -> float | None:
    """A positive number, or `"off"` (or None) for no limit."""
    if value is None:
        return None
    if isinstance(value, str):
        if value.strip().lower() in _OFF:
            return None
        try:
            value = float(value)
        except ValueError:
            raise ValueError(f"expected a number or 'off', got {value!r}") from None
    if isinstance(value, bool) or not 0 < value < math.inf:  # NaN fails this too
        raise ValueError(f"expected a positive number or 'off', got {value!r}")
    if value > MAX_AMOUNT:
        raise ValueError(f"expected at most {MAX_AMOUNT:g} (or 'off' for no limit), "
                         f"got {value!r}")
    return float(value)


@dataclass(frozen=True)
class BotLimits:
    """What one bot may use.  None turns a limit off.  Core dumps are always off."""

    address_space: int | None = AUTO  # bytes of virtual memory per process (RLIMIT_AS)
    cpu_per_game: float | None = 60.0  # CPU seconds of all its processes in one game (watched)
    cpu_time: int | None = 3600  # CPU seconds per process in its whole life (RLIMIT_CPU)
    file_size: int | None = 1 * GiB  # bytes in any one file it writes (RLIMIT_FSIZE)
    open_files: int | None = 256  # file descriptors per process (RLIMIT_NOFILE)
    processes: int | None = 64  # its processes alive at once (watched; see README)
    scratch: int = 64 * MiB  # size of the sandbox's private /tmp

    @classmethod
    def off(cls) -> BotLimits:
        return cls(None, None, None, None, None, None)

    def address_space_for(self, argv: Sequence[str]) -> int | None:
        if self.address_space != AUTO:
            return self.address_space
        return JVM_ADDRESS_SPACE if Path(argv[0]).name == "java" else DEFAULT_ADDRESS_SPACE

    def prlimit_options(self, argv: Sequence[str], *, nproc: bool = False) -> list[str]:
        """prlimit's options for these limits; soft and hard alike, so a bot cannot raise
        them (root outside a user namespace can: see README), never above our own hard."""
        options = ["--core=0:0"]

        def both(name: str, res: int, value: int | None, extra: int = 0) -> None:
            if value is None:
                return
            hard = resource.getrlimit(res)[1]
            soft, top = value, value + extra
            if hard != resource.RLIM_INFINITY:
                soft, top = min(soft, hard), min(top, hard)
            options.append(f"--{name}={soft}:{top}")

        both("as", resource.RLIMIT_AS, self.address_space_for(argv))
        # SIGXCPU at the soft limit, SIGKILL a little later if the bot ignores it.
        both("cpu", resource.RLIMIT_CPU, self.cpu_time, extra=5)
        both("fsize", resource.RLIMIT_FSIZE, self.file_size)
        both("nofile", resource.RLIMIT_NOFILE, self.open_files)
        if nproc:  # only the sandbox's own (a fresh user namespace)
            both("nproc", resource.RLIMIT_NPROC, self.tasks)
        return options

    @property
    def tasks(self) -> int | None:
        """The kernel's limit behind `processes`, which counts threads too (RLIMIT_NPROC in
        the sandbox, a pids cgroup's `pids.max`): 16 a process, at least 256."""
        return None if self.processes is None else max(self.processes * 16, 256)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        package = "util-linux" if name == "prlimit" else "bubblewrap"
        raise SandboxError(f"{name} is not installed (Debian package {package})")
    return path


def resolve_program(argv0: str, cwd: Path) -> Path | None:
    """The program file a command runs (relative names against `cwd`, bare names on PATH)."""
    if "/" in argv0:
        path = Path(os.path.normpath(cwd / argv0))
        return path if path.is_file() and os.access(path, os.X_OK) else None
    found = shutil.which(argv0)
    return Path(found) if found else None


def bot_home(argv: Sequence[str], cwd: Path) -> Path:
    """The folder a bot's command names: that of its first argument naming a file (the
    script: `python3 bots/me.py`), else of its program when given as a path (`./bot`), else
    the working directory."""
    for arg in argv[1:]:
        if arg.startswith("-"):
            continue
        path = Path(os.path.normpath(cwd / arg))
        if path.is_file():
            return path.parent
    if "/" in argv[0]:
        return Path(os.path.normpath(cwd / argv[0])).parent
    return Path(os.path.normpath(cwd))


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
    limits: BotLimits = BotLimits(),
    sandbox: SandboxMode = "none",
    home: Path | None = None,
    read_only: Sequence[Path] = (),
    writable_home: bool = False,
) -> list[str]:
    """The argv that runs `argv` (in `cwd`) under `limits`, and in the sandbox if asked.

    `home` is the bot's folder the sandbox shows read-only (`writable_home` for builds);
    by default the folder its command names (`bot_home`).  Raises SandboxError."""
    argv = list(argv)
    prlimit = _tool("prlimit")
    if sandbox == "none":
        return [prlimit, *limits.prlimit_options(argv), "--", *argv]
    if sandbox != "bwrap":
        raise SandboxError(f"unknown sandbox {sandbox!r}; known: {', '.join(SANDBOX_MODES)}")
    cwd = Path(os.path.abspath(cwd))
    home = Path(os.path.abspath(home)) if home is not None else bot_home(argv, cwd)
    tmp = Path("/tmp")
    if home == tmp or home in tmp.parents:
        raise SandboxError(f"the bot's folder {home} holds /tmp, the sandbox's scratch space; "
                           "put the bot in a folder of its own")
    prlimit = os.path.realpath(prlimit)
    if not _inside(Path(prlimit), [Path("/usr")]):
        raise SandboxError(f"prlimit is at {prlimit}, outside /usr: the sandbox cannot run it")
    ro = [Path(os.path.abspath(p)) for p in read_only]
    system = [Path("/usr")] + [Path(p) for p in _SYSTEM_LINKS]
    argv, extra = _sandbox_program(argv, cwd, [*system, home, *ro])
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
    args += ["--bind" if writable_home else "--ro-bind", str(home), str(home)]
    args += ["--dir", str(cwd), "--chdir", str(cwd)]
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


_MEMORY = re.compile(r"MemoryError|std::bad_alloc|Cannot allocate memory|[Oo]ut of memory|"
                     r"Could not reserve|Could not allocate|OutOfMemoryError|allocation failed")
_NO_FORK = re.compile(r"Resource temporarily unavailable|unable to create native thread|"
                      r"fork: retry|BlockingIOError")
_NETWORK = re.compile(r"ConnectionRefused|Network is unreachable|Connection refused|"
                      r"Temporary failure in name resolution|Name or service not known|"
                      r"ECONNREFUSED|ENETUNREACH|EAI_AGAIN")
_FILES = re.compile(r"No such file or directory|Read-only file system|ENOENT|EROFS")


def limit_hint(ending: str, stderr_tail: str, argv: Sequence[str], limits: BotLimits,
               sandboxed: bool) -> str | None:
    """Which limit the end of a bot's process shows it ran into, in words, or None."""
    if "SIGXCPU" in ending and limits.cpu_time is not None:
        return f"over the CPU-time limit of {limits.cpu_time} s per process"
    if ("SIGXFSZ" in ending or "File too large" in stderr_tail) and limits.file_size:
        return f"over the file-size limit of {format_size(limits.file_size)}"
    if "Too many open files" in stderr_tail and limits.open_files is not None:
        return f"over the open-files limit of {limits.open_files}"
    address_space = limits.address_space_for(argv) if argv else None
    if _MEMORY.search(stderr_tail) and address_space is not None:
        return (f"probably over the address-space limit of {format_size(address_space)} "
                "(raise it with address_space in the tournament file, or --address-space)")
    if _NO_FORK.search(stderr_tail) and limits.processes is not None:
        return f"probably over the limit of {limits.processes} processes"
    if sandboxed and _NETWORK.search(stderr_tail):
        return "the sandbox has no network"
    if sandboxed and _FILES.search(stderr_tail):
        return ("the sandbox shows only the system folders, the bot's own folder (read-only) "
                "and a scratch /tmp")
    return None
