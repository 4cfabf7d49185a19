"""Every request a scripted run sends, messages and JSON schema both, in English and German, holds one rule where
the prompts once held two: one shape per cell, the plan that fits the type, one notion of relevance, and a
sufficiency request that says which yes/no answer it tests."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
from prompts import criteria, examples, generate
from state.languages import answer_words
from tests.support.harness import Harness

#: Each cell driven through the graph: (question type, binary, the answer a binary cell asks for).
CELLS = [
    ("composition", False, None),
    ("comparison", True, "no"),
    ("intersection", True, "yes"),
    ("intersection", False, None),
    ("factual", False, None),
    ("factual", True, "no"),
]
OPEN_SHAPES = {
    "comparison": generate.COMPARISON_EXAMPLE,
    "intersection": examples.INTERSECTION,
    "composition": generate.COMPOSITION_EXAMPLE,
    "factual": generate.FACTUAL_EXAMPLE,
}
YES_NO_SHAPES = {
    "comparison": generate.COMPARISON_YES_NO_EXAMPLE,
    "intersection": generate.INTERSECTION_YES_NO_EXAMPLE,
    "composition": generate.COMPOSITION_YES_NO_EXAMPLE,
    "factual": generate.FACTUAL_YES_NO_EXAMPLE,
}


def rendered(messages: list[BaseMessage]) -> tuple[str, str]:
    """(system text, human text) of a request."""
    system = "\n".join(str(m.content) for m in messages if m.type == "system")
    human = "\n".join(str(m.content) for m in messages if m.type == "human")
    return system, human


@pytest.fixture(scope="module")
def requests(pg_url: str, demo_slice: str, seed_chunk_id: str) -> dict[tuple[str, str, bool, str], list[Any]]:
    """Per (language, type, binary, labeller): every request as (schema name, JSON schema, system, human)."""
    harness = Harness(pg_url, demo_slice)
    sent: dict[tuple[str, str, bool, str], list[tuple[str, Any, str, str]]] = {}
    for language in ("en", "de"):
        for question_type, binary, wanted in CELLS:
            for labeller in ("care", "direct"):
                spec = {"question_type": question_type, "binary": binary, "seed_id": seed_chunk_id}
                if wanted:
                    spec["wanted_answer"] = wanted
                _, model, _ = harness.run(
                    dict(PLAUSIBLE_SCRIPT), spec=spec, question_language=language, relevance_labeller=labeller
                )
                assert len(model.schemas) == len(model.calls)
                sent[(language, question_type, binary, labeller)] = [
                    (key, schema.model_json_schema(), *rendered(messages))
                    for (key, messages), schema in zip(model.calls, model.schemas, strict=True)
                ]
    return sent


def test_each_cell_request_shows_the_one_shape_it_wants(requests) -> None:  # noqa: ANN001
    for (_, question_type, binary, _), calls in requests.items():
        drafts = [human for key, _, _, human in calls if key == "QuestionDraft"]
        assert drafts
        for human in drafts:
            wanted, other = (YES_NO_SHAPES, OPEN_SHAPES) if binary else (OPEN_SHAPES, YES_NO_SHAPES)
            assert wanted[question_type] in human and other[question_type] not in human


def test_the_plan_each_request_asks_for_fits_its_question_type(requests) -> None:  # noqa: ANN001
    for (_, question_type, _, _), calls in requests.items():
        plans = {json.dumps(schema["properties"]["plan"]) for key, schema, _, _ in calls if key == "QuestionDraft"}
        assert len(plans) == 1
        plan = plans.pop()
        if question_type == "factual":
            assert "chunk A" in plan and "no chunk alone" not in plan
        else:
            assert "no chunk alone" in plan and "chunk A " not in plan


def test_every_labeller_asks_one_notion_of_relevance(requests) -> None:  # noqa: ANN001
    seen = set()
    for (language, _, _, labeller), calls in requests.items():
        labels = [(schema, system, human) for key, schema, system, human in calls if key == "RelevanceVerdict"]
        seen |= {(language, labeller)} if labels else set()
        for schema, system, human in labels:
            assert criteria.RELEVANT in system and "helps support" not in system + human
            assert "states a fact the answer needs" in human
            assert schema["properties"]["relevant"]["description"].startswith("True when the candidate states a fact")
    assert seen == {(language, labeller) for language in ("en", "de") for labeller in ("care", "direct")}


def test_the_sufficiency_request_says_whether_the_question_is_yes_no_and_which_answer(requests) -> None:  # noqa: ANN001
    for (language, question_type, binary, _), calls in requests.items():
        judged = [human for key, _, _, human in calls if key == "SufficiencyVerdict"]
        if question_type == "factual":
            assert not judged  # a single-hop question has no sufficiency check
            continue
        assert judged
        yes, no = answer_words(language)  # type: ignore[misc]
        for human in judged:
            if not binary:
                assert human.startswith("Yes/no question: no.")
                continue
            answer = human.split('<answer label="reference">\n', 1)[1].split("\n", 1)[0]
            assert answer in (yes, no)
            assert human.startswith(f'Yes/no question: yes, answered "{answer}"')
            assert ("contradicts the question" in human) == (answer == no)


def test_the_judge_and_the_generator_read_the_same_criteria(requests) -> None:  # noqa: ANN001
    judged = 0
    for calls in requests.values():
        systems = {key: system for key, _, system, _ in calls}
        judge = systems.get("QualityVerdict") or systems.get("SingleHopVerdict")
        if judge is None:  # lint sent every draft back: no judge was asked
            continue
        judged += 1
        quality = criteria.QUALITY_CRITERIA if "QualityVerdict" in systems else criteria.SINGLE_HOP_QUALITY_CRITERIA
        for criterion in (quality, criteria.ONE_QUESTION, criteria.UNAMBIGUOUS):
            assert criterion in systems["QuestionDraft"] and criterion in judge
    assert judged >= len(requests) - 4
