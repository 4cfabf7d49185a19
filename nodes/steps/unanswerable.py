"""generate_unanswerable and judge_unanswerable: plausible questions the collection holds no answer to.

The generator writes from a seed chunk and its neighbours; the judge reads what the collection's own
retriever returns for the question (its embedding model, the run's k) and accepts the question only
when it is plausible and none of those chunks answers or settles it. A rejection is feedback for the
next draft, within the run's revision budget, as for answerable questions.
"""

from __future__ import annotations

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime

from nodes.common import Update, chunk_ref, instructed, recorded_verdict, records_failure
from nodes.language import decided_language, sample_language
from nodes.run_context import Context
from nodes.steps.generate import asker, revision_feedback, style_block, style_of, style_update
from prompts import delimit, delimit_all
from prompts import unanswerable as prompt
from state.draft import Construction, Draft
from state.languages import language_name
from state.sample import SampleState, latest_draft
from state.schemas import UnanswerableDraft, UnanswerableVerdict

#: The kinds of generated unanswerable question; another reply is kept as the generator wrote it.
KINDS = ("missing_attribute", "false_premise")


def seed_and_neighbours(state: SampleState) -> str:
    """The seed chunk (S) and its neighbours (N1, N2, ...) inside delimiting tags."""
    chunks = [("S", state["seed"]["text"])]
    chunks += [(f"N{i}", chunk["text"]) for i, chunk in enumerate(state.get("neighbours", []), start=1)]
    return delimit_all("chunk", chunks)


def retrieved_labels(count: int) -> list[str]:
    return [f"R{i}" for i in range(1, count + 1)]


@records_failure
async def generate_unanswerable(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Write the first draft, or, after a rejection, the next one from the judge's feedback."""
    llm = runtime.context.require_ports().llm
    style = style_of(state, runtime.context)
    revising = bool(state.get("drafts"))
    revision = ""
    if revising:
        revision = prompt.REVISION.format(
            question=delimit("question", "draft", latest_draft(state)["question"]), feedback=revision_feedback(state)
        )
    language = await decided_language(state, runtime.context)
    user = prompt.GENERATE_USER.format(
        role=asker(state, style),
        language=language_name(language),
        revision=revision,
        style=style_block(style),
        chunks=seed_and_neighbours(state),
        closing=(prompt.REVISION_CLOSING if revising else prompt.GENERATE_CLOSING).format(
            language=language_name(language)
        ),
    )
    messages = instructed(prompt.GENERATE_SYSTEM, user)
    reply, call = await llm.ask("generator", UnanswerableDraft, messages, node="generate_unanswerable")
    revisions = state.get("revisions", 0) + (1 if revising else 0)
    kind = reply.kind.strip().lower().replace(" ", "_")
    draft = Draft(
        question=reply.question.strip(),
        answer="",
        origin="revise" if revising else "generate",
        revision=revisions,
        construction=Construction(
            compared_entities=[],
            hidden_entities=[],
            unanswerable_kind=kind if kind in KINDS else reply.kind.strip(),
            missing=reply.missing.strip(),
        ),
    )
    left = runtime.context.max_revisions - revisions
    return {
        "language": language,
        "drafts": [draft],
        "revisions": revisions,
        "revisions_left": left,
        "llm_calls": [call],
        **style_update(style),
    }


@records_failure
async def judge_unanswerable(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Retrieve the top k chunks for the draft as the user's RAG system would, and judge them in one call."""
    context = runtime.context
    ports = context.require_ports()
    question = latest_draft(state)["question"]
    hits = await ports.corpus.search(question, context.retrieval_k)
    retrieved = [chunk_ref(hit.chunk) for hit in hits]
    labels = retrieved_labels(len(retrieved))
    messages = unanswerable_messages(question, [c["text"] for c in retrieved], sample_language(state, context))
    verdict, call = await ports.llm.ask("validator", UnanswerableVerdict, messages, node="judge_unanswerable")
    answering = answering_chunks(verdict, [c["id"] for c in retrieved])
    # Strict: a chunk named as answering, or the judge's own answerable flag, rejects whatever `accepted` says.
    answered = verdict.answerable or bool(answering)
    accepted = verdict.accepted and verdict.plausible and not answered
    details = {
        "plausible": verdict.plausible,
        "answerable": answered,
        "answered_by": answering,
        "retrieved": [c["id"] for c in retrieved],
        "reasoning": verdict.reasoning,
    }
    openings = {label: " ".join(c["text"].split()[:12]) for label, c in zip(labels, retrieved, strict=True)}
    reason = unanswerable_feedback(verdict, answered, openings)
    update = recorded_verdict(state, "unanswerable", accepted=accepted, reason=reason, details=details)
    return update | {"retrieved": retrieved, "llm_calls": [call]}


def unanswerable_messages(question: str, texts: list[str], language: str) -> list[BaseMessage]:
    """The judge's request: the question, the language it was asked in, and the retrieved chunks as R1, R2, ..."""
    chunks = delimit_all("chunk", zip(retrieved_labels(len(texts)), texts, strict=True))
    user = prompt.JUDGE_USER.format(
        question=delimit("question", "Q", question), language=language_name(language), k=len(texts), chunks=chunks
    )
    return instructed(prompt.JUDGE_SYSTEM, user)


def answering_chunks(verdict: UnanswerableVerdict, ids: list[str]) -> list[str]:
    """The ids of the chunks the verdict names as answering (labels it invented are ignored)."""
    by_label = dict(zip(retrieved_labels(len(ids)), ids, strict=True))
    return [by_label[label] for label in (x.strip().upper() for x in verdict.answered_by) if label in by_label]


def unanswerable_feedback(verdict: UnanswerableVerdict, answered: bool, openings: dict[str, str]) -> str:
    """What failed, with the judge's reason, and what to change; answering chunks are named by their opening words
    (the generator never saw the retriever's labels)."""
    failed = []
    if not verdict.plausible:
        failed.append(
            "not plausible: ask a meaningful question a user of this collection would ask, naming its entities"
        )
    if answered:
        named = [
            f"'{openings[label]} ...'"
            for label in (x.strip().upper() for x in verdict.answered_by)
            if label in openings
        ]
        chunks = "the chunk(s) beginning " + ", ".join(named) if named else "a chunk the retriever returned"
        failed.append(f"answered by {chunks}: ask for something no chunk of the collection states")
    reason = verdict.reason.strip().rstrip(".")
    if not failed:
        return reason or "the judge rejected the question without naming why; check every requirement"
    return "; ".join(failed) + (f" ({reason})" if reason else "")
