"""The built-in RAG setup evaluated against a dataset: retrieve k chunks, then answer or abstain."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from nodes.common import Update, instructed
from prompts import delimit, delimit_all
from prompts import evaluate as prompt
from state.evidence import Passage, document_place
from state.schemas import RagAnswer
from state.usage import ModelCall


class RagState(TypedDict, total=False):
    """One question through the RAG setup."""

    question: str
    history: list[dict[str, str]]
    """Earlier turns of a conversation the question follows up (role, content); the answerer reads them, the
    retriever only the question."""
    contexts: list[Passage]
    """The retrieved chunks."""
    answer: str
    llm_calls: list[ModelCall]


@dataclass(kw_only=True)
class RagContext:
    """The setup: where it retrieves from, how many chunks, which model answers (the generator role)."""

    k: int = 5
    corpus: Any = None
    llm: Any = None


async def answer_from(
    question: str, contexts: Sequence[Passage], llm: Any, history: Sequence[dict[str, str]] = ()
) -> tuple[str, ModelCall]:
    """The answering model's reply given exactly these contexts (and, for a follow-up, the turns before it)."""
    asked = delimit("question", "Q", question)
    if history:
        earlier = "\n".join(f"{turn['role'].capitalize()}: {turn['content']}" for turn in history)
        asked = delimit("question", "earlier turns of this conversation", earlier) + "\n" + asked
    messages = instructed(
        prompt.RAG_SYSTEM,
        prompt.RAG_USER.format(
            contexts=delimit_all("chunk", ((str(i), c["text"]) for i, c in enumerate(contexts, start=1))),
            question=asked,
        ),
    )
    reply, call = await llm.ask("generator", RagAnswer, messages, node="rag_answer")
    return reply.answer.strip(), call


async def retrieve(state: RagState, runtime: Runtime[RagContext]) -> Update:
    hits = await runtime.context.corpus.search(state["question"], runtime.context.k)
    return {"contexts": [retrieved_context(hit.chunk) for hit in hits]}


def retrieved_context(chunk: Any) -> Passage:
    """A retrieved chunk as a context: id, text, and its place in its document where its metadata says."""
    return Passage(id=chunk.id, text=chunk.text, **document_place(chunk.metadata))


async def answer(state: RagState, runtime: Runtime[RagContext]) -> Update:
    text, call = await answer_from(state["question"], state["contexts"], runtime.context.llm, state.get("history", []))
    return {"answer": text, "llm_calls": [call]}
