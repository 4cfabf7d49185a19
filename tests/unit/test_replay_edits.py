"""`graph.replay --set KEY=VALUE`: values are read as JSON, checked against the state's schema, text kept as text."""

from __future__ import annotations

import pytest

from graph.config.errors import UserError
from graph.running.replay import parse_edits


def test_values_take_the_type_of_their_state_key() -> None:
    edits = parse_edits(["bridge_topic=42", "revisions=2", "role=a DBA on call", "seed_id=null", "temporal=true"])
    assert edits == {"bridge_topic": "42", "revisions": 2, "role": "a DBA on call", "seed_id": None, "temporal": True}
    draft = '{"question": "q?", "answer": "a", "origin": "revise", "revision": 1}'
    assert parse_edits([f"drafts=[{draft}]"])["drafts"][0]["origin"] == "revise"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ("drafts=5", "--set drafts: Input should be a valid list"),
        ('drafts=[{"question": "q?"}]', "--set drafts[0]['answer']: Field required"),
        ("question_type=bogus", "--set question_type: Input should be 'comparison'"),
        ("revisions=two", "--set revisions: Input should be a valid integer"),
        ("nosuch=1", "--set nosuch: a sample's state has no such key"),
        ("novalue", "--set takes KEY=VALUE"),
    ],
)
def test_a_value_the_state_cannot_hold_is_one_line(edit: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        parse_edits([edit])
    assert str(caught.value).startswith(message)
