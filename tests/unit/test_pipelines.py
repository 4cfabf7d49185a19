"""A team's own retriever, chain or graph as an evaluation setup: how it is found, called and read."""

from __future__ import annotations

import asyncio
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
from graph.evaluation.pipelines import answer_text, ask_pipeline, load_pipeline, pipeline_input
from graph.evaluation.scoring import ask_setup
from graph.evaluation.setups import Setup, parse_setup

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


def test_an_import_names_the_object_a_factory_of_it_or_a_callable_taking_the_question() -> None:
    assert load_pipeline(setup(f"retriever={HERE}:SHELF")) is SHELF  # of the kind: used as it is
    assert isinstance(load_pipeline(setup(f"retriever={HERE}:shelf_factory")), Shelf)  # no required argument
    assert load_pipeline(setup(f"retriever={HERE}:words")) is words  # one required argument: the retriever itself
    with pytest.raises(UserError, match="the factory .*broken_factory raised RuntimeError: no DATABASE_URL"):
        load_pipeline(setup(f"retriever={HERE}:broken_factory"))
    with pytest.raises(UserError, match="is a .*StateGraph.*give it with .compile"):
        load_pipeline(setup(f"graph={HERE}:UNCOMPILED"))


def test_plain_and_async_callables_retrieve_and_documents_give_their_ids() -> None:
    from graph.evaluation.pipelines import retrieve_with

    plain, awaited = setup(f"retriever={HERE}:words"), setup(f"retriever={HERE}:async_words")
    assert asyncio.run(retrieve_with(plain, words, "a b")) == [{"id": None, "text": "a"}, {"id": None, "text": "b"}]
    assert asyncio.run(retrieve_with(awaited, async_words, "a b"))[1] == {"id": None, "text": "b"}
    own = asyncio.run(retrieve_with(setup(f"retriever={HERE}:SHELF"), SHELF, "q"))
    assert [c["id"] for c in own] == ["a1", None]
    keyed = asyncio.run(retrieve_with(setup(f"retriever={HERE}:SHELF,id_key=chunk_id"), SHELF, "q"))
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

    record = {
        "question": "And which chapter is it in?",
        "turns": [*HISTORY, {"role": "user", "content": "And which chapter is it in?"}],
    }
    mine = setup(f"chain={HERE}:SHELF,input_key=query")
    answer, contexts = asyncio.run(ask_setup(mine, record, None, RunnableLambda(chain)))  # type: ignore[arg-type]
    assert (answer, contexts) == ("25.1", [{"id": "a1", "text": "alpha"}])
    assert seen[0]["query"] == "And which chapter is it in?" and len(seen[0]["chat_history"]) == 2


def test_answers_and_documents_are_read_in_the_shapes_common_chains_return() -> None:
    def retrieval_qa(question: str) -> dict[str, Any]:
        return {"result": "42", "source_documents": [Document("alpha", id="a1")]}

    chain = setup(f"chain={HERE}:SHELF")
    assert asyncio.run(ask_pipeline(chain, retrieval_qa, "q", [])) == ("42", [{"id": "a1", "text": "alpha"}])
    # An answer alone: the documents are those the chain's retriever returned, as its callbacks report them.
    message_chain = SHELF | RunnableLambda(lambda documents: AIMessage(f"{len(documents)} found"))
    answer, contexts = asyncio.run(ask_pipeline(chain, message_chain, "q", []))
    assert answer == "2 found" and [c["text"] for c in contexts] == ["alpha", "beta"]
    named = setup(f"chain={HERE}:SHELF,answer_key=reply,documents_key=hits")
    odd = RunnableLambda(lambda q: {"reply": "yes", "hits": ["alpha"], "answer": "ignored"})
    assert asyncio.run(ask_pipeline(named, odd, "q", [])) == ("yes", [{"id": None, "text": "alpha"}])
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
    mine = setup(f"graph={HERE}:TUTORIAL")
    assert load_pipeline(mine) is TUTORIAL
    answer, contexts = asyncio.run(ask_pipeline(mine, TUTORIAL, "q", HISTORY))
    assert answer == "2 chunks" and [c["id"] for c in contexts] == ["a1", None]


def test_setting_later_keys_leaves_the_signature_of_earlier_setups_and_version_makes_a_new_one() -> None:
    # Signatures written by the version before retriever, chain and graph setups existed: cached rows stay valid.
    scripted = "import:graph.testing.plausible:plausible_model"
    old = Setup(name="k3", collection="docs", embedding="minilm", k=3, model=scripted)
    assert old.signature("google_genai:x", False) == "84daa42ccded24d8"
    service = Setup(name="svc", collection="docs", url="http://localhost:8080/rag")
    assert service.signature("google_genai:x", True) == "b594534f246bde55"
    assert parse_setup(f"k3=k=3,model={scripted}", "docs", "minilm").signature("google_genai:x", False) == (
        "84daa42ccded24d8"
    )
    graph_setup = setup(f"graph={HERE}:TUTORIAL")
    assert setup(f"graph={HERE}:TUTORIAL,version=2").signature("j", False) != graph_setup.signature("j", False)
    assert setup(f"graph={HERE}:TUTORIAL").signature("j", False) == graph_setup.signature("j", False)
