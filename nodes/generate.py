"""generate_question and revise_question: typed question writing from the supporting chunks."""

from __future__ import annotations

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime

from nodes.common import Update, instructed, letter_labels, records_failure
from nodes.context import Context
from prompts import delimit, delimit_all, generate, revise
from state.sample import DEFAULT_ROLE, Draft, SampleState, latest_draft
from state.schemas import QuestionDraft


def labelled_chunks(state: SampleState) -> str:
    """The supporting chunks as A, B, ... inside delimiting tags."""
    chunks = state["supporting"]
    return delimit_all("chunk", zip(letter_labels(len(chunks)), (c["text"] for c in chunks), strict=True))


def _shared_fields(state: SampleState) -> dict[str, str]:
    return {
        "type_instruction": generate.TYPE_INSTRUCTIONS[state["question_type"]],
        "binary_instruction": generate.BINARY_INSTRUCTIONS[state["binary"]],
        "role": state.get("role") or DEFAULT_ROLE,
        "bridge_topic": state["bridge_topic"],
        "chunks": labelled_chunks(state),
    }


def generation_messages(state: SampleState) -> list[BaseMessage]:
    return instructed(generate.SYSTEM, generate.USER.format(**_shared_fields(state)))


def revision_feedback(state: SampleState) -> str:
    """The latest round's rejection, in full: every judge's reason for the latest draft."""
    revision = latest_draft(state)["revision"]
    rejections = [v for v in state["verdicts"] if v["revision"] == revision and not v["accepted"]]
    return "\n".join(f"- {v['judge']} check: {v['reason']}" for v in rejections)


def revision_messages(state: SampleState) -> list[BaseMessage]:
    draft = latest_draft(state)
    return instructed(
        revise.SYSTEM,
        revise.USER.format(
            **_shared_fields(state),
            question=delimit("question", "draft", draft["question"]),
            answer=delimit("answer", "draft", draft["answer"]),
            feedback=revision_feedback(state),
        ),
    )


@records_failure
async def generate_question(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Write the first draft."""
    llm = runtime.context.require_services().llm
    draft, call = await llm.ask("generator", QuestionDraft, generation_messages(state), node="generate_question")
    return {
        "drafts": [Draft(question=draft.question.strip(), answer=draft.answer.strip(), origin="generate", revision=0)],
        "revisions": 0,
        "llm_calls": [call],
    }


@records_failure
async def revise_question(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Rewrite the latest draft from its feedback; the prompt carries everything (no chat history)."""
    llm = runtime.context.require_services().llm
    draft, call = await llm.ask("generator", QuestionDraft, revision_messages(state), node="revise_question")
    revisions = state.get("revisions", 0) + 1
    return {
        "drafts": [
            Draft(question=draft.question.strip(), answer=draft.answer.strip(), origin="revise", revision=revisions)
        ],
        "revisions": revisions,
        "llm_calls": [call],
    }
