"""The evaluation's summary: a table for the terminal, and eval-report.html with a section per metric."""

from __future__ import annotations

from typing import Any

from graph.evaluation.diagnosis import diagnose
from graph.evaluation.scoring import GROUPS, METRICS
from graph.webpage import bar_chart, document, esc, table


def shown_metrics(summaries: dict[str, Any]) -> list[str]:
    """The metrics some setup has a figure of (a retrieval-only evaluation has no correctness; a dataset without
    evidence no evidence metrics; another collection no chunk-id recall)."""
    return [m for m in METRICS if any(summary["all"].get(m) is not None for summary in summaries.values())]


def format_summaries(summaries: dict[str, Any]) -> str:
    """One line per setup: samples, then each metric's mean over the samples it applies to ("-": none); below it,
    a line per query style when the dataset asks its questions in more than one. Metrics no setup has are left
    out."""
    metrics = shown_metrics(summaries)
    widths = {m: max(12, len(m) + 2) for m in metrics}
    header = f"{'setup':<16}{'n':>5}" + "".join(f"{m:>{widths[m]}}" for m in metrics)
    lines = [header]

    def row(label: str, means: dict[str, Any]) -> str:
        cells = "".join(
            f"{means[m]:>{widths[m]}.3f}" if means.get(m) is not None else f"{'-':>{widths[m]}}" for m in metrics
        )
        return f"{label:<16}{int(means['n']):>5}{cells}"

    def spread(means: dict[str, Any]) -> str:
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


def interval_text(means: dict[str, Any], metric: str) -> str:
    """A mean's 95% interval as "0.52-0.85"; "-" where it has none (no records, or one document)."""
    low, high = ((means.get("intervals") or {}).get(metric)) or (None, None)
    return "-" if low is None or high is None else f"{low:.2f}-{high:.2f}"


def _shown_with_interval(means: dict[str, Any] | None, metric: str) -> str:
    """A mean with its 95% interval and its records, as a report's table cell shows it."""
    if not means or means.get(metric) is None:
        return "-"
    records = (means.get("counts") or {}).get(metric)
    return f"{means[metric]:.3f} [{interval_text(means, metric)}] n={records}"


def _mean(summaries: dict[str, Any], name: str, field: str, value: str, metric: str) -> float | None:
    return (summaries[name][field].get(value) or {}).get(metric)


def diagnosis_section(summaries: dict[str, Any]) -> str:
    """What the figures suggest, per setup (`graph.evaluation.diagnosis`)."""
    items = "".join(
        f"<li><b>{esc(name)}</b>: "
        + ("; ".join(esc(finding) for finding in findings) if findings else "none of the known patterns shows")
        + "</li>"
        for name, findings in ((name, diagnose(summary)) for name, summary in summaries.items())
    )
    return f'<section id="diagnosis"><h2>What the figures suggest</h2><ul>{items}</ul></section>'


def render_eval_report(summaries: dict[str, Any]) -> str:
    """One section per metric: bars grouped by group value, one bar per setup, and the differences."""
    names = list(summaries)
    groups = [(field, value) for field in GROUPS for value in summaries[names[0]][field]]
    parts = ["<h1>triad evaluation</h1>", diagnosis_section(summaries)]
    for metric in shown_metrics(summaries):
        # A mean over no samples (the metric does not apply to the group) is left out of the bars, "-" in the table.
        bars = [
            (f"all / {name}", round(mean, 3)) for name in names if (mean := summaries[name]["all"][metric]) is not None
        ]
        bars += [
            (f"{field}={value} / {name}", round(mean, 3))
            for field, value in groups
            for name in names
            if (mean := _mean(summaries, name, field, value, metric)) is not None
        ]
        rows = [["all"] + [_shown_with_interval(summaries[n]["all"], metric) for n in names]]
        rows += [
            [f"{field}={value}"] + [_shown_with_interval(summaries[n][field].get(value), metric) for n in names]
            for field, value in groups
        ]
        parts.append(f'<section id="{metric}"><h2>{esc(metric)}</h2>{bar_chart(bars)}{table(["group", *names], rows)}')
        base = summaries[names[0]]["all"][metric]
        if len(names) > 1 and base is not None:
            diffs = [
                [name, "-" if (mean := summaries[name]["all"][metric]) is None else f"{mean - base:+.3f}"]
                for name in names[1:]
            ]
            parts.append(table([f"difference to {names[0]}", metric], diffs))
        parts.append("</section>")
    return document("triad evaluation", "".join(parts), style="report.css")
