"""Evaluation arithmetic (SPEC section 7): retrieval precision and recall, abstention phrases, means.

Retrieved chunks match labelled contexts by chunk id, or by normalised text when a retriever gives no
id (an external RAG service may not). A chunk retrieved twice counts once.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from graph.evaluation.scoring.rows import EvalRow, Group, Means, Metric, SetupSummary
from graph.statistics.intervals import mean_interval, share_interval
from nodes.common import normalise_text
from state.evidence import LabelledPassage, Passage

#: Plain abstentions, in English, German, French, Spanish and Japanese; other wordings go to the abstention judge.
_ABSTAIN = re.compile(
    r"\b(i (?:do not|don't|cannot|can't) (?:know|answer|tell|say)"
    r"|(?:cannot|can't|unable to) (?:be )?(?:answer|determine|find)"
    r"|not enough (?:information|context)|(?:no|insufficient) (?:information|context)"
    r"|(?:does|do) not (?:contain|provide|mention|say)|not (?:mentioned|provided|stated) in"
    # German: "Ich weiß es nicht", "weiß ich nicht", "keine Informationen", "nicht enthalten"
    r"|wei(?:ß|ss) (?:es |das )?(?:ich )?nicht|keine (?:ausreichenden )?(?:informationen|angaben)"
    r"|kann (?:ich )?(?:die frage )?nicht beantwortet?"
    # French: "Je ne sais pas", "aucune information", "ne contiennent pas"
    r"|je ne (?:le )?sais pas|(?:aucune|pas d'|pas assez d')\s?informations?|ne (?:contien|mentionn|précis)\w* pas"
    # Spanish: "No lo sé", "no sé", "no hay información", "no se menciona"
    r"|no (?:lo )?sé|no (?:hay|tengo) (?:suficiente )?información|no se (?:menciona|indica|especifica))\b"
    # Japanese: わかりません, 分かりません, 不明です, 情報がありません
    r"|わかりません|分かりません|不明です|情報がありません",
    re.IGNORECASE,
)


def retrieval_scores(retrieved: Sequence[Passage], contexts: Sequence[LabelledPassage]) -> tuple[float, float]:
    """(precision, recall) of a retrieval against a record's labelled contexts.

    precision = |retrieved ∩ relevant| / |retrieved| and recall = |retrieved ∩ relevant| / |relevant|,
    over distinct chunks; an empty retrieval scores 0 and 0.
    """
    relevant = [c for c in contexts if c["relevant"]]
    by_id = {c["id"]: index for index, c in enumerate(relevant)}
    by_text = {normalise_text(c["text"]): index for index, c in enumerate(relevant)}
    seen: set[str] = set()
    hits: set[int] = set()
    for chunk in retrieved:
        key = str(chunk.get("id") or "") or normalise_text(str(chunk.get("text", "")))
        if key in seen:
            continue
        seen.add(key)
        index = by_id.get(str(chunk.get("id"))) if chunk.get("id") else None
        if index is None:
            index = by_text.get(normalise_text(str(chunk.get("text", ""))))
        if index is not None:
            hits.add(index)
    if not seen:
        return 0.0, 0.0
    return len(hits) / len(seen), len(hits) / len(relevant) if relevant else 0.0


#: RAGAS's answer_correctness: the weights of factual overlap (F1 of classified statements) and of the
#: answers' semantic similarity (embedding cosine).
CORRECTNESS_WEIGHTS = (0.75, 0.25)


def graded_correctness(true_positive: int, false_positive: int, false_negative: int, similarity: float) -> float:
    """answer_correctness as RAGAS computes it: 0.75 x F1 of the statements + 0.25 x cosine, from 0 to 1.

    F1 = TP / (TP + (FP + FN) / 2), 0 without a true positive.
    """
    f1 = true_positive / (true_positive + 0.5 * (false_positive + false_negative)) if true_positive else 0.0
    factual, semantic = CORRECTNESS_WEIGHTS
    return factual * f1 + semantic * max(0.0, min(1.0, similarity))


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine of two vectors; 0 when either is zero."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norms = sum(x * x for x in a) ** 0.5 * sum(y * y for y in b) ** 0.5
    return dot / norms if norms else 0.0


def says_abstain(answer: str) -> bool:
    """Whether an answer plainly declines (checked before asking a judge)."""
    return not answer.strip() or bool(_ABSTAIN.search(answer))


def grouped_means(
    rows: Iterable[EvalRow], metrics: Sequence[Metric], by: Sequence[Group], shares: Sequence[Metric] = ()
) -> SetupSummary:
    """Mean of each metric overall and per value of each grouping field, each with its 95% interval and the records
    it is over (`intervals`: [low, high], null with fewer than two clusters; `counts`).

    A metric's None values are skipped, as are rows whose grouping field is None (a generated
    unanswerable question has no difficulty); a mean over no values is None. The metrics named in `shares` are
    yes/no outcomes (a Wilson interval widened by the design effect), the others per-record numbers (a
    cluster-robust interval); a row's cluster is its `cluster` (its seed's document), else the row alone.
    """
    rows = list(rows)

    def means(subset: list[EvalRow]) -> Means:
        result = Means(n=float(len(subset)))
        intervals: dict[str, list[float | None]] = {}
        counts: dict[str, int] = {}
        for metric in metrics:
            scored = [(row, value) for row in subset if (value := row.get(metric)) is not None]
            values = [float(value) for _, value in scored]
            result[metric] = sum(values) / len(values) if values else None
            if not values:
                continue
            clusters = [row.get("cluster") or f"row {index}" for index, (row, _) in enumerate(scored)]
            # every metric of an evaluation lies between 0 and 1, and so does its interval
            interval = share_interval(values, clusters) if metric in shares else mean_interval(values, clusters, (0, 1))
            intervals[metric], counts[metric] = [interval.low, interval.high], interval.n
        result["intervals"], result["counts"] = intervals, counts
        result["clusters"] = len({row.get("cluster") or f"row {index}" for index, row in enumerate(subset)})
        return result

    summary = SetupSummary(all=means(rows))
    for field in by:
        groups: dict[str, list[EvalRow]] = defaultdict(list)
        for row in rows:
            if (value := row.get(field)) is not None:
                groups[str(value)].append(row)
        summary[field] = {value: means(members) for value, members in sorted(groups.items())}
    return summary
