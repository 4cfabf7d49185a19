"""A record's refresh thread (graph.refresh) through the real graph: judged again, relabelled, dropped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.living.refresh import RE_JUDGE, RELABEL, RecordDecision, decide
from graph.llm.gateway import MAX_SCHEMA_RETRIES
from graph.llm.offline.scripted import ScriptedChatModel
from state.record import DatasetRecord
from tests.graph.test_restyle import KEYWORD, SAME, rewrite
from tests.support.harness import Harness
from tests.support.scripts import ACCEPT, drafted, script

REJECT = {
    "reasoning": "the answer is not in the chunks any more",
    "asks_for": ["the answer"],
    "quality": False,
    "multi_hop": True,
    "unambiguous": True,
    "accepted": False,
    "reason": "A: the answer no longer follows from the chunks",
}


def accepted_record(harness: Harness) -> DatasetRecord:
    result, _, _ = harness.run(script())
    assert result.record is not None
    return DatasetRecord.model_validate({**result.record, "id": "run/3"})


def stale(record: DatasetRecord, **drift: Any) -> dict[str, Any]:
    return {"status": "stale", "changed": [], "gone": [], "moved": {}, "unchecked": [], **drift}


def test_a_record_judged_again_keeps_its_id_and_its_unchanged_labels(
    harness: Harness, calls_of: Callable[[ScriptedChatModel, str], int]
) -> None:
    record = accepted_record(harness)
    decision = decide(record, stale(record, changed=[record.supporting[0].id]))
    assert decision.action == RE_JUDGE
    outcome, model, visits = harness.refresh(script(), decision)
    assert outcome.record is not None and not outcome.failed, outcome
    assert visits[:3] == ["lint_question", "judge_quality", "judge_sufficiency"]
    assert "select_seed" not in visits and "generate_question" not in visits
    assert calls_of(model, "QuestionDraft") == 0 and calls_of(model, "QualityVerdict") == 1
    # The store's texts are those the labels were given for: no candidate is asked again.
    assert calls_of(model, "RelevanceVerdict") == 0
    new = outcome.record
    assert new.id == "run/3" and new.version == 2 and new.question == record.question
    assert [(c.id, c.relevant) for c in new.contexts] == [(c.id, c.relevant) for c in record.contexts]
    assert outcome.reason.endswith("judged again: accepted") and outcome.thread_id.endswith("/3@v2")


def test_a_record_that_fails_again_without_revisions_left_is_rejected(harness: Harness) -> None:
    record = accepted_record(harness)
    decision = decide(record, stale(record, changed=[record.supporting[1].id]))
    outcome, _, visits = harness.refresh(script(QualityVerdict=[REJECT]), decision, max_revisions=0)
    assert outcome.record is None and not outcome.failed and visits[-1] == "reject_sample"


def test_a_revised_draft_has_its_contexts_labelled_anew(
    harness: Harness, calls_of: Callable[[ScriptedChatModel, str], int]
) -> None:
    record = accepted_record(harness)
    decision = decide(record, stale(record, changed=[record.supporting[0].id]))
    revised = drafted(
        "How long does the autovacuum launcher wait between runs by default?",
        "1 minute",
        hidden=[{"entity": "autovacuum_naptime", "chunk": "A"}],
    )
    outcome, model, visits = harness.refresh(script(QualityVerdict=[REJECT, ACCEPT], QuestionDraft=[revised]), decision)
    assert outcome.record is not None and outcome.reason.endswith("accepted, revised")
    assert "revise_question" in visits and calls_of(model, "QuestionDraft") == 1
    distractors = [c for c in record.contexts if c.origin == "distractor"]
    assert calls_of(model, "RelevanceVerdict") == len(distractors)
    assert outcome.record.question == revised["question"]


def test_contexts_alone_are_extracted_again_without_judging_the_draft(
    harness: Harness, calls_of: Callable[[ScriptedChatModel, str], int]
) -> None:
    record = accepted_record(harness)
    distractor = next(c for c in record.contexts if c.origin == "distractor")
    decision = decide(record, stale(record, changed=[distractor.id]))
    assert decision.action == RELABEL
    outcome, model, visits = harness.refresh(script(), decision)
    assert outcome.record is not None and visits == ["extract_contexts", "finalize_sample"]
    assert calls_of(model, "QualityVerdict") == 0 and calls_of(model, "SufficiencyVerdict") == 0
    new = outcome.record
    assert new.validation == record.validation and new.temporal == record.temporal


def test_a_record_whose_supporting_chunk_is_gone_cannot_start(harness: Harness) -> None:
    record = accepted_record(harness)
    record.supporting[0].id = "00000000-0000-0000-0000-000000000000"
    decision = RecordDecision(3, record, stale(record), RE_JUDGE, "changed")
    outcome, _, _ = harness.refresh(script(), decision)
    assert outcome.record is None and not outcome.failed
    assert outcome.reason == "supporting chunk 00000000-0000-0000-0000-000000000000 is gone"


def test_a_thread_without_a_usable_answer_is_tried_again_and_never_drops_the_record(harness: Harness) -> None:
    record = accepted_record(harness)
    decision = decide(record, stale(record, changed=[record.supporting[0].id]))
    asked = []

    def judge_once_unusable(messages: list[Any]) -> Any:
        asked.append(1)
        return "It reads well to me." if len(asked) <= MAX_SCHEMA_RETRIES + 1 else ACCEPT

    outcome, _, _ = harness.refresh(script(QualityVerdict=judge_once_unusable), decision)
    assert outcome.record is not None and outcome.thread_id.endswith("/3@v2.2")  # the first thread failed
    always, _, _ = harness.refresh(script(QualityVerdict=["It reads well to me."]), decision)
    assert always.failed and always.record is None and "no usable QualityVerdict" in always.reason


def test_a_restyled_record_is_judged_on_its_canonical_question_and_asked_in_its_style_again(
    harness: Harness, calls_of: Callable[[ScriptedChatModel, str], int]
) -> None:
    styled = script(RestyledQuestion=[rewrite(KEYWORD)], RestyleVerdict=[SAME])
    result, _, _ = harness.run(styled, spec={"query_style": "keyword"})
    record = DatasetRecord.model_validate({**result.record, "id": "run/3"})
    assert record.query_style == "keyword" and record.question == KEYWORD
    decision = decide(record, stale(record, changed=[record.supporting[0].id]))
    again = "setting for minimum autovacuum delay default"
    outcome, model, visits = harness.refresh(script(RestyledQuestion=[rewrite(again)], RestyleVerdict=[SAME]), decision)
    assert outcome.record is not None, outcome
    judged = next(messages for kind, messages in model.calls if kind == "QualityVerdict")
    assert record.canonical_question in str(judged[-1].content) and KEYWORD not in str(judged[-1].content)
    assert visits[-3:] == ["restyle_question", "check_restyle", "finalize_sample"]
    new = outcome.record
    assert (new.question, new.canonical_question, new.query_style) == (
        again,
        record.canonical_question,
        "keyword",
    )


def test_a_relabelled_restyled_record_keeps_its_asked_question_and_its_persona(
    harness: Harness, calls_of: Callable[[ScriptedChatModel, str], int]
) -> None:
    styled = script(RestyledQuestion=[rewrite(KEYWORD)], RestyleVerdict=[SAME])
    result, _, _ = harness.run(styled, spec={"query_style": "keyword", "persona": "dba", "role": "a dba on call"})
    record = DatasetRecord.model_validate({**result.record, "id": "run/3"})
    assert record.persona == "dba" and record.role == "a dba on call"
    distractor = next(c for c in record.contexts if c.origin == "distractor")
    decision = decide(record, stale(record, changed=[distractor.id]))
    assert decision.action == RELABEL
    outcome, model, visits = harness.refresh(script(), decision)
    assert outcome.record is not None and visits == ["extract_contexts", "finalize_sample"]
    assert calls_of(model, "RestyledQuestion") == 0  # the draft stands: so does the question as asked
    new = outcome.record
    assert (new.question, new.query_style, new.persona) == (KEYWORD, "keyword", "dba")
