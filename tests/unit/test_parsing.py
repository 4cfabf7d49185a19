"""Structured replies as real models write them."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from graph.llm.parsing import ReplyParseError, parse_reply
from state.schemas import TemporalLabel


class Verdict(BaseModel):
    accepted: bool
    reason: str


class Relevance(BaseModel):
    relevant: bool
    reason: str = ""


GOOD = '{"accepted": false, "reason": "chunk B alone answers it"}'


@pytest.mark.parametrize(
    "reply",
    [
        GOOD,
        f"```json\n{GOOD}\n```",
        f"```\n{GOOD}\n```",
        f"Here is my verdict:\n```json\n{GOOD}\n```\nLet me know if you need more.",
        f"{GOOD}\n\nNote: I was strict because the question is vague {{see above}}.",
        f"Sure! {GOOD} Hope that helps.",
    ],
)
def test_json_is_found_in_fences_prose_and_commentary(reply: str) -> None:
    assert parse_reply(reply, Verdict) == Verdict(accepted=False, reason="chunk B alone answers it")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Yes", True),
        ("yes.", True),
        ("YES", True),
        ("no", False),
        ("No.", False),
        ("TRUE", True),
        ("false", False),
        ("Relevant", True),
        ("**Relevant**", True),
        ("Not Relevant", False),
        ("not relevant.", False),
        ("Irrelevant", False),
    ],
)
def test_a_single_word_verdict_fills_a_single_boolean_schema(reply: str, expected: bool) -> None:
    assert parse_reply(reply, Relevance).relevant is expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [("Temporal", True), ("Non-Temporal", False), ("non-temporal.", False), ("Not temporal", False)],
)
def test_a_temporal_label_may_be_one_bare_word(reply: str, expected: bool) -> None:
    assert parse_reply(reply, TemporalLabel).temporal is expected


def test_not_relevant_is_never_read_as_relevant() -> None:
    assert parse_reply("Not Relevant", Relevance).relevant is False
    with pytest.raises(ReplyParseError):
        parse_reply("Relevant? Not Relevant, I think", Relevance)


def test_single_words_do_not_fill_a_schema_with_more_required_fields() -> None:
    with pytest.raises(ReplyParseError, match="no JSON object"):
        parse_reply("Yes", Verdict)


@pytest.mark.parametrize("reply", ['{"accepted": true, "reason": "fine', '```json\n{"accepted": tr\n```'])
def test_truncated_json_is_an_error_that_says_so(reply: str) -> None:
    with pytest.raises(ReplyParseError, match="incomplete JSON"):
        parse_reply(reply, Verdict)


def test_wrong_fields_name_what_is_missing() -> None:
    with pytest.raises(ReplyParseError, match="reason: Field required"):
        parse_reply('{"accepted": true}', Verdict)
    with pytest.raises(ReplyParseError, match="empty"):
        parse_reply("   ", Verdict)


class Plan(BaseModel):
    plan: str
    steps: list[str]


class Nested(BaseModel):
    accepted: bool
    plans: list[Plan]


def test_raw_control_characters_inside_strings_are_read_as_written() -> None:
    reply = '{"plan": "first line\nsecond line\tindented", "steps": ["a"]}'  # a literal newline and tab
    assert parse_reply(reply, Plan).plan == "first line\nsecond line\tindented"
    assert parse_reply(f"```json\n{reply}\n```", Plan).steps == ["a"]


def test_null_for_a_list_that_may_be_empty_is_an_empty_list_at_any_depth() -> None:
    assert parse_reply('{"plan": "p", "steps": null}', Plan).steps == []
    nested = parse_reply('{"accepted": true, "plans": [{"plan": "p", "steps": null}]}', Nested)
    assert nested.plans == [Plan(plan="p", steps=[])]


class AtLeastOne(BaseModel):
    names: list[str] = Field(min_length=1)


def test_null_for_a_list_that_must_hold_something_still_fails_and_wrong_values_too() -> None:
    with pytest.raises(ReplyParseError, match="names"):
        parse_reply('{"names": null}', AtLeastOne)
    with pytest.raises(ReplyParseError, match="plan"):
        parse_reply('{"plan": null, "steps": []}', Plan)  # a null string is a wrong value, not a form
    with pytest.raises(ReplyParseError, match="accepted"):
        parse_reply('{"accepted": "maybe", "plans": []}', Nested)
