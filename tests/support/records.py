"""Valid dataset records for tests: what finalize writes, made from a few fields."""

from __future__ import annotations

from typing import Any

from state.record import DatasetRecord

PROVENANCE = {
    "run_id": "run",
    "thread_id": "run/1",
    "models": {"generator": "scripted", "validator": "scripted", "extractor": "scripted"},
    "prompt_version": "1",
    "created_at": "2026-01-01T00:00:00+00:00",
}


def answerable_record(
    record_id: str = "run/1", chunks: dict[str, str] | None = None, distractors: dict[str, str] | None = None,
    **fields: Any,
) -> DatasetRecord:  # fmt: skip
    """A record whose supporting chunks are `chunks` (id -> text; one chunk makes a factual question, more a
    comparison) and whose contexts are those and the non-relevant `distractors`; `fields` replace its own."""
    chunks = chunks if chunks is not None else {"s1": "A", "s2": "B"}
    distractors = distractors or {}
    hops = len(chunks)
    contexts = [{"id": i, "text": t, "relevant": True, "origin": "supporting"} for i, t in chunks.items()]
    contexts += [{"id": i, "text": t, "relevant": False, "origin": "distractor"} for i, t in distractors.items()]
    return DatasetRecord.model_validate(
        {
            "id": record_id,
            "question": f"Which of {' and '.join(chunks)} came first?",
            "answer": "the first",
            "question_type": "factual" if hops == 1 else "comparison",
            "binary": False,
            "temporal": False,
            "role": "a user of the documents",
            "bridge_topic": "order",
            "hops": hops,
            "supporting": [{"id": i, "text": t, "metadata": {}} for i, t in chunks.items()],
            "contexts": contexts,
            "n_relevant": hops,
            "difficulty": "hard",
            "unanswerable": None,
            "validation": {"revisions": 0, "verdicts": []},
            "provenance": PROVENANCE | {"thread_id": record_id},
        }
        | fields
    )


def unanswerable_record(
    record_id: str = "run/1", retrieved: dict[str, str] | None = None, k: int = 3, **fields: Any
) -> DatasetRecord:
    """A generated unanswerable question whose judge read `retrieved` (id -> text), written from the first."""
    retrieved = retrieved if retrieved is not None else {"r1": "R"}
    return DatasetRecord.model_validate(
        {
            "id": record_id,
            "question": "What did the 2019 audit find?",
            "answer": "",
            "question_type": "unanswerable",
            "binary": False,
            "temporal": None,
            "role": "a user of the documents",
            "bridge_topic": "",
            "hops": 0,
            "supporting": [],
            "contexts": [{"id": i, "text": t, "relevant": False, "origin": "retrieved"} for i, t in retrieved.items()],
            "n_relevant": 0,
            "difficulty": None,
            "unanswerable": None,
            "answerable": False,
            "expected": "abstain",
            "retrieval_check": {
                "k": k,
                "chunk_ids": list(retrieved),
                "embedding": "e",
                "seed_id": next(iter(retrieved)),
            },
            "validation": {"revisions": 0, "verdicts": []},
            "provenance": PROVENANCE | {"thread_id": record_id},
        }
        | fields
    )
