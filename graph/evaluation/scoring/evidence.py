"""Evaluation by evidence (SPEC 19): what a retrieval covers of the facts a record's answer needs, counted in
characters of the texts both sides can be placed in, so that any chunking of the same documents compares.

Every span is a stretch of one text: a document (`doc:` and its `source`) or, where no document place is known, a
chunk (`chunk:` and its id). A fact stands in one or more locations (its supporting chunk's, and other chunks
stating the same words); each location is known in every text it can be placed in. A retrieved context is placed
by its document offsets (`source`, `start_index`), by finding its text in its document where the document is at
hand, and by its chunk id (with documents at hand, each fact is placed in its document by its quote too); a
context placed in none of a fact's texts that holds the fact's quote gives the fact a place in its own text (found
by text). A context placed nowhere covers nothing and counts as retrieved characters.

Per record: `evidence_recall` = covered evidence characters / evidence characters, `evidence_precision` = covered /
retrieved characters, `evidence_iou` = covered / (retrieved + evidence - covered), over merged spans, each fact at
the location the retrieval covers best. Over facts, a fact is found at rank r when the contexts up to rank r cover
one of its locations whole: `all_evidence_found`, `hit@k` (one fact found), `mrr` (1 / the first rank that finds
one) and `ndcg@k` (a gain of 1 at the rank each fact is found, over the best order of the same finds).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict, get_args

from state.evidence import Evidence, Location, Passage, locate, offset

#: A stretch of one text: (text key, start, end); the end is not included.
Span = tuple[str, int, int]

EvidenceMetric = Literal[
    "evidence_recall", "evidence_precision", "evidence_iou", "all_evidence_found", "hit@k", "mrr", "ndcg@k"
]
#: The evidence metrics, in the order the reports show them.
EVIDENCE_METRICS: tuple[EvidenceMetric, ...] = get_args(EvidenceMetric)


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
    end: int | None = None
    """Its place in its document's text, where known (kept in eval.jsonl so the figures can be recomputed)."""

    def row(self, context_id: str | None) -> PlacedContext:
        return PlacedContext(id=context_id, source=self.source, start=self.start, end=self.end, length=self.length)


class PlacedContext(TypedDict):
    """A retrieved context's place as an evaluation's row keeps it (`retrieved_placement`)."""

    id: str | None
    source: str | None
    start: int | None
    end: int | None
    length: int


def file_stem(source: str) -> str:
    """A document's name without its folders and its extension ("docs/guide.md" -> "guide")."""
    return source.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]


def document_name(source: str, documents: Mapping[str, str]) -> str | None:
    """The document at hand a context's `source` names: the source itself, or its file's stem (documents at hand
    are named by stem, as a span CSV names them; a collection names the path it was ingested from)."""
    if source in documents:
        return source
    return stem if (stem := file_stem(source)) in documents else None


def place_context(
    context: Passage, documents: Mapping[str, str] | None = None, *, by_offsets: bool = True
) -> Placement:
    """Where a retrieved context stands: by its document offsets (where they count in the same text as the
    evidence, `by_offsets`), else by finding its text in its document at hand (as it is, then with white space and
    quote marks folded), and as its own chunk where it has an id."""
    text = str(context.get("text") or "")
    source, start = context.get("source"), offset(context.get("start_index"))
    spans: list[Span] = []
    placed: Span | None = None  # (the document's name, where the context starts and ends in it)
    if isinstance(source, str) and source:
        at_hand = document_name(source, documents) if documents else None
        if by_offsets and start is not None:
            placed = (at_hand or source, start, start + len(text))
        elif documents and at_hand is not None and (found := locate(text, documents[at_hand])):
            placed = (at_hand, *found)  # found with its white space folded: its own length there
    if placed is not None:
        spans.append((document_key(placed[0]), placed[1], placed[2]))
    if context.get("id"):
        spans.append((chunk_key(str(context["id"])), 0, len(text)))
    if placed is None:
        return Placement(tuple(spans), len(text))
    return Placement(tuple(spans), len(text), *placed)


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
    """The fact with each location whose document is at hand placed in it by finding the quote there (the texts at
    hand are the ones retrieved chunks are placed in; a store's ready-cut chunk had no place in it at all); the
    locations that cannot be placed kept as they are."""

    def placed(place: Location) -> Location:
        if not place.source:
            return place
        name = document_name(place.source, documents)
        found = locate(fact.quote, documents[name]) if name is not None else None
        if found is None:
            return place
        return place.model_copy(update={"source": name, "document_start": found[0], "document_end": found[1]})

    return fact.model_copy(update={"location": placed(fact.location), "also_in": [placed(p) for p in fact.also_in]})


@dataclass(frozen=True)
class Scored:
    """A record's evidence metrics; how many retrieved contexts stand in no text a fact stands in; and, per
    context, the facts it holds the quote of while placed in none of their texts (found by text)."""

    metrics: dict[EvidenceMetric, float | bool]
    unplaced: int
    found_by_text: list[list[int]]


def _own_spans(placement: Placement, rank: int) -> tuple[Span, ...]:
    """A context's spans, with a text of its own (`retrieved:<rank>`) where it has no chunk id to be known by."""
    if any(key.startswith("chunk:") for key, _, _ in placement.spans):
        return placement.spans
    return (*placement.spans, (f"retrieved:{rank}", 0, placement.length))


def _own_key(spans: Sequence[Span]) -> str:
    """The key of a context's own text: its chunk's, or the one made for it."""
    return next(key for key, _, _ in spans if key.startswith(("chunk:", "retrieved:")))


def score_evidence(
    facts: Sequence[Evidence],
    contexts: Sequence[Passage],
    documents: Mapping[str, str] | None = None,
    *,
    by_offsets: bool = True,
) -> Scored:
    """The evidence metrics of one retrieval (`contexts`, best first) against a record's facts (`place_context`
    says how each context is placed; with documents at hand, each fact is placed in its document by its quote).

    A context placed in none of a fact's texts that holds the fact's quote gives the fact one more place: the
    quote where it stands in that context's own text, so two facts quoting the same words there count once."""
    if documents:
        facts = [placed_in_documents(fact, documents) for fact in facts]
    placements = [place_context(context, documents, by_offsets=by_offsets) for context in contexts]
    per_rank = [_own_spans(placement, rank) for rank, placement in enumerate(placements)]
    forms = [[form for place in fact.locations() for form in location_forms(place)] for fact in facts]
    found_by_text: list[list[int]] = [[] for _ in contexts]
    for index, fact in enumerate(facts):
        keys = {key for key, _, _ in forms[index]}
        for rank, (context, spans) in enumerate(zip(contexts, per_rank, strict=True)):
            if any(key in keys for key, _, _ in spans):
                continue
            if (found := locate(fact.quote, str(context.get("text") or ""))) is not None:
                forms[index].append((_own_key(spans), *found))
                found_by_text[rank].append(index)
    retrieved_runs = merged(span for spans in per_rank for span in spans)
    fact_keys = {key for fact_forms in forms for key, _, _ in fact_forms}
    # placed nowhere: in no document, and neither a chunk of a fact nor a holder of a quote
    unplaced = sum(
        1 for spans in per_rank if not any(key.startswith("doc:") or key in fact_keys for key, _, _ in spans)
    )
    # each fact at the place the retrieval covers most of (max keeps the first of equals)
    chosen = [max(fact_forms, key=lambda form: covered_length(form, retrieved_runs)) for fact_forms in forms]
    evidence_runs = merged(chosen)
    evidence = sum(end - start for runs in evidence_runs.values() for start, end in runs)
    retrieved = _retrieved_characters(per_rank)
    # a context known both in its document and as its chunk can be credited in both: never more than it holds
    covered = min(_intersection(evidence_runs, retrieved_runs), retrieved)
    ranks = [_found_at(fact_forms, per_rank) for fact_forms in forms]
    return Scored(
        {
            "evidence_recall": covered / evidence if evidence else 0.0,
            "evidence_precision": covered / retrieved if retrieved else 0.0,
            "evidence_iou": covered / (retrieved + evidence - covered) if retrieved + evidence - covered else 0.0,
            **fact_metrics(ranks, len(contexts)),
        },
        unplaced,
        found_by_text,
    )


def _found_at(forms: Sequence[Span], per_rank: Sequence[Sequence[Span]]) -> int | None:
    """The first rank (1-based) by which the contexts cover one of the fact's places whole; None if none does."""
    seen: list[Span] = []
    for rank, spans in enumerate(per_rank, start=1):
        seen.extend(spans)
        runs = merged(seen)
        if any(covered_length(form, runs) >= form[2] - form[1] for form in forms):
            return rank
    return None


def _retrieved_characters(per_rank: Sequence[Sequence[Span]]) -> int:
    """The retrieved characters: each context once, in its document where placed there (overlaps of contexts of
    one document counted once), else as its own text (a chunk retrieved twice counted once)."""
    in_documents = merged(span for spans in per_rank for span in spans if span[0].startswith("doc:"))
    own: dict[str, int] = {}
    for spans in per_rank:
        if not any(key.startswith("doc:") for key, _, _ in spans):
            key, _, end = next(span for span in spans if span[0].startswith(("chunk:", "retrieved:")))
            own[key] = end
    return sum(end - start for runs in in_documents.values() for start, end in runs) + sum(own.values())


def fact_metrics(found: Sequence[int | None], k: int) -> dict[EvidenceMetric, float | bool]:
    """all_evidence_found, hit@k, mrr and ndcg@k from the rank at which each fact was found (None: not found).

    ndcg@k: a gain of 1 at the rank each fact is found, over the best order of the same finds (the contexts that
    found facts at the first ranks, those that found most first, each fact not found alone at a rank of its own),
    so a context that finds two facts at once scores as well as two contexts that find one each."""
    ranks = sorted(rank for rank in found if rank is not None)
    finds = sorted(Counter(ranks).values(), reverse=True) + [1] * (len(found) - len(ranks))
    ideal = sum(size / math.log2(position + 1) for position, size in enumerate(finds[:k], start=1))
    return {
        "all_evidence_found": bool(found) and len(ranks) == len(found),
        "hit@k": bool(ranks),
        "mrr": 1 / ranks[0] if ranks else 0.0,
        "ndcg@k": sum(1 / math.log2(rank + 1) for rank in ranks) / ideal if ideal else 0.0,
    }
