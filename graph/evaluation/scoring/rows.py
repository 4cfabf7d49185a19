"""A row of an evaluation: its identity, the groups it is broken down by, the cluster its figures are drawn in and
the metrics it holds."""

from __future__ import annotations

from typing import Any

from graph.evaluation.scoring.evidence import EVIDENCE_METRICS
from graph.evaluation.setups import Setup
from state.record import DatasetRecord

METRICS = (
    "precision",
    "recall",
    *EVIDENCE_METRICS,
    "correct",
    "correctness",
    "faithful",
    "abstained",
    "abstained_generated",
)
"""`precision`, `recall`: by chunk id, where the setup reads the run's own collection; the evidence metrics
(`graph.evaluation.scoring.evidence`) on any collection, for records that carry evidence; `correct`: the judge's
verdict; `correctness`: the graded score RAGAS calls answer_correctness (0 to 1); `abstained`: on the simulated
variant of answerable questions; `abstained_generated`: on generated unanswerable questions, the setup retrieving
for itself."""


GROUPS = ("answerable", "question_type", "binary", "language", "temporal", "difficulty", "query_style", "persona")


def group_value(record: DatasetRecord, field: str) -> Any:
    """The record's value of a breakdown field (one of `GROUPS`)."""
    return getattr(record, field)


#: The metrics that are yes/no outcomes (their figures are shares); the others are numbers per record.
SHARE_METRICS = ("correct", "faithful", "abstained", "abstained_generated", "all_evidence_found", "hit@k")


def record_cluster(record: DatasetRecord) -> str:
    """The cluster a record's figures are drawn in: the document of its seed (its first supporting chunk's
    `source`, or its first fact's), or the record alone where neither says."""
    for chunk in record.supporting[:1]:
        source = chunk.metadata.get("source")
        if isinstance(source, str) and source:
            return source
    fact = next(iter(record.facts()), None)
    return (fact.location.source if fact is not None else None) or record.id


def empty_row(setup: Setup, record: DatasetRecord) -> dict[str, Any]:
    """A row's identity, groups and cluster, every metric unset."""
    return {
        "setup": setup.name,
        "sample_id": record.id,
        "cluster": record_cluster(record),
        **{field: group_value(record, field) for field in GROUPS},
        **dict.fromkeys(METRICS),
        "unanswerable_answer": None,
    }
