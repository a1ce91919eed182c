"""Small charts as inline SVG, drawn here so the pages need no script to show them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

# Distinguishable colours (Tableau 10, then darker shades), one per entrant or seat in order.
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
           "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
           "#1f3f6e", "#a35a00", "#8c1c1e", "#2f6f6a", "#2b6a26",
           "#9a7d00", "#6c3f63", "#c0566a", "#5b3f2c", "#6b6b6b")


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round numbers between lo and hi, about `count` of them."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    ticks = []
    v = first
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 10))
        v += step
    return ticks


def _fmt(v: float) -> str:
    return f"{v:.0f}" if abs(v) >= 100 or v == int(v) else f"{v:.2g}" if abs(v) < 1 else f"{v:.1f}"


def padded_range(values: Sequence[float], pad: float = 0.05) -> tuple[float, float]:
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return 0.0, 1.0
    lo, hi = min(finite), max(finite)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5
    span = hi - lo
    return lo - pad * span, hi + pad * span


def interval_bar(mean: float, low: float, high: float, axis: tuple[float, float], *,
                 label: str, fill: str = "#4e79a7", band: tuple[float, float] | None = None,
                 width: int = 170, height: int = 18) -> str:
    """A 95% interval as a bar with a tick at the mean, on a scale shared by a column;
    `band` shades another interval (the leader's) behind it."""
    lo, hi = axis

    def x(v: float) -> float:
        if not math.isfinite(v):
            v = lo
        return 2 + (width - 4) * (min(max(v, lo), hi) - lo) / (hi - lo)

    parts = [f'<svg class="ibar" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">'
             f"<title>{escape(label)}</title>"]
    if band is not None:
        bw = max(1, x(band[1]) - x(band[0]))
        parts.append(f'<rect x="{x(band[0]):.1f}" y="0" width="{bw:.1f}" height="{height}" '
                     'fill="#f2e6b3"/>')
    mid = height / 2
    parts.append(f'<line x1="2" x2="{width - 2}" y1="{mid}" y2="{mid}" stroke="#ddd"/>')
    parts.append(f'<rect x="{x(low):.1f}" y="{mid - 4}" width="{max(2, x(high) - x(low)):.1f}" '
                 f'height="8" rx="3" fill="{fill}" fill-opacity="0.45"/>')
    parts.append(f'<rect x="{x(mean) - 1.5:.1f}" y="{mid - 7}" width="3" height="14" '
                 f'fill="{fill}"/>')
    parts.append("</svg>")
    return "".join(parts)


def axis_caption(axis: tuple[float, float], fmt: str = "{:.2f}") -> str:
    return (f'<span class="axis"><span>{fmt.format(axis[0])}</span>'
            f'<span>{fmt.format(axis[1])}</span></span>')


LABELLED = 10  # lines of a chart named at their end and in the legend; the rest on hover


def line_chart(series: Sequence[tuple[str, str, Sequence[tuple[float, float]]]], *,
               x_label: str, y_label: str, width: int = 760, height: int = 320,
               css_class: str = "chart", labelled: int = LABELLED) -> str:
    """Lines (name, colour, points) on shared axes, with a legend below.  Past `labelled`
    lines (a large field), the first `labelled` are drawn bold and named at their end, the
    rest thin and faint beneath them; a line under the pointer is brought out (report.css)
    and named (its title, and report.js's caption)."""
    xs = [p[0] for _, _, pts in series for p in pts]
    ys = [p[1] for _, _, pts in series for p in pts]
    if not xs:
        return '<p class="note">No data to chart.</p>'
    x0, x1 = min(xs), max(xs)
    if x1 <= x0:
        x1 = x0 + 1
    y0, y1 = padded_range(ys)
    crowded = len(series) > labelled
    left, right, top, bottom = 48, 96 if crowded else 24, 10, 34
    pw, ph = width - left - right, height - top - bottom

    def px(v: float) -> float:
        return left + pw * (v - x0) / (x1 - x0)

    def py(v: float) -> float:
        return top + ph * (1 - (v - y0) / (y1 - y0))

    out = [f'<svg class="{css_class}" viewBox="0 0 {width} {height}" width="100%" '
           f'preserveAspectRatio="xMidYMid meet" role="img" aria-label="{escape(y_label)}">']
    for t in nice_ticks(y0, y1):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{py(t):.1f}" y2="{py(t):.1f}" '
                   'stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{_fmt(t)}</text>')
    for t in nice_ticks(x0, x1, 8):
        out.append(f'<text x="{px(t):.1f}" y="{height - bottom + 16}" '
                   f'text-anchor="middle">{_fmt(t)}</text>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + ph}" stroke="#999"/>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{top + ph}" y2="{top + ph}" '
               'stroke="#999"/>')
    out.append(f'<text x="{left + pw / 2}" y="{height - 4}" text-anchor="middle" '
               f'class="label">{escape(x_label)}</text>')
    out.append(f'<text x="12" y="{top + ph / 2}" text-anchor="middle" class="label" '
               f'transform="rotate(-90 12 {top + ph / 2})">{escape(y_label)}</text>')
    ends: list[tuple[float, str, str]] = []  # (y, name, colour) of the labelled lines
    drawn = list(enumerate(series))
    for i, (name, fill, pts) in drawn[labelled:] + drawn[:labelled]:  # the top ones on top
        if not pts:
            continue
        path = " ".join(f"{px(a):.1f},{py(b):.1f}" for a, b in pts)
        faint = crowded and i >= labelled
        rest = ' class="rest"' if faint else ""
        stroke = "#8d96a8" if faint else fill  # one grey for the rest: 20 colours repeat
        out.append(f'<polyline points="{path}" fill="none" stroke="{stroke}" '
                   f'stroke-width="{1 if faint else 2}"{rest} '
                   f'data-name="{escape(name)}"><title>{escape(name)}</title></polyline>')
        if crowded and not faint:
            ends.append((py(pts[-1][1]), name, fill))
    last = -1e9
    for y, name, fill in sorted(ends):  # names at the lines' ends, pushed apart to be read
        y = max(y + 4, last + 11)
        last = y
        out.append(f'<text x="{width - right + 4}" y="{y:.1f}" class="end" '
                   f'fill="{fill}">{escape(name)}</text>')
    out.append("</svg>")
    keys = series[:labelled] if crowded else series
    legend = "".join(f'<span class="key"><i style="background:{fill}"></i>{escape(name)}</span>'
                     for name, fill, _ in keys)
    if crowded:
        legend += (f'<span class="key">and {len(series) - labelled} more, faint: the pointer '
                   'on a line names it <b class="chart-name"></b></span>')
    return "".join(out) + f'<div class="legend">{legend}</div>'


def bars(values: Sequence[float], labels: Sequence[str], *, fill: str = "#4e79a7",
         width: int = 260, height: int = 120, title: str = "") -> str:
    """A small vertical bar chart with a value over each bar."""
    n = max(1, len(values))
    top = max([*values, 1e-9])
    bw = (width - 10) / n
    out = [f'<svg class="bars" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>']
    base = height - 18
    for i, (v, lab) in enumerate(zip(values, labels, strict=True)):
        h = (base - 16) * v / top
        x = 5 + i * bw
        out.append(f'<rect x="{x + 3:.1f}" y="{base - h:.1f}" width="{bw - 6:.1f}" '
                   f'height="{h:.1f}" fill="{fill}"/>')
        out.append(f'<text x="{x + bw / 2:.1f}" y="{base - h - 3:.1f}" '
                   f'text-anchor="middle">{_fmt(v)}</text>')
        out.append(f'<text x="{x + bw / 2:.1f}" y="{height - 4}" '
                   f'text-anchor="middle">{escape(lab)}</text>')
    out.append("</svg>")
    return "".join(out)
