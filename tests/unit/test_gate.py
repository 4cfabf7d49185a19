"""The regression gate's checks: thresholds overall and per slice, a baseline, and the JUnit report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from graph.config.errors import UserError
from graph.evaluation.confidence.comparisons import pair_rows
from graph.evaluation.confidence.gate import (
    Baseline,
    Threshold,
    baseline_checks,
    baseline_notes,
    junit_xml,
    parse_thresholds,
    read_baseline,
    threshold_checks,
)
from graph.evaluation.scoring.rows import GROUPS


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


def test_a_summary_baseline_compares_means_and_says_so() -> None:
    baseline = Baseline(Path("eval-summary.json"), None, {"k3": summary(0.70), "gone": summary(0.9)})
    checks, notes = baseline_checks({"k3": summary(0.66), "new": summary(0.1)}, baseline, 0.03)
    failed = [c for c in checks if not c.passed]
    assert [(c.setup, c.name) for c in failed] == [("k3", "recall")]
    assert failed[0].line() == "k3: recall 0.660, wanted at most 0.03 below 0.700: FAILS (by means)"
    assert notes == [
        "note: k3 is compared with the baseline by means: the baseline is an eval-summary.json; give its run folder "
        "or eval.jsonl to compare per question"
    ]
    assert all(c.passed for c in baseline_checks({"k3": summary(0.68)}, baseline, 0.03)[0])


def rows(values: list[float], documents: int, metric: str = "recall") -> list[dict[str, Any]]:
    return [
        {"sample_id": f"q{i}", "cluster": f"doc{i % documents}", metric: value, "correctness": None}
        for i, value in enumerate(values)
    ]


def test_a_paired_baseline_fails_a_real_drop_and_passes_noise_saying_why() -> None:
    then = rows([0.9, 0.8, 0.7, 0.9, 0.8, 0.7, 0.9, 0.8, 0.7, 0.9, 0.8, 0.7], documents=6)
    baseline = Baseline(Path("runs/v1"), {"k3": then}, None)
    # Every question 0.2 lower: a real drop, the interval wholly below -0.05.
    lower = rows([v - 0.2 for v in (r["recall"] for r in then)], documents=6)
    checks, notes = baseline_checks({"k3": summary(0.6)}, baseline, 0.05, {"k3": lower}, ("recall",))
    (check,) = checks
    assert not check.passed and notes == []
    assert "paired difference -0.200 [-0.200, -0.200] over 12 questions in 6 documents" in check.line()
    # The same setup against itself: passes with max-drop 0.
    same = baseline_checks({"k3": summary(0.8)}, baseline, 0.0, {"k3": then}, ("recall",))[0]
    assert same[0].passed and "+0.000 [+0.000, +0.000]" in same[0].detail
    # A drop of the same mean size on few questions, made of noise: passes, and says it is within noise.
    few = Baseline(Path("runs/v1"), {"k3": rows([0.9, 0.2, 0.9, 0.2], documents=4)}, None)
    noisy = rows([0.2, 0.5, 0.7, 0.4], documents=4)
    (within,) = baseline_checks({"k3": summary(0.45)}, few, 0.05, {"k3": noisy}, ("recall",))[0]
    assert within.passed and "the drop is within noise" in within.detail
    # Rows of another dataset do not pair: their means are compared, and that is said.
    other = rows([0.9] * 4, documents=2)
    for row in other:
        row["sample_id"] = "x" + row["sample_id"]
    checks, notes = baseline_checks(
        {"k3": summary(0.6)}, Baseline(Path("v1"), {"k3": other}, None), 0.05, {"k3": lower}, ("recall",)
    )
    assert not checks[0].passed and "do not pair with these records (another dataset)" in notes[0]


def test_the_junit_report_carries_each_checks_interval() -> None:
    then = rows([0.9, 0.8, 0.7, 0.9], documents=4)
    checks, _ = baseline_checks(
        {"k3": summary(0.8)}, Baseline(Path("v1"), {"k3": then}, None), 0.0, {"k3": then}, ("recall",)
    )
    suite = ElementTree.fromstring(junit_xml(checks))
    (case,) = suite.iter("testcase")
    assert "[+0.000, +0.000]" in (case.findtext("system-out") or "")


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


def test_one_document_takes_its_questions_as_independent_and_noise_passes() -> None:
    then = [{"sample_id": f"q{i}", "cluster": "only", "recall": v} for i, v in enumerate([0.8, 0.6, 0.9, 0.7])]
    now = [{"sample_id": f"q{i}", "cluster": "only", "recall": v} for i, v in enumerate([0.7, 0.7, 0.8, 0.75])]
    checks, _ = baseline_checks({"k3": summary(0.74)}, Baseline(Path("v1"), {"k3": then}, None), 0.0, {"k3": now})
    check = checks[0]  # recall: a mean drop of 0.025 whose interval reaches above 0
    assert check.passed and "one document: questions taken as independent" in check.detail


def test_a_baseline_jsonl_of_any_name_is_read_as_rows_of_its_latest_versions(tmp_path: Path) -> None:
    path = tmp_path / "baseline.jsonl"
    lines = [
        {"setup": "k3", "signature": "s1", "sample_id": "q1", "recall": 0.5},
        {"setup": "k3", "signature": "s1", "sample_id": "q1", "sample_version": 2, "recall": 0.9},
        {"setup": "k3", "signature": "s1", "sample_id": "q2", "recall": 0.4},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    baseline = read_baseline(path)
    assert baseline.summaries is None and baseline.rows is not None
    assert sorted((r["sample_id"], r.get("sample_version", 1)) for r in baseline.rows["k3"]) == [("q1", 2), ("q2", 1)]
    # A record is paired with the same version of itself: the first version of q1 pairs with nothing of now's.
    now = [{"sample_id": "q1", "recall": 0.5}, {"sample_id": "q2", "recall": 0.4}]
    assert pair_rows(baseline.rows["k3"], now, "recall") == ([0.0], ["q2"])
    checks, notes = baseline_checks({"k3": summary(0.45)}, baseline, 0.0, {"k3": now}, ("recall",))
    assert notes == ["note: k3: 1 of 2 records pair with the baseline; the gate compares those"]
