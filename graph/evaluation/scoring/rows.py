"""A row of an evaluation: its identity, the groups it is broken down by, the cluster its figures are drawn in and
the metrics it holds."""

from __future__ import annotations

from typing import Literal, TypedDict, TypeGuard, get_args

from graph.evaluation.scoring.evidence import EvidenceMetric, PlacedContext
from graph.evaluation.setups import Setup
from state.record import DatasetRecord

#: A metric of an evaluation's row.
Metric = Literal[
    "precision",
    "recall",
    EvidenceMetric,
    "correct",
    "correctness",
    "faithful",
    "abstained",
    "abstained_generated",
]
METRICS: tuple[Metric, ...] = get_args(Metric)
"""`precision`, `recall`: by chunk id, where the setup reads the run's own collection; the evidence metrics
(`graph.evaluation.scoring.evidence`) on any collection, for records that carry evidence; `correct`: the judge's
verdict; `correctness`: the graded score RAGAS calls answer_correctness (0 to 1); `abstained`: on the simulated
variant of answerable questions; `abstained_generated`: on generated unanswerable questions, the setup retrieving
for itself."""


#: A field of the record an evaluation is broken down by.
Group = Literal["answerable", "question_type", "binary", "language", "temporal", "difficulty", "query_style", "persona"]
GROUPS: tuple[Group, ...] = get_args(Group)


#: A record's value of a breakdown field.
GroupValue = str | bool | None


def group_value(record: DatasetRecord, field: Group) -> GroupValue:
    """The record's value of a breakdown field."""
    value: GroupValue = getattr(record, field)
    return value


#: The metrics that are yes/no outcomes (their figures are shares); the others are numbers per record.
SHARE_METRICS: tuple[Metric, ...] = (
    "correct", "faithful", "abstained", "abstained_generated", "all_evidence_found", "hit@k"
)  # fmt: skip


def is_metric(name: str) -> TypeGuard[Metric]:
    return name in METRICS


#: What a metric holds for one record: a number, a yes or no, or None where it does not apply.
MetricValue = float | bool | None

EvalRow = TypedDict(
    "EvalRow",
    {
        "setup": str,
        "signature": str,
        "sample_id": str,
        "sample_version": int,
        "cluster": str,
        "answerable": GroupValue,
        "question_type": GroupValue,
        "binary": GroupValue,
        "language": GroupValue,
        "temporal": GroupValue,
        "difficulty": GroupValue,
        "query_style": GroupValue,
        "persona": GroupValue,
        "precision": MetricValue,
        "recall": MetricValue,
        "evidence_recall": MetricValue,
        "evidence_precision": MetricValue,
        "evidence_iou": MetricValue,
        "all_evidence_found": MetricValue,
        "hit@k": MetricValue,
        "mrr": MetricValue,
        "ndcg@k": MetricValue,
        "correct": MetricValue,
        "correctness": MetricValue,
        "faithful": MetricValue,
        "abstained": MetricValue,
        "abstained_generated": MetricValue,
        "answer": str,
        "unanswerable_answer": str | None,
        "retrieved_ids": list[str | None],
        "retrieved_placement": list[PlacedContext],
        "rechecked_ids": list[str | None],
        "answered_by": list[str],
        "scored_by": str,
        "evidence_unplaced": int,
        "evidence_found_by_text": list[list[int]],
    },
    total=False,
)
"""One line of eval.jsonl: one setup on one record, its identity (`setup`, `signature`, the record's id and
version), the record's groups and cluster, the metrics, and what the setup answered and retrieved. A line an
earlier version wrote may lack some keys."""


def record_cluster(record: DatasetRecord) -> str:
    """The cluster a record's figures are drawn in: the document of its seed (its first supporting chunk's
    `source`, or its first fact's), or the record alone where neither says."""
    for chunk in record.supporting[:1]:
        source = chunk.metadata.get("source")
        if isinstance(source, str) and source:
            return source
    fact = next(iter(record.facts()), None)
    return (fact.location.source if fact is not None else None) or record.id


Means = TypedDict(
    "Means",
    {
        "n": float,
        "intervals": dict[str, list[float | None]],
        "counts": dict[str, int],
        "clusters": int,
        "precision": float | None,
        "recall": float | None,
        "evidence_recall": float | None,
        "evidence_precision": float | None,
        "evidence_iou": float | None,
        "all_evidence_found": float | None,
        "hit@k": float | None,
        "mrr": float | None,
        "ndcg@k": float | None,
        "correct": float | None,
        "correctness": float | None,
        "faithful": float | None,
        "abstained": float | None,
        "abstained_generated": float | None,
    },
    total=False,
)
"""The figures of one slice of a setup's rows (`grouped_means`): its rows (`n`) and clusters, each metric's mean
(None over no values) and, per metric, its 95% interval ([low, high]) and the rows it is over."""


class Judges(TypedDict, total=False):
    """Who judged a setup's answers: the judge model and the evaluation prompts' version; neither when only
    retrieval was scored."""

    model: str | None
    prompts: str | None
    retrieval_only: bool


class SetupSummary(TypedDict, total=False):
    """One setup's summary as eval-summary.json holds it: the means overall (`all`) and per value of each group,
    who judged, how the rows were scored; `swept`: the values a sweep gave the setup. A summary an earlier version
    wrote may lack some keys."""

    all: Means
    answerable: dict[str, Means]
    question_type: dict[str, Means]
    binary: dict[str, Means]
    language: dict[str, Means]
    temporal: dict[str, Means]
    difficulty: dict[str, Means]
    query_style: dict[str, Means]
    persona: dict[str, Means]
    judges: Judges
    scored_by: dict[str, int]
    unplaced_contexts: int
    skipped_lines: int
    swept: dict[str, str]


def empty_row(setup: Setup, record: DatasetRecord) -> EvalRow:
    """A row's identity, groups and cluster, every metric unset."""
    row = EvalRow(setup=setup.name, sample_id=record.id, cluster=record_cluster(record))
    for field in GROUPS:
        row[field] = group_value(record, field)
    for metric in METRICS:
        row[metric] = None
    row["unanswerable_answer"] = None
    return row
