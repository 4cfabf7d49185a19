"""extract_contexts: distractor candidates, their relevance labels, and the difficulty.

Candidates are each supporting chunk's nearest chunks, minus the supporting chunks and duplicate
texts. Each is labelled with the configured labeller (CARE by default: the judge sees the question,
the answer, the whole supporting list and the candidate). Labels are parsed booleans, never strings.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime

from nodes.common import Update, chunk_ref, delimited_draft, instructed, normalise_text, records_failure
from nodes.implementations import resolve_implementation
from nodes.ports import StructuredChat
from nodes.run_context import Context
from nodes.steps.generate import labelled_chunks
from prompts import delimit, delimit_all
from prompts import relevance as relevance_prompt
from state.evidence import document_place
from state.location import where
from state.record import text_digest
from state.sample import ChunkRef, ContextItem, Difficulty, RelevanceLabel, SampleState, latest_draft
from state.schemas import BatchRelevanceVerdict, CandidateAnswer, RelevanceVerdict
from state.usage import ModelCall

Labeller = Callable[
    [SampleState, Sequence[ChunkRef], StructuredChat], Awaitable[tuple[list[RelevanceLabel], list[ModelCall]]]
]


def difficulty_for(n_relevant: int, hops: int, hard_extra: int, medium_extra: int) -> Difficulty:
    """Few relevant contexts make a question hard to retrieve for; many make it easy."""
    if n_relevant <= hops + hard_extra:
        return "hard"
    if n_relevant <= hops + medium_extra:
        return "medium"
    return "easy"


def distinct_candidates(
    supporting: Sequence[ChunkRef], neighbour_lists: Sequence[Sequence[ChunkRef]]
) -> list[ChunkRef]:
    """Neighbours of the supporting chunks, without the supporting chunks and without repeated texts."""
    seen_ids = {chunk["id"] for chunk in supporting}
    seen_texts = {normalise_text(chunk["text"]) for chunk in supporting}
    candidates = []
    for neighbours in neighbour_lists:
        for chunk in neighbours:
            text = normalise_text(chunk["text"])
            if chunk["id"] in seen_ids or text in seen_texts:
                continue
            seen_ids.add(chunk["id"])
            seen_texts.add(text)
            candidates.append(chunk)
    return candidates


def care_messages(question: str, answer: str, chunks: str, candidate: str) -> list[BaseMessage]:
    """The CARE request: question, reference answer, the whole supporting list, one candidate (all delimited)."""
    return instructed(
        relevance_prompt.CARE_SYSTEM,
        relevance_prompt.CARE_USER.format(question=question, answer=answer, chunks=chunks, candidate=candidate),
    )


async def label_with_care(
    state: SampleState, candidates: Sequence[ChunkRef], llm: StructuredChat
) -> tuple[list[RelevanceLabel], list[ModelCall]]:
    """CARE: one call per candidate, the judge seeing the whole supporting list; run concurrently."""
    question, answer = delimited_draft(state)
    chunks = labelled_chunks(state)

    async def label(index: int, candidate: ChunkRef) -> tuple[RelevanceVerdict, ModelCall]:
        messages = care_messages(question, answer, chunks, delimit("candidate", f"X{index}", candidate["text"]))
        return await llm.ask("extractor", RelevanceVerdict, messages, node="extract_contexts")

    results = await asyncio.gather(*(label(i, c) for i, c in enumerate(candidates, start=1)))
    labels = [
        RelevanceLabel(chunk_id=c["id"], relevant=verdict.relevant, reason=verdict.reason, labeller="care")
        for c, (verdict, _) in zip(candidates, results, strict=True)
    ]
    return labels, [call for _, call in results]


async def label_with_care_batched(
    state: SampleState, candidates: Sequence[ChunkRef], llm: StructuredChat
) -> tuple[list[RelevanceLabel], list[ModelCall]]:
    """CARE in one call for all candidates; a candidate the reply leaves out is asked again alone, with CARE.

    A missing label is never read as "not relevant": that label would put the candidate among the
    contexts a RAG system must abstain on.
    """
    if not candidates:
        return [], []
    question, answer = delimited_draft(state)
    labels = [f"X{i}" for i in range(1, len(candidates) + 1)]
    messages = instructed(
        relevance_prompt.CARE_BATCHED_SYSTEM,
        relevance_prompt.CARE_BATCHED_USER.format(
            question=question,
            answer=answer,
            chunks=labelled_chunks(state),
            candidates=delimit_all("candidate", zip(labels, (c["text"] for c in candidates), strict=True)),
        ),
    )
    verdict, call = await llm.ask("extractor", BatchRelevanceVerdict, messages, node="extract_contexts")
    by_label = {"".join(item.candidate.split()).upper(): item.relevant for item in verdict.labels}
    missing = [c for label, c in zip(labels, candidates, strict=True) if label not in by_label]
    asked_again, calls = await label_with_care(state, missing, llm)
    again = {label["chunk_id"]: label for label in asked_again}
    batched = [
        RelevanceLabel(chunk_id=c["id"], relevant=by_label[label], reason="", labeller="care_batched")
        if label in by_label
        else RelevanceLabel(
            chunk_id=c["id"],
            relevant=again[c["id"]]["relevant"],
            reason=f"left out of the batched reply, asked alone: {again[c['id']]['reason']}",
            labeller="care",
        )
        for label, c in zip(labels, candidates, strict=True)
    ]
    return batched, [call, *calls]


async def label_directly(
    state: SampleState, candidates: Sequence[ChunkRef], llm: StructuredChat
) -> tuple[list[RelevanceLabel], list[ModelCall]]:
    """Direct: the candidate judged alone with the question and answer."""
    question, answer = delimited_draft(state)

    async def label(index: int, candidate: ChunkRef) -> tuple[RelevanceVerdict, ModelCall]:
        messages = instructed(
            relevance_prompt.DIRECT_SYSTEM,
            relevance_prompt.DIRECT_USER.format(
                question=question, answer=answer, candidate=delimit("candidate", f"X{index}", candidate["text"])
            ),
        )
        return await llm.ask("extractor", RelevanceVerdict, messages, node="extract_contexts")

    results = await asyncio.gather(*(label(i, c) for i, c in enumerate(candidates, start=1)))
    return [
        RelevanceLabel(chunk_id=c["id"], relevant=v.relevant, reason=v.reason, labeller="direct")
        for c, (v, _) in zip(candidates, results, strict=True)
    ], [call for _, call in results]


async def label_indirectly(
    state: SampleState, candidates: Sequence[ChunkRef], llm: StructuredChat
) -> tuple[list[RelevanceLabel], list[ModelCall]]:
    """Indirect: the model answers from the candidate alone as far as it goes, shown neither the reference answer
    nor the supporting chunks; the candidate is relevant when it gives a fact towards the answer (one notion of
    relevance for every labeller: it states a fact the answer needs)."""
    question, _ = delimited_draft(state)

    async def attempt(index: int, candidate: ChunkRef) -> tuple[CandidateAnswer, ModelCall]:
        messages = instructed(
            relevance_prompt.INDIRECT_SYSTEM,
            relevance_prompt.INDIRECT_USER.format(
                question=question, candidate=delimit("candidate", f"X{index}", candidate["text"])
            ),
        )
        return await llm.ask("extractor", CandidateAnswer, messages, node="extract_contexts")

    results = await asyncio.gather(*(attempt(i, c) for i, c in enumerate(candidates, start=1)))

    return [
        RelevanceLabel(
            chunk_id=c["id"],
            relevant=reply.answerable and bool(reply.answer.strip()),
            reason=f"gives: {reply.answer!r}",
            labeller="indirect",
        )
        for c, (reply, _) in zip(candidates, results, strict=True)
    ], [call for _, call in results]


RELEVANCE_LABELLERS: dict[str, Labeller] = {
    "care": label_with_care,
    "care_batched": label_with_care_batched,
    "direct": label_directly,
    "indirect": label_indirectly,
}


def known_labels(state: SampleState) -> dict[str, bool]:
    """An earlier version's labels by text digest, while the draft is the one they were given for; else none."""
    known = state.get("known_relevance")
    draft = latest_draft(state)
    if not known or (known["question"], known["answer"]) != (draft["question"], draft["answer"]):
        return {}
    return known["labels"]


@records_failure
async def extract_contexts(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Build the labelled context list and the difficulty of the accepted question."""
    context = runtime.context
    ports = context.require_ports()
    supporting = state["supporting"]
    neighbour_lists = await asyncio.gather(
        *(ports.corpus.neighbours(c["id"], context.distractors_k) for c in supporting)
    )
    candidates = distinct_candidates(supporting, [[chunk_ref(hit.chunk) for hit in hits] for hits in neighbour_lists])
    labeller = resolve_implementation("relevance", context.relevance_labeller, RELEVANCE_LABELLERS)
    known = known_labels(state)
    labels, calls = await labeller(state, [c for c in candidates if text_digest(c["text"]) not in known], ports.llm)
    labels += [
        RelevanceLabel(chunk_id=c["id"], relevant=known[digest], reason="same text as before", labeller="kept")
        for c in candidates
        if (digest := text_digest(c["text"])) in known
    ]
    relevant = {label["chunk_id"]: label["relevant"] for label in labels}
    contexts = [
        ContextItem(
            id=c["id"],
            text=c["text"],
            relevant=True,
            origin="supporting",
            where=where(c["metadata"]),
            **document_place(c["metadata"]),
        )
        for c in supporting
    ]
    contexts += [
        ContextItem(
            id=c["id"],
            text=c["text"],
            relevant=relevant[c["id"]],
            origin="distractor",
            where=where(c["metadata"]),
            **document_place(c["metadata"]),
        )
        for c in candidates
    ]
    n_relevant = sum(item["relevant"] for item in contexts)
    return {
        "relevance_labels": labels,
        "contexts": contexts,
        "n_relevant": n_relevant,
        "difficulty": difficulty_for(n_relevant, len(supporting), context.hard_extra, context.medium_extra),
        "llm_calls": calls,
    }
