"""A team's own pipeline as a setup: a LangChain retriever, a chain or a LangGraph graph, run in this process.

`import:package.module:object` names the object itself or a factory of it. The object is used as it is
when it is already of the setup's kind (a `BaseRetriever`, a `Runnable`, a compiled graph); a callable
that can be called with no arguments is a factory, called once as the evaluation starts (a retriever
over a store needs its URL at run time); a retriever or chain may also be a plain callable that takes
the question. Async objects are awaited; sync ones run in a worker thread.

What comes back is read in the shapes common chains return: a dict with the answer and documents
(`{"answer", "context"}`, `{"result", "source_documents"}`, or the keys the setup names), or an answer
alone (a string, an `AIMessage`) with the documents the run's retrievers returned, as LangChain's
callbacks report them.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable
from langgraph.graph import StateGraph
from langgraph.pregel import Pregel

from graph.config.errors import UserError, first_line
from graph.config.imports import import_object
from graph.evaluation.setups import Setup

#: Output keys read for the answer and for the documents when the setup names none, in this order.
ANSWER_KEYS = ("answer", "result", "output", "generation", "messages")
DOCUMENT_KEYS = ("context", "source_documents", "documents")

#: A graph's input key when the setup names none (the state of LangChain's RAG tutorial graph).
GRAPH_INPUT_KEY = "question"

#: Where a follow-up's earlier turns go in a dict input when the setup names no `history_key`.
HISTORY_KEY = "chat_history"

#: What each kind is, for the lines that name a wrong one.
KIND_NAMES = {
    "retriever": "a LangChain retriever (a Runnable returning documents) or a callable taking the question",
    "chain": "a Runnable or a callable taking the question",
    "graph": "a compiled LangGraph graph (StateGraph(...).compile())",
}


def load_pipeline(setup: Setup) -> Any:
    """The object a retriever, chain or graph setup names, of its kind; one line naming the setup when it is not."""
    assert setup.imported is not None
    kind = setup.kind
    found = import_object(setup.imported, f"--setup {setup.name}: {kind}=import:package.module:object")
    if _of_kind(found, kind):
        return found
    if callable(found) and _takes_no_arguments(found):
        try:
            made = found()
        except Exception as error:  # the team's factory: its failure is theirs to read, in one line
            raise UserError(
                f"--setup {setup.name}: the factory {setup.imported} raised {type(error).__name__}: "
                f"{first_line(error)}; fix it and evaluate again"
            ) from None
        if _of_kind(made, kind):
            return made
        raise UserError(
            f"--setup {setup.name}: the factory {setup.imported} returned {_described(made)}, not "
            f"{KIND_NAMES[kind]}; return one from it"
        )
    if callable(found) and kind in ("retriever", "chain") and _takes_one_argument(found):
        return found
    hint = "; give it with .compile()" if isinstance(found, StateGraph) else ""
    raise UserError(
        f"--setup {setup.name}: {setup.imported} is {_described(found)}, not {KIND_NAMES[kind]} or a factory of "
        f"one{hint}"
    )


def _of_kind(found: Any, kind: str) -> bool:
    if kind == "retriever":  # a retriever with a config bound is a Runnable, no longer a BaseRetriever
        return isinstance(found, Runnable) and not isinstance(found, Pregel)
    if kind == "graph":
        return isinstance(found, Pregel)
    return isinstance(found, Runnable) and not isinstance(found, (BaseRetriever, Pregel))


def _parameters(found: Callable[..., Any]) -> list[inspect.Parameter] | None:
    try:
        return list(inspect.signature(found).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: not ours to call blind
        return None


def _takes_no_arguments(found: Callable[..., Any]) -> bool:
    parameters = _parameters(found)
    return parameters is not None and all(
        p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters
    )


def _takes_one_argument(found: Callable[..., Any]) -> bool:
    parameters = _parameters(found)
    if parameters is None:
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in parameters if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    return len(required) == 1 or (not required and bool(positional))


def _described(found: Any) -> str:
    if isinstance(found, Mapping):
        return f"a dict with keys {', '.join(map(str, found)) or 'none'}"
    return f"a {type(found).__module__}.{type(found).__qualname__}"


class RetrievedDocuments(BaseCallbackHandler):
    """The documents every retriever of one call returned, as LangChain's callbacks report them."""

    run_inline = True

    def __init__(self) -> None:
        self.documents: list[Document] = []
        self.retrievers_ran = False

    def on_retriever_end(self, documents: Sequence[Document], *, run_id: UUID, **kwargs: Any) -> None:
        self.retrievers_ran = True
        self.documents.extend(documents)


def as_messages(history: Sequence[Mapping[str, str]]) -> list[BaseMessage]:
    return [HumanMessage(turn["content"]) if turn["role"] == "user" else AIMessage(turn["content"]) for turn in history]


def pipeline_input(setup: Setup, question: str, history: Sequence[Mapping[str, str]]) -> Any:
    """What the object is called with: the question string, or a dict holding it (and a follow-up's earlier turns)."""
    key = setup.input_key or (GRAPH_INPUT_KEY if setup.kind == "graph" else None)
    if key is None:
        return question
    if key == "messages":
        return {"messages": [*as_messages(history), HumanMessage(question)]}
    return {key: question} | ({setup.history_key or HISTORY_KEY: as_messages(history)} if history else {})


def takes_history(setup: Setup) -> bool:
    """Whether a follow-up's earlier turns reach the object (a dict input carries them; a string cannot)."""
    return setup.kind == "graph" or setup.input_key is not None


async def call_pipeline(setup: Setup, target: Any, asked: Any) -> tuple[Any, RetrievedDocuments]:
    """The object's output for one input, with the documents its retrievers returned on the way."""
    seen = RetrievedDocuments()
    try:
        if isinstance(target, Runnable):
            return await target.ainvoke(asked, config={"callbacks": [seen]}), seen
        if inspect.iscoroutinefunction(target) or inspect.iscoroutinefunction(type(target).__call__):
            return await target(asked), seen
        output = await asyncio.to_thread(target, asked)
        return (await output if inspect.isawaitable(output) else output), seen
    except UserError:
        raise
    except Exception as error:  # the team's pipeline: its failure is theirs to read, in one line
        raise UserError(
            f"--setup {setup.name}: its {setup.kind} raised {type(error).__name__}: {first_line(error)}; "
            "fix it and evaluate again (the rows of setups already evaluated are kept)"
        ) from None


async def retrieve_with(setup: Setup, target: Any, question: str) -> list[dict[str, Any]]:
    """A retriever setup's documents for the question, as contexts (id, text)."""
    output, _ = await call_pipeline(setup, target, question)
    if isinstance(output, (str, bytes, Mapping)) or not isinstance(output, Sequence):
        raise UserError(
            f"--setup {setup.name}: its retriever returned {_described(output)}, not a list of documents; "
            "return LangChain Documents"
        )
    return [as_context(setup, item) for item in output]


async def ask_pipeline(
    setup: Setup, target: Any, question: str, history: Sequence[Mapping[str, str]]
) -> tuple[str, list[dict[str, Any]]]:
    """A chain or graph setup's answer and the documents it retrieved."""
    output, seen = await call_pipeline(setup, target, pipeline_input(setup, question, history))
    answer, documents = _read_output(setup, output, seen)
    return answer, [as_context(setup, item) for item in documents]


def _read_output(setup: Setup, output: Any, seen: RetrievedDocuments) -> tuple[str, list[Any]]:
    answer: str | None
    documents: Any = None
    if isinstance(output, Mapping):
        answer_key = setup.answer_key or next((k for k in ANSWER_KEYS if k in output), None)
        answer = answer_text(output.get(answer_key)) if answer_key is not None else None
        documents_key = setup.documents_key or next((k for k in DOCUMENT_KEYS if k in output), None)
        if documents_key is not None:
            documents = output.get(documents_key)
            if not isinstance(documents, Sequence) or isinstance(documents, (str, bytes)):
                raise UserError(
                    f"--setup {setup.name}: its {setup.kind}'s {documents_key!r} holds {_described(documents)}, not "
                    "a list of documents; name the right key with documents_key="
                )
    else:
        answer = answer_text(output)
    if answer is None:
        raise UserError(
            f"--setup {setup.name}: its {setup.kind} returned {_described(output)} with no answer found; "
            "name the output key that holds it with answer_key="
        )
    if documents is None:
        if not seen.retrievers_ran:
            raise UserError(
                f"--setup {setup.name}: its {setup.kind} returned {_described(output)} with no documents and "
                "ran no retriever that LangChain's callbacks report; return them and name their key with "
                "documents_key="
            )
        documents = seen.documents
    return answer, list(documents)


def answer_text(value: Any) -> str | None:
    """The answer in a string, a chat message, or a list of messages (the last one's); None for anything else."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseMessage):
        if isinstance(value.content, str):
            return value.content
        return "".join(
            str(block.get("text", "")) if isinstance(block, Mapping) else str(block) for block in value.content
        )
    if isinstance(value, Sequence) and value and isinstance(value[-1], BaseMessage):
        return answer_text(value[-1])
    return None


def as_context(setup: Setup, item: Any) -> dict[str, Any]:
    """A returned document as a context: its chunk id (the document's id, or `id_key` of its metadata) and text.

    A document without an id keeps `id` None and is matched by its text.
    """
    if isinstance(item, Document):
        text, metadata, own_id = item.page_content, item.metadata, item.id
    elif isinstance(item, Mapping):
        text = item.get("page_content", item.get("text", item.get("content")))
        metadata, own_id = item.get("metadata") or {}, item.get("id")
        if setup.id_key and setup.id_key in item:
            own_id = item[setup.id_key]
    elif isinstance(item, str):
        text, metadata, own_id = item, {}, None
    else:
        text = None
    if not isinstance(text, str):
        raise UserError(
            f"--setup {setup.name}: its {setup.kind} returned a document that is {_described(item)}; return "
            "LangChain Documents, dicts with page_content or text, or strings"
        )
    chunk_id = metadata.get(setup.id_key, own_id) if setup.id_key and isinstance(metadata, Mapping) else own_id
    return {"id": None if chunk_id in (None, "") else str(chunk_id), "text": text}
