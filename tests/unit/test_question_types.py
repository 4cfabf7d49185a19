"""The question-type registry: state's names of the types are its names, and each entry is whole."""

from __future__ import annotations

import typing

from nodes import question_types
from nodes.lint.question import lint_problems
from state import sample


def test_state_names_the_types_the_registry_holds_in_its_order() -> None:
    assert sample.QUESTION_TYPES == question_types.QUESTION_TYPES == typing.get_args(sample.QuestionType)
    assert sample.MULTI_HOP_TYPES == question_types.MULTI_HOP_TYPES
    assert sample.SINGLE_HOP_TYPES == question_types.SINGLE_HOP_TYPES
    assert sample.OPEN_ONLY_TYPES == question_types.OPEN_ONLY_TYPES
    assert (
        (*question_types.QUESTION_TYPES, sample.UNANSWERABLE)
        == sample.SAMPLE_KINDS
        == typing.get_args(sample.SampleKind)
    )


def test_each_type_has_its_texts_and_hop_bounds_within_the_record_s() -> None:
    for spec in question_types.TYPE_SPECS:
        assert spec.definition and spec.shape and spec.plan and spec.answer, spec.name
        low, high = spec.hops
        assert (low, high) == ((1, 1) if spec.single_hop else (sample.MIN_HOPS, sample.MAX_HOPS)), spec.name
        assert spec.instruction(False).startswith(f"Question type: {spec.definition}\n"), spec.name
        if spec.yes_no_shape is not None:
            assert spec.instruction(True).endswith(spec.yes_no_shape), spec.name


def test_a_type_s_own_lint_rules_run_for_it_alone() -> None:
    """The composition's rule (its hidden entity declared and never named) applies to compositions, and only to
    them: the same draft as an intersection passes it."""
    draft = {
        "question": "What is the default of the setting that the Autovacuum Daemon section names first?",
        "answer": "1min",
        "construction": {"compared_entities": [], "hidden_entities": []},
        "evidence": [],
    }
    kwargs = {"binary": False, "max_question_words": 40, "max_answer_words": 10, "hops": 2}
    composition = {rule for rule, _ in lint_problems(draft, question_type="composition", **kwargs)}
    intersection = {rule for rule, _ in lint_problems(draft, question_type="intersection", **kwargs)}
    assert "construction" in composition and "construction" not in intersection
    named = draft | {"construction": {"compared_entities": [], "hidden_entities": [
        {"entity": "Autovacuum Daemon", "chunk_id": "a"}
    ]}}  # fmt: skip
    assert "hidden_entity" in {rule for rule, _ in lint_problems(named, question_type="composition", **kwargs)}
