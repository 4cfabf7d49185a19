"""A dataset as its reviewers left it: only samples they accepted on every criterion, relevance corrected."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from graph.reviewing.labels import SavedLabels, criteria_for
from graph.reviewing.quotes import quote_votes, requoted
from state.record import MIN_UNANSWERABLE_CONTEXTS, DatasetRecord
from state.reviewed import ReviewedRecord, ReviewNote
from state.threads import slot_number


def reviewed_records(records: list[DatasetRecord], reviews: Iterable[SavedLabels]) -> list[DatasetRecord]:
    """The records every reviewer of which passed all its criteria (the paper's four; plausible and unanswered
    for a generated unanswerable question), each with its contexts' relevance as the reviewers' majority has
    it (a tie keeps the labeller's), its quotes as they settle them (`graph.reviewing.quotes`) and a `review`
    entry naming them.

    A context relabelled relevant leaves the unanswerable variant, which is dropped when fewer than two
    non-relevant contexts remain; it drops a generated unanswerable question altogether.
    """
    by_sample: dict[int, list[SavedLabels]] = defaultdict(list)
    for review in reviews:
        by_sample[review["n"]].append(review)
    kept: list[DatasetRecord] = []
    for record in records:
        slot = slot_number(record.id)
        given = None if slot is None else by_sample.get(slot)
        criteria = criteria_for(record.question_type)
        if not given or not all(all(r["labels"].get(name) is True for name in criteria) for r in given):
            continue
        contexts, relabelled = [], []
        for context in record.contexts:
            votes = [bool((r["labels"].get("relevance") or {}).get(context.id, context.relevant)) for r in given]
            yes, no = sum(votes), len(votes) - sum(votes)
            relevant = context.relevant if yes == no else yes > no
            if relevant != context.relevant:
                relabelled.append(context.id)
            contexts.append(context.model_copy(update={"relevant": relevant}))
        if relabelled and not record.answerable:
            continue  # a retrieved chunk that reviewers found relevant answers a generated unanswerable question
        variant = record.unanswerable
        if variant is not None:
            relevant_ids = {c.id for c in contexts if c.relevant}
            remaining = [i for i in variant.contexts if i not in relevant_ids]
            variant = (
                variant.model_copy(update={"contexts": remaining})
                if len(remaining) >= MIN_UNANSWERABLE_CONTEXTS
                else None
            )
        settled = quote_votes(record, [r["labels"] for r in given])
        note = ReviewNote(
            reviewers=sorted(r["reviewer"] for r in given),
            criteria=dict.fromkeys(criteria, True),
            relabelled=relabelled,
            requoted=[{"chunk_id": v.chunk_id, "quote": v.original, "now": v.quote} for v in settled if not v.tie],
            quote_ties=[{"chunk_id": v.chunk_id, "quote": v.original, "votes": v.votes} for v in settled if v.tie],
        )
        corrected = record.model_dump() | {
            "supporting": [requoted(chunk, settled) for chunk in record.supporting],
            "contexts": contexts,
            "n_relevant": sum(context.relevant for context in contexts),
            "unanswerable": variant,
            "review": note,
        }
        kept.append(ReviewedRecord.model_validate(corrected))
    return kept
