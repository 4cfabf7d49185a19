"""A regression gate for CI on an evaluation's summary: thresholds, a baseline, a JUnit report.

    --fail-under recall=0.8,correctness=0.7,composition.recall=0.6
    --baseline runs/docs-v1/eval-summary.json --max-drop 0.03
    --junit eval-junit.xml

A threshold names a metric of the summary (`graph.evaluation.scoring.METRICS`), overall or for one
slice (`SLICE.METRIC`, the slice a value of a breakdown: a question type, a difficulty, a language,
true/false for binary and temporal...). Every setup is held to every threshold; with a baseline, each
metric of each setup the baseline also holds may drop by at most `--max-drop`. A metric with no
value (it does not apply to the dataset) neither passes nor fails: it is skipped, and said so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from graph.config.errors import UserError
from graph.evaluation.scoring import GROUPS, METRICS


@dataclass(frozen=True)
class Threshold:
    metric: str
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

    @property
    def skipped(self) -> bool:
        return self.value is None

    def line(self) -> str:
        shown = "-" if self.value is None else f"{self.value:.3f}"
        verdict = "skipped (no value)" if self.skipped else "ok" if self.passed else "FAILS"
        return f"{self.setup}: {self.name} {shown}, wanted {self.bound}: {verdict}"


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
        if metric not in METRICS or not 0 <= least <= 1:
            raise UserError(
                f"--fail-under takes METRIC=VALUE or SLICE.METRIC=VALUE, comma-separated, with a value from 0 to 1 "
                f"and a metric among {', '.join(METRICS)}; not {part!r}"
            )
        thresholds.append(Threshold(metric, least, slice_name or None))
    if not thresholds:
        raise UserError("--fail-under names no threshold; write e.g. recall=0.8,correctness=0.7")
    return thresholds


def slice_means(summary: Mapping[str, Any], slice_name: str | None) -> Mapping[str, Any] | None:
    """The means of one slice of a setup's summary (None: overall); None when no breakdown has that value."""
    if slice_name is None:
        return summary["all"]
    for field in GROUPS:
        if slice_name in (summary.get(field) or {}):
            return summary[field][slice_name]
    return None


def threshold_checks(summaries: Mapping[str, Any], thresholds: Sequence[Threshold]) -> list[Check]:
    checks = []
    for setup, summary in summaries.items():
        for threshold in thresholds:
            means = slice_means(summary, threshold.slice)
            value = None if means is None else means.get(threshold.metric)
            passed = value is None or value >= threshold.least
            checks.append(Check(setup, threshold.name, value, f">= {threshold.least:g}", passed))
    return checks


def read_baseline(path: Path) -> dict[str, Any]:
    try:
        baseline = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UserError(f"cannot read --baseline {path} ({error.strerror}); give an eval-summary.json") from None
    except ValueError:
        raise UserError(f"--baseline {path} is not JSON; give the eval-summary.json of an earlier evaluation") from None
    if not isinstance(baseline, dict) or not all(isinstance(s, dict) and "all" in s for s in baseline.values()):
        raise UserError(f"--baseline {path} is not an eval-summary.json; give the one graph.evaluate wrote")
    return baseline


def baseline_checks(summaries: Mapping[str, Any], baseline: Mapping[str, Any], max_drop: float) -> list[Check]:
    """Every overall metric of every setup the baseline holds too, against its value there."""
    checks = []
    for setup, summary in summaries.items():
        before = baseline.get(setup)
        if before is None:
            continue
        for metric in METRICS:
            then, now = before["all"].get(metric), summary["all"].get(metric)
            if then is None:
                continue
            passed = now is None or now >= then - max_drop
            checks.append(Check(setup, metric, now, f"at most {max_drop:g} below {then:.3f}", passed))
    return checks


def baseline_notes(summaries: Mapping[str, Any], baseline: Mapping[str, Any]) -> list[str]:
    """A line for each setup the baseline judged with another judge model or other evaluation prompts: its
    comparison sets different judgements side by side."""
    notes = []
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
    return ElementTree.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
