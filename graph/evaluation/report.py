"""The evaluation's summary: a table for the terminal, and eval-report.html: the paired differences, a sweep's
lines, and a section per metric with its means, intervals and records drawn by `graph.webpage.charts`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graph.evaluation.confidence.comparisons import DEFAULT_DETECT, OVERALL, Comparison, chance_line
from graph.evaluation.scoring.diagnosis import diagnose
from graph.evaluation.scoring.rows import GROUPS, METRICS, Group, Means, Metric, SetupSummary
from graph.webpage import document, esc, table
from graph.webpage.charts import Line, Point, interval_chart, sweep_chart


def shown_metrics(summaries: Mapping[str, SetupSummary]) -> list[Metric]:
    """The metrics some setup has a figure of (a retrieval-only evaluation has no correctness; a dataset without
    evidence no evidence metrics; another collection no chunk-id recall)."""
    return [m for m in METRICS if any(summary["all"].get(m) is not None for summary in summaries.values())]


def format_summaries(summaries: Mapping[str, SetupSummary]) -> str:
    """One line per setup: samples, then each metric's mean over the samples it applies to ("-": none); below it,
    a line per query style when the dataset asks its questions in more than one. Metrics no setup has are left
    out."""
    metrics = shown_metrics(summaries)
    widths = {m: max(12, len(m) + 2) for m in metrics}
    header = f"{'setup':<16}{'n':>5}" + "".join(f"{m:>{widths[m]}}" for m in metrics)
    lines = [header]

    def row(label: str, means: Means) -> str:
        cells = "".join(
            f"{value:>{widths[m]}.3f}" if (value := means.get(m)) is not None else f"{'-':>{widths[m]}}"
            for m in metrics
        )
        return f"{label:<16}{int(means.get('n', 0)):>5}{cells}"

    def spread(means: Means) -> str:
        """The 95% intervals under the means, and the records each is over."""
        cells = "".join(f"{interval_text(means, m):>{widths[m]}}" for m in metrics)
        counts = "".join(f"{(means.get('counts') or {}).get(m, '-'):>{widths[m]}}" for m in metrics)
        return f"{'  95% interval':<21}{cells}\n{'  records':<21}{counts}"

    for name, summary in summaries.items():
        lines.append(row(name, summary["all"]))
        lines.append(spread(summary["all"]))
        styles = summary.get("query_style") or {}
        if len(styles) > 1:
            lines += [row(f"  {style}", means) for style, means in styles.items()]
    return "\n".join(lines)


def interval_text(means: Means, metric: Metric) -> str:
    """A mean's 95% interval as "0.52-0.85"; "-" where it has none (no records, or one document)."""
    low, high = ((means.get("intervals") or {}).get(metric)) or (None, None)
    return "-" if low is None or high is None else f"{low:.2f}-{high:.2f}"


def _shown_with_interval(means: Means | None, metric: Metric) -> str:
    """A mean with its 95% interval and its records, as a report's table cell shows it."""
    if not means or (value := means.get(metric)) is None:
        return "-"
    records = (means.get("counts") or {}).get(metric)
    return f"{value:.3f} [{interval_text(means, metric)}] n={records}"


def diagnosis_section(summaries: Mapping[str, SetupSummary]) -> str:
    """What the figures suggest, per setup (`graph.evaluation.scoring.diagnosis`)."""
    items = "".join(
        f"<li><b>{esc(name)}</b>: "
        + ("; ".join(esc(finding) for finding in findings) if findings else "none of the known patterns shows")
        + "</li>"
        for name, findings in ((name, diagnose(summary)) for name, summary in summaries.items())
    )
    return f'<section id="diagnosis"><h2>What the figures suggest</h2><ul>{items}</ul></section>'


def _proper_groups(summaries: Mapping[str, SetupSummary], groups: list[tuple[Group, str]]) -> list[tuple[Group, str]]:
    """The groups that are not every record (a dataset all in English has language=en as its whole): what a
    chart draws beside the overall figure."""
    first = summaries[next(iter(summaries))]
    whole = first["all"].get("n", 0)
    return [(field, value) for field, value in groups if first.get(field, {})[value].get("n", 0) < whole]


def _points(summaries: Mapping[str, SetupSummary], metric: Metric, groups: list[tuple[Group, str]]) -> list[Point]:
    """A metric's means, overall and by the groups that are not every record, one per setup, each with its
    interval and records."""
    names = list(summaries)
    points = []
    slices: list[tuple[Group | None, str]] = [(None, ""), *_proper_groups(summaries, groups)]
    for field, value in slices:
        for colour, name in enumerate(names):
            means = summaries[name]["all"] if field is None else summaries[name].get(field, {}).get(value)
            if not means or (mean := means.get(metric)) is None:
                continue
            low, high = ((means.get("intervals") or {}).get(metric)) or (None, None)
            label = f"all / {name}" if field is None else f"{field}={value} / {name}"
            count = (means.get("counts") or {}).get(metric)
            points.append(Point(label, float(mean), low, high, count, colour))
    return points


def _difference_points(comparisons: Sequence[Comparison]) -> list[Point]:
    return [
        Point(
            f"{c.second} - {c.first}" + ("" if c.group == OVERALL else f" ({c.group})"),
            c.difference,
            c.interval.low,
            c.interval.high,
            c.interval.n,
            0 if c.group == OVERALL else 1,
        )
        for c in comparisons
    ]


def _needed_cell(comparison: Comparison) -> str:
    needed = comparison.needed
    if needed is None:
        return "-"
    if needed.questions is None:
        return "identical on every question"
    return f"{needed.questions} in {needed.clusters} documents"


def comparisons_section(comparisons: Sequence[Comparison], detect: float) -> str:
    """Every overall comparison: a forest plot of each pair's metrics, and the table of them in words."""
    if not comparisons:
        return ""
    overall = [c for c in comparisons if c.group == OVERALL]
    pairs = list(dict.fromkeys((c.first, c.second) for c in overall))
    plots = "".join(
        f"<h3>{esc(second)} - {esc(first)}</h3>"
        + interval_chart(
            [
                Point(c.metric, c.difference, c.interval.low, c.interval.high, c.interval.n)
                for c in overall
                if (c.first, c.second) == (first, second)
            ],
            zero_line=True,
            xlabel="difference, 95% interval",
        )  # fmt: skip
        for first, second in pairs
    )
    rows = [
        [f"{c.second} - {c.first}", c.metric, f"{c.difference:+.3f}", c.interval_text(), c.interval.n,
         c.interval.clusters, c.words(), _needed_cell(c)]
        for c in overall
    ]  # fmt: skip
    head = [
        "pair",
        "metric",
        "difference",
        "95% interval",
        "n",
        "documents",
        "verdict",
        f"questions to detect {detect:g}",
    ]
    return (
        '<section id="comparisons"><h2>Paired differences</h2>'
        f'<p class="note">{esc(chance_line(comparisons))}. Each difference is the later setup minus the earlier, '
        "per question, over the questions both scored, clustered by document; the questions to detect a difference "
        "are at 80% power.</p>"
        f"{plots}{table(head, rows)}</section>"
    )


def sweep_section(summaries: Mapping[str, SetupSummary]) -> str:
    """Each metric along each swept key, a line per combination of the other keys' values, with interval bands."""
    swept = {name: point for name, summary in summaries.items() if (point := summary.get("swept"))}
    if not swept:
        return ""
    keys = list(next(iter(swept.values())))
    parts = ['<section id="sweep"><h2>Sweep</h2>']
    for key in keys:
        values = list(dict.fromkeys(point[key] for point in swept.values()))
        others = list(dict.fromkeys(tuple((k, v) for k, v in point.items() if k != key) for point in swept.values()))
        for metric in shown_metrics(summaries):
            lines = []
            for other in others:
                means = []
                for value in values:
                    name = next(
                        (
                            n
                            for n, point in swept.items()
                            if point[key] == value and all(point[k] == v for k, v in other)
                        ),
                        None,
                    )
                    means.append(summaries[name]["all"] if name else Means())
                label = ", ".join(f"{k}={v}" for k, v in other) or metric
                lines.append(
                    Line(
                        label,
                        [m.get(metric) for m in means],
                        [((m.get("intervals") or {}).get(metric) or (None, None))[0] for m in means],
                        [((m.get("intervals") or {}).get(metric) or (None, None))[1] for m in means],
                    )
                )
            parts.append(f"<h3>{esc(metric)} by {esc(key)}</h3>{sweep_chart(key, values, lines)}")
    parts.append("</section>")
    return "".join(parts)


def render_eval_report(
    summaries: Mapping[str, SetupSummary], comparisons: Sequence[Comparison] = (), detect: float = DEFAULT_DETECT
) -> str:
    """The diagnosis, the paired differences, a sweep's lines; then one section per metric: each setup's mean with
    its 95% interval and records, overall and by group, the table of them, and the paired differences drawn as a
    forest plot (the groups too small to compare left out of it). Groups that hold every record are in the table,
    not drawn again."""
    names = list(summaries)
    groups = [(field, value) for field in GROUPS for value in summaries[names[0]].get(field, {})]
    parts = ["<h1>triad evaluation</h1>", diagnosis_section(summaries), comparisons_section(comparisons, detect)]
    parts.append(sweep_section(summaries))
    for metric in shown_metrics(summaries):
        chart = interval_chart(_points(summaries, metric, groups), xlabel=f"{metric}, mean and 95% interval")
        rows = [["all"] + [_shown_with_interval(summaries[n]["all"], metric) for n in names]]
        rows += [
            [f"{field}={value}"] + [_shown_with_interval(summaries[n].get(field, {}).get(value), metric) for n in names]
            for field, value in groups
        ]
        parts.append(f'<section id="{metric}"><h2>{esc(metric)}</h2>{chart}{table(["group", *names], rows)}')
        proper = {f"{field}={value}" for field, value in _proper_groups(summaries, groups)} | {OVERALL}
        compared = [c for c in comparisons if c.metric == metric and c.group in proper]
        if compared:
            drawn = [c for c in compared if not c.small]
            parts.append(
                "<h3>Paired differences</h3>"
                + interval_chart(_difference_points(drawn), zero_line=True, xlabel="difference, 95% interval")
                + table(
                    ["pair", "group", "difference", "95% interval", "n", "verdict"],
                    [
                        [
                            f"{c.second} - {c.first}",
                            c.group,
                            f"{c.difference:+.3f}",
                            c.interval_text(),
                            c.interval.n,
                            c.words(),
                        ]
                        for c in compared
                    ],
                )  # fmt: skip
            )
        parts.append("</section>")
    return document("triad evaluation", "".join(parts), style="report.css")
