"""`visible`: what a bot wrote, shown on a terminal without its control characters acting."""

from __future__ import annotations

from referee.text import visible


def test_control_characters_are_shown_as_escapes() -> None:
    """A name that would clear the screen, set the window title and overwrite its line reads
    as the escapes it holds."""
    evil = "\x1b[2J\x1b]0;pwned\x07\rALL BOTS PASSED"
    assert visible(evil) == "\\x1b[2J\\x1b]0;pwned\\x07\\rALL BOTS PASSED"
    assert visible("a\x00b\x7fc\x9bd\te\nf") == "a\\x00b\\x7fc\\x9bd\\te\\nf"


def test_ordinary_text_stays_as_it_is() -> None:
    """Accents, other scripts, emoji (joined ones too) and a backslash are ordinary text."""
    for text in ("Zoë", "王", "Ελένη", "مرحبا", "नमस्ते", "👩\u200d💻", "C:\\bots", "a b", ""):
        assert visible(text) == text
        assert visible(text, indent="  ") == text


def test_text_that_disguises_itself_is_shown_as_escapes() -> None:
    """Bidi overrides and isolates reorder what follows them ("deliaf" read as "failed"),
    zero-width and other format characters hide, line separators break the line."""
    assert visible("ok\u202edeliaf") == "ok\\u202edeliaf"
    for char, shown in (("\u202a", "\\u202a"), ("\u2066", "\\u2066"), ("\u2069", "\\u2069"),
                        ("\u200b", "\\u200b"), ("\u200e", "\\u200e"), ("\ufeff", "\\ufeff"),
                        ("\u00ad", "\\xad"), ("\u2028", "\\u2028"), ("\U000e0041", "\\U000e0041"),
                        ("\udc9b", "\\udc9b")):
        assert visible(f"a{char}b") == f"a{shown}b"


def test_a_block_keeps_its_lines_indented_but_never_a_carriage_return() -> None:
    """A stderr tail shown as a block keeps its lines, each indented under the line that
    quotes it; a carriage return (which would overwrite a line) is still an escape."""
    tail = "Traceback:\n\tline 3\r\x1b[1AALL BOTS PASSED"
    assert visible(tail, indent="    ") == \
        "Traceback:\n    \tline 3\\r\\x1b[1AALL BOTS PASSED"
    assert visible("a\nb", indent="") == "a\nb"
    assert visible("a\nb") == "a\\nb"
