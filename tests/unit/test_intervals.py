"""The intervals' arithmetic on hand-computed cases, and their coverage by simulation: 1,000 seeded datasets of
200 records in 40 documents, where the document moves every record of it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from graph.evaluation.scoring.metrics import grouped_means
from graph.statistics.intervals import (
    Z80,
    Z95,
    design_effect,
    mean_interval,
    paired_interval,
    questions_needed,
    share_interval,
    t_quantile,
    wilson,
)


def test_wilson_of_eight_in_ten() -> None:
    low, high = wilson(8, 10)
    assert (low, high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_clustered_mean_by_hand() -> None:
    # mean 2.5; residual sums per document -2 and 2; variance 2 / 1 x 8 / 16 = 1; t on 1 degree of freedom
    interval = mean_interval([1.0, 2.0, 3.0, 4.0], ["a", "a", "b", "b"])
    assert interval.mean == 2.5 and (interval.n, interval.clusters) == (4, 2)
    assert interval.high - interval.mean == pytest.approx(t_quantile(1) * 1.0) == pytest.approx(12.7062, abs=1e-3)
    assert mean_interval([1.0, 2.0], ["a", "a"]).low is None  # one document: no interval


def test_a_share_is_widened_by_its_design_effect() -> None:
    outcomes, documents = [1.0, 1.0, 0.0, 0.0], ["a", "a", "b", "b"]
    # independent variance of the mean (1/3) / 4; clustered 2 / 1 x 2 / 16 = 1/4: design effect 3
    assert design_effect(outcomes, documents) == pytest.approx(3.0)
    interval = share_interval(outcomes, documents)
    assert (interval.low, interval.high) == pytest.approx(wilson(0.5 * 4 / 3, 4 / 3))
    assert share_interval(outcomes, ["a", "b", "c", "d"]).high < interval.high  # independent records: narrower


def _dataset(random: np.random.Generator, spread: float) -> tuple[list[float], list[str]]:
    """200 records in 40 documents of 5; each record's figure is its document's shift (sd `spread`) plus noise."""
    shifts = random.normal(0.0, spread, 40)
    values = [float(shifts[record // 5] + random.normal(0.0, 1.0)) for record in range(200)]
    return values, [f"doc{record // 5}" for record in range(200)]


def test_the_clustered_interval_keeps_its_coverage_where_the_unclustered_one_loses_it() -> None:
    random = np.random.default_rng(20)
    clustered = unclustered = 0
    for _ in range(1000):
        values, documents = _dataset(random, spread=1.0)
        own = mean_interval(values, documents)
        alone = mean_interval(values, [str(i) for i in range(200)])
        clustered += own.low <= 0.0 <= own.high  # type: ignore[operator]
        unclustered += alone.low <= 0.0 <= alone.high  # type: ignore[operator]
    assert 930 <= clustered <= 970, clustered
    assert unclustered < 900, unclustered  # records of one document treated as independent: too narrow


def test_a_yes_no_share_widened_by_the_design_effect_keeps_its_coverage() -> None:
    random = np.random.default_rng(21)
    covered = narrow = 0
    for _ in range(1000):
        # each document's chance of a yes around 0.7, records yes or no by it
        chances = np.clip(random.normal(0.7, 0.15, 40), 0.0, 1.0)
        outcomes = [float(random.random() < chances[record // 5]) for record in range(200)]
        documents = [f"doc{record // 5}" for record in range(200)]
        truth = float(np.mean(chances))
        interval = share_interval(outcomes, documents)
        alone = wilson(sum(outcomes), 200)
        covered += interval.low <= truth <= interval.high  # type: ignore[operator]
        narrow += alone[0] <= truth <= alone[1]
    # a share's interval is coarser than a mean's, and the design effect is estimated from the same records: the
    # band is 91-99%
    assert 910 <= covered <= 990, covered
    assert narrow < covered


def test_every_mean_of_a_summary_carries_its_interval_and_count() -> None:
    rows = [
        {"recall": 1.0, "correct": True, "cluster": "a", "binary": True},
        {"recall": 0.5, "correct": False, "cluster": "a", "binary": False},
        {"recall": 0.0, "correct": None, "cluster": "b", "binary": False},
    ]
    summary = grouped_means(rows, ["recall", "correct"], ["binary"], shares=["correct"])
    overall = summary["all"]
    assert overall["counts"] == {"recall": 3, "correct": 2} and overall["clusters"] == 2
    low, high = overall["intervals"]["recall"]
    assert low < overall["recall"] < high and not math.isnan(low)
    assert overall["intervals"]["correct"][0] >= 0.0  # a share's interval stays within 0 and 1
    assert summary["binary"]["True"]["intervals"]["recall"] == [None, None]  # one record, one document


def test_a_paired_clustered_difference_by_hand() -> None:
    first, second = [0.2, 0.5, 0.4, 0.9], [0.4, 0.6, 0.6, 1.0]
    differences = [b - a for a, b in zip(first, second, strict=True)]  # 0.2, 0.1, 0.2, 0.1: mean 0.15
    # residual sums per document: a 0.05 + 0.05, b -0.05 - 0.05; variance 2 / 1 x (0.01 + 0.01) / 16 = 0.0025
    interval = paired_interval(differences, ["a", "b", "a", "b"])
    assert interval.mean == pytest.approx(0.15) and (interval.n, interval.clusters) == (4, 2)
    assert interval.high - interval.mean == pytest.approx(t_quantile(1) * 0.05)
    assert interval.low < 0 < interval.high  # 12.7 x 0.05 on one degree of freedom: not distinguishable


def test_the_questions_needed_by_hand_and_with_no_variance() -> None:
    # sd^2 = 0.04 / 3; the normal's (1.96 + 0.84)^2 x 0.01333 / 0.05^2 = 41.9 questions, then on t quantiles of the
    # degrees of freedom that n leaves: 44, one per document (design effect 1)
    needed = questions_needed([0.1, -0.1, 0.1, -0.1], ["a", "b", "c", "d"], 0.05)
    assert math.ceil((Z95 + Z80) ** 2 * (0.04 / 3) / 0.05**2) == 42
    assert needed.questions == math.ceil((t_quantile(43) + t_quantile(43, 0.8)) ** 2 * (0.04 / 3) / 0.05**2) == 44
    assert needed.clusters == 44 and needed.design_effect == pytest.approx(1.0)
    assert needed.line() == "to detect 0.05 at 80% power: about 44 questions in 44 documents"
    # Two documents of two questions each whose differences agree within a document: clustered variance
    # 2 / 1 x (0.2^2 + 0.2^2) / 16 = 0.01 against the independent 0.01333 / 4, design effect 3; 2 per document
    clustered = questions_needed([0.1, 0.1, -0.1, -0.1], ["a", "a", "b", "b"], 0.05)
    assert clustered.design_effect == pytest.approx(3.0) and clustered.clusters == 65
    assert clustered.questions == math.ceil((t_quantile(64) + t_quantile(64, 0.8)) ** 2 * 0.04 / 0.05**2) == 130
    same = questions_needed([0.0, 0.0, 0.0], ["a", "b", "c"], 0.05)
    assert same.questions is None and "no variance" in same.line()
    assert questions_needed([0.001, 0.0, 0.002], ["a", "b", "c"], 0.05).questions == 2  # never fewer than two
    assert "differs by +0.200 on every question" in questions_needed([0.2] * 3, ["a", "b", "c"], 0.05).line()
    assert questions_needed([0.1], ["a"], 0.05).line().startswith("too few questions to estimate")


def _paired(random: np.random.Generator, yes_no: bool) -> tuple[list[float], list[str]]:
    """Two setups scored on 200 records in 40 documents of 5 with no true difference between them: each record
    has a difficulty that both setups share (the pairing), and each document favours one setup or the other by
    its own amount (the document's effect on the difference), which averages 0 over documents."""
    documents = [f"doc{record // 5}" for record in range(200)]
    if yes_no:
        # each document's chances of a yes for the two setups, which one gets the higher one decided by a coin
        low = random.uniform(0.3, 0.7, 40)
        gap = random.uniform(0.0, 0.3, 40)
        favoured = random.random(40) < 0.5
        first = np.repeat(np.where(favoured, low + gap, low), 5)
        second = np.repeat(np.where(favoured, low, low + gap), 5)
        shared = random.random(200)  # a record's difficulty: a hard one fails both
        differences = (shared < second).astype(float) - (shared < first).astype(float)
        return [float(d) for d in differences], documents
    difficulty = random.normal(0.0, 1.0, 200)
    shifts = np.repeat(random.normal(0.0, 0.3, 40), 5)
    first = difficulty + random.normal(0.0, 0.3, 200)
    second = difficulty + shifts + random.normal(0.0, 0.3, 200)
    return [float(b - a) for a, b in zip(first, second, strict=True)], documents


@pytest.mark.parametrize(("yes_no", "band"), [(False, (930, 970)), (True, (920, 980))])
def test_the_paired_interval_holds_a_true_zero_difference_as_often_as_it_says(yes_no: bool, band: tuple) -> None:
    # A yes/no metric's differences take three values (-1, 0, 1) and few records differ: its band is stated
    # wider, 92-98%.
    random = np.random.default_rng(30 + yes_no)
    clustered = unclustered = 0
    for _ in range(1000):
        differences, documents = _paired(random, yes_no)
        own = paired_interval(differences, documents)
        alone = paired_interval(differences, [str(i) for i in range(200)])
        clustered += own.low <= 0.0 <= own.high  # type: ignore[operator]
        unclustered += alone.low <= 0.0 <= alone.high  # type: ignore[operator]
    assert band[0] <= clustered <= band[1], clustered
    assert unclustered < band[0], unclustered  # the document's effect taken as independent records: too narrow
