"""What a crash's reason quotes of the bot's stderr (`referee.bots.crash.excerpt`): the error,
where a stack trace would push it out of the last lines, and otherwise the last lines."""

from __future__ import annotations

from referee.bots.crash import excerpt

NODE = ["/tmp/bot.js:12", "    throw new Error('boom');", "    ^", "", "Error: boom",
        *(f"    at f{i} (/tmp/bot.js:{i}:1)" for i in range(10)), "", "Node.js v18.19.0"]


def test_an_uncaught_node_error_is_quoted_from_its_first_line() -> None:
    """Node's plain `Error: boom` and the frames right after it, "...", and the last two."""
    assert excerpt(NODE).splitlines() == [
        "Error: boom", *(f"    at f{i} (/tmp/bot.js:{i}:1)" for i in range(4)),
        "... (6 lines)", "", "Node.js v18.19.0"]


def test_an_error_logged_long_before_the_end_is_not_taken_for_the_crash() -> None:
    """A handled error the bot logged, then 45 lines of its own, then the end: the quote is
    the last 8 lines, where the bot ended, not the old error."""
    lines = ["ValueError: handled", *(f"debug {i}" for i in range(45)), "Killed"]
    assert excerpt(lines).splitlines() == [*(f"debug {i}" for i in range(38, 45)), "Killed"]


def test_a_short_stderr_is_quoted_whole() -> None:
    """A Python traceback ends with its error: the last lines are quoted as they are."""
    lines = ["Traceback (most recent call last):", '  File "bot.py", line 3', "KeyError: 'x'"]
    assert excerpt(lines) == "\n".join(lines)


def test_a_full_java_heap_names_the_jvms_own_limit_first() -> None:
    """A JVM out of heap ("Java heap space") has most often hit its own -Xmx, not the
    address-space limit: the hint names -Xmx first, and the limit beside it; another
    runtime's MemoryError still names the address-space limit."""
    from referee.bots.crash import limit_hint
    from referee.bots.limits import BotLimits

    java = limit_hint("exit status 1", 'Exception in thread "main" java.lang.OutOfMemoryError: '
                      "Java heap space", ["java", "-cp", "out", "Bot"], BotLimits(), False)
    assert java is not None and java.startswith("the JVM's heap is full: its -Xmx") and \
        "or the address-space limit of 8 GiB" in java
    python = limit_hint("exit status 1", "MemoryError", ["python3", "bot.py"], BotLimits(), False)
    assert python is not None and python.startswith("probably over the address-space limit")


def test_a_package_missing_in_the_sandbox_says_why_it_may_be_missing() -> None:
    """A Python import, a Node require and a Perl use that fail in the sandbox are said to
    be the sandbox's interpreter's (the system's) doing; outside it, that the machine that ran
    the bot lacks the package (a grader's, not the student's own)."""
    from referee.bots.crash import limit_hint
    from referee.bots.limits import BotLimits

    for tail in ("ModuleNotFoundError: No module named 'numpy'",
                 "Error: Cannot find module 'lodash'",
                 "Can't locate JSON/XS.pm in @INC (you may need to install JSON::XS)"):
        hint = limit_hint("exit status 1", tail, ["python3", "bot.py"], BotLimits(), True)
        assert hint is not None and hint.startswith("the sandbox shows the system folders and "
                                                    "the bot's own: a package must be"), tail
        assert limit_hint("exit status 1", tail, ["python3", "bot.py"], BotLimits(),
                          False) == ("a module it imports was not found by the interpreter that "
                                     "ran it, on the machine that ran it: install it for that "
                                     "interpreter, name one that has it in the command, or "
                                     "bring it in the bot's folder")


def test_a_missing_shared_library_is_named_with_where_it_must_be() -> None:
    """A program whose shared library is not on the machine (exit status 127, the dynamic
    loader's line on stderr: glibc's, musl's, macOS dyld's) gets a hint naming the library
    and saying it must be installed on the machine that runs the bot; in the sandbox, that
    the sandbox shows the system folders (not that it shows only some files)."""
    from referee.bots.crash import limit_hint
    from referee.bots.limits import BotLimits

    for tail, name in (("./bot: error while loading shared libraries: libfoo.so.1: cannot open "
                        "shared object file: No such file or directory", "libfoo.so.1"),
                       ("Error loading shared library libgmp.so.10: No such file or directory "
                        "(needed by ./bot)", "libgmp.so.10"),
                       ("dyld[4242]: Library not loaded: @rpath/libfoo.dylib",
                        "@rpath/libfoo.dylib")):
        assert limit_hint("exit status 127", tail, ["./bot"], BotLimits(), False) == (
            f"the shared library {name} was not found: it must be installed on the machine "
            "that runs the bot, or linked into the bot statically"), tail
        sandboxed = limit_hint("exit status 127", tail, ["./bot"], BotLimits(), True)
        assert sandboxed == (f"the shared library {name} was not found in the sandbox, which "
                             "shows the system folders and the bot's own: it must be installed "
                             "on the machine that runs the bot, or linked into the bot "
                             "statically"), tail


RUST = ["bot: round 1", "thread 'main' (7993) panicked at src/strategy.rs:124:59:",
        "called `Option::unwrap()` on a `None` value", "stack backtrace:",
        *(f"   {i}: frame{i}" for i in range(6)),
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace."]


def test_a_rust_panic_with_a_backtrace_is_quoted_from_its_panic_line() -> None:
    """Rust's panic line (with or without the thread id newer Rust prints after its name)
    and its message lead the quote; the backtrace's middle is cut, its last two lines kept."""
    for panic in RUST[1], "thread 'main' panicked at src/strategy.rs:124:59:":
        lines = [RUST[0], panic, *RUST[2:]]
        assert excerpt(lines).splitlines() == [
            panic, "called `Option::unwrap()` on a `None` value", "stack backtrace:",
            "   0: frame0", "   1: frame1", "... (3 lines)", "   5: frame5", RUST[-1]]


def test_an_address_sanitizer_report_is_quoted_from_its_error_line() -> None:
    """AddressSanitizer's report ends with some 35 lines of its shadow memory's legend: the
    quote starts at its `==pid==ERROR:` line, where the bug and its frames are, not in the
    legend; a sanitizer build stopped by the address-space limit says to lift it."""
    from referee.bots.crash import limit_hint
    from referee.bots.limits import BotLimits

    report = ["=" * 65,
              "==19394==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020 at pc 1",
              "READ of size 4 at 0x6020 thread T0",
              *(f"    #{i} 0x55 in f{i} strategy.cpp:{140 + i}" for i in range(8)), "",
              "SUMMARY: AddressSanitizer: heap-buffer-overflow strategy.cpp:140 in decide",
              "Shadow bytes around the buggy address:",
              *(f"  0x0c04: fa fa {i}" for i in range(11)),
              "Shadow byte legend (one shadow byte represents 8 application bytes):",
              *(f"  Legend {i}: f{i}" for i in range(22)), "==19394==ABORTING"]
    quoted = excerpt(report).splitlines()
    assert quoted[0] == report[1] and quoted[1] == report[2] and quoted[-1] == report[-1]
    asan = ("==7==ERROR: AddressSanitizer failed to allocate 0xdfff0001000 (15392894357504) "
            "bytes at address 2008fff7000 (errno: 12)\n==7==ReserveShadowMemoryRange failed "
            "while trying to map 0xdfff0001000 bytes. Perhaps you're using ulimit -v")
    hint = limit_hint("killed by SIGABRT", asan, ["./bot"], BotLimits(), False)
    assert hint is not None and hint.startswith(
        "a sanitizer's build reserves far more address space than the limit of 2 GiB for its "
        "shadow memory: check it with --address-space off"), hint


GO = ["go_baseline: game over, ranks [2 1 3]",
      "panic: runtime error: invalid memory address or nil pointer dereference",
      "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4b209b]", "",
      "goroutine 1 [running]:", "main.(*Game).SeenEvent(...)", "\t/tmp/gobot/strategy.go:53",
      "main.handle({0xc000257bd0, 0x4e, 0x4e}, 0xc0000f1e98)",
      "\t/tmp/gobot/main.go:197 +0x37b", "main.main()", "\t/tmp/gobot/main.go:157 +0x167"]


def test_a_go_panic_is_quoted_with_its_first_frames_file_and_line() -> None:
    """A Go nil dereference prints a `[signal ...]` line and a blank one before its stack:
    the quote still reaches the first frame's file and line (where the entrant's bug is),
    leaving the blank line out."""
    assert excerpt(GO).splitlines() == [
        GO[1], GO[2], "goroutine 1 [running]:", "main.(*Game).SeenEvent(...)",
        "\t/tmp/gobot/strategy.go:53", "... (2 lines)", "main.main()",
        "\t/tmp/gobot/main.go:157 +0x167"]


def test_blank_lines_after_an_error_do_not_lengthen_the_quote() -> None:
    """A panic followed by a run of blank lines (a bot printing empty lines to stderr) is
    quoted in about QUOTED lines, the blank ones left out, not with every one of them."""
    lines = ["bot: round 1", "panic: boom", "main.go:12", *[""] * 30, "last 1", "last 2"]
    assert excerpt(lines).splitlines() == ["panic: boom", "main.go:12", "last 1", "last 2"]
