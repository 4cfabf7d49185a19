"""How a setup is asked a record's question (the built-in RAG graph, a service by HTTP, a team's retriever, chain
or graph): the answer and the contexts it retrieved."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

from langgraph.graph import END, START, StateGraph

from graph.config.errors import UserError
from graph.evaluation.answering.pipeline_output import as_context
from graph.evaluation.answering.rag import RagContext, RagState, answer, answer_from, retrieve, retrieved_context
from graph.evaluation.setups import Setup
from graph.llm.gateway import LLMGateway
from state.record import DatasetRecord

#: Where a setup's contexts come from: triad's `Corpus` (built-in setups), the team's retriever, chain or graph
#: (a `Pipeline`), or None (a service).
Retrieval = Any


def rag_graph() -> Any:
    """The built-in RAG setup: retrieve, then answer (or abstain)."""
    builder = StateGraph(RagState, context_schema=RagContext)
    builder.add_node("retrieve", retrieve)
    builder.add_node("answer", answer)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "answer")
    builder.add_edge("answer", END)
    return builder.compile(name="triad_rag")


def ask_service(url: str, question: str, history: list[dict[str, str]] | None = None) -> tuple[str, list[Any]]:
    """POST the question to an external RAG service; a follow-up's earlier turns go with it as `history`.

    Returns the answer and the contexts as the service gave them (`pipelines.as_context` reads each)."""
    sent = {"question": question} | ({"history": history} if history else {})
    request = urllib.request.Request(url, data=json.dumps(sent).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            body: Any = json.loads(reply.read())
    except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as error:
        raise UserError(f"the RAG service at {url} did not answer ({error}); check --setup url=") from None
    if not isinstance(body, dict):
        raise UserError(
            f'the RAG service at {url} answered {type(body).__name__}, not {{"answer", "contexts"}}; check --setup url='
        )
    return str(body.get("answer", "")), list(body.get("contexts") or [])


def history_of(record: DatasetRecord) -> list[dict[str, str]]:
    """A follow-up record's turns before its question; none for the others."""
    return record.conversation()[:-1]


async def ask_setup(setup: Setup, record: DatasetRecord, gateway: LLMGateway, where: Retrieval) -> tuple[
    str, list[Any]
]:  # fmt: skip
    """The setup's answer and the contexts it retrieved for the record's question as asked (a follow-up with its
    conversation: triad's answerer reads it, a retriever the last turn; a service, chain or graph gets it whole)."""
    question, history = record.question, history_of(record)
    if setup.url:
        answer, contexts = await asyncio.to_thread(ask_service, setup.url, question, history)
        return answer, [as_context(setup, c) for c in contexts]
    if setup.kind in ("chain", "graph"):
        return await where.ask(question, history)
    if setup.kind == "retriever":
        retrieved = await where.retrieve(question)
        answer, _ = await answer_from(question, retrieved, gateway, history)
        return answer, retrieved
    asked = {"question": question, "history": history}
    state = await rag_graph().ainvoke(asked, context=RagContext(k=setup.k, corpus=where, llm=gateway))
    return state["answer"], state["contexts"]


async def retrieved_for(setup: Setup, record: DatasetRecord, where: Retrieval) -> list[Any]:
    """The contexts a setup retrieves for the record's question as asked, and nothing else of triad's: no
    answering model is asked (a service, chain or graph answers with its own, and its contexts are taken)."""
    question, history = record.question, history_of(record)
    if setup.url:
        _, contexts = await asyncio.to_thread(ask_service, setup.url, question, history)
        return [as_context(setup, c) for c in contexts]
    if setup.kind in ("chain", "graph"):
        _, retrieved = await where.ask(question, history)
        return retrieved
    if setup.kind == "retriever":
        return await where.retrieve(question)
    hits = await where.search(question, setup.k)
    return [retrieved_context(hit.chunk) for hit in hits]
