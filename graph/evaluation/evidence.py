"""Evaluation by evidence (SPEC 19): what a retrieval covers of the facts a record's answer needs, counted in
characters of the texts both sides can be placed in, so that any chunking of the same documents compares.

Every span is a stretch of one text: a document (`doc:` and its `source`) or, where no document place is known, a
chunk (`chunk:` and its id). A fact stands in one or more locations (its supporting chunk's, and other chunks
stating the same words); each location is known in every text it can be placed in. A retrieved context is placed
by its document offsets (`source`, `start_index`), by finding its text in its document where the document is at
hand, and by its chunk id; a context that shares no text with a fact but holds the fact's quote covers that fact
where it stands (found by text). A context placed nowhere covers nothing and counts as retrieved characters.

Per record: `evidence_recall` = covered evidence characters / evidence characters, `evidence_precision` = covered /
retrieved characters, `evidence_iou` = covered / (retrieved + evidence - covered), over merged spans, each fact at
the location the retrieval covers best. Over facts, a fact is found at rank r when the contexts up to rank r cover
one of its locations whole: `all_evidence_found`, `hit@k` (one fact found), `mrr` (1 / the first rank that finds
one) and `ndcg@k` (a gain of 1 at the rank each fact is found).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from state.evidence import locate
from state.record import Evidence, Location

#: A stretch of one text: (text key, start, end); the end is not included.
Span = tuple[str, int, int]

#: The evidence metrics, in the order the reports show them.
EVIDENCE_METRICS = (
    "evidence_recall",
    "evidence_precision",
    "evidence_iou",
    "all_evidence_found",
    "hit@k",
    "mrr",
    "ndcg@k",
)


def document_key(source: str) -> str:
    return f"doc:{source}"


def chunk_key(chunk_id: str) -> str:
    return f"chunk:{chunk_id}"


def location_forms(place: Location) -> list[Span]:
    """The same characters of a location in every text they can be placed in: its document's, then its chunk's."""
    forms: list[Span] = []
    if place.source and place.document_start is not None and place.document_end is not None:
        forms.append((document_key(place.source), place.document_start, place.document_end))
    forms.append((chunk_key(place.chunk_id), place.chunk_start, place.chunk_end))
    return forms


@dataclass(frozen=True)
class Placement:
    """A retrieved context where it stands: its spans (in its document and as its own chunk), its length."""

    spans: tuple[Span, ...]
    length: int
    source: str | None = None
    start: int | None = None
    """Its place in its document's text, where known (kept in eval.jsonl so the figures can be recomputed)."""

    def row(self, context_id: str | None) -> dict[str, Any]:
        end = None if self.start is None else self.start + self.length
        return {"id": context_id, "source": self.source, "start": self.start, "end": end, "length": self.length}


def document_name(source: str, documents: Mapping[str, str]) -> str | None:
    """The document at hand a context's `source` names: the source itself, or its file's stem (documents at hand
    are named by stem, as a span CSV names them; a collection names the path it was ingested from)."""
    if source in documents:
        return source
    stem = source.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return stem if stem in documents else None


def place_context(
    context: Mapping[str, Any], documents: Mapping[str, str] | None = None, *, by_offsets: bool = True
) -> Placement:
    """Where a retrieved context stands: by its document offsets (where they count in the same text as the
    evidence, `by_offsets`), else by finding its text in its document at hand (as it is, then with white space and
    quote marks folded), and as its own chunk where it has an id."""
    text = str(context.get("text") or "")
    source, start = context.get("source"), context.get("start_index")
    spans: list[Span] = []
    placed: tuple[str, int] | None = None
    if isinstance(source, str) and source:
        name = document_name(source, documents) if documents else None
        if by_offsets and isinstance(start, int) and not isinstance(start, bool) and start >= 0:
            placed = (source, start)
        elif documents and name is not None and (found := locate(text, documents[name])):
            placed = (name, found[0])
    if placed is not None:
        spans.append((document_key(placed[0]), placed[1], placed[1] + len(text)))
    if context.get("id"):
        spans.append((chunk_key(str(context["id"])), 0, len(text)))
    return Placement(tuple(spans), len(text), *(placed or (None, None)))


def merged(spans: Iterable[Span]) -> dict[str, list[tuple[int, int]]]:
    """The spans of each text, overlapping and touching ones merged, in order."""
    by_key: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for key, start, end in sorted(spans):
        if end <= start:
            continue
        runs = by_key[key]
        if runs and start <= runs[-1][1]:
            runs[-1] = (runs[-1][0], max(runs[-1][1], end))
        else:
            runs.append((start, end))
    return dict(by_key)


def covered_length(span: Span, runs: Mapping[str, list[tuple[int, int]]]) -> int:
    """How many characters of `span` the merged `runs` cover."""
    key, start, end = span
    return sum(max(0, min(end, stop) - max(start, begin)) for begin, stop in runs.get(key, []))


def _intersection(first: Mapping[str, list[tuple[int, int]]], second: Mapping[str, list[tuple[int, int]]]) -> int:
    return sum(covered_length((key, start, end), second) for key, runs in first.items() for start, end in runs)


def placed_in_documents(fact: Evidence, documents: Mapping[str, str]) -> Evidence:
    """The fact with each location that has no document offsets (a store's ready-cut chunk) placed in its document
    at hand by finding the quote there; the locations that cannot be placed kept as they are."""

    def placed(place: Location) -> Location:
        if place.document_start is not None or not place.source:
            return place
        name = document_name(place.source, documents)
        found = locate(fact.quote, documents[name]) if name is not None else None
        if found is None:
            return place
        return place.model_copy(update={"source": name, "document_start": found[0], "document_end": found[1]})

    return fact.model_copy(update={"location": placed(fact.location), "also_in": [placed(p) for p in fact.also_in]})


@dataclass(frozen=True)
class Scored:
    """A record's evidence metrics, and how many retrieved contexts could be placed nowhere."""

    metrics: dict[str, float | bool]
    unplaced: int


def _found_by_text(fact: Evidence, contexts: Sequence[Mapping[str, Any]], placements: Sequence[Placement]) -> list[
    list[Span]
]:  # fmt: skip
    """For each context, the spans it covers of the fact by holding its quote while sharing no text with it."""
    forms = [location_forms(place) for place in fact.locations()]
    keys = {key for form in forms for key, _, _ in form}
    covered: list[list[Span]] = []
    for context, placement in zip(contexts, placements, strict=True):
        shares = any(key in keys for key, _, _ in placement.spans)
        holds = not shares and locate(fact.quote, str(context.get("text") or "")) is not None
        covered.append([form[0] for form in forms] if holds else [])
    return covered


def score_evidence(
    facts: Sequence[Evidence],
    contexts: Sequence[Mapping[str, Any]],
    documents: Mapping[str, str] | None = None,
    *,
    by_offsets: bool = True,
) -> Scored:
    """The evidence metrics of one retrieval (`contexts`, best first) against a record's facts (`place_context`
    says how each context is placed; a fact whose chunk had no place in its document is placed in it by its
    quote where the document is at hand)."""
    if documents:
        facts = [placed_in_documents(fact, documents) for fact in facts]
    placements = [place_context(context, documents, by_offsets=by_offsets) for context in contexts]
    by_text = [_found_by_text(fact, contexts, placements) for fact in facts]
    per_rank: list[list[Span]] = [
        [*placement.spans, *(span for found in by_text for span in found[rank])]
        for rank, placement in enumerate(placements)
    ]
    retrieved_runs = merged(span for spans in per_rank for span in spans)
    fact_keys = {key for fact in facts for place in fact.locations() for key, _, _ in location_forms(place)}
    unplaced = sum(
        1
        for rank, placement in enumerate(placements)
        if not any(key in fact_keys for key, _, _ in per_rank[rank]) and not placement.source
    )
    chosen = [_best_form(fact, retrieved_runs) for fact in facts]
    evidence_runs = merged(chosen)
    evidence = sum(end - start for runs in evidence_runs.values() for start, end in runs)
    covered = _intersection(evidence_runs, retrieved_runs)
    retrieved = _retrieved_characters(placements)
    found = [_found_at(fact, per_rank) for fact in facts]
    return Scored(
        {
            "evidence_recall": covered / evidence if evidence else 0.0,
            "evidence_precision": covered / retrieved if retrieved else 0.0,
            "evidence_iou": covered / (retrieved + evidence - covered) if retrieved + evidence - covered else 0.0,
            **fact_metrics(found, len(contexts)),
        },
        unplaced,
    )


def _best_form(fact: Evidence, retrieved: Mapping[str, list[tuple[int, int]]]) -> Span:
    """The fact's location and text the retrieval covers most of (the first location when it covers none)."""
    forms = [form for place in fact.locations() for form in location_forms(place)]
    return max(forms, key=lambda form: covered_length(form, retrieved))  # max keeps the first of equals


def _found_at(fact: Evidence, per_rank: Sequence[Sequence[Span]]) -> int | None:
    """The first rank (1-based) by which the contexts cover one of the fact's locations whole; None if none does."""
    seen: list[Span] = []
    for rank, spans in enumerate(per_rank, start=1):
        seen.extend(spans)
        runs = merged(seen)
        for place in fact.locations():
            if any(covered_length(form, runs) >= form[2] - form[1] for form in location_forms(place)):
                return rank
    return None


def _retrieved_characters(placements: Sequence[Placement]) -> int:
    """The retrieved characters: each context once, in its document where placed there (overlaps of contexts of
    one document counted once), else as its own chunk (a chunk retrieved twice counted once), else its length."""
    in_documents = merged(span for p in placements for span in p.spans if span[0].startswith("doc:"))
    chunks: dict[str, int] = {}
    loose = 0
    for placement in placements:
        if any(key.startswith("doc:") for key, _, _ in placement.spans):
            continue
        own = next((key for key, _, _ in placement.spans if key.startswith("chunk:")), None)
        if own is None:
            loose += placement.length
        else:
            chunks[own] = placement.length
    return sum(end - start for runs in in_documents.values() for start, end in runs) + sum(chunks.values()) + loose


def fact_metrics(found: Sequence[int | None], k: int) -> dict[str, float | bool]:
    """all_evidence_found, hit@k, mrr and ndcg@k from the rank at which each fact was found (None: not found)."""
    ranks = sorted(rank for rank in found if rank is not None)
    ideal = sum(1 / math.log2(i + 1) for i in range(1, min(len(found), k) + 1))
    return {
        "all_evidence_found": bool(found) and len(ranks) == len(found),
        "hit@k": bool(ranks),
        "mrr": 1 / ranks[0] if ranks else 0.0,
        "ndcg@k": sum(1 / math.log2(rank + 1) for rank in ranks) / ideal if ideal else 0.0,
    }
