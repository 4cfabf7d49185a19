"""A team's own retriever, chain or graph as an evaluation setup: how it is found, called and read."""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from graph.config.errors import UserError
from graph.evaluation.answering.asking import ask_setup
from graph.evaluation.answering.pipeline_output import answer_text
from graph.evaluation.answering.pipelines import Pipeline, load_pipeline, pipeline_input
from graph.evaluation.setups import Setup, parse_setup
from tests.support.records import answerable_record

HERE = "import:tests.unit.test_pipelines"


def setup(spec: str) -> Setup:
    return parse_setup(f"mine={spec}", "docs", "minilm")


class Shelf(BaseRetriever):
    """A retriever of two fixed chunks, the second without an id but with one in its metadata."""

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [Document("alpha", id="a1"), Document("beta", metadata={"chunk_id": "b2"})]


SHELF = Shelf()


def shelf_factory(k: int = 2) -> Shelf:
    return Shelf()


def broken_factory() -> Shelf:
    raise RuntimeError("no DATABASE_URL")


def words(question: str) -> list[str]:
    return question.split()


async def async_words(question: str) -> list[str]:
    await asyncio.sleep(0)
    return question.split()


async def async_factory() -> Shelf:
    await asyncio.sleep(0)
    return Shelf()


def closure_factory() -> Any:
    return lambda question: [question]


def loaded(spec: str) -> Any:
    pipeline = load_pipeline(setup(spec))
    asyncio.run(pipeline.ready())
    return pipeline.target


def test_an_import_names_the_object_a_factory_of_it_or_a_callable_taking_the_question() -> None:
    assert loaded(f"retriever={HERE}:SHELF") is SHELF  # of the kind: used as it is
    assert isinstance(loaded(f"retriever={HERE}:shelf_factory"), Shelf)  # no required argument: a factory
    assert isinstance(loaded(f"retriever={HERE}:async_factory"), Shelf)  # an async factory is awaited
    assert loaded(f"retriever={HERE}:closure_factory")("q") == ["q"]  # a factory of a callable
    assert loaded(f"retriever={HERE}:words") is words  # one required argument: the retriever itself
    with pytest.raises(UserError, match="the factory .*broken_factory raised RuntimeError: no DATABASE_URL"):
        load_pipeline(setup(f"retriever={HERE}:broken_factory"))
    with pytest.raises(UserError, match="is a .*StateGraph.*give it with .compile"):
        load_pipeline(setup(f"graph={HERE}:UNCOMPILED"))
    with pytest.raises(UserError, match="a compiled graph is given as graph="):
        load_pipeline(setup(f"chain={HERE}:TUTORIAL"))
    with pytest.raises(UserError, match="a retriever is given as retriever="):
        load_pipeline(setup(f"chain={HERE}:SHELF"))


def retrieve_with(spec: str, target: Any, question: str) -> list[dict[str, Any]]:
    return asyncio.run(Pipeline(setup(spec), target).retrieve(question))


def ask(spec: str, target: Any, question: str = "q", history: Any = ()) -> tuple[str, list[dict[str, Any]]]:
    return asyncio.run(Pipeline(setup(spec), target).ask(question, history))


def test_plain_and_async_callables_retrieve_and_documents_give_their_ids() -> None:
    plain, awaited = f"retriever={HERE}:words", f"retriever={HERE}:async_words"
    assert retrieve_with(plain, words, "a b") == [{"id": None, "text": "a"}, {"id": None, "text": "b"}]
    assert retrieve_with(awaited, async_words, "a b")[1] == {"id": None, "text": "b"}
    own = retrieve_with(f"retriever={HERE}:SHELF", SHELF, "q")
    assert [c["id"] for c in own] == ["a1", None]
    keyed = retrieve_with(f"retriever={HERE}:SHELF,id_key=chunk_id", SHELF, "q")
    assert [c["id"] for c in keyed] == ["a1", "b2"]  # the named metadata key; where it is absent, the own id


HISTORY = [{"role": "user", "content": "Tell me about vacuum."}, {"role": "assistant", "content": "Sure."}]


def test_the_question_and_a_follow_ups_turns_reach_the_object_as_an_app_would_send_them() -> None:
    assert pipeline_input(setup(f"chain={HERE}:SHELF"), "Which?", HISTORY) == "Which?"
    given = pipeline_input(setup(f"chain={HERE}:SHELF,input_key=input"), "Which?", HISTORY)
    assert given["input"] == "Which?"
    assert given["chat_history"] == [HumanMessage("Tell me about vacuum."), AIMessage("Sure.")]
    own_key = pipeline_input(setup(f"graph={HERE}:SHELF,history_key=past"), "Which?", HISTORY)
    assert set(own_key) == {"question", "past"}  # a graph's default input key
    assert pipeline_input(setup(f"graph={HERE}:SHELF"), "Which?", []) == {"question": "Which?"}
    conversation = pipeline_input(setup(f"graph={HERE}:SHELF,input_key=messages"), "Which?", HISTORY)
    assert conversation["messages"][-1] == HumanMessage("Which?") and len(conversation["messages"]) == 3


def test_a_follow_up_record_reaches_a_chain_with_its_turns() -> None:
    seen: list[Any] = []

    def chain(inputs: dict[str, Any]) -> dict[str, Any]:
        seen.append(inputs)
        return {"answer": "25.1", "context": [Document("alpha", id="a1")]}

    record = answerable_record(
        question="And which chapter is it in?",
        turns=[*HISTORY, {"role": "user", "content": "And which chapter is it in?"}],
    )
    mine = setup(f"chain={HERE}:SHELF,input_key=query")
    pipeline = Pipeline(mine, RunnableLambda(chain))
    answer, contexts = asyncio.run(ask_setup(mine, record, None, pipeline))  # type: ignore[arg-type]
    assert (answer, contexts) == ("25.1", [{"id": "a1", "text": "alpha"}])
    assert seen[0]["query"] == "And which chapter is it in?" and len(seen[0]["chat_history"]) == 2


def test_answers_and_documents_are_read_in_the_shapes_common_chains_return() -> None:
    def retrieval_qa(question: str) -> dict[str, Any]:
        return {"result": "42", "source_documents": [Document("alpha", id="a1")]}

    chain = f"chain={HERE}:SHELF"
    assert ask(chain, retrieval_qa) == ("42", [{"id": "a1", "text": "alpha"}])
    # An answer alone: the documents are those the chain's retriever returned, as its callbacks report them.
    message_chain = SHELF | RunnableLambda(lambda documents: AIMessage(f"{len(documents)} found"))
    answer, contexts = ask(chain, message_chain)
    assert answer == "2 found" and [c["text"] for c in contexts] == ["alpha", "beta"]
    named = f"chain={HERE}:SHELF,answer_key=reply,documents_key=hits"
    odd = RunnableLambda(lambda q: {"reply": "yes", "hits": ["alpha"], "answer": "ignored"})
    assert ask(named, odd) == ("yes", [{"id": None, "text": "alpha"}])
    assert answer_text([HumanMessage("q"), AIMessage([{"type": "text", "text": "last"}])]) == "last"
    assert answer_text({"answer": "x"}) is None


class Tutorial(TypedDict):
    question: str
    context: list[Document]
    answer: str


def _tutorial_graph() -> StateGraph:
    builder = StateGraph(Tutorial)
    builder.add_node("retrieve", lambda state: {"context": SHELF.invoke(state["question"])})
    builder.add_node("generate", lambda state: {"answer": f"{len(state['context'])} chunks"})
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "generate")
    builder.add_edge("generate", END)
    return builder


UNCOMPILED = _tutorial_graph()
TUTORIAL = UNCOMPILED.compile()


def test_a_graph_is_invoked_with_the_question_and_read_from_its_state() -> None:
    assert loaded(f"graph={HERE}:TUTORIAL") is TUTORIAL
    answer, contexts = ask(f"graph={HERE}:TUTORIAL", TUTORIAL, "q", HISTORY)
    assert answer == "2 chunks" and [c["id"] for c in contexts] == ["a1", None]
    # Compiled with a checkpointer, as chat apps are: each call runs on a thread of its own.
    from langgraph.checkpoint.memory import InMemorySaver

    remembering = _tutorial_graph().compile(checkpointer=InMemorySaver())
    assert ask(f"graph={HERE}:TUTORIAL", remembering)[0] == "2 chunks"
    # Its input schema has no chat_history: follow-ups would lose their turns there, and that is said.
    assert not Pipeline(setup(f"graph={HERE}:TUTORIAL"), TUTORIAL).takes_history()
    assert Pipeline(setup(f"graph={HERE}:TUTORIAL,history_key=context"), TUTORIAL).takes_history()


class Reranker(BaseRetriever):
    """A retriever wrapping another: the documents it returns, not the inner one's, are the call's."""

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        found = SHELF.invoke(query, config={"callbacks": run_manager.get_child()})
        return found[:1]


def test_documents_are_the_outermost_retrievers_and_formatted_context_falls_back_to_them() -> None:
    chain = Reranker() | RunnableLambda(lambda documents: AIMessage("ok"))
    assert ask(f"chain={HERE}:SHELF", chain)[1] == [{"id": "a1", "text": "alpha"}]  # not alpha, beta and alpha
    # The RAG tutorial's shape: formatted text under "context"; the retriever's documents are the call's.
    formatted = {"context": SHELF | (lambda docs: "\n\n".join(d.page_content for d in docs))} | RunnableLambda(
        lambda inputs: {"context": inputs["context"], "answer": "ok"}
    )
    assert [c["text"] for c in ask(f"chain={HERE}:SHELF", formatted)[1]] == ["alpha", "beta"]
    with pytest.raises(UserError, match="'context' holds a builtins.str"):  # named by the user: it must be documents
        ask(f"chain={HERE}:SHELF,documents_key=context", formatted)


def test_a_call_that_retrieves_nothing_is_an_error_only_until_the_setup_showed_its_documents() -> None:
    answers = iter([{"answer": "a", "context": [Document("alpha", id="a1")]}, {"answer": "off topic"}])
    pipeline = Pipeline(setup(f"chain={HERE}:SHELF"), RunnableLambda(lambda q: next(answers)))
    assert asyncio.run(pipeline.ask("q", []))[1] == [{"id": "a1", "text": "alpha"}]
    assert asyncio.run(pipeline.ask("q", [])) == ("off topic", [])  # a routing graph that skipped retrieval
    fresh = Pipeline(setup(f"chain={HERE}:SHELF"), RunnableLambda(lambda q: {"answer": "off topic"}))
    with pytest.raises(UserError, match="no documents"):
        asyncio.run(fresh.ask("q", []))


def signature_before_later_keys(first: dict[str, Any], judge: str, judge_unlabelled: bool) -> str:
    """A signature as it is computed for a setup that sets no later key: the first keys, the judge, the prompts and
    how retrieval is scored."""
    from graph.evaluation.setups import RETRIEVAL_SCORING
    from nodes.versions import EVALUATION_VERSION

    payload = {**first, "judge": judge, "judge_unlabelled": judge_unlabelled, "prompts": EVALUATION_VERSION,
               "scored": RETRIEVAL_SCORING}  # fmt: skip
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def test_setting_later_keys_leaves_the_signature_of_earlier_setups_and_version_makes_a_new_one() -> None:
    # Signatures written by the version before retriever, chain and graph setups existed (the name was part of
    # them then): cached rows stay valid, found by the named signature.
    scripted = "offline:plausible"
    old = Setup(name="k3", collection="docs", embedding="minilm", k=3, model=scripted)
    first = {"name": "k3", "collection": "docs", "embedding": "minilm", "k": 3, "model": scripted, "url": None}
    named = old.signature("google_genai:x", False, named=True)
    assert named == signature_before_later_keys(first, "google_genai:x", False)
    service = Setup(name="svc", collection="docs", url="http://localhost:8080/rag")
    first = {"name": "svc", "collection": "docs", "embedding": None, "k": 5, "model": service.model,
             "url": "http://localhost:8080/rag"}  # fmt: skip
    assert service.signature("google_genai:x", True, named=True) == signature_before_later_keys(
        first, "google_genai:x", True
    )
    # Without the name, the signature is what the setup is: a renamed setup keeps it.
    renamed = Setup(name="three", collection="docs", embedding="minilm", k=3, model=scripted)
    assert renamed.signature("google_genai:x", False) == old.signature("google_genai:x", False) != named
    assert parse_setup(f"k3=k=3,model={scripted}", "docs", "minilm").signature("google_genai:x", False) == (
        old.signature("google_genai:x", False)
    )
    graph_setup = setup(f"graph={HERE}:TUTORIAL")
    assert setup(f"graph={HERE}:TUTORIAL,version=2").signature("j", False) != graph_setup.signature("j", False)
    assert setup(f"graph={HERE}:TUTORIAL").signature("j", False) == graph_setup.signature("j", False)


def test_a_module_that_fails_as_it_is_imported_is_named_with_its_own_error(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    (tmp_path / "team_rag.py").write_text("import os\n\nURL = os.environ['TEAM_DATABASE_URL']\n")
    (tmp_path / "team_deps.py").write_text("import no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("TEAM_DATABASE_URL", raising=False)
    with pytest.raises(UserError, match="importing 'team_rag:chain' failed: KeyError: 'TEAM_DATABASE_URL'"):
        load_pipeline(setup("chain=import:team_rag:chain"))
    with pytest.raises(UserError, match="No module named 'no_such_dependency'; install what it needs"):
        load_pipeline(setup("chain=import:team_deps:chain"))
    with pytest.raises(UserError, match="cannot import 'team_absent:chain'; give"):
        load_pipeline(setup("chain=import:team_absent:chain"))


def test_a_setup_names_how_its_answering_model_is_asked_for_json() -> None:
    assert setup("k=3,structured_output=json_object").structured_output == "json_object"
    assert setup(f"retriever={HERE}:SHELF,structured_output=text").structured_output == "text"
    with pytest.raises(UserError, match="structured_output= takes one of auto, json_schema"):
        setup("k=3,structured_output=grammar")
    with pytest.raises(UserError, match="structured_output= does not apply to a chain setup"):
        setup(f"chain={HERE}:SHELF,structured_output=text")
