"""How well a validator agrees with a run's reviewers (SPEC section 14): the figures, the table, the HTML.

A labelled sample is one a reviewer labelled whose draft the validator judged: an accepted typed
question (its final draft, against the four criteria) or a rejected one whose last draft a judge
rejected (against "the rejection was right"). People accept a sample when every reviewer ticked all
four criteria of an accepted one, or found the rejection of a rejected one wrong. A validator accepts
a draft when quality and sufficiency both do.

Per validator: accept/reject accuracy and Cohen's kappa against the reviewers together and against
each (95% intervals: Wilson for the accuracy, the large-sample standard error for kappa), per
dimension of the quality verdict, the share of its rejections people found right, and its calls,
tokens and cost per judged sample.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from graph.reviewing.labels import CRITERIA, Labels, SavedLabels, criteria_for
from graph.reviewing.samples import current_reviews
from graph.reviewing.validation_table import PAPER_REJECTIONS_RIGHT, Share, cohen_kappa, share
from graph.statistics.intervals import Z95
from graph.webpage import esc, table

#: The quality verdict's dimensions and the criteria reviewers tick that each answers for.
DIMENSIONS = {
    "one_question": ("multi_hop",),  # two questions in one are not multi-hop to a reviewer
    "quality": ("answerable", "correct"),
    "multi_hop": ("multi_hop",),
    "unambiguous": ("unambiguous",),
}


@dataclass(frozen=True)
class Labelled:
    """A labelled sample: slot, whether the run accepted it, and each reviewer's labels."""

    n: int
    accepted: bool
    labels: dict[str, Labels]
    """reviewer -> their labels."""
    question_type: str = "comparison"

    def accepted_by(self, reviewer: str) -> bool:
        labels = self.labels[reviewer]
        if self.accepted:
            return all(labels.get(name) is True for name in criteria_for(self.question_type))
        return labels.get("rejection_right") is False

    @property
    def people_accept(self) -> bool:
        """Every reviewer found nothing wrong with it."""
        return all(self.accepted_by(reviewer) for reviewer in self.labels)

    def criterion(self, name: str) -> bool | None:
        """Whether every reviewer ticked `name` (an accepted sample's criterion); None on a rejected sample or
        where the criterion does not apply (multi-hop for a single-hop question)."""
        if not self.accepted or name not in criteria_for(self.question_type):
            return None
        return all(labels.get(name) is True for labels in self.labels.values())


@dataclass
class Judgement:
    """One validator's verdict on one labelled sample's draft."""

    accepted: bool
    dimensions: dict[str, bool] = field(default_factory=dict)
    """The quality verdict's dimensions (one_question, quality, multi_hop, unambiguous)."""
    calls: list[dict[str, Any]] = field(default_factory=list)
    """The model calls it took (ModelCall)."""


def labelled_samples(samples: dict[int, Any], reviews: Iterable[SavedLabels]) -> list[Labelled]:
    """The typed samples reviewers labelled (generated unanswerable questions have a judge of their own)."""
    by_sample: dict[int, dict[str, Labels]] = {}
    for review in current_reviews(samples, reviews):
        sample = samples.get(review["n"])
        if sample is None or sample.generated_unanswerable or sample.outcome in ("no_bridge", "failed"):
            continue
        labels = review["labels"]
        if sample.accepted and not any(isinstance(labels.get(name), bool) for name in CRITERIA):
            continue
        if not sample.accepted and not isinstance(labels.get("rejection_right"), bool):
            continue
        by_sample.setdefault(review["n"], {})[review["reviewer"]] = labels
    return [
        Labelled(n, samples[n].accepted, labels, samples[n].question_type) for n, labels in sorted(by_sample.items())
    ]


def kappa_interval(pairs: Sequence[tuple[bool, bool]]) -> tuple[float | None, float | None, float | None]:
    """Cohen's kappa of (validator, people) pairs with its 95% interval; None where it is undefined."""
    kappa = cohen_kappa(list(pairs))
    if kappa is None:
        return None, None, None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    first = sum(a for a, _ in pairs) / n
    second = sum(b for _, b in pairs) / n
    chance = first * second + (1 - first) * (1 - second)
    spread = Z95 * math.sqrt(observed * (1 - observed) / n) / (1 - chance)
    return kappa, max(-1.0, kappa - spread), min(1.0, kappa + spread)


class ValidatorAgreement(TypedDict):
    """How often a validator agrees with people: accuracy (with its Wilson interval) and kappa (with its interval)."""

    accuracy: Share
    kappa: float | None
    kappa_low: float | None
    kappa_high: float | None


class ValidatorFigures(ValidatorAgreement):
    """One validator against the reviewers (`score`)."""

    samples: int
    reviewers: dict[str, ValidatorAgreement]
    """Against each reviewer, where more than one labelled."""
    dimensions: dict[str, ValidatorAgreement]
    """`<dimension>/<criterion>`: a quality dimension against the criterion people ticked."""
    rejections_right: Share
    calls_per_sample: float
    tokens_per_sample: float
    cost_per_sample_usd: float


class Calibration(TypedDict):
    """calibration.json: every validator's figures on a run's labelled samples."""

    run_id: str
    labelled: int
    validators: dict[str, ValidatorFigures]


def agreement(pairs: Sequence[tuple[bool, bool]]) -> ValidatorAgreement:
    """Accuracy and kappa, each with its interval, of (validator, people) pairs."""
    kappa, low, high = kappa_interval(pairs)
    return ValidatorAgreement(
        accuracy=share(sum(a == b for a, b in pairs), len(pairs)), kappa=kappa, kappa_low=low, kappa_high=high
    )


def score(labelled: Sequence[Labelled], judged: dict[int, Judgement]) -> ValidatorFigures:
    """One validator's figures on the labelled samples it judged (`judged`: slot -> its judgement)."""
    samples = [s for s in labelled if s.n in judged]
    pairs = [(judged[s.n].accepted, s.people_accept) for s in samples]
    reviewers = sorted({reviewer for s in samples for reviewer in s.labels})
    each = {
        reviewer: agreement([(judged[s.n].accepted, s.accepted_by(reviewer)) for s in samples if reviewer in s.labels])
        for reviewer in reviewers
    }
    dimensions = {}
    for dimension, criteria in DIMENSIONS.items():
        for criterion in criteria:
            dimension_pairs = [
                (judged[s.n].dimensions[dimension], bool(s.criterion(criterion)))
                for s in samples
                if s.criterion(criterion) is not None and dimension in judged[s.n].dimensions
            ]
            dimensions[f"{dimension}/{criterion}"] = agreement(dimension_pairs)
    rejected = [s for s in samples if not judged[s.n].accepted]
    calls = [call for s in samples for call in judged[s.n].calls]
    count = len(samples) or 1
    overall = agreement(pairs)
    return {
        "samples": len(samples),
        "accuracy": overall["accuracy"],
        "kappa": overall["kappa"],
        "kappa_low": overall["kappa_low"],
        "kappa_high": overall["kappa_high"],
        "reviewers": each if len(reviewers) > 1 else {},
        "dimensions": dimensions,
        "rejections_right": share(sum(not s.people_accept for s in rejected), len(rejected)),
        "calls_per_sample": len(calls) / count,
        "tokens_per_sample": sum(c.get("input_tokens", 0) + c.get("output_tokens", 0) for c in calls) / count,
        "cost_per_sample_usd": sum(c.get("cost_usd", 0.0) for c in calls) / count,
    }


def _figure(value: float | None, low: float | None = None, high: float | None = None, percent: bool = False) -> str:
    if value is None:
        return "-"
    shown = (lambda x: f"{x:.0%}") if percent else (lambda x: f"{x:.2f}")
    return shown(value) + (f" [{shown(low)}, {shown(high)}]" if low is not None and high is not None else "")


def rows(calibration: Calibration) -> list[list[str]]:
    """One row per validator: samples, accuracy, kappa, rejections right, calls, tokens and cost per sample."""
    shown = []
    for name, figures in calibration["validators"].items():
        accuracy, right = figures["accuracy"], figures["rejections_right"]
        shown.append(
            [
                name,
                str(figures["samples"]),
                _figure(accuracy["share"], accuracy["low"], accuracy["high"], percent=True),
                _figure(figures["kappa"], figures["kappa_low"], figures["kappa_high"]),
                f"{_figure(right['share'], percent=True)} ({right['passed']} of {right['total']})"
                if right["total"]
                else "no rejections",
                f"{figures['calls_per_sample']:.1f}",
                f"{figures['tokens_per_sample']:,.0f}",
                f"{figures['cost_per_sample_usd']:.5f}",
            ]
        )
    return shown


HEADER = ["validator", "samples", "accuracy", "kappa", "rejections right", "calls", "tokens", "USD"]


def format_calibration(calibration: Calibration) -> str:
    """The table as the terminal shows it, per dimension and per reviewer below it."""
    widths = [max(len(row[i]) for row in [HEADER, *rows(calibration)]) + 2 for i in range(len(HEADER))]
    lines = ["".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in [HEADER]]
    lines += ["".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows(calibration)]
    lines.append(f"(calls, tokens and USD per judged sample; the paper found {PAPER_REJECTIONS_RIGHT} of its "
                 "validator's rejections right)")  # fmt: skip
    for name, figures in calibration["validators"].items():
        parts = [
            f"{dimension} {_figure(f['kappa'])}"
            for dimension, f in figures["dimensions"].items()
            if f["accuracy"]["total"]
        ]
        parts += [f"vs {reviewer} kappa {_figure(f['kappa'])}" for reviewer, f in figures["reviewers"].items()]
        if parts:
            lines.append(f"{name}: " + ", ".join(parts))
    return "\n".join(line.rstrip() for line in lines)


def calibration_html(calibration: Calibration) -> str:
    """The report's section: the table, then kappa per dimension and per reviewer."""
    body = table(HEADER, rows(calibration))
    detail = []
    for name, figures in calibration["validators"].items():
        for dimension, f in figures["dimensions"].items():
            detail.append([name, dimension, _figure(f["accuracy"]["share"], percent=True), _figure(f["kappa"])])
        for reviewer, f in figures["reviewers"].items():
            detail.append(
                [name, f"against {reviewer}", _figure(f["accuracy"]["share"], percent=True), _figure(f["kappa"])]
            )
    return (
        '<section id="calibration"><h2>Validators against the reviewers</h2>'
        f"<p>{esc(str(calibration['labelled']))} labelled samples; a validator accepts a draft when quality and "
        "sufficiency both do, people when every reviewer found nothing wrong. Accuracy and kappa with 95% "
        f"intervals; the paper found {esc(PAPER_REJECTIONS_RIGHT)} of its validator's rejections right. Calls, tokens "
        "and USD per judged sample.</p>"
        f"{body}{table(['validator', 'against', 'accuracy', 'kappa'], detail) if detail else ''}</section>"
    )
