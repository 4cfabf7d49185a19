"""What each model receives, for one demo sample: committed under tests/snapshots/ and compared.

Regenerate after a deliberate prompt change with `UPDATE_SNAPSHOTS=1 pytest tests/graph/test_prompt_snapshots.py`
(the records' prompt version, `nodes.versions.PROMPT_VERSION`, follows by itself).
"""

from __future__ import annotations

import os
from pathlib import Path

from langchain_core.messages import BaseMessage

from tests.support.records import answerable_record
from tests.support.scripts import ACCEPT, script

SNAPSHOTS = Path(__file__).resolve().parent.parent / "snapshots"

#: schema asked -> (snapshot file, node that asks)
FIRST_CALLS = {
    "BridgeProposal": "propose_bridge",
    "QuestionDraft": "generate_question",
    "QualityVerdict": "judge_quality",
    "SufficiencyVerdict": "judge_sufficiency",
    "TemporalLabel": "classify_temporal",
    "RelevanceVerdict": "extract_contexts_care",
}


def render(messages: list[BaseMessage]) -> str:
    return "\n".join(f"### {message.type}\n{message.content}\n" for message in messages)


def check(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{name} prompt changed; see the module docstring"


def test_rendered_prompts_match_the_snapshots(harness, seed_chunk_id) -> None:
    reject = {**ACCEPT, "accepted": False, "unambiguous": False, "reason": "two settings fit; name the launcher"}
    _, model, _ = harness.run(script(QualityVerdict=[reject, ACCEPT]), spec={"seed_id": seed_chunk_id})
    first: dict[str, list[BaseMessage]] = {}
    drafts = []
    for key, messages in model.calls:
        first.setdefault(key, messages)
        if key == "QuestionDraft":
            drafts.append(messages)
    for key, name in FIRST_CALLS.items():
        check(name, render(first[key]))
    check("revise_question", render(drafts[1]))


def test_rendered_unanswerable_prompts_match_the_snapshots(harness, seed_chunk_id) -> None:
    draft = {"question": "Who proposed autovacuum_naptime?", "kind": "missing_attribute", "missing": "a name"}
    reject = {"reasoning": "R1 states it", "plausible": True, "answered_by": ["R1"], "answerable": True,
              "accepted": False, "reason": "R1 says"}  # fmt: skip
    accept = {**reject, "answered_by": [], "answerable": False, "accepted": True, "reason": ""}
    replies = {"UnanswerableDraft": [draft], "UnanswerableVerdict": [reject, accept]}
    spec = {"question_type": "unanswerable", "binary": False, "seed_id": seed_chunk_id}
    _, model, _ = harness.run(replies, spec=spec)
    drafts = [messages for key, messages in model.calls if key == "UnanswerableDraft"]
    judged = [messages for key, messages in model.calls if key == "UnanswerableVerdict"]
    check("generate_unanswerable", render(drafts[0]))
    check("revise_unanswerable", render(drafts[1]))
    check("judge_unanswerable", render(judged[0]))


def test_rendered_single_hop_prompts_match_the_snapshots(harness, seed_chunk_id) -> None:
    draft = {"plan": "A states the default", "question": "What is the default of autovacuum_naptime?",
             "answer": "1min", "compared_entities": [], "hidden_entities": []}  # fmt: skip
    reject = {"reasoning": "two settings fit", "asks_for": ["the default"], "quality": True, "unambiguous": False,
              "accepted": False, "reason": "unambiguous: name the launcher"}  # fmt: skip
    accept = {**reject, "unambiguous": True, "accepted": True, "reason": ""}
    replies = script(QuestionDraft=[draft], SingleHopVerdict=[reject, accept])
    _, model, visits = harness.run(
        replies, spec={"question_type": "factual", "binary": False, "seed_id": seed_chunk_id}
    )
    assert "propose_bridge" not in visits and "judge_sufficiency" not in visits
    calls = {key: [messages for name, messages in model.calls if name == key] for key, _ in model.calls}
    check("generate_factual", render(calls["QuestionDraft"][0]))
    check("revise_factual", render(calls["QuestionDraft"][1]))
    check("judge_single_hop", render(calls["SingleHopVerdict"][0]))


def test_rendered_evaluation_prompts_match_the_snapshots() -> None:
    """The built-in answerer and the evaluation judges, as an evaluation asks them for one record."""
    import asyncio
    from types import SimpleNamespace

    from langchain_core.embeddings import DeterministicFakeEmbedding

    from graph.evaluation.scoring.records import evaluate_sample
    from graph.evaluation.scoring.retrieval import RetrievalScoring
    from graph.evaluation.setups import Setup
    from state import schemas

    replies = {
        schemas.RagAnswer: schemas.RagAnswer(answer="1min"),
        schemas.CorrectnessVerdict: schemas.CorrectnessVerdict(
            true_positive=["the default is 1min"], false_positive=[], false_negative=[], correct=True
        ),
        schemas.FaithfulnessVerdict: schemas.FaithfulnessVerdict(faithful=True),
        schemas.AbstentionVerdict: schemas.AbstentionVerdict(abstained=False),
    }
    asked: dict[str, list[BaseMessage]] = {}

    class Gateway:
        async def ask(self, role, schema, messages, node):  # noqa: ANN001, ANN202
            asked.setdefault(node, messages)
            return replies[schema], None

    chunk = SimpleNamespace(
        id="c1", text="autovacuum_naptime (integer): the default is one minute (1min).", metadata={}
    )

    class Corpus:
        async def search(self, question, k):  # noqa: ANN001, ANN202
            return [SimpleNamespace(chunk=chunk)]

    record = answerable_record(
        "s1", {"c1": chunk.text}, {"c2": "VACUUM reclaims storage.", "c3": "ANALYZE collects statistics."},
        question="What is the default of autovacuum_naptime?", answer="1min", unanswerable={"contexts": ["c2", "c3"]},
    )  # fmt: skip
    setup = Setup(name="k1", collection="docs", k=1)
    row = asyncio.run(
        evaluate_sample(  # type: ignore[arg-type]
            setup, record, Gateway(), Corpus(), False, DeterministicFakeEmbedding(size=8), RetrievalScoring()
        )
    )
    assert row["correct"] is True and row["abstained"] is False
    assert set(asked) == {"rag_answer", "judge_correctness", "judge_faithfulness", "judge_abstention"}
    for node, messages in asked.items():
        assert messages[-1].content.rstrip().endswith("as JSON.")  # the last line is the instruction
        check(f"evaluate_{node}", render(messages))


def test_rendered_relevance_prompts_of_every_labeller_match_the_snapshots(harness, seed_chunk_id) -> None:
    """Batched CARE, direct and indirect labelling, each ending with its instruction after the candidates."""
    asked = {"care_batched": "BatchRelevanceVerdict", "direct": "RelevanceVerdict", "indirect": "CandidateAnswer"}
    for labeller, schema in asked.items():
        _, model, _ = harness.run(script(), spec={"seed_id": seed_chunk_id}, relevance_labeller=labeller)
        messages = next(m for key, m in model.calls if key == schema)
        assert str(messages[-1].content).rstrip().endswith("as JSON.")
        check(f"extract_contexts_{labeller}", render(messages))
