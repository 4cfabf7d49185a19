"""A team's own pipeline as a setup: a LangChain retriever, a chain or a LangGraph graph, run in this process.

`import:package.module:object` names the object itself or a factory of it. The object is used as it is
when it is already of the setup's kind (a `BaseRetriever`, a `Runnable`, a compiled graph); a callable
that can be called with no arguments is a factory, called once as the evaluation starts (a retriever
over a store needs its URL at run time); a retriever or chain may also be a plain callable that takes
the question. Async objects are awaited; sync ones run in a worker thread. What comes back is read in
`graph.evaluation.answering.pipeline_output`.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any
from uuid import uuid4

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.graph import StateGraph
from langgraph.pregel import Pregel

from graph.config.errors import UserError, first_line
from graph.config.imports import import_object
from graph.evaluation.answering.pipeline_output import RetrievedDocuments, as_context, described, read_output
from graph.evaluation.setups import Setup
from state.evidence import Passage

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


class Pipeline:
    """A retriever, chain or graph setup's object, ready to be asked; `load_pipeline` makes it.

    A factory written `async def` is awaited in the evaluation's own event loop (`ready`), where the
    object it builds is used.
    """

    def __init__(self, setup: Setup, target: Any = None, pending: Callable[[], Awaitable[Any]] | None = None) -> None:
        self.setup, self.target, self._pending = setup, target, pending
        self.gave_documents = False
        """Whether a call returned documents or ran a retriever: after that, a call with neither retrieved nothing."""

    async def ready(self) -> None:
        """The object an async factory builds, checked as a sync factory's is."""
        if self._pending is not None:
            made = await _called(self.setup, self._pending)
            self.target, self._pending = _checked_product(self.setup, made), None

    def takes_history(self) -> bool:
        """Whether a follow-up's earlier turns reach the object: a dict input carries them (a string cannot), and a
        graph takes them only under a key of its input schema (LangGraph drops the others)."""
        setup = self.setup
        if setup.kind == "retriever":
            return True  # a retriever reads the last turn, as triad's own does
        if setup.kind == "chain":
            return setup.input_key is not None
        key = "messages" if setup.input_key == "messages" else setup.history_key or HISTORY_KEY
        if not isinstance(self.target, Pregel):
            return True
        return key in (self.target.get_input_jsonschema().get("properties") or {})

    async def retrieve(self, question: str) -> list[Passage]:
        """A retriever setup's documents for the question, as contexts (id, text)."""
        output, _ = await call_pipeline(self.setup, self.target, question)
        if isinstance(output, (str, bytes, Mapping)) or not isinstance(output, Sequence):
            raise UserError(
                f"--setup {self.setup.name}: its retriever returned {described(output)}, not a list of documents; "
                "return LangChain Documents"
            )
        return [as_context(self.setup, item) for item in output]

    async def ask(self, question: str, history: Sequence[Mapping[str, str]]) -> tuple[str, list[Passage]]:
        """A chain or graph setup's answer and the documents it retrieved."""
        output, seen = await call_pipeline(self.setup, self.target, pipeline_input(self.setup, question, history))
        answer, documents = read_output(self.setup, output, seen, self.gave_documents)
        self.gave_documents = self.gave_documents or documents is not None
        return answer, [as_context(self.setup, item) for item in documents or []]


def load_pipeline(setup: Setup) -> Pipeline:
    """The object a retriever, chain or graph setup names, of its kind; one line naming the setup when it is not."""
    assert setup.imported is not None
    kind = setup.kind
    try:
        found = import_object(setup.imported, f"{kind}=import:package.module:object")
    except UserError as error:
        raise UserError(f"--setup {setup.name}: {error}") from None
    if _of_kind(found, kind):
        return Pipeline(setup, found)
    if callable(found) and _takes_no_arguments(found):
        if inspect.iscoroutinefunction(found):
            return Pipeline(setup, pending=found)
        try:
            made = found()
        except Exception as error:  # the team's factory: its failure is theirs to read, in one line
            raise _factory_failed(setup, error) from None
        if inspect.isawaitable(made):
            return Pipeline(setup, pending=lambda: made)
        return Pipeline(setup, _checked_product(setup, made))
    if callable(found) and kind in ("retriever", "chain") and _takes_one_argument(found):
        return Pipeline(setup, found)
    raise UserError(
        f"--setup {setup.name}: {setup.imported} is {described(found)}, not {KIND_NAMES[kind]} or a factory of "
        f"one{_hint(found, kind)}"
    )


async def _called(setup: Setup, factory: Callable[[], Awaitable[Any]]) -> Any:
    try:
        return await factory()
    except Exception as error:  # the team's factory: its failure is theirs to read, in one line
        raise _factory_failed(setup, error) from None


def _factory_failed(setup: Setup, error: Exception) -> UserError:
    return UserError(
        f"--setup {setup.name}: the factory {setup.imported} raised {type(error).__name__}: {first_line(error)}; "
        "fix it and evaluate again"
    )


def _checked_product(setup: Setup, made: Any) -> Any:
    """What a factory returned, when it is of the setup's kind (or a callable taking the question)."""
    kind = setup.kind
    if _of_kind(made, kind) or (callable(made) and kind in ("retriever", "chain") and _takes_one_argument(made)):
        return made
    raise UserError(
        f"--setup {setup.name}: the factory {setup.imported} returned {described(made)}, not "
        f"{KIND_NAMES[kind]}; return one from it{_hint(made, kind)}"
    )


def _hint(found: Any, kind: str) -> str:
    """Where an object of another kind belongs."""
    if isinstance(found, StateGraph):
        return "; give it with .compile()"
    if isinstance(found, Pregel) and kind != "graph":
        return "; a compiled graph is given as graph="
    if isinstance(found, BaseRetriever) and kind != "retriever":
        return "; a retriever is given as retriever="
    return ""


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


async def call_pipeline(setup: Setup, target: Any, asked: Any) -> tuple[Any, RetrievedDocuments]:
    """The object's output for one input, with the documents its retrievers returned on the way.

    A graph gets a thread of its own per call, so one compiled with a checkpointer runs (and keeps no
    state from one sample to the next)."""
    seen = RetrievedDocuments()
    config: RunnableConfig = {"callbacks": [seen]}
    if isinstance(target, Pregel):
        config["configurable"] = {"thread_id": f"triad-evaluate-{uuid4()}"}
    try:
        if isinstance(target, Runnable):
            return await target.ainvoke(asked, config=config), seen
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
