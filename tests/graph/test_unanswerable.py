"""Generated unanswerable questions through the real graph: the judge reads what the collection's retriever
returns for the question, and a draft that a retrieved chunk answers never becomes a record."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.messages import BaseMessage

from graph.llm.offline.plausible import tagged
from graph.store.corpus import Corpus
from prompts import neutralise
from state.record import DatasetRecord

#: The demo slice states this setting's default: a question asking for it is answerable.
ANSWERED = {
    "question": "What is the default value of autovacuum_naptime in PostgreSQL 15?",
    "kind": "missing_attribute",
    "missing": "nothing: the manual states it",
}
#: The manual never says who proposed a setting.
UNANSWERED = {
    "question": "Who proposed the autovacuum_naptime setting for PostgreSQL?",
    "kind": "missing_attribute",
    "missing": "the manual names no one who proposed settings",
}
UNANSWERABLE = {"question_type": "unanswerable", "binary": False}

PATH = ["__start__", "select_seed", "retrieve_neighbours", "generate_unanswerable", "lint_question"]


#: What a chunk must state to answer each draft: the default of the setting, or who proposed it.
ANSWERS = {ANSWERED["question"]: ("autovacuum_naptime", "default"), UNANSWERED["question"]: ("proposed by",)}


def judge_by_texts(*, claims_accepted: bool = False) -> Callable[[list[BaseMessage]], dict[str, Any]]:
    """A judge that names as answering every retrieved chunk (read from its prompt) stating the draft's answer."""

    def judge(messages: list[BaseMessage]) -> dict[str, Any]:
        phrases = ANSWERS[next(iter(tagged(messages, "question").values()))]
        answering = [
            label
            for label, text in tagged(messages, "chunk").items()
            if all(phrase.casefold() in text.casefold() for phrase in phrases)
        ]
        return {
            "reasoning": "checked each retrieved chunk",
            "plausible": True,
            "answered_by": answering,
            "answerable": bool(answering) and not claims_accepted,
            "accepted": claims_accepted or not answering,
            "reason": "a retrieved chunk states the answer" if answering else "",
        }

    return judge


def the_retrievers_top(url: str, collection: str, model: Embeddings, question: str, k: int) -> list[str]:
    """The ids the collection's own search returns for `question`, asked here directly."""

    async def search() -> list[str]:
        async with await Corpus.open(url, collection, embeddings=model) as corpus:
            return [hit.chunk.id for hit in await corpus.search(question, k)]

    return asyncio.run(search())


def test_an_unanswered_question_is_accepted_with_the_chunks_its_retriever_returned(
    harness, seed_chunk_id, pg_url, demo_slice, minilm
) -> None:  # noqa: ANN001
    replies = {"UnanswerableDraft": [UNANSWERED], "UnanswerableVerdict": judge_by_texts()}
    result, model, visits = harness.run(replies, spec={**UNANSWERABLE, "seed_id": seed_chunk_id}, retrieval_k=4)
    assert result.outcome == "accepted", result.state.get("end_reason")
    assert visits == [*PATH, "judge_unanswerable", "check_duplicate", "finalize_sample"]
    record = DatasetRecord.model_validate(result.record)
    assert record.answerable is False and record.expected == "abstain" and record.question_type == "unanswerable"
    assert record.question == UNANSWERED["question"] and record.answer == ""
    assert record.supporting == [] and record.n_relevant == 0 and record.unanswerable is None
    assert record.retrieval_check is not None and record.retrieval_check.seed_id == seed_chunk_id
    top = the_retrievers_top(pg_url, demo_slice, minilm, UNANSWERED["question"], 4)
    assert record.retrieval_check.chunk_ids == top and [c.id for c in record.contexts] == top
    assert all(c.origin == "retrieved" and not c.relevant for c in record.contexts)
    assert record.construction["unanswerable_kind"] == "missing_attribute"
    # The judge read exactly those chunks, under labels of their own.
    (judged,) = [messages for key, messages in model.calls if key == "UnanswerableVerdict"]
    texts = {c.id: c.text for c in record.contexts}
    assert list(tagged(judged, "chunk").values()) == [neutralise(texts[i]) for i in top]


def test_a_draft_a_retrieved_chunk_answers_is_rejected_naming_that_chunk(harness, seed_chunk_id) -> None:
    replies = {"UnanswerableDraft": [ANSWERED], "UnanswerableVerdict": judge_by_texts()}
    result, _, visits = harness.run(replies, spec={**UNANSWERABLE, "seed_id": seed_chunk_id}, max_revisions=0)
    assert result.outcome == "rejected" and result.record is None
    assert visits == [*PATH, "judge_unanswerable", "reject_sample"]
    (verdict,) = [v for v in result.state["verdicts"] if v["judge"] == "unanswerable"]
    retrieved = {c["id"]: c["text"] for c in result.state["retrieved"]}
    assert verdict["details"]["answered_by"], "the slice states the default of autovacuum_naptime"
    for chunk_id in verdict["details"]["answered_by"]:
        assert "autovacuum_naptime" in retrieved[chunk_id] and "default" in retrieved[chunk_id].casefold()
    assert "answered by the chunk(s) beginning" in result.state["end_reason"]
    assert result.rejection is not None and result.rejection["retrieved_ids"] == list(retrieved)


def test_the_judges_own_accept_does_not_outweigh_a_chunk_it_names(harness, seed_chunk_id) -> None:
    judge = judge_by_texts(claims_accepted=True)
    replies = {"UnanswerableDraft": [ANSWERED], "UnanswerableVerdict": judge}
    result, _, _ = harness.run(replies, spec={**UNANSWERABLE, "seed_id": seed_chunk_id}, max_revisions=0)
    assert result.outcome == "rejected"


def test_a_rejected_draft_is_rewritten_from_the_feedback_then_accepted(harness, seed_chunk_id) -> None:
    replies = {
        "UnanswerableDraft": [ANSWERED, UNANSWERED],
        "UnanswerableVerdict": judge_by_texts(),
    }
    result, model, visits = harness.run(replies, spec={**UNANSWERABLE, "seed_id": seed_chunk_id})
    assert result.outcome == "accepted"
    assert visits == [*PATH, "judge_unanswerable", "generate_unanswerable", "lint_question", "judge_unanswerable",
                      "check_duplicate", "finalize_sample"]  # fmt: skip
    assert result.record["validation"]["revisions"] == 1
    second = [messages for key, messages in model.calls if key == "UnanswerableDraft"][1]
    assert ANSWERED["question"] in str(second[-1].content) and "answered by" in str(second[-1].content)


def test_lint_sends_a_meta_reference_back_before_any_retrieval(harness, seed_chunk_id, calls_of) -> None:
    meta = {**UNANSWERED, "question": "According to the text, who proposed autovacuum_naptime?"}
    replies = {"UnanswerableDraft": [meta, UNANSWERED], "UnanswerableVerdict": judge_by_texts()}
    result, model, visits = harness.run(replies, spec={**UNANSWERABLE, "seed_id": seed_chunk_id})
    assert result.outcome == "accepted"
    assert visits[:7] == [*PATH, "generate_unanswerable", "lint_question"]
    assert calls_of(model, "UnanswerableVerdict") == 1
    assert [v["judge"] for v in result.record["validation"]["verdicts"]] == ["lint", "lint", "unanswerable"]


class Guide:
    """A run's real queries as the nodes see them: a link per seed and a style example."""

    def __init__(self, seed_id: str) -> None:
        self.seed_id = seed_id

    def link(self, chunk_id: str) -> str | None:
        return "0123456789abcdef" if chunk_id == self.seed_id else None

    def style(self, chunk_id: str) -> tuple[str, str | None] | None:
        return ("hey how long does the vacuum launcher sleep between runs??", "a database administrator")


def test_the_generator_writes_in_the_register_of_the_nearest_query(harness, seed_chunk_id) -> None:
    from tests.support.scripts import script

    result, model, _ = harness.run(script(), spec={"seed_id": seed_chunk_id}, queries=Guide(seed_chunk_id))
    assert result.outcome == "accepted"
    (generation,) = [messages for key, messages in model.calls if key == "QuestionDraft"]
    request = str(generation[-1].content)
    # The style example sits before the chunks; the last words are the instruction.
    assert request.index("between runs??") < request.index("\nSupporting chunks:\n")
    assert request.rstrip().endswith("that needs every supporting chunk, as JSON.")
    assert "Write it as a database administrator would ask it." in request
    assert result.record["role"] == "a database administrator"
    assert result.record["seed_query"] == "0123456789abcdef"
