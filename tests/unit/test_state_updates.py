"""The sample state takes updates as its LangGraph channels do: what the run form's routes and a new thread's
final state are computed from (tests/graph/test_routing_forms.py holds them to LangGraph's on sample paths)."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.channels.topic import Topic
from langgraph.graph import StateGraph

from nodes.builder import StateUpdates, routed_by, state_updates
from nodes.registry import NODES
from state.sample import SampleState


def test_a_new_thread_holds_its_input_and_empty_lists() -> None:
    started = state_updates().started({"question_type": "comparison", "binary": False, "not_an_input": 1})
    assert started["question_type"] == "comparison" and started["binary"] is False
    assert "not_an_input" not in started
    assert started["llm_calls"] == [] and started["verdicts"] == [] and started["drafts"] == []
    assert "outcome" not in started


def test_lists_grow_through_their_reducer_and_other_keys_are_replaced() -> None:
    updates = state_updates()
    before = updates.started({"question_type": "comparison", "binary": False})
    first = updates.applied(before, {"verdicts": [{"judge": "lint"}], "revisions": 0, "no_such_key": 1})
    second = updates.applied(first, {"verdicts": [{"judge": "quality"}], "revisions": 1})
    assert [v["judge"] for v in second["verdicts"]] == ["lint", "quality"]
    assert second["revisions"] == 1 and "no_such_key" not in second
    assert before["verdicts"] == [] and first["revisions"] == 0  # each update makes a new state


def test_a_channel_the_updates_cannot_apply_and_a_route_asking_for_more_are_refused_at_build() -> None:
    builder = StateGraph(SampleState)
    builder.channels["collected"] = Topic(str)
    with pytest.raises(TypeError, match="'collected'"):
        StateUpdates.of(builder)

    def route(state: SampleState, config: Any) -> str:
        return "finalize_sample"

    with pytest.raises(TypeError, match="route takes"):
        routed_by(NODES["extract_contexts"].function, route, state_updates())
