"""The compiled sample graph draws every edge its routes name, and each run gets its own checkpointer."""

from __future__ import annotations

import typing

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.runtime import Runtime

from nodes import routing
from nodes.builder import compile_graph
from nodes.registry import NODE_SPECS, NODES
from nodes.run_context import Context


@pytest.mark.parametrize("editable", [True, False])
def test_every_route_names_its_edges_in_the_drawn_graph(editable: bool) -> None:
    edges = {(edge.source, edge.target) for edge in compile_graph(editable=editable).get_graph().edges}
    for spec in NODE_SPECS:
        targets = typing.get_args(typing.get_type_hints(spec.route)["return"]) if spec.route else (spec.then,)
        assert {(spec.name, target) for target in targets} <= edges, spec.name


def test_both_forms_draw_the_same_graph() -> None:
    def drawn(editable: bool) -> set[tuple[str, str, bool]]:
        return {(e.source, e.target, e.conditional) for e in compile_graph(editable=editable).get_graph().edges}

    assert drawn(True) == drawn(False)


def test_the_drawn_graph_has_the_spec_node_names() -> None:
    drawn = set(compile_graph().get_graph().nodes) - {"__start__", "__end__"}
    assert drawn == set(NODES)
    assert "graph TD" in compile_graph().get_graph().draw_mermaid()


def test_each_run_compiles_the_graph_with_its_own_checkpointer() -> None:
    first, second = InMemorySaver(), InMemorySaver()
    assert compile_graph(first).checkpointer is first and compile_graph(second).checkpointer is second


def test_studio_shows_help_for_every_run_context_field() -> None:
    schema = compile_graph().get_context_jsonschema()
    assert schema is not None
    fields = schema["properties"]
    assert "services" not in fields and "ports" not in fields  # live objects stay out of the form
    assert {name for name, field in fields.items() if not field.get("description")} == set()
    assert "validation rounds" in fields["max_revisions"]["description"]


def draft_rejected(revisions: int, question_type: str = "comparison", max_revisions: int = 1) -> dict:
    return {
        "question_type": question_type,
        "revisions": revisions,
        "revisions_left": max_revisions - revisions,
        "drafts": [{"revision": revisions}],
        "verdicts": [{"judge": "quality", "revision": revisions, "accepted": False, "reason": "vague"}],
    }


def test_a_rejected_draft_is_revised_while_revisions_are_left_then_rejected() -> None:
    runtime = Runtime(context=Context(max_revisions=1))
    assert routing.route_after_judge_quality(draft_rejected(0), runtime) == "revise_question"  # type: ignore[arg-type]
    assert routing.route_after_judge_quality(draft_rejected(1), runtime) == "reject_sample"  # type: ignore[arg-type]
    assert routing.route_after_lint(draft_rejected(1)) == "reject_sample"  # type: ignore[arg-type]
    assert routing.route_after_judge_sufficiency(draft_rejected(1, max_revisions=2)) == "revise_question"  # type: ignore[arg-type]
    unanswerable = draft_rejected(0, "unanswerable")
    assert routing.route_after_judge_unanswerable(unanswerable) == "generate_unanswerable"  # type: ignore[arg-type]
    eager = Runtime(context=Context(max_revisions=1, sufficiency_after_quality_reject=True))
    assert routing.route_after_judge_quality(draft_rejected(0), eager) == "judge_sufficiency"  # type: ignore[arg-type]
    assert routing.route_after_judge_quality(draft_rejected(1), eager) == "reject_sample"  # type: ignore[arg-type]


def test_each_node_that_asks_a_model_says_its_prompt_and_reply_size_and_the_others_say_neither() -> None:
    for spec in NODE_SPECS:
        asks = spec.role is not None
        assert asks == bool(spec.prompt) == (spec.output_tokens > 0), spec.name
        assert (spec.route is None) != (spec.then is None), f"{spec.name}: a route or a fixed next step, not both"
    assert [spec.name for spec in NODE_SPECS if spec.judging == "judge"] == [
        "judge_quality", "judge_sufficiency", "judge_unanswerable"
    ]  # fmt: skip
