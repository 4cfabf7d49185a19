"""Each criterion is one constant of `prompts.criteria`, and every prompt that must state it quotes that constant,
so that a writer and its checker read one rule in the same words."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import prompts
from nodes.question_types import TYPE_SPECS
from nodes.steps.generate import draft_schema
from nodes.versions import EVALUATION_VERSION, PROMPT_VERSION
from prompts import criteria, evaluate, generate, judge_quality, judge_sufficiency, relevance, restyle, revise
from state.schemas import RagAnswer

_WRITERS = [generate.SYSTEM, revise.SYSTEM]
_SINGLE_HOP_WRITERS = [generate.SINGLE_HOP_SYSTEM, revise.SINGLE_HOP_SYSTEM]
_JUDGES = [judge_quality.SYSTEM, judge_quality.SINGLE_HOP_SYSTEM]
_QUALITY = _WRITERS + _SINGLE_HOP_WRITERS + _JUDGES

#: Each criterion, by its constant's name, and the prompts that must state it (SPEC 2.6-2.9, 2.12, 12, 15, 16).
STATED_BY: dict[str, list[str]] = {
    "CORRECT": _QUALITY,
    "ANSWERABLE": _QUALITY,
    "STANDALONE": _QUALITY,
    "GROUNDED": _QUALITY,
    "ANSWER_CORRECT": _QUALITY,
    "IN_LANGUAGE": _QUALITY,
    "COMBINING_IS_REASONING": _WRITERS + [judge_quality.SYSTEM],
    "SEQUENTIAL_ANCHOR": _WRITERS + [judge_quality.SYSTEM],
    "HIDDEN_DESCRIBED": _WRITERS + [judge_quality.SYSTEM],
    "RECOMPUTED": _WRITERS + [judge_quality.SYSTEM],
    "QUALITY_CRITERIA": _WRITERS + [judge_quality.SYSTEM],
    "SINGLE_HOP_QUALITY_CRITERIA": _SINGLE_HOP_WRITERS + [judge_quality.SINGLE_HOP_SYSTEM],
    "NO_FROM_STATED_FACT": _QUALITY + [judge_sufficiency.SYSTEM],
    "ONE_QUESTION": _QUALITY,
    "MULTI_HOP": _WRITERS + [judge_quality.SYSTEM],
    "UNAMBIGUOUS": _QUALITY,
    "CONCISE": _WRITERS + _SINGLE_HOP_WRITERS,
    "NO_LEAK": _WRITERS + _SINGLE_HOP_WRITERS,
    "SHORT_ANSWER": _WRITERS,
    "STRICT": _JUDGES + [judge_sufficiency.SYSTEM],
    "EVIDENCE": _WRITERS + _SINGLE_HOP_WRITERS,
    "EVIDENCE_SHOWN": _JUDGES + [judge_sufficiency.SYSTEM],
    "RELEVANT": [relevance.CARE_SYSTEM, relevance.CARE_BATCHED_SYSTEM, relevance.DIRECT_SYSTEM],
    "SAME_REQUEST": [restyle.WRITE_SYSTEM, restyle.CHECK_SYSTEM],
    "SAME_ANSWER": [restyle.WRITE_SYSTEM, restyle.CHECK_SYSTEM],
    "SAME_SOURCES": [restyle.WRITE_SYSTEM, restyle.CHECK_SYSTEM],
    "RESTYLE_CRITERIA": [restyle.WRITE_SYSTEM, restyle.CHECK_SYSTEM],
}


def test_each_question_type_s_definition_is_stated_by_its_writer_and_its_judge_alike() -> None:
    """A type's definition (and a yes/no note) is written once, in its block of `prompts.generate`: a cell's request
    and the quality judge read the same words, open and yes/no."""
    for spec in TYPE_SPECS:
        forms = (False, True) if spec.yes_no_shape is not None else (False,)
        for binary in forms:
            assert spec.definition in spec.instruction(binary), spec.name
            assert spec.definition in spec.judged_definition(binary), spec.name
        if spec.yes_no_note:
            assert spec.yes_no_note in spec.instruction(True) and spec.yes_no_note in spec.judged_definition(True)
            assert spec.yes_no_note not in spec.judged_definition(False), spec.name


def _criteria() -> dict[str, str]:
    return {name: value for name, value in vars(criteria).items() if name.isupper() and isinstance(value, str)}


def test_every_criterion_is_listed_with_the_prompts_that_state_it() -> None:
    assert set(_criteria()) == set(STATED_BY)


def test_every_prompt_that_must_state_a_criterion_quotes_its_constant() -> None:
    for name, texts in STATED_BY.items():
        text = _criteria()[name]
        assert texts and all(text in prompt for prompt in texts), name


def test_no_two_criteria_say_the_same_and_no_prompt_module_words_one_its_own_way() -> None:
    texts = _criteria()
    assert len(set(texts.values())) == len(texts)
    folded_sources = {
        info.name: " ".join((Path(prompts.__file__).parent / f"{info.name}.py").read_text(encoding="utf-8").split())
        for info in pkgutil.iter_modules(prompts.__path__)
        if info.name != "criteria"
    }
    for name, text in texts.items():
        if name in ("QUALITY_CRITERIA", "SINGLE_HOP_QUALITY_CRITERIA", "RESTYLE_CRITERIA"):
            continue
        opening = text[:60]  # a criterion's first words, as a copy elsewhere would spell them
        assert not [module for module, source in folded_sources.items() if opening in source], name


def test_a_single_hop_prompt_reads_no_criterion_that_only_combining_chunks_needs() -> None:
    for prompt in [*_SINGLE_HOP_WRITERS, judge_quality.SINGLE_HOP_SYSTEM]:
        for name in ("COMBINING_IS_REASONING", "SEQUENTIAL_ANCHOR", "HIDDEN_DESCRIBED", "RECOMPUTED", "MULTI_HOP"):
            assert getattr(criteria, name) not in prompt, name


def test_the_rag_answer_declines_in_the_question_language_in_prompt_and_schema_alike() -> None:
    description = RagAnswer.model_json_schema()["properties"]["answer"]["description"]
    assert "question's language" in description and 'exactly "I don\'t know"' not in description
    assert "in the question's" in evaluate.RAG_SYSTEM
    assert all(f'"{phrase}"' in evaluate.RAG_SYSTEM for phrase in evaluate.DECLINES.values())


def test_single_hop_drafts_are_asked_for_a_plan_without_a_necessity_test() -> None:
    for kind in ("factual", "procedural"):
        assert "no chunk alone" not in draft_schema(kind).model_json_schema()["properties"]["plan"]["description"]
    for kind in ("comparison", "intersection", "composition"):
        assert "no chunk alone" in draft_schema(kind).model_json_schema()["properties"]["plan"]["description"]


def test_a_schema_description_is_part_of_the_version_its_requests_carry(monkeypatch) -> None:  # noqa: ANN001
    import nodes.versions
    from state import schemas

    monkeypatch.setattr(schemas.RagAnswer.model_fields["answer"], "description", "another rule")
    schemas.RagAnswer.model_rebuild(force=True)
    monkeypatch.setattr(schemas.TemporalLabel.model_fields["temporal"], "description", "another rule")
    schemas.TemporalLabel.model_rebuild(force=True)
    try:
        reloaded = importlib.reload(nodes.versions)
        assert reloaded.EVALUATION_VERSION != EVALUATION_VERSION
        assert reloaded.PROMPT_VERSION != PROMPT_VERSION
        assert reloaded.PROMPT_VERSION.startswith(prompts.PROMPT_VERSION + "+")
    finally:
        monkeypatch.undo()
        schemas.RagAnswer.model_rebuild(force=True)
        schemas.TemporalLabel.model_rebuild(force=True)
        importlib.reload(nodes.versions)


@pytest.mark.parametrize(("module", "attribute"), [(prompts, "EVIDENCE_BLOCK"), (generate, "COMPARISON_DEFINITION")])
def test_a_generation_text_is_part_of_the_prompt_version_and_not_of_the_evaluation_s(
    monkeypatch: pytest.MonkeyPatch, module: object, attribute: str
) -> None:
    """The evidence block `prompts` itself holds and a question type's definition reach only a sample's requests:
    an edit changes the records' version and leaves the evaluation's cached rows as they are."""
    import nodes.versions

    monkeypatch.setattr(module, attribute, "another text")
    try:
        reloaded = importlib.reload(nodes.versions)
        assert reloaded.PROMPT_VERSION != PROMPT_VERSION
        assert reloaded.EVALUATION_VERSION == EVALUATION_VERSION
    finally:
        monkeypatch.undo()
        importlib.reload(nodes.versions)
