"""A feedback file read as a Markdown renderer reads it (markdown-it-py, CommonMark)."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

# What only a bot writes (a traceback, the lines of an exchange): only in fenced blocks.
QUOTED = ("Traceback (most recent call last)", "referee> ", "bot>     ")


def rendered(text: str) -> list[Token]:
    """The tokens of `text` (a feedback file as written), after checking that each piece of
    QUOTED in it is inside a fenced block: as many times in fences' contents as in the file,
    and never in prose, headings or lists."""
    tokens = MarkdownIt("commonmark").parse(text)
    fences = "".join(t.content for t in tokens if t.type == "fence")
    prose = "".join(t.content for t in tokens if t.type == "inline")
    for piece in QUOTED:
        assert fences.count(piece) == text.count(piece), (piece, text)
        assert piece not in prose, (piece, text)
    return tokens


def headings(tokens: list[Token]) -> list[tuple[str, str]]:
    return [(t.tag, tokens[i + 1].content) for i, t in enumerate(tokens)
            if t.type == "heading_open"]


def summary_items(tokens: list[Token]) -> list[str]:
    """The items of the first list (the summary), as written."""
    start = next(i for i, t in enumerate(tokens) if t.type == "bullet_list_open")
    end = next(i for i, t in enumerate(tokens) if t.type == "bullet_list_close" and i > start)
    return [t.content for t in tokens[start:end] if t.type == "inline"]
