"""Evaluation arithmetic on hand-made cases."""

from __future__ import annotations

import pytest

from graph.evaluation.scoring.metrics import cosine, graded_correctness, grouped_means, retrieval_scores, says_abstain

CONTEXTS = [
    {"id": "a", "text": "Alpha text", "relevant": True},
    {"id": "b", "text": "Beta text", "relevant": True},
    {"id": "c", "text": "Gamma text", "relevant": False},
]


@pytest.mark.parametrize(
    ("retrieved", "expected"),
    [
        ([{"id": "a"}, {"id": "c"}], (0.5, 0.5)),
        ([{"id": "a"}, {"id": "b"}], (1.0, 1.0)),
        ([{"id": "a"}, {"id": "a"}, {"id": "x"}], (0.5, 0.5)),  # a duplicate counts once
        ([], (0.0, 0.0)),
        ([{"text": "  alpha   TEXT "}, {"text": "unrelated"}], (0.5, 0.5)),  # text fallback without ids
        ([{"id": "zzz", "text": "Beta text"}, {"id": "c"}, {"id": "y"}, {"id": "z"}], (0.25, 0.5)),
    ],
)
def test_precision_and_recall_by_id_with_text_fallback(retrieved: list[dict], expected: tuple[float, float]) -> None:
    assert retrieval_scores(retrieved, CONTEXTS) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("answer", "abstains"),
    [
        ("I don't know", True),
        ("The context does not contain the answer.", True),
        ("", True),
        ("There is not enough information.", True),
        ("autovacuum_naptime", False),
        ("Yes", False),
    ],
)
def test_abstention_phrases(answer: str, abstains: bool) -> None:
    assert says_abstain(answer) is abstains


def test_grouped_means_skip_missing_values() -> None:
    rows = [
        {"precision": 1.0, "abstained": True, "binary": True},
        {"precision": 0.0, "abstained": None, "binary": False},
        {"precision": 0.5, "abstained": False, "binary": False},
    ]
    summary = grouped_means(rows, ["precision", "abstained"], ["binary"])
    assert summary["all"]["precision"] == pytest.approx(0.5) and summary["all"]["abstained"] == pytest.approx(0.5)
    assert summary["binary"]["False"]["precision"] == pytest.approx(0.25)
    assert summary["binary"]["True"]["n"] == 1


def test_graded_correctness_weighs_statement_f1_and_similarity_as_ragas_does() -> None:
    assert graded_correctness(1, 0, 0, 1.0) == pytest.approx(1.0)
    assert graded_correctness(0, 1, 1, 0.6) == pytest.approx(0.25 * 0.6)  # no true positive: F1 is 0
    # F1 = 2 / (2 + (1 + 1) / 2) = 2/3
    assert graded_correctness(2, 1, 1, 0.9) == pytest.approx(0.75 * 2 / 3 + 0.25 * 0.9)
    assert graded_correctness(1, 0, 0, -0.2) == pytest.approx(0.75)  # a negative cosine counts as 0
    assert cosine([1.0, 0.0], [1.0, 0.0]) == pytest.approx(1.0)
    assert cosine([1.0, 0.0], [0.0, 1.0]) == pytest.approx(0.0)
    assert cosine([0.0, 0.0], [1.0, 0.0]) == 0.0


def test_the_faithfulness_judge_reads_the_question() -> None:
    from prompts import evaluate

    assert "{question}" in evaluate.FAITHFULNESS_USER
    assert "{question}" in evaluate.CORRECTNESS_USER


def test_the_abstention_check_reads_every_decline_the_answering_prompt_asks_for() -> None:
    from prompts.evaluate import DECLINES

    assert all(says_abstain(phrase) and says_abstain(phrase + ".") for phrase in DECLINES.values())
