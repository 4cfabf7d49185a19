"""A regression gate for CI on an evaluation: thresholds, a baseline compared per question, a JUnit report.

    --fail-under recall=0.8,correctness=0.7,composition.recall=0.6
    --baseline runs/docs-v1 --max-drop 0.03 --gate-metrics recall,correctness
    --junit eval-junit.xml

A threshold names a metric of the summary (`graph.evaluation.scoring.records.METRICS`), overall or for one
slice (`SLICE.METRIC`, the slice a value of a breakdown: a question type, a difficulty, a language,
true/false for binary and temporal...). Every setup is held to every threshold. A metric with no
value (it does not apply to the dataset) neither passes nor fails: it is skipped, and said so.

A baseline is an earlier evaluation's run folder or eval.jsonl: its rows of the same-named setup (those of the
setup's latest signature there) pair with this evaluation's by question, and a gate metric fails only when the
whole paired 95% interval of (now minus then) lies below `-max_drop`; a drop within noise passes, and says so.
The gate holds the overall metrics `--gate-metrics` names, not every group, so an unchanged setup rarely fails by
chance. With an eval-summary.json alone, or rows that do not pair (another dataset), the means are compared
(`now >= then - max_drop`), and that is said.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from graph.config.errors import UserError, writing
from graph.evaluation.confidence.comparisons import pair_rows, record_key
from graph.evaluation.scoring.rows import GROUPS, METRICS, EvalRow, Means, Metric, SetupSummary, is_metric
from graph.folder.files import write_atomically
from graph.statistics.intervals import paired_interval


@dataclass(frozen=True)
class Threshold:
    metric: Metric
    least: float
    slice: str | None = None
    """A breakdown's value (e.g. composition); None: over every sample."""

    @property
    def name(self) -> str:
        return f"{self.slice}.{self.metric}" if self.slice else self.metric


@dataclass(frozen=True)
class Check:
    """One metric of one setup held to one bound."""

    setup: str
    name: str
    value: float | None
    bound: str
    """What it was held to, as said: ">= 0.8", "at most 0.03 below 0.91"."""
    passed: bool
    detail: str = ""
    """How it was decided: the paired difference with its interval, or that means were compared."""
    within_noise: bool = False
    """It passed on a drop beyond the allowed one whose interval reaches back within it: a reader should see it."""

    @property
    def skipped(self) -> bool:
        return self.value is None

    def line(self) -> str:
        shown = "-" if self.value is None else f"{self.value:.3f}"
        verdict = "skipped (no value)" if self.skipped else "ok" if self.passed else "FAILS"
        return f"{self.setup}: {self.name} {shown}, wanted {self.bound}: {verdict}" + (
            f" ({self.detail})" if self.detail else ""
        )


def parse_thresholds(text: str) -> list[Threshold]:
    """`recall=0.8,composition.recall=0.6` as thresholds; anything else is one line naming the form."""
    thresholds = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, _, value = part.partition("=")
        slice_name, _, metric = name.strip().rpartition(".")
        try:
            least = float(value)
        except ValueError:
            least = float("nan")
        if not is_metric(metric) or not 0 <= least <= 1:
            raise UserError(
                f"--fail-under takes METRIC=VALUE or SLICE.METRIC=VALUE, comma-separated, with a value from 0 to 1 "
                f"and a metric among {', '.join(METRICS)}; not {part!r}"
            )
        thresholds.append(Threshold(metric, least, slice_name or None))
    if not thresholds:
        raise UserError("--fail-under names no threshold; write e.g. recall=0.8,correctness=0.7")
    return thresholds


def slice_means(summary: SetupSummary, slice_name: str | None) -> Means | None:
    """The means of one slice of a setup's summary (None: overall); None when no breakdown has that value."""
    if slice_name is None:
        return summary["all"]
    for field in GROUPS:
        if slice_name in (groups := summary.get(field) or {}):
            return groups[slice_name]
    return None


def threshold_checks(summaries: Mapping[str, SetupSummary], thresholds: Sequence[Threshold]) -> list[Check]:
    checks = []
    for setup, summary in summaries.items():
        for threshold in thresholds:
            means = slice_means(summary, threshold.slice)
            value = None if means is None else means.get(threshold.metric)
            passed = value is None or value >= threshold.least
            checks.append(Check(setup, threshold.name, value, f">= {threshold.least:g}", passed))
    return checks


#: The metrics a baseline holds a setup to unless `--gate-metrics` names others.
GATE_METRICS: tuple[Metric, ...] = ("recall", "correctness")


def parse_gate_metrics(text: str) -> tuple[Metric, ...]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    metrics = tuple(name for name in names if is_metric(name))
    if not names or len(metrics) < len(names):
        raise UserError(f"--gate-metrics takes metric names, comma-separated, among {', '.join(METRICS)}; not {text!r}")
    return metrics


@dataclass(frozen=True)
class Baseline:
    """An earlier evaluation: its rows per setup (of each setup's latest signature), its summaries, or both."""

    path: Path
    rows: dict[str, list[EvalRow]] | None
    summaries: dict[str, SetupSummary] | None


def _latest_rows(lines: list[EvalRow]) -> dict[str, list[EvalRow]]:
    """Each setup's rows of the signature it was last evaluated with (rows are written latest last)."""
    latest = {row.get("setup"): row["signature"] for row in lines}
    kept: dict[tuple[str, str], EvalRow] = {}
    for row in lines:  # of a record refreshed into versions, its latest
        if row["signature"] == latest[row.get("setup")]:
            key = (str(row.get("setup")), str(row["sample_id"]))
            if key not in kept or int(row.get("sample_version") or 1) >= int(kept[key].get("sample_version") or 1):
                kept[key] = row
    rows: dict[str, list[EvalRow]] = {}
    for (setup, _), row in kept.items():
        rows.setdefault(setup, []).append(row)
    return rows


def _read_json(path: Path, what: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot read --baseline {path} ({error.strerror}); give {what}") from None
    try:
        return (
            [json.loads(line) for line in text.splitlines() if line.strip()]
            if path.suffix == ".jsonl"
            else (json.loads(text))
        )
    except ValueError:
        raise UserError(f"--baseline {path} is not JSON; give {what} of an earlier evaluation") from None


def read_baseline(path: Path) -> Baseline:
    """A run folder (its eval.jsonl and eval-summary.json), an eval.jsonl, or an eval-summary.json."""
    what = "a run folder, its eval.jsonl or its eval-summary.json"
    rows_path = summary_path = None
    if path.is_dir():
        rows_path, summary_path = path / "eval.jsonl", path / "eval-summary.json"
        if not rows_path.is_file() and not summary_path.is_file():
            raise UserError(f"--baseline {path} holds no evaluation (no eval.jsonl); evaluate it first, or give {what}")
    elif path.name.endswith(".jsonl"):  # its summary beside it, where it is named as triad names them
        rows_path = path
        if path.name.endswith("eval.jsonl"):
            summary_path = path.with_name(path.name.removesuffix("eval.jsonl") + "eval-summary.json")
    else:
        summary_path = path
    rows = None
    if rows_path is not None and rows_path.is_file():
        lines = _read_json(rows_path, what)
        if not all(isinstance(row, dict) and "signature" in row and "sample_id" in row for row in lines):
            raise UserError(f"--baseline {rows_path} is not an eval.jsonl; give the one graph.evaluate wrote")
        rows = _latest_rows(lines)
    summaries = None
    if summary_path is not None and (summary_path.is_file() or rows is None):
        read = _read_json(summary_path, what)
        setups = {k: v for k, v in read.items() if k != "comparisons"} if isinstance(read, dict) else None
        if setups is None or not all(isinstance(s, dict) and "all" in s for s in setups.values()):
            raise UserError(f"--baseline {summary_path} is not an eval-summary.json; give the one graph.evaluate wrote")
        summaries = setups
    return Baseline(path, rows, summaries)


def baseline_checks(
    summaries: Mapping[str, SetupSummary],
    baseline: Baseline,
    max_drop: float,
    rows: Mapping[str, Sequence[EvalRow]] | None = None,
    metrics: Sequence[Metric] = GATE_METRICS,
) -> tuple[list[Check], list[str]]:
    """Each gate metric of every setup the baseline holds too: paired per question where the rows pair, by means
    otherwise; and a note for each setup compared by means, saying why."""
    checks, notes = [], []
    for setup, summary in summaries.items():
        then_rows = (baseline.rows or {}).get(setup)
        now_rows = (rows or {}).get(setup)
        shared = (
            {record_key(r) for r in then_rows} & {record_key(r) for r in now_rows}
            if then_rows is not None and now_rows is not None
            else set()
        )
        if then_rows is not None and now_rows is not None and shared:
            if len(shared) < len(now_rows):
                notes.append(
                    f"note: {setup}: {len(shared)} of {len(now_rows)} records pair with the baseline; the gate "
                    "compares those"
                )
            checks += [_paired_check(setup, metric, then_rows, now_rows, summary, max_drop) for metric in metrics]
            continue
        before = (baseline.summaries or {}).get(setup)
        if before is None and then_rows is not None:  # rows of another dataset, and no summary: their own means
            means = Means()
            for metric in metrics:
                means[metric] = _mean(then_rows, metric)
            before = SetupSummary(all=means)
        if before is None:
            continue
        why = (
            "its rows do not pair with these records (another dataset)"
            if then_rows is not None
            else "the baseline is an eval-summary.json; give its run folder or eval.jsonl to compare per question"
        )
        notes.append(f"note: {setup} is compared with the baseline by means: {why}")
        for metric in metrics:
            then, now = before["all"].get(metric), summary["all"].get(metric)
            if then is None:
                continue
            passed = now is None or now >= then - max_drop
            checks.append(Check(setup, metric, now, f"at most {max_drop:g} below {then:.3f}", passed, "by means"))
    return checks, notes


def _mean(rows: Sequence[EvalRow], metric: Metric) -> float | None:
    values = [float(value) for row in rows if (value := row.get(metric)) is not None]
    return sum(values) / len(values) if values else None


def _paired_check(
    setup: str,
    metric: Metric,
    then_rows: Sequence[EvalRow],
    now_rows: Sequence[EvalRow],
    summary: SetupSummary,
    max_drop: float,
) -> Check:
    """Fails only when the whole paired interval of now minus then lies below -max_drop."""
    now = summary["all"].get(metric)
    differences, clusters = pair_rows(then_rows, now_rows, metric)
    bound = f"no drop beyond {max_drop:g} past noise"
    if not differences:
        return Check(setup, metric, None, bound, True, "no question has it in both")
    interval = paired_interval(differences, clusters)
    low, high = interval.low, interval.high
    where = f"over {interval.n} questions in {interval.clusters} documents"
    if interval.clusters == 1:
        where += " (one document: questions taken as independent)"
    if low is None or high is None:  # one question: no interval, and no noise it can be told from
        return Check(setup, metric, now, bound, True, f"paired difference {interval.mean:+.3f} on one question")
    passed = high >= -max_drop
    noise = passed and interval.mean < -max_drop
    detail = f"paired difference {interval.mean:+.3f} [{low:+.3f}, {high:+.3f}] {where}"
    if noise:
        detail += f"; the drop is within noise: the interval reaches {high:+.3f}, not wholly below {-max_drop:+g}"
    return Check(setup, metric, now, bound, passed, detail, noise)


def baseline_notes(summaries: Mapping[str, SetupSummary], baseline: Mapping[str, SetupSummary] | None) -> list[str]:
    """A line for each setup the baseline judged with another judge model or other evaluation prompts: its
    comparison sets different judgements side by side."""
    notes: list[str] = []
    if baseline is None:
        return notes
    for setup, summary in summaries.items():
        if setup not in baseline:
            continue
        then = baseline[setup].get("judges") or {}
        now = summary.get("judges") or {}
        differences = [
            f"{what} {then.get(key) or 'unrecorded'} -> {now.get(key)}"
            for key, what in (("model", "judge model"), ("prompts", "evaluation prompts"))
            if then.get(key) != now.get(key)
        ]
        if differences:
            notes.append(
                f"note: the baseline judged setup {setup!r} otherwise ({'; '.join(differences)}); its comparison "
                "sets judgements of different judges side by side: evaluate the baseline's dataset again to compare "
                "like with like"
            )
    return notes


def write_junit(path: Path, checks: Sequence[Check]) -> None:
    """The checks as a JUnit report at `path` (`--junit`)."""
    with writing(path, "fix --junit"):
        write_atomically(path, junit_xml(checks))


def junit_xml(checks: Sequence[Check]) -> str:
    """A JUnit report: one test case per setup and metric, a failure where it falls short, skipped without value."""
    suite = ElementTree.Element(
        "testsuite",
        name="triad evaluate",
        tests=str(len(checks)),
        failures=str(sum(not c.passed for c in checks)),
        skipped=str(sum(c.skipped for c in checks)),
    )
    for check in checks:
        case = ElementTree.SubElement(
            suite, "testcase", classname=f"triad.{check.setup}", name=f"{check.name} {check.bound}"
        )
        if check.skipped:
            ElementTree.SubElement(case, "skipped", message="the metric has no value on this dataset")
        elif not check.passed:
            ElementTree.SubElement(case, "failure", message=check.line()).text = check.line()
        elif check.detail:  # how a passing check was decided: its interval, or the means
            ElementTree.SubElement(case, "system-out").text = check.line()
    return ElementTree.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
