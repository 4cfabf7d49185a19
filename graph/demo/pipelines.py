"""A team's own RAG pipeline, as `graph.evaluate --setup NAME=retriever=|chain=|graph=import:...` names it.

Three factories over the store triad reads (TRIAD_DATABASE_URL and TRIAD_COLLECTION, else the embedded
server and the demo collection), each the way a LangChain user writes one:

    demo_retriever   PGVectorStore(...).as_retriever(): langchain-postgres over the same table
    demo_chain       an LCEL chain on that retriever returning {"question", "context", "answer"}
    demo_text_chain  the same chain returning the answer alone (its documents come from the retriever's callbacks)
    demo_graph       a LangGraph graph with the state of LangChain's RAG tutorial: question, context, answer

The chains and the graph answer with the plausible scripted model, so they run offline; a team puts its
own model there.
"""

from __future__ import annotations

from typing import Any

from langchain_core.documents import Document
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnablePassthrough
from langchain_postgres import PGEngine, PGVectorStore
from langchain_postgres.v2.indexes import DistanceStrategy
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from typing_extensions import TypedDict

from graph.config.settings import resolve_settings
from graph.demo import DEMO_COLLECTION
from graph.llm.offline.plausible import plausible_model
from graph.store.database import database_url
from graph.store.embeddings import load_embeddings
from prompts import delimit, delimit_all
from prompts import evaluate as prompt
from state.schemas import RagAnswer

#: triad's distance names as langchain-postgres takes them.
DISTANCES = {
    "cosine": DistanceStrategy.COSINE_DISTANCE,
    "l2": DistanceStrategy.EUCLIDEAN,
    "ip": DistanceStrategy.INNER_PRODUCT,
}


def demo_retriever(k: int = 5) -> BaseRetriever:
    """langchain-postgres' retriever over the collection, `k` documents, ids as stored: the table's columns and
    distance as triad's settings give them (TRIAD_ID_COLUMN, TRIAD_DISTANCE, ...), else langchain-postgres'
    defaults, which `graph.ingest` writes."""
    settings = resolve_settings()
    url = database_url(settings).replace("postgresql://", "postgresql+psycopg://", 1)
    columns = {
        name: value
        for name in ("id_column", "content_column", "embedding_column", "metadata_json_column")
        if (value := getattr(settings, name)) is not None
    }
    store = PGVectorStore.create_sync(
        PGEngine.from_connection_string(url),
        load_embeddings(settings.embedding),
        settings.collection or DEMO_COLLECTION,
        schema_name=settings.schema_name,
        distance_strategy=DISTANCES[settings.distance or "cosine"],
        **columns,
    )
    return store.as_retriever(search_kwargs={"k": k})


def answer_messages(inputs: dict[str, Any]) -> list[Any]:
    """The answering request: the retrieved documents and the question, each delimited."""
    contexts = delimit_all("chunk", ((str(i), d.page_content) for i, d in enumerate(inputs["context"], start=1)))
    question = delimit("question", "Q", inputs["question"])
    material = prompt.RAG_USER.format(contexts=contexts, question=question)
    return [SystemMessage(prompt.RAG_SYSTEM), HumanMessage(material)]


def _answerer() -> Runnable[Any, str]:
    return answer_messages | plausible_model().with_structured_output(RagAnswer) | (lambda reply: reply.answer)


def demo_chain() -> Runnable[str, dict[str, Any]]:
    """question -> {"question", "context": [Document], "answer"}, as `create_retrieval_chain` answers."""
    retrieved = {"context": demo_retriever(), "question": RunnablePassthrough()}
    return retrieved | RunnablePassthrough.assign(answer=_answerer())


def demo_text_chain() -> Runnable[str, str]:
    """question -> the answer alone."""
    return {"context": demo_retriever(), "question": RunnablePassthrough()} | _answerer()


class TutorialState(TypedDict):
    question: str
    context: list[Document]
    answer: str


def demo_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """retrieve -> generate over `TutorialState`; invoked with {"question": ...}."""
    retriever, answerer = demo_retriever(), _answerer()

    async def retrieve(state: TutorialState) -> dict[str, Any]:
        return {"context": await retriever.ainvoke(state["question"])}

    async def generate(state: TutorialState) -> dict[str, Any]:
        return {"answer": await answerer.ainvoke(dict(state))}

    builder = StateGraph(TutorialState)
    builder.add_node("retrieve", retrieve)
    builder.add_node("generate", generate)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "generate")
    builder.add_edge("generate", END)
    return builder.compile(name="team_rag")
