"""The charts of triad's reports, drawn by matplotlib as static SVG written into the page: it opens offline, needs
no script, and a chart costs kilobytes.

Text stays text in the SVG (no glyph outlines), so a chart is searchable and small; every chart is drawn on its
own figure, closed once written.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")  # no display: figures are only written out
# Text as text, in one named font (the page's sans-serif where it lacks it); ids that do not vary between runs.
# A "$" in a label (a setup's or persona's name) is a dollar sign, not mathematics.
matplotlib.rcParams.update(
    {"svg.fonttype": "none", "svg.hashsalt": "triad", "font.sans-serif": ["DejaVu Sans"], "text.parse_math": False}
)

from matplotlib import pyplot  # noqa: E402  (after the backend is chosen)
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

#: Colours of the setups, one each, in the order the setups are given.
PALETTE = ("#4468c4", "#d0703a", "#3c9a6a", "#a64f9a", "#8a8a2e", "#2f8fb3", "#b8464f", "#6b6b6b")

#: The width of a chart, in inches (at matplotlib's 72 points each in SVG).
WIDTH = 7.5

#: The height of one row of a chart, in inches.
ROW = 0.28

NOTHING = '<p class="note">nothing to show yet</p>'


@dataclass(frozen=True)
class Point:
    """One figure of a chart: its label, its value, its 95% interval (None: none could be had) and its records."""

    label: str
    value: float
    low: float | None = None
    high: float | None = None
    n: int | None = None
    colour: int = 0
    """The palette entry it is drawn in: its setup's place."""


def _svg(figure: Figure) -> str:
    """The figure as an SVG element for a page: no XML prolog, no metadata, ids that do not vary between runs."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    pyplot.close(figure)
    text = buffer.getvalue()
    svg = re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg") :], flags=re.S)
    # Smaller, drawn the same: coordinates to a hundredth of a point, no indentation, no rotation by 0.
    svg = re.sub(r'="[^"]*"', lambda value: re.sub(r"(\d+\.\d{2})\d+", r"\1", value.group(0)), svg)
    svg = re.sub(r' transform="rotate\(-?0 [^)]*\)"', "", svg)
    svg = re.sub(r">\s+<", "><", re.sub(r"\s*\n\s*", " ", svg))
    svg = re.sub(
        r'<g id="[^"]*">', "<g>", svg
    )  # the groups' names; what is referred to (clip paths, marks) keeps its id
    # Inline in HTML, an SVG needs no namespace declarations, and `href` is what `xlink:href` was.
    svg = re.sub(r' xmlns(:xlink)?="[^"]*"', "", svg).replace("xlink:href=", "href=")
    return svg.replace("<svg ", '<svg role="img" ', 1)


#: About how wide a character of the charts' 8-point labels is, in inches (DejaVu Sans averages 0.6 em).
LABEL_CHAR = 8 * 0.6 / 72


def _leave_room(figure: Figure, labels: Sequence[str]) -> None:
    """Margins that fit the longest label at the left and the axis title below, laid out without measuring the
    text (a second drawing of every label is what a tight layout costs)."""
    width, height = figure.get_size_inches()
    left = min(0.6, (max(map(len, labels), default=0) * LABEL_CHAR + 0.15) / width)
    figure.subplots_adjust(left=left, right=0.97, bottom=min(0.45, 0.5 / height), top=1 - min(0.2, 0.1 / height))


def _figure(rows: int) -> tuple[Figure, Axes]:
    figure, axes = pyplot.subplots(figsize=(WIDTH, max(1.2, 0.5 + ROW * rows)))
    axes.spines[["top", "right"]].set_visible(False)
    axes.tick_params(labelsize=8)
    return figure, axes


def bar_chart(counts: Sequence[tuple[str, float]], *, unit: str = "") -> str:
    """Horizontal bars, one per (label, value), the value written at the bar's end."""
    if not counts:
        return NOTHING
    figure, axes = _figure(len(counts))
    labels = [label for label, _ in counts]
    values = [value for _, value in counts]
    positions = range(len(counts))
    axes.barh(positions, values, color=PALETTE[0], height=0.65)
    top = max(values) or 1
    for position, value in zip(positions, values, strict=True):
        axes.text(value + top * 0.01, position, f"{value:g}{unit}", va="center", fontsize=8)
    axes.set_yticks(list(positions), labels)
    axes.invert_yaxis()
    _leave_room(figure, labels)
    axes.set_xlim(0, top * 1.15)
    return _svg(figure)


def interval_chart(points: Sequence[Point], *, zero_line: bool = False, xlabel: str = "") -> str:
    """Each figure as a dot with its 95% interval as a bar across it, its label followed by its records ("n=12"); a
    figure without an interval is a hollow dot. With `zero_line` (differences) a line marks 0, the value at which
    two setups do not differ."""
    if not points:
        return NOTHING
    figure, axes = _figure(len(points))
    # One artist per colour and kind, not per point: a chart of many figures draws as fast as one of few.
    for colour in sorted({point.colour for point in points}):
        drawn = PALETTE[colour % len(PALETTE)]
        mine = [(position, p) for position, p in enumerate(points) if p.colour == colour]
        spans = [(y, p.value, p.low, p.high) for y, p in mine if p.low is not None and p.high is not None]
        if spans:
            ys, values, lows, highs = (list(column) for column in zip(*spans, strict=True))
            axes.hlines(ys, lows, highs, color=drawn, linewidth=2)
            axes.plot(values, ys, "o", color=drawn, markersize=5)
        alone = [(position, p) for position, p in mine if p.low is None or p.high is None]
        if alone:
            axes.plot([p.value for _, p in alone], [y for y, _ in alone], "o", color=drawn, markersize=5,
                      fillstyle="none")  # fmt: skip
    if zero_line:
        axes.axvline(0.0, color="#888888", linewidth=1, linestyle="--")
        reach = max(
            [abs(v) for p in points for v in (p.value, p.low, p.high) if v is not None and math.isfinite(v)] or [1.0]
        )
        axes.set_xlim(-reach * 1.1 or -1, reach * 1.1 or 1)
    labels = [point.label + ("" if point.n is None else f"  n={point.n}") for point in points]
    axes.set_yticks(range(len(points)), labels)
    axes.set_ylim(len(points) - 0.5, -0.5)  # the first figure on top
    _leave_room(figure, labels)
    axes.grid(axis="x", color="#e5e5e5", linewidth=0.6)
    if xlabel:
        axes.set_xlabel(xlabel, fontsize=8)
    return _svg(figure)


@dataclass(frozen=True)
class Line:
    """One metric along a sweep: its means at the swept values, with their intervals."""

    label: str
    values: Sequence[float | None]
    lows: Sequence[float | None]
    highs: Sequence[float | None]


def sweep_chart(key: str, swept: Sequence[str], lines: Sequence[Line]) -> str:
    """Each line's figure against the swept value, its 95% interval as a band around it; numeric values are placed
    by their value, others side by side in the order given."""
    if not swept or not lines:
        return NOTHING
    try:
        xs = [float(value) for value in swept]
    except ValueError:
        xs = [float(index) for index in range(len(swept))]
    # Numeric values in their order, whatever order they were given in, each line's values with them.
    order = sorted(range(len(xs)), key=xs.__getitem__)
    xs, swept = [xs[i] for i in order], [swept[i] for i in order]
    lines = [
        Line(line.label, [line.values[i] for i in order], [line.lows[i] for i in order],
             [line.highs[i] for i in order])
        for line in lines
    ]  # fmt: skip
    figure, axes = pyplot.subplots(figsize=(WIDTH * 0.7, 3.0))
    figure.subplots_adjust(bottom=0.16, right=0.97, top=0.95)
    axes.spines[["top", "right"]].set_visible(False)
    axes.tick_params(labelsize=8)
    for index, line in enumerate(lines):
        colour = PALETTE[index % len(PALETTE)]
        kept = [(x, v) for x, v in zip(xs, line.values, strict=True) if v is not None]
        if not kept:
            continue
        axes.plot([x for x, _ in kept], [v for _, v in kept], "o-", color=colour, label=line.label, markersize=4)
        band = [
            (x, low, high)
            for x, low, high in zip(xs, line.lows, line.highs, strict=True)
            if low is not None and high is not None
        ]
        if len(band) > 1:
            axes.fill_between(
                [x for x, _, _ in band], [b[1] for b in band], [b[2] for b in band], color=colour, alpha=0.18
            )
        elif band:
            axes.plot([band[0][0]] * 2, [band[0][1], band[0][2]], color=colour, linewidth=2)
    axes.set_xticks(xs, list(swept))
    axes.set_xlabel(key, fontsize=8)
    axes.grid(axis="y", color="#e5e5e5", linewidth=0.6)
    axes.legend(fontsize=7, frameon=False)
    return _svg(figure)
