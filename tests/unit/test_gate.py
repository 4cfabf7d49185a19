"""The regression gate's checks: thresholds overall and per slice, a baseline, and the JUnit report."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

import pytest

from graph.config.errors import UserError
from graph.evaluation.gate import (
    Threshold,
    baseline_checks,
    baseline_notes,
    junit_xml,
    parse_thresholds,
    threshold_checks,
)
from graph.evaluation.scoring import GROUPS


def summary(recall: float, correct: float | None = 0.7, composition_recall: float = 0.5) -> dict[str, Any]:
    groups: dict[str, Any] = {group: {} for group in GROUPS}
    groups["question_type"] = {"composition": {"n": 4.0, "recall": composition_recall}}
    return {**groups, "all": {"n": 10.0, "recall": recall, "correct": correct, "precision": 0.4}}


def test_thresholds_name_a_metric_overall_or_for_a_slice() -> None:
    assert parse_thresholds("recall=0.8, composition.recall=0.6") == [
        Threshold("recall", 0.8), Threshold("recall", 0.6, "composition"),
    ]  # fmt: skip
    for bad in ("recal=0.8", "recall=high", "recall=1.5", ","):
        with pytest.raises(UserError, match="--fail-under"):
            parse_thresholds(bad)


def test_every_setup_is_held_to_every_threshold() -> None:
    checks = threshold_checks(
        {"k3": summary(0.62), "k8": summary(0.91, correct=None)},
        parse_thresholds("recall=0.8,correct=0.5,composition.recall=0.6,hard.recall=0.5"),
    )
    by_name = {(c.setup, c.name): c for c in checks}
    assert not by_name[("k3", "recall")].passed and by_name[("k8", "recall")].passed
    assert by_name[("k8", "correct")].skipped and by_name[("k8", "correct")].passed  # no value: neither
    assert not by_name[("k3", "composition.recall")].passed
    assert by_name[("k3", "hard.recall")].skipped  # no hard question in the dataset
    assert by_name[("k3", "recall")].line() == "k3: recall 0.620, wanted >= 0.8: FAILS"


def test_a_drop_beyond_the_allowed_one_fails_against_the_baseline() -> None:
    baseline = {"k3": summary(0.70), "gone": summary(0.9)}
    checks = baseline_checks({"k3": summary(0.66), "new": summary(0.1)}, baseline, 0.03)
    failed = [c for c in checks if not c.passed]
    assert [(c.setup, c.name) for c in failed] == [("k3", "recall")]
    assert failed[0].line() == "k3: recall 0.660, wanted at most 0.03 below 0.700: FAILS"
    assert all(c.passed for c in baseline_checks({"k3": summary(0.68)}, baseline, 0.03))


def test_the_junit_report_parses_with_a_case_per_setup_and_metric() -> None:
    checks = threshold_checks({"k3": summary(0.62), "k8": summary(0.91)}, parse_thresholds("recall=0.8,correct=0.5"))
    suite = ElementTree.fromstring(junit_xml(checks))
    assert suite.tag == "testsuite" and suite.get("tests") == "4" and suite.get("failures") == "1"
    failures = [case for case in suite.iter("testcase") if case.find("failure") is not None]
    assert [(case.get("classname"), case.get("name")) for case in failures] == [("triad.k3", "recall >= 0.8")]


def judged(value: float, model: str = "google_genai:gemini-2.5-flash", prompts: str = "db69feef5381") -> dict[str, Any]:
    return summary(value) | {"judges": {"model": model, "prompts": prompts}}


def test_a_baseline_judged_with_other_evaluation_prompts_is_said_to_be_so() -> None:
    now = {"k3": judged(0.70), "k8": judged(0.8)}
    baseline = {"k3": judged(0.70, prompts="0123456789ab"), "k8": judged(0.8), "gone": judged(0.1)}
    (note,) = baseline_notes(now, baseline)
    assert note.startswith("note: the baseline judged setup 'k3' otherwise (evaluation prompts 0123456789ab -> ")
    assert "evaluate the baseline's dataset again" in note
    older = {"k3": summary(0.70)}  # a summary written before it recorded its judges
    (unrecorded,) = baseline_notes({"k3": judged(0.7)}, older)
    assert "judge model unrecorded -> google_genai:gemini-2.5-flash" in unrecorded
    assert "evaluation prompts unrecorded -> db69feef5381" in unrecorded
    assert baseline_notes(now, {"k3": judged(0.5), "k8": judged(0.9)}) == []


def test_rows_judged_with_other_evaluation_prompts_are_kept_under_another_signature(monkeypatch) -> None:  # noqa: ANN001
    from graph.evaluation.setups import Setup
    from nodes import versions

    setup = Setup(name="k3", collection="docs", k=3)
    before = setup.signature("google_genai:gemini-2.5-flash", False)
    monkeypatch.setattr(versions, "EVALUATION_VERSION", "0123456789ab")
    assert setup.signature("google_genai:gemini-2.5-flash", False) != before
