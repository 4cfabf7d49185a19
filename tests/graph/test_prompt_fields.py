"""Every template's placeholders are exactly what its node passes, read from the nodes as they run.

Each USER template is replaced by a copy that notes the keyword arguments of every `.format` call;
the real graph then runs with a scripted model down the paths that use every template.
"""

from __future__ import annotations

import string
from collections import defaultdict

import pytest

from prompts import bridge, generate, judge_quality, judge_sufficiency, relevance, revise, temporal, unanswerable
from tests.support.harness import Harness
from tests.support.scripts import GOOD_QUESTION, drafted, script

TEMPLATES = {
    "bridge.USER": (bridge, "USER"),
    "generate.USER": (generate, "USER"),
    "revise.USER": (revise, "USER"),
    "judge_quality.USER": (judge_quality, "USER"),
    "judge_sufficiency.USER": (judge_sufficiency, "USER"),
    "temporal.USER": (temporal, "USER"),
    "relevance.CARE_USER": (relevance, "CARE_USER"),
    "relevance.CARE_BATCHED_USER": (relevance, "CARE_BATCHED_USER"),
    "relevance.DIRECT_USER": (relevance, "DIRECT_USER"),
    "relevance.INDIRECT_USER": (relevance, "INDIRECT_USER"),
    "generate.STYLE": (generate, "STYLE"),
    "unanswerable.GENERATE_USER": (unanswerable, "GENERATE_USER"),
    "unanswerable.REVISION": (unanswerable, "REVISION"),
    "unanswerable.JUDGE_USER": (unanswerable, "JUDGE_USER"),
}


class StyleGuide:
    """Real queries that give every seed the same style example."""

    def link(self, chunk_id: str) -> str | None:
        return None

    def style(self, chunk_id: str) -> tuple[str, str | None] | None:
        return "how long does autovacuum sleep?", None


class NotedTemplate(str):
    """A template that notes the keyword arguments each `.format` call passes."""

    passed: list[set[str]]

    def format(self, *args: object, **kwargs: object) -> str:
        self.passed.append(set(kwargs))
        return str.format(self, *args, **kwargs)


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


@pytest.fixture(scope="module")
def passed(pg_url: str, demo_slice: str, seed_chunk_id: str) -> dict[str, list[set[str]]]:
    """What each template was given, over runs that use every node and every relevance labeller."""
    harness = Harness(pg_url, demo_slice)
    noted: dict[str, list[set[str]]] = defaultdict(list)
    patch = pytest.MonkeyPatch()
    for name, (module, attribute) in TEMPLATES.items():
        template = NotedTemplate(getattr(module, attribute))
        template.passed = noted[name]
        patch.setattr(module, attribute, template)
    linted = drafted("According to the text, which setting wakes the launcher?", "autovacuum_naptime")
    try:
        harness.run(script(QuestionDraft=[linted, GOOD_QUESTION]), spec={"seed_id": seed_chunk_id})
        batched = {"BatchRelevanceVerdict": [{"labels": [{"candidate": "X1", "relevant": True}]}]}
        harness.run(script(**batched), spec={"seed_id": seed_chunk_id}, relevance_labeller="care_batched")
        harness.run(script(), spec={"seed_id": seed_chunk_id}, relevance_labeller="direct")
        answers = {"CandidateAnswer": [{"answerable": False, "answer": ""}]}
        harness.run(script(**answers), spec={"seed_id": seed_chunk_id}, relevance_labeller="indirect")
        draft = {"question": "Who proposed autovacuum_naptime?", "kind": "missing_attribute", "missing": "a name"}
        reject = {"reasoning": "R1 states it", "plausible": True, "answered_by": ["R1"], "answerable": True,
                  "accepted": False, "reason": "R1"}  # fmt: skip
        accept = {**reject, "answered_by": [], "answerable": False, "accepted": True, "reason": ""}
        unanswered = {"UnanswerableDraft": [draft], "UnanswerableVerdict": [reject, accept]}
        unanswerable_spec = {"question_type": "unanswerable", "binary": False, "seed_id": seed_chunk_id}
        harness.run(unanswered, spec=unanswerable_spec, queries=StyleGuide())
    finally:
        patch.undo()
    return noted


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_each_template_gets_exactly_its_placeholders(passed, name: str) -> None:
    module, attribute = TEMPLATES[name]
    assert passed[name], f"no node rendered {name}"
    for arguments in passed[name]:
        assert arguments == placeholders(getattr(module, attribute))
