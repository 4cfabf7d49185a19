"""The intervals' arithmetic on hand-computed cases, and their coverage by simulation: 1,000 seeded datasets of
200 records in 40 documents, where the document moves every record of it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from graph.evaluation.metrics import grouped_means
from graph.intervals import design_effect, mean_interval, share_interval, t_quantile, wilson


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
