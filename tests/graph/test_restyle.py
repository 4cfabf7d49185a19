"""A sample with a query style: its accepted question rewritten and checked, kept, kept on the second try, or
fallen back to the question as validated, with the reason in its record."""

from __future__ import annotations

from state.record import DatasetRecord
from tests.graph.test_sample_paths import ACCEPTED_PATH
from tests.support.scripts import GOOD_QUESTION, script

KEYWORD = "minimum delay between autovacuum runs setting default value"
SAME = {
    "reasoning": "both ask for the default of the setting behind the delay; only the sentence is gone",
    "same_request": True,
    "same_answer": True,
    "same_sources": True,
    "in_style": True,
    "accepted": True,
    "reason": "",
}
ANSWER_CHANGED = SAME | {
    "reasoning": "the rewrite asks for the maximum delay, whose default is another value",
    "same_request": False,
    "same_answer": False,
    "accepted": False,
    "reason": "asks for the maximum delay, not the minimum; keep 'minimum'",
}


def rewrite(question: str) -> dict[str, str]:
    return {"changes": "dropped the sentence, kept the key terms", "question": question}


def test_a_rewrite_that_keeps_the_meaning_is_asked_and_the_canonical_question_kept(harness, seed_chunk_id) -> None:
    replies = script(RestyledQuestion=[rewrite(KEYWORD)], RestyleVerdict=[SAME])
    result, model, visits = harness.run(replies, spec={"seed_id": seed_chunk_id, "query_style": "keyword"})
    assert result.outcome == "accepted"
    record = DatasetRecord.model_validate(result.record)
    assert (record.question, record.canonical_question) == (KEYWORD, GOOD_QUESTION["question"])
    assert record.query_style == "keyword" and record.restyle is not None
    assert (record.restyle.kept, record.restyle.attempts) == (True, 1)
    assert visits == [*ACCEPTED_PATH[:-1], "restyle_question", "check_restyle", "finalize_sample"]
    nodes = [call["node"] for call in result.state["llm_calls"]]
    assert nodes[-2:] == ["restyle_question", "check_restyle"]
    roles = {call["node"]: call["role"] for call in result.state["llm_calls"]}
    assert (roles["restyle_question"], roles["check_restyle"]) == ("generator", "validator")


def test_a_rewrite_lint_refuses_is_written_again_from_the_reason(harness, seed_chunk_id) -> None:
    leaked = "autovacuum_naptime default value"  # names the composition's hidden entity
    replies = script(RestyledQuestion=[rewrite(leaked), rewrite(KEYWORD)], RestyleVerdict=[SAME])
    result, model, visits = harness.run(replies, spec={"seed_id": seed_chunk_id, "query_style": "keyword"})
    assert result.record["question"] == KEYWORD and result.record["restyle"]["attempts"] == 2
    assert visits[-5:] == ["restyle_question", "check_restyle", "restyle_question", "check_restyle", "finalize_sample"]
    first, second = result.state["restyle_checks"]
    assert not first["accepted"] and first["details"]["rules"] == ["hidden_entity"] and second["accepted"]
    asked_again = [messages for kind, messages in model.calls if kind == "RestyledQuestion"][1]
    assert "hidden intermediate entity 'autovacuum_naptime'" in str(asked_again[-1].content)
    # Lint refused the first rewrite: the validator was asked about the second only.
    assert [kind for kind, _ in model.calls].count("RestyleVerdict") == 1


def test_a_rewrite_that_changes_the_answer_falls_back_to_the_question_as_validated(harness, seed_chunk_id) -> None:
    changed = "maximum delay between autovacuum runs setting default"
    replies = script(RestyledQuestion=[rewrite(changed)], RestyleVerdict=[ANSWER_CHANGED])
    result, _, visits = harness.run(replies, spec={"seed_id": seed_chunk_id, "query_style": "keyword"})
    assert result.outcome == "accepted"
    record = DatasetRecord.model_validate(result.record)
    assert record.question == record.canonical_question == GOOD_QUESTION["question"]
    assert record.query_style == "natural"
    assert record.restyle is not None and not record.restyle.kept and record.restyle.attempts == 2
    assert "maximum delay" in record.restyle.reason
    assert visits.count("check_restyle") == 2


def test_an_unusable_rewrite_falls_back_and_the_sample_is_kept(harness, seed_chunk_id) -> None:
    replies = script(RestyledQuestion=["not json at all"])
    result, _, _ = harness.run(replies, spec={"seed_id": seed_chunk_id, "query_style": "short"})
    assert result.outcome == "accepted" and result.record["query_style"] == "natural"
    assert result.record["restyle"]["reason"].startswith("no usable rewrite")


def test_natural_and_no_style_make_no_extra_call(harness, seed_chunk_id) -> None:
    for spec in ({"seed_id": seed_chunk_id, "query_style": "natural"}, {"seed_id": seed_chunk_id}):
        result, model, visits = harness.run(script(), spec=spec)
        assert visits == ACCEPTED_PATH
        assert result.record["query_style"] == "natural" and result.record["restyle"] is None
        assert not any(kind.startswith("Restyle") for kind, _ in model.calls)


def test_a_follow_up_is_a_conversation_whose_last_turn_is_the_question(harness, seed_chunk_id) -> None:
    reply = {
        "changes": "named the setting's subject in an opening turn, then asked about it",
        "first_turn": "I have a question about the minimum delay between autovacuum runs on any database.",
        "assistant_turn": "Sure, what would you like to know?",
        "question": "What is the default value of the setting that sets it?",
    }
    replies = script(RestyledQuestion=[reply], RestyleVerdict=[SAME])
    result, model, _ = harness.run(replies, spec={"seed_id": seed_chunk_id, "query_style": "follow-up"})
    record = DatasetRecord.model_validate(result.record)
    assert record.query_style == "follow-up" and record.question == reply["question"]
    assert [(turn.role, turn.content) for turn in record.turns or []] == [
        ("user", reply["first_turn"]),
        ("assistant", reply["assistant_turn"]),
        ("user", reply["question"]),
    ]
    checked = next(messages for kind, messages in model.calls if kind == "RestyleVerdict")
    assert "User: I have a question about the minimum delay" in str(checked[-1].content)


def test_a_refused_follow_up_is_written_again_from_its_whole_conversation(harness, seed_chunk_id) -> None:
    good = {
        "changes": "named the subject first",
        "first_turn": "I have a question about the minimum delay between autovacuum runs on any database.",
        "assistant_turn": "Sure.",
        "question": "What is the default value of the setting that sets it?",
    }
    no_opening = good | {"first_turn": "", "assistant_turn": "Go ahead."}
    replies = script(RestyledQuestion=[no_opening, good], RestyleVerdict=[SAME])
    result, model, _ = harness.run(replies, spec={"seed_id": seed_chunk_id, "query_style": "follow-up"})
    assert result.record["query_style"] == "follow-up" and result.record["restyle"]["attempts"] == 2
    asked_again = str([m for kind, m in model.calls if kind == "RestyledQuestion"][1][-1].content)
    assert "Assistant: Go ahead." in asked_again and "opening turn" in asked_again
