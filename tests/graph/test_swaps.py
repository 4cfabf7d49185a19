"""Each built-in stage implementation changes behaviour as documented (scripted models, real graph)."""

from __future__ import annotations

from nodes.common import mentions
from tests.support.scripts import script


def test_entity_overlap_finds_a_bridge_without_a_model(harness, seed_chunk_id, calls_of) -> None:
    result, model, _ = harness.run(script(), spec={"seed_id": seed_chunk_id}, bridge_proposer="entity_overlap")
    assert result.outcome == "accepted"
    assert calls_of(model, "BridgeProposal") == 0
    topic = result.record["bridge_topic"]
    assert all(mentions(chunk["text"], topic) for chunk in result.record["supporting"])
    assert result.record["provenance"]["implementations"]["bridge_proposer"] == "entity_overlap"


def test_care_batched_labels_every_candidate_in_one_call(harness, seed_chunk_id, calls_of) -> None:
    def batch(messages) -> dict:  # noqa: ANN001
        labels = [f"X{i}" for i in range(1, 40) if f'<candidate label="X{i}">' in str(messages[-1].content)]
        return {"labels": [{"candidate": label, "relevant": label == "X1"} for label in labels]}

    result, model, _ = harness.run(
        script(BatchRelevanceVerdict=batch), spec={"seed_id": seed_chunk_id}, relevance_labeller="care_batched"
    )
    assert calls_of(model, "BatchRelevanceVerdict") == 1 and calls_of(model, "RelevanceVerdict") == 0
    labels = result.state["relevance_labels"]
    assert [label["relevant"] for label in labels].count(True) == 1
    assert {label["labeller"] for label in labels} == {"care_batched"}


def test_direct_judges_each_candidate_without_the_supporting_list(harness, seed_chunk_id, calls_of) -> None:
    result, model, _ = harness.run(
        script(RelevanceVerdict=["No"]), spec={"seed_id": seed_chunk_id}, relevance_labeller="direct"
    )
    prompts = [str(m[-1].content) for key, m in model.calls if key == "RelevanceVerdict"]
    assert prompts and all("<chunk" not in p and "<candidate" in p for p in prompts)
    assert {label["labeller"] for label in result.state["relevance_labels"]} == {"direct"}
    assert result.record["n_relevant"] == 2


def test_indirect_calls_a_candidate_relevant_when_it_gives_a_fact_towards_the_answer(harness, seed_chunk_id) -> None:
    def answer(messages) -> dict:  # noqa: ANN001
        candidate = str(messages[-1].content).split("<candidate", 1)[1]
        found = "autovacuum_naptime" in candidate  # a fact of the chain, not the whole answer
        return {"answerable": found, "answer": "autovacuum_naptime sets the delay" if found else ""}

    result, _, _ = harness.run(
        script(CandidateAnswer=answer), spec={"seed_id": seed_chunk_id}, relevance_labeller="indirect"
    )
    for context in result.record["contexts"][2:]:
        assert context["relevant"] == ("autovacuum_naptime" in context["text"])
    assert {label["labeller"] for label in result.state["relevance_labels"]} == {"indirect"}
