"""Reviewers' corrections of a record's evidence: each a quote of the same supporting chunk, verbatim in its text.

A reviewer's latest save holds their corrections (`labels["evidence"]`: supporting chunk id -> the quote as the
record has it -> the reviewer's quote). Across reviewers each fact takes the quote most of them give, a reviewer
who left it as it was voting for the record's own; a tie keeps the record's quote and is shown as a tie.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from graph.reviewing.labels import Labels
from state.evidence import locate
from state.record import DatasetRecord, SupportingChunk


def correction_problem(record: DatasetRecord, evidence: Mapping[str, Mapping[str, str]]) -> str:
    """Why a reviewer's corrections cannot be kept (one line), or "" when each is verbatim in its chunk."""
    chunks = {chunk.id: chunk for chunk in record.supporting}
    for chunk_id, fixes in evidence.items():
        chunk = chunks.get(chunk_id)
        if chunk is None or not isinstance(fixes, Mapping):
            return f"chunk {chunk_id} is no supporting chunk of this record"
        for original, fixed in fixes.items():
            if not any(fact.quote == original for fact in chunk.evidence):
                return f"chunk {chunk_id} has no quote {original!r} to correct"
            if not isinstance(fixed, str) or locate(fixed, chunk.text) is None:
                return (
                    f"the corrected quote of chunk {chunk_id} is not in its text as written: copy the sentence from "
                    "the chunk"
                )
    return ""


@dataclass(frozen=True)
class QuoteVote:
    """How the reviewers of a record settled one of its quotes."""

    chunk_id: str
    original: str
    quote: str
    """The quote kept: the majority's, or the original on a tie."""
    votes: dict[str, int]
    tie: bool


def quote_votes(record: DatasetRecord, reviews: Iterable[Labels]) -> list[QuoteVote]:
    """Every quote of the record that some reviewer corrected, as the reviewers settle it (the module's rule);
    `reviews`: each reviewer's labels of the record."""
    given = [labels.get("evidence") or {} for labels in reviews]
    settled = []
    for chunk in record.supporting:
        for fact in chunk.evidence:
            wanted = [fixes.get(chunk.id, {}).get(fact.quote, fact.quote) for fixes in given]
            if all(quote == fact.quote for quote in wanted):
                continue
            votes = Counter(wanted).most_common()
            tie = len(votes) > 1 and votes[0][1] == votes[1][1]
            kept = fact.quote if tie else votes[0][0]
            settled.append(QuoteVote(chunk.id, fact.quote, kept, dict(votes), tie))
    return settled


def requoted(chunk: SupportingChunk, votes: Iterable[QuoteVote]) -> SupportingChunk:
    """The supporting chunk with each settled quote of it in place of the record's, located in its text (the
    document's offsets moved with it)."""
    kept = {vote.original: vote.quote for vote in votes if vote.chunk_id == chunk.id and vote.quote != vote.original}
    if not kept:
        return chunk
    facts = []
    for fact in chunk.evidence:
        quote = kept.get(fact.quote)
        span = locate(quote, chunk.text) if quote is not None else None
        if quote is None or span is None:
            facts.append(fact)
            continue
        place = fact.location
        shift = None if place.document_start is None else place.document_start - place.chunk_start
        location = place.model_copy(
            update={
                "chunk_start": span[0],
                "chunk_end": span[1],
                "document_start": None if shift is None else shift + span[0],
                "document_end": None if shift is None else shift + span[1],
            }
        )
        facts.append(fact.model_copy(update={"quote": quote, "location": location, "also_in": []}))
    return chunk.model_copy(update={"evidence": facts})
