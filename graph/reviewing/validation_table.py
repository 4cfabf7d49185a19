"""The paper's human-validation table for a run (SPEC section 10), from its review labels.

Per criterion: the share of reviewed accepted samples that pass, overall and per cell, with a 95%
Wilson interval and the count behind it; the share of reviewed rejections that were right; the
relevance labeller against the reviewers' corrections (precision, recall and F1 of "relevant");
and, where two reviewers labelled the same samples, their agreement per criterion (Cohen's kappa).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TypedDict

from graph.reviewing.labels import CRITERIA, RESTYLE_CRITERION, UNANSWERABLE_CRITERIA, Labels, SavedLabels
from graph.reviewing.samples import ReviewSample, current_reviews
from graph.statistics.intervals import wilson

#: The paper's figures beside each criterion (SPEC section 8): share of accepted samples passing,
#: HotpotQA / MuSiQue.
PAPER = {
    "answerable": "0.90 / 0.93",
    "correct": "0.92 / 0.98",
    "multi_hop": "0.91 / 0.85",
    "unambiguous": "0.92 / 0.92",
}
PAPER_REJECTIONS_RIGHT = "85-90%"


class Share(TypedDict):
    """`passed` of `total`, their share (None of none) and its 95% Wilson interval."""

    passed: int
    total: int
    share: float | None
    low: float
    high: float


def share(passed: int, total: int) -> Share:
    low, high = wilson(passed, total)
    return Share(passed=passed, total=total, share=passed / total if total else None, low=low, high=high)


class ReviewerAgreement(TypedDict):
    """Two reviewers' agreement on one criterion: the samples both labelled, and Cohen's kappa."""

    pairs: int
    kappa: float | None


class RelevanceFigures(TypedDict):
    """The relevance labeller against the reviewers' corrections, over the contexts either called relevant."""

    precision: float | None
    recall: float | None
    f1: float | None
    contexts: int


class ValidationSummary(TypedDict):
    """The human-validation table's figures (`summarise`)."""

    criteria: dict[str, Share]
    cells: dict[str, dict[str, Share]]
    """Cell -> criterion -> its share."""
    rejections_right: Share
    restyles_right: Share
    unanswerable: dict[str, Share]
    """The generated unanswerable questions' own criteria."""
    relevance: RelevanceFigures
    agreement: dict[str, ReviewerAgreement]
    reviewed_samples: int


def cohen_kappa(pairs: list[tuple[bool, bool]]) -> float | None:
    """ReviewerAgreement of two raters on yes/no labels beyond chance; None without pairs or when chance is certain."""
    if not pairs:
        return None
    observed = sum(a == b for a, b in pairs) / len(pairs)
    first = sum(a for a, _ in pairs) / len(pairs)
    second = sum(b for _, b in pairs) / len(pairs)
    chance = first * second + (1 - first) * (1 - second)
    return None if chance == 1 else (observed - chance) / (1 - chance)


def summarise(samples: dict[int, ReviewSample], reviews: Iterable[SavedLabels]) -> ValidationSummary:
    """The table's figures from every reviewer's labels (each reviewer's label of a sample counts once); a label
    saved before its record was refreshed is of an earlier version and does not count."""
    by_criterion: dict[str, list[bool]] = defaultdict(list)
    by_cell: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    rejections: list[bool] = []
    unanswerable: dict[str, list[bool]] = defaultdict(list)
    restyles: list[bool] = []
    true_pos = false_pos = false_neg = 0
    per_sample: dict[int, dict[str, Labels]] = defaultdict(dict)
    for review in current_reviews(samples, reviews):
        sample = samples.get(review["n"])
        if sample is None:
            continue
        labels = review["labels"]
        per_sample[review["n"]][review["reviewer"]] = labels
        if sample.restyled and isinstance(labels.get(RESTYLE_CRITERION), bool):
            restyles.append(labels[RESTYLE_CRITERION])
        if sample.accepted and sample.generated_unanswerable:  # criteria of its own, kept apart from the paper's
            for name in UNANSWERABLE_CRITERIA:
                if isinstance(labels.get(name), bool):
                    unanswerable[name].append(labels[name])
        elif sample.accepted:
            for name in CRITERIA:
                if isinstance(labels.get(name), bool):
                    by_criterion[name].append(labels[name])
                    by_cell[sample.cell][name].append(labels[name])
            flips = labels.get("relevance") or {}
            for context in sample.contexts:
                predicted = context.relevant
                truth = flips.get(context.id, predicted)
                true_pos += predicted and truth
                false_pos += predicted and not truth
                false_neg += truth and not predicted
        elif isinstance(labels.get("rejection_right"), bool):
            rejections.append(labels["rejection_right"])
    precision = true_pos / (true_pos + false_pos) if true_pos + false_pos else None
    recall = true_pos / (true_pos + false_neg) if true_pos + false_neg else None
    f1 = 2 * precision * recall / (precision + recall) if precision and recall else None
    agreement: dict[str, ReviewerAgreement] = {}
    for name in CRITERIA:
        pairs = []
        for reviewers in per_sample.values():
            given = [value for labels in reviewers.values() if isinstance(value := labels.get(name), bool)]
            if len(given) >= 2:
                pairs.append((given[0], given[1]))
        agreement[name] = ReviewerAgreement(pairs=len(pairs), kappa=cohen_kappa(pairs))
    return {
        "criteria": {name: share(sum(v), len(v)) for name, v in ((n, by_criterion[n]) for n in CRITERIA)},
        "cells": {
            cell: {name: share(sum(values[name]), len(values[name])) for name in CRITERIA}
            for cell, values in sorted(by_cell.items())
        },
        "rejections_right": share(sum(rejections), len(rejections)),
        "restyles_right": share(sum(restyles), len(restyles)),
        "unanswerable": {
            name: share(sum(unanswerable[name]), len(unanswerable[name])) for name in UNANSWERABLE_CRITERIA
        },
        "relevance": RelevanceFigures(
            precision=precision, recall=recall, f1=f1, contexts=true_pos + false_pos + false_neg
        ),
        "agreement": agreement,
        "reviewed_samples": len(per_sample),
    }


def _percent(figure: Share) -> str:
    if not figure["total"]:
        return "no labels"
    return (
        f"{figure['share']:.0%} [{figure['low']:.0%}, {figure['high']:.0%}] ({figure['passed']} of {figure['total']})"
    )


def _short(figure: Share) -> str:
    return f"{figure['share']:.0%} ({figure['total']})" if figure["total"] else "-"


def format_summary(summary: ValidationSummary) -> str:
    """The table as the terminal shows it."""
    lines = [
        f"reviewed samples: {summary['reviewed_samples']}",
        "",
        f"{'criterion':<18}{'this run [95% interval] (count)':<36}paper (HotpotQA / MuSiQue)",
    ]
    for name in CRITERIA:
        lines.append(f"{name:<18}{_percent(summary['criteria'][name]):<36}{PAPER[name]}")
    lines.append(f"{'rejections right':<18}{_percent(summary['rejections_right']):<36}{PAPER_REJECTIONS_RIGHT}")
    for own, figure in summary["unanswerable"].items():
        if figure["total"]:
            lines.append(f"{'unanswerable: ' + own:<18}{_percent(figure):<36}not in the paper")
    restyled = summary["restyles_right"]
    if restyled["total"]:
        lines.append(f"{'rewrites right':<18}{_percent(restyled):<36}not in the paper")
    relevance = summary["relevance"]
    if relevance["contexts"]:
        shown = ", ".join(
            f"{figure} {relevance[figure]:.2f}" if relevance[figure] is not None else f"{figure} -"
            for figure in ("precision", "recall", "f1")
        )
        lines.append(f"relevance labels against the reviewers': {shown}")
    for criterion, agreed in summary["agreement"].items():
        if agreed["pairs"]:
            kappa = "-" if agreed["kappa"] is None else f"{agreed['kappa']:.2f}"
            lines.append(f"agreement on {criterion}: Cohen's kappa {kappa} over {agreed['pairs']} samples")
    if summary["cells"]:
        lines += ["", f"{'cell':<22}" + "".join(f"{name:>14}" for name in CRITERIA)]
        for cell, shares in summary["cells"].items():
            row = "".join(f"{_short(figure):>14}" for figure in shares.values())

            lines.append(f"{cell:<22}{row}")
    return "\n".join(lines)
