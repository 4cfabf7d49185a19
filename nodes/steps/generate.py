"""generate_question and revise_question: typed question writing from the supporting chunks."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime
from pydantic import Field, create_model

from nodes.common import Update, instructed, joined, letter_labels, normalised_answer, records_failure
from nodes.language import decided_language, quoted_yes_no
from nodes.question_types import TYPES
from nodes.run_context import Context
from prompts import EVIDENCE_BLOCK, delimit, delimit_all, generate, revise
from state.draft import Construction, Draft, HiddenEntity, QuoteRef
from state.languages import language_name, leading_polarity
from state.sample import DEFAULT_ROLE, SampleState, is_single_hop, latest_draft
from state.schemas import QuestionDraft


def labelled_chunks(state: SampleState) -> str:
    """The supporting chunks as A, B, ... inside delimiting tags."""
    chunks = state["supporting"]
    return delimit_all("chunk", zip(letter_labels(len(chunks)), (c["text"] for c in chunks), strict=True))


def evidence_block(state: SampleState, tested: Sequence[str] | None = None) -> str:
    """The latest draft's quotes, each inside its tag and labelled with its chunk (of the `tested` chunks only,
    when given); "" for a draft without quotes."""
    labels = dict(zip((c["id"] for c in state["supporting"]), letter_labels(len(state["supporting"])), strict=True))
    shown = [
        (labels[quote["chunk_id"]], quote["quote"])
        for quote in latest_draft(state).get("evidence", [])
        if quote["chunk_id"] in labels and (tested is None or labels[quote["chunk_id"]] in tested)
    ]
    return EVIDENCE_BLOCK.format(quotes=delimit_all("quote", shown)) if shown else ""


#: A real query's wording and its asker's role (`--role-from-queries`), or None.
Style = tuple[str, str | None] | None


def style_of(state: SampleState, context: Context) -> Style:
    """The wording and role of the real query nearest to the sample's seed, when the run writes in its register."""
    guide = context.require_ports().queries
    return guide.style(state["seed"]["id"]) if guide is not None and "seed" in state else None


def asker(state: SampleState, style: Style) -> str:
    """Who asks: the real query's role when it has one, else the sample's."""
    return (style[1] if style else None) or state.get("role") or DEFAULT_ROLE


def style_block(style: Style) -> str:
    """The real query's wording, put before the chunks, when the run writes in its register; else nothing."""
    return generate.STYLE.format(example=delimit("question", "style example", style[0])) if style else ""


def style_update(style: Style) -> Update:
    return {"style_role": style[1]} if style and style[1] else {}


def answer_form(state: SampleState) -> str:
    """The key of the sample's answer form in `BINARY_INSTRUCTIONS`."""
    if not state["binary"]:
        return "open"
    return state.get("wanted_answer") or "either"


def _shared_fields(state: SampleState, language: str, style: Style = None) -> dict[str, str]:
    words = quoted_yes_no(language)
    return {
        "type_instruction": TYPES[state["question_type"]].instruction(state["binary"]).format(**words),
        "style": style_block(style),
        "question_type": ("yes/no " if state["binary"] else "") + state["question_type"],
        "answer_note": generate.ANSWER_NOTES[answer_form(state)].format(**words),
        "binary_instruction": generate.BINARY_INSTRUCTIONS[answer_form(state)].format(**words),
        "language": language_name(language),
        "role": asker(state, style),
        "hops": str(len(state["supporting"])),
        "labels": joined(letter_labels(len(state["supporting"]))),
        "bridge_topic": state.get("bridge_topic", ""),
        "chunks": labelled_chunks(state),
    }


def generation_messages(state: SampleState, language: str, style: Style = None) -> list[BaseMessage]:
    single = is_single_hop(state)
    user = (generate.SINGLE_HOP_USER if single else generate.USER).format(**_shared_fields(state, language, style))
    return instructed(generate.SINGLE_HOP_SYSTEM if single else generate.SYSTEM, user)


def revision_feedback(state: SampleState) -> str:
    """The latest round's rejection, in full: every check's reason for the latest draft."""
    revision = latest_draft(state)["revision"]
    rejections = [v for v in state["verdicts"] if v["revision"] == revision and not v["accepted"]]
    return "\n".join(f"- {v['judge']} check: {v['reason']}" for v in rejections)


def revision_messages(state: SampleState, language: str, style: Style = None) -> list[BaseMessage]:
    draft = latest_draft(state)
    single = is_single_hop(state)
    user = (revise.SINGLE_HOP_USER if single else revise.USER).format(
        **_shared_fields(state, language, style),
        question=delimit("question", "draft", draft["question"]),
        answer=delimit("answer", "draft", draft["answer"]),
        evidence=evidence_block(state),
        feedback=revision_feedback(state),
    )
    return instructed(revise.SINGLE_HOP_SYSTEM if single else revise.SYSTEM, user)


@cache
def draft_schema(question_type: str) -> type[QuestionDraft]:
    """The draft schema a request of `question_type` sends: `QuestionDraft` with the plan and the answer that type
    asks for (its entry's `plan` and `answer`, `nodes.question_types`); one class per type, built once, named
    `QuestionDraft` like its base, so that scripts and recordings key it alike."""
    schema: type[QuestionDraft] = create_model(  # type: ignore[call-overload]
        "QuestionDraft",
        __base__=QuestionDraft,
        __doc__=QuestionDraft.__doc__,
        plan=(str, Field(description=TYPES[question_type].plan)),
        answer=(str, Field(description=TYPES[question_type].answer)),
    )
    return schema


def construction_of(reply: QuestionDraft, state: SampleState) -> Construction:
    """The reply's account of its construction, with chunk labels turned into the store's chunk ids."""
    ids = dict(zip(letter_labels(len(state["supporting"])), (c["id"] for c in state["supporting"]), strict=True))
    return Construction(
        compared_entities=[entity.strip() for entity in reply.compared_entities if entity.strip()],
        hidden_entities=[
            HiddenEntity(entity=hidden.entity.strip(), chunk_id=ids.get(hidden.chunk.strip().upper(), ""))
            for hidden in reply.hidden_entities
            if hidden.entity.strip()
        ],
    )


def evidence_of(reply: QuestionDraft, state: SampleState) -> list[QuoteRef]:
    """The reply's quotes, with chunk labels turned into the store's chunk ids."""
    ids = dict(zip(letter_labels(len(state["supporting"])), (c["id"] for c in state["supporting"]), strict=True))
    return [
        QuoteRef(chunk_id=ids.get(quote.chunk.strip().upper(), ""), quote=quote.quote.strip())
        for quote in reply.evidence
        if quote.quote.strip()
    ]


def draft_from(reply: QuestionDraft, state: SampleState, *, language: str, origin: str, revision: int) -> Draft:
    draft = Draft(
        question=reply.question.strip(),
        answer=normalised_answer(reply.answer, binary=state["binary"], language=language),
        origin=origin,  # type: ignore[typeddict-item]
        revision=revision,
        construction=construction_of(reply, state),
        plan=reply.plan.strip(),
        evidence=evidence_of(reply, state),
    )
    if state["binary"] and (note := leading_polarity(reply.answer, language)[1]) and note != reply.answer.strip():
        draft["answer_note"] = note  # "Yes, because ...": the word is the answer, the rest kept beside it
    return draft


@records_failure
async def generate_question(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Write the first draft."""
    llm = runtime.context.require_ports().llm
    style = style_of(state, runtime.context)
    language = await decided_language(state, runtime.context)
    messages = generation_messages(state, language, style)
    reply, call = await llm.ask("generator", draft_schema(state["question_type"]), messages, node="generate_question")
    draft = draft_from(reply, state, language=language, origin="generate", revision=0)
    return {
        "language": language,
        "drafts": [draft],
        "revisions": 0,
        "revisions_left": runtime.context.max_revisions,
        "llm_calls": [call],
        **style_update(style),
    }


@records_failure
async def revise_question(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Rewrite the latest draft from its feedback; the prompt carries everything (no chat history)."""
    llm = runtime.context.require_ports().llm
    language = await decided_language(state, runtime.context)
    messages = revision_messages(state, language, style_of(state, runtime.context))
    reply, call = await llm.ask("generator", draft_schema(state["question_type"]), messages, node="revise_question")
    revisions = state.get("revisions", 0) + 1
    return {
        "drafts": [draft_from(reply, state, language=language, origin="revise", revision=revisions)],
        "revisions": revisions,
        "revisions_left": runtime.context.max_revisions - revisions,
        "llm_calls": [call],
    }
