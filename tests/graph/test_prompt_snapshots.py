"""What each model receives, for one demo sample: committed under tests/snapshots/ and compared.

Regenerate after a deliberate prompt change with `UPDATE_SNAPSHOTS=1 pytest tests/graph/test_prompt_snapshots.py`
(and bump prompts.PROMPT_VERSION).
"""

from __future__ import annotations

import os
from pathlib import Path

from langchain_core.messages import BaseMessage

from graph.testing.scripts import ACCEPT, script

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
