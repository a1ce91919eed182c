"""A bot's stderr lines that look like errors it lived through are counted as they come, in
whatever pieces the pipe gives them, each line once, and the first is quoted."""

from __future__ import annotations

from referee.bots.caught import ErrorLines, caught_note


def test_error_lines_are_counted_once_each_across_the_pipes_pieces() -> None:
    """A Python traceback (its first and last lines), a kit's fallback line that also names
    an exception, and a Go panic, written in pieces that split lines: four lines counted; the
    ordinary log lines are not, and the first error line is the one quoted."""
    text = (b"bot: starting\nTraceback (most recent call last):\n  File \"bot.py\", line 3\n"
            b"KeyError: 'x'\nbot: request 4: TypeError: no; falling back to the default\n"
            b"bot: round 2\npanic: runtime error: index out of range")
    errors = ErrorLines()
    for start in range(0, len(text), 7):
        errors.feed(text[start:start + 7])
    assert errors.count == 3  # the panic's line is not ended yet
    errors.feed(b"\n")
    assert errors.count == 4
    assert errors.first == "Traceback (most recent call last):"
    note = caught_note(errors, "--stderr FILE keeps its stderr", "me")
    assert note == ("note: me: 4 lines of its stderr look like errors it lived through, the "
                    "first: 'Traceback (most recent call last):'; an answer after an error may "
                    "be its kit's default, not its strategy's (--stderr FILE keeps its stderr)")
    assert caught_note(ErrorLines(), "x") is None


def test_one_error_line_is_said_in_the_singular() -> None:
    """A Rust bot whose strategy failed once: '1 line of its stderr looks like an error',
    not '... looks like errors'."""
    errors = ErrorLines()
    errors.feed(b"bot: request 46 (buy): money hidden; falling back to the default\n")
    note = caught_note(errors, "w", "rbot")
    assert note is not None and note.startswith(
        "note: rbot: 1 line of its stderr looks like an error it lived through, the first: "
        "'bot: request 46 (buy)"), note


def test_check_says_most_answers_may_have_been_the_default_only_past_half_of_them() -> None:
    """`check` passes its accepted answers: with more error lines than half as many as them,
    the note says most answers may have been the kit's default; with half as many (two lines
    an error, as a Python traceback writes, on one answer in four), it says only that an
    answer after an error may be, as with fewer."""
    errors = ErrorLines()
    errors.feed(b"bot: request 1: KeyError: 'x'; falling back\n" * 5)
    many = caught_note(errors, "w", answers=9)
    assert many is not None and many.endswith(
        "; more than half as many as its 9 accepted answers: most of its answers may have "
        "been its kit's default, not its strategy's (w)"), many
    for answers in (10, 11):
        some = caught_note(errors, "w", answers=answers)
        assert some is not None and some.endswith(
            "; an answer after an error may be its kit's default, not its strategy's (w)"), some


def test_a_long_error_line_is_quoted_with_its_end_where_the_kit_names_the_place() -> None:
    """Java's NullPointerException message is long; the kit's line ends with the place in
    the bot's code: the quote keeps that end, cutting the middle of the message instead."""
    line = ('sample_java: request 4 (bid): java.lang.NullPointerException: Cannot invoke '
            '"java.lang.Long.longValue()" because the return value of "java.util.Map.get('
            'Object)" is null at Bot.java:241 in Bot.decide; falling back to the default')
    errors = ErrorLines()
    errors.feed(line.encode() + b"\n")
    assert len(errors.first) == 160
    assert errors.first.startswith("sample_java: request 4 (bid): java.lang.NullPointerExce")
    assert errors.first.endswith(' ... t)" is null at Bot.java:241 in Bot.decide; falling '
                                 "back to the default")


def test_a_rust_panic_is_quoted_with_its_message_from_the_line_under_it() -> None:
    """Rust prints a panic its kit's hook does not log (in a bot of one's own, or one built
    on an older kit, in a thread it started) in two lines, the place, then the message: the
    quote joins them, so the note says what went wrong and not only where, even when the pipe
    splits the two."""
    text = (b"bot: game 1, seat 0\n\nthread '<unnamed>' (18577) panicked at "
            b"src/strategy.rs:182:74:\ncalled `Option::unwrap()` on a `None` value\n")
    expected = ("thread '<unnamed>' (18577) panicked at src/strategy.rs:182:74: called "
                "`Option::unwrap()` on a `None` value")
    for split in (len(text), text.index(b"called")):
        errors = ErrorLines()
        errors.feed(text[:split])
        errors.feed(text[split:])
        assert (errors.count, errors.first) == (1, expected)


def test_a_kits_line_for_a_panic_in_a_thread_or_goroutine_is_counted_and_quoted() -> None:
    """The Rust kit logs a panic in a thread the strategy started (named or not) in one line,
    and the Go kit's `Go` one in a goroutine: each is an error the bot lived through, and the
    first is quoted whole, the thread's message with it, not the `Any { .. }` of the
    `join().unwrap()` that follows it."""
    text = (b"sample_rust: panic in thread 'worker': index out of bounds: the len is 2 but the "
            b"index is 5 at src/strategy.rs:178:52; the thread ended\n"
            b"sample_rust: request 2 (play): panic: called `Result::unwrap()` on an `Err` value: "
            b"Any { .. } at src/strategy.rs:178:73; falling back to the default\n"
            b"sample_rust: panic in a thread: no value at src/strategy.rs:181:52; the thread "
            b"ended\n"
            b"go_baseline: panic in a goroutine: runtime error: index out of range [5] with "
            b"length 2 at strategy.go:141 in (*Game).Decide.func1; the goroutine ended\n"
            b"sample_rust: started thread 'worker'\n")
    errors = ErrorLines()
    errors.feed(text)
    assert errors.count == 4
    assert errors.first == ("sample_rust: panic in thread 'worker': index out of bounds: the "
                            "len is 2 but the index is 5 at src/strategy.rs:178:52; the thread "
                            "ended")
