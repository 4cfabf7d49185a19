"""How a setup's retrieval is scored: by chunk id where it reads the run's own collection, by evidence everywhere
(`graph.evaluation.scoring.evidence`), placed in the documents at hand where there are any."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from langchain_core.embeddings import Embeddings

from graph.config.settings import Settings
from graph.evaluation.scoring.evidence import file_stem, place_context, score_evidence
from graph.evaluation.scoring.metrics import retrieval_scores
from graph.evaluation.scoring.rows import EvalRow
from graph.evaluation.setups import Setup
from state.evidence import LabelledPassage, Passage
from state.record import DatasetRecord


@dataclass(frozen=True)
class RetrievalScoring:
    """How a setup's retrieval is scored: by chunk id where it reads the run's own collection (on another one every
    chunk id is new), by evidence where a record carries it, placed in `documents` where a context has no offsets."""

    by_chunk_id: bool = True
    documents: Mapping[str, str] | None = None
    by_offsets: bool = True
    """Whether a context's `start_index` counts in the text the evidence's offsets count in (a collection
    `graph.ingest` made from the same files); a span CSV counts in the raw files, placed by text instead."""

    def fields(
        self, record: DatasetRecord, retrieved: Sequence[Passage], contexts: Sequence[LabelledPassage]
    ) -> EvalRow:
        """The row's retrieval fields: what was retrieved and where it stands, and the retrieval metrics."""
        row = EvalRow(
            retrieved_ids=[c["id"] for c in retrieved],
            retrieved_placement=[
                place_context(c, self.documents, by_offsets=self.by_offsets).row(c["id"]) for c in retrieved
            ],
        )
        if self.by_chunk_id:
            row["precision"], row["recall"] = retrieval_scores(retrieved, contexts)
        if record.evidence_status != "quoted":  # written before records carried evidence
            row["scored_by"] = "chunk id" if self.by_chunk_id else "none"
            return row
        scored = score_evidence(record.facts(), retrieved, self.documents, by_offsets=self.by_offsets)
        for metric, value in scored.metrics.items():
            row[metric] = value
        row["evidence_unplaced"] = scored.unplaced
        row["evidence_found_by_text"] = scored.found_by_text
        row["scored_by"] = "evidence"
        return row


@dataclass(frozen=True)
class DocumentsAtHand:
    """What an evaluation places evidence in besides offsets: `documents` (name -> raw text, `--documents`), or,
    where none are given, a built-in setup's collection's own documents (`from_collection`, for a dataset made
    elsewhere); and whether chunk ids mean anything (not in a dataset made elsewhere, whose ids are made up)."""

    documents: Mapping[str, str] | None = None
    from_collection: bool = False
    chunk_ids: bool = True

    def signature(self) -> str:
        """How rows are placed, for the cache key: "" for offsets alone (a run's dataset as it always was)."""
        if self.documents:
            listed = "".join(f"{name}\0{len(text)}\0" for name, text in sorted(self.documents.items()))
            return "documents " + hashlib.sha256(listed.encode()).hexdigest()[:12]
        return "collection documents" if self.from_collection else ""


def retrieval_scoring(setup: Setup, settings: Settings, at_hand: DocumentsAtHand) -> RetrievalScoring:
    """Chunk ids count where the setup reads the collection the run read (its own, or a team's pipeline, which
    says nothing of its collection) and the dataset's ids are a store's; evidence counts everywhere. With
    documents at hand (raw files, where offsets count otherwise than in a collection), contexts are placed by
    their text in them."""
    own = setup.kind != "builtin" or not setup.collection or setup.collection == settings.collection
    return RetrievalScoring(
        by_chunk_id=own and at_hand.chunk_ids, documents=at_hand.documents, by_offsets=not at_hand.documents
    )


async def with_collection_documents(scoring: RetrievalScoring, corpus: Any, wanted: bool) -> RetrievalScoring:
    """`scoring` with the documents of the setup's collection at hand, by file stem, when `wanted` (a dataset made
    elsewhere, evaluated without --documents) and none are: the texts `graph.ingest` cut the collection from, in
    which its chunks' offsets count, so the chunks are placed by them and the facts by their quotes."""
    if not wanted or scoring.documents:
        return scoring
    texts = await corpus.reader.documents()
    return replace(scoring, documents={file_stem(source): text for source, text in texts.items()}, by_offsets=True)


class QuestionVectors:
    """The questions' vectors of one evaluation, by embedding model and text: setups that embed alike (a sweep over
    k) embed each question once. `made` counts the requests each model was sent, what a hosted model bills."""

    def __init__(self) -> None:
        self.vectors: dict[tuple[str, str], list[float]] = {}
        self.made: Counter[str] = Counter()
        self.reused: Counter[str] = Counter()

    def around(self, spec: str, model: Embeddings) -> Embeddings:
        """`model` (named by `spec`) answering its questions from these vectors first."""
        return _Remembered(self, spec, model)

    def serve(self, corpus: Any, spec: str) -> None:
        """The corpus's questions embedded through these vectors, so that setups of the same embedding share
        them."""
        if corpus.embeddings is not None:
            corpus.embeddings = self.around(spec, corpus.embeddings)


class _Remembered(Embeddings):
    def __init__(self, vectors: QuestionVectors, spec: str, model: Embeddings) -> None:
        self._vectors, self._spec, self._model = vectors, spec, model

    def __getattr__(self, name: str) -> Any:  # the model's own attributes (its dimension) as they are
        return getattr(self._model, name)

    def embed_query(self, text: str) -> list[float]:
        key = (self._spec, text)
        if key in self._vectors.vectors:
            self._vectors.reused[self._spec] += 1
            return self._vectors.vectors[key]
        self._vectors.made[self._spec] += 1
        vector = self._model.embed_query(text)
        self._vectors.vectors[key] = vector
        return vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self._vectors.made[self._spec] += 1
        return self._model.embed_documents(texts)
