"""Tables that report.js sorts and searches: a long table gets a search box and sortable
headings, so that a field of hundreds is read by looking a bot up rather than by scrolling."""

from __future__ import annotations

from .markup import e


def cell(html: str, value: float | str | None = None, css: str = "") -> str:
    """A cell showing `html`, sorted by `value` when the text itself does not sort right
    (an interval, a place range)."""
    v = "" if value is None else f' data-v="{e(value)}"'
    c = f' class="{css}"' if css else ""
    return f"<td{c}{v}>{html}</td>"


def sortable(table_id: str, css: str, head: list[str], rows: list[str], *,
             search: str, more: bool = False, head_css: list[str] | None = None,
             box: str = "") -> str:
    """The table `table_id` (rows already as <tr> strings) with a search box over its rows
    and, with `more`, a button that shows the columns marked `more` (hidden by default)."""
    heads = "".join(
        f'<th{f" class={chr(34)}{c}{chr(34)}" if c else ""}>{h}</th>'
        for h, c in zip(head, head_css or [""] * len(head), strict=True))
    button = (f'<button type="button" class="more-columns" data-for="{table_id}">all columns'
              "</button>" if more else "")
    return (f'<div class="tools"><input type="search" class="filter" data-for="{table_id}" '
            f'placeholder="{e(search)}" aria-label="{e(search)}">'
            f'<span class="count" id="{table_id}-count">{len(rows)} rows</span>{button}</div>'
            f'<div class="scroll tall {box}"><table id="{table_id}" class="{css} sortable">'
            f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")
