"""What an evaluation's figures suggest: patterns of its metrics that point to a cause, each with the figures
that triggered it.

    low recall, low correctness        the chunks are too coarse or k too small
    high recall, low faithfulness      the generator strays from its context
    answered unanswerable questions    the setup does not abstain
    multi-hop far below single-hop     k, or the query needs decomposing
    a query style far below natural    the retriever or the answerer depends on well-formed questions

The thresholds are rules of thumb, stated with each finding so a reader can weigh it.
"""

from __future__ import annotations

from collections.abc import Mapping

from graph.evaluation.scoring.rows import Means, Metric, SetupSummary
from nodes.question_types import MULTI_HOP_TYPES, SINGLE_HOP_TYPES

LOW_RECALL, LOW_CORRECT = 0.6, 0.5
HIGH_RECALL, LOW_FAITHFUL = 0.8, 0.7
LOW_ABSTAINED = 0.8
#: Correctness of multi-hop questions this far below single-hop ones points at retrieval depth.
HOP_GAP = 0.2
#: Recall or correctness of a query style this far below the natural questions' is a style gap.
STYLE_GAP = 0.2


def _weighted(groups: Mapping[str, Means], types: tuple[str, ...], metric: Metric) -> tuple[float, int] | None:
    """The metric's mean over the question types given, weighted by their samples; None without samples."""
    total = count = 0.0
    for question_type in types:
        group = groups.get(question_type) or Means()
        if (mean := group.get(metric)) is not None and (n := group.get("n")):
            total += mean * n
            count += n
    return (total / count, int(count)) if count else None


def diagnose(summary: SetupSummary) -> list[str]:
    """The findings of one setup's summary (`grouped_means`), each one sentence with its figures."""
    overall = summary["all"]
    # Recall of the evidence where the records carry it (it reads any collection), else by chunk id.
    recall = overall.get("evidence_recall")
    recall = overall.get("recall") if recall is None else recall
    correct, faithful = overall.get("correct"), overall.get("faithful")
    findings = []
    if recall is not None and correct is not None and recall < LOW_RECALL and correct < LOW_CORRECT:
        findings.append(
            f"low recall ({recall:.2f} < {LOW_RECALL}) with low correctness ({correct:.2f} < {LOW_CORRECT}): the "
            "answers miss because the right chunks are not retrieved; try smaller chunks or a larger k"
        )
    if recall is not None and faithful is not None and recall >= HIGH_RECALL and faithful < LOW_FAITHFUL:
        findings.append(
            f"high recall ({recall:.2f} >= {HIGH_RECALL}) with low faithfulness ({faithful:.2f} < {LOW_FAITHFUL}): "
            "the right chunks arrive but the generator strays from them; tighten its prompt or its model"
        )
    abstentions: tuple[tuple[Metric, str], ...] = (
        ("abstained", "the simulated unanswerable variants"),
        ("abstained_generated", "the generated unanswerable questions"),
    )
    for metric, what in abstentions:
        share = overall.get(metric)
        if share is not None and share < LOW_ABSTAINED:
            findings.append(
                f"it answered {1 - share:.0%} of {what} (abstained {share:.2f} < {LOW_ABSTAINED}): it does not "
                "abstain when its context holds no answer; teach it to say so"
            )
    groups = summary.get("question_type") or {}
    multi, single = _weighted(groups, MULTI_HOP_TYPES, "correct"), _weighted(groups, SINGLE_HOP_TYPES, "correct")
    if multi is not None and single is not None and single[0] - multi[0] >= HOP_GAP:
        findings.append(
            f"multi-hop correctness {multi[0]:.2f} ({multi[1]} questions) is far below single-hop {single[0]:.2f} "
            f"({single[1]}): one retrieval does not reach every chunk a question needs; raise k or decompose the "
            "query into its hops"
        )
    return findings + _style_gaps(summary.get("query_style") or {})


def _style_gaps(styles: Mapping[str, Means]) -> list[str]:
    """A query style whose recall or correctness is STYLE_GAP or more below the natural questions'."""
    natural = styles.get("natural") or Means()
    findings = []
    for style, group in styles.items():
        if style == "natural":
            continue
        gaps: tuple[tuple[Metric, str], ...] = (("recall", "recall"), ("correct", "correctness"))
        for metric, what in gaps:
            base, value = natural.get(metric), group.get(metric)
            if base is not None and value is not None and base - value >= STYLE_GAP:
                findings.append(
                    f"{style} queries' {what} {value:.2f} ({int(group.get('n') or 0)} questions) is far below natural "
                    f"questions' {base:.2f}: the setup depends on well-formed questions; try hybrid (keyword) "
                    "search, query rewriting or spelling-tolerant retrieval"
                )
    return findings


def diagnosis_lines(summaries: Mapping[str, SetupSummary]) -> list[str]:
    """The terminal's lines: each setup's findings, or that its figures show none of the patterns."""
    lines = []
    for name, summary in summaries.items():
        findings = diagnose(summary)
        lines += [f"{name}: {finding}" for finding in findings] or [f"{name}: none of the known patterns shows"]
    return lines
