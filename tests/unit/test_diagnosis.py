"""What an evaluation's figures suggest: each pattern from a setup's summary built to show it."""

from __future__ import annotations

from typing import Any

from graph.evaluation.report import render_eval_report
from graph.evaluation.scoring.diagnosis import diagnose, diagnosis_lines
from graph.evaluation.scoring.rows import GROUPS


def summary(types: dict[str, tuple[int, float]] | None = None, **overall: float) -> dict[str, Any]:
    base = {"n": 20.0, "precision": 0.5, "recall": 0.9, "correct": 0.8, "correctness": 0.8, "faithful": 0.9,
            "abstained": 0.95, "abstained_generated": None}  # fmt: skip
    by_type = {name: {**base, "n": float(n), "correct": correct} for name, (n, correct) in (types or {}).items()}
    return {**{group: {} for group in GROUPS}, "all": {**base, **overall}, "question_type": by_type}


def test_a_healthy_setup_shows_no_pattern() -> None:
    assert diagnose(summary()) == []
    assert diagnosis_lines({"base": summary()}) == ["base: none of the known patterns shows"]


def test_low_recall_with_low_correctness_points_at_chunks_or_k() -> None:
    (finding,) = diagnose(summary(recall=0.42, correct=0.31))
    assert "low recall (0.42 < 0.6)" in finding and "correctness (0.31 < 0.5)" in finding and "larger k" in finding


def test_high_recall_with_low_faithfulness_points_at_the_generator() -> None:
    (finding,) = diagnose(summary(recall=0.93, faithful=0.55))
    assert "faithfulness (0.55 < 0.7)" in finding and "generator strays" in finding


def test_answered_unanswerable_questions_point_at_abstention() -> None:
    findings = diagnose(summary(abstained=0.6, abstained_generated=0.5))
    assert len(findings) == 2
    assert "answered 40% of the simulated unanswerable variants" in findings[0]
    assert "answered 50% of the generated unanswerable questions" in findings[1]


def test_multi_hop_far_below_single_hop_points_at_k_or_decomposition() -> None:
    types = {"comparison": (10, 0.4), "composition": (10, 0.2), "factual": (15, 0.9), "procedural": (5, 0.7)}
    (finding,) = diagnose(summary(types))
    assert "multi-hop correctness 0.30 (20 questions)" in finding and "single-hop 0.85 (20)" in finding
    assert "decompose" in finding
    close = {"comparison": (10, 0.7), "factual": (10, 0.8)}
    assert diagnose(summary(close)) == []


def test_a_query_style_far_below_natural_is_a_style_gap() -> None:
    base = summary()
    styled = {
        "natural": {"n": 10.0, "recall": 0.9, "correct": 0.8},
        "keyword": {"n": 4.0, "recall": 0.65, "correct": 0.75},
        "misspelled": {"n": 3.0, "recall": 0.85, "correct": 0.55},
        "short": {"n": 3.0, "recall": 0.75, "correct": 0.7},
    }
    findings = diagnose({**base, "query_style": styled})
    assert len(findings) == 2
    assert findings[0].startswith("keyword queries' recall 0.65 (4 questions) is far below natural questions' 0.90")
    assert findings[1].startswith("misspelled queries' correctness 0.55 (3 questions) is far below natural questions'")
    assert "hybrid (keyword) search" in findings[0]  # short: 0.15 below on recall, no finding


def test_the_report_shows_the_findings() -> None:
    html = render_eval_report({"base": summary(recall=0.42, correct=0.31), "k8": summary()})
    assert 'id="diagnosis"' in html and "low recall (0.42 &lt; 0.6)" in html and "none of the known patterns" in html
