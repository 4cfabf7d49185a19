"""95% intervals of the figures an evaluation or a review reports (SPEC 20), in one place for both.

Records are a sample, and records drawn from one document are not independent: a mean of per-record numbers gets
a cluster-robust standard error (each record's cluster is its seed's document), with a t quantile on G - 1
degrees of freedom for G clusters; a share of yes/no outcomes gets a Wilson interval on the sample size the
clusters leave (the records over the design effect, the clustered variance over the independent one).
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(passed: float, total: float) -> tuple[float, float]:
    """The 95% Wilson score interval of `passed` of `total` (either may be an effective, fractional count)."""
    if total <= 0:
        return (0.0, 1.0)
    share = passed / total
    centre = share + Z95**2 / (2 * total)
    spread = Z95 * math.sqrt(share * (1 - share) / total + Z95**2 / (4 * total**2))
    denominator = 1 + Z95**2 / total
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


@functools.cache
def t_quantile(degrees: int, level: float = 0.975) -> float:
    """The `level` quantile (97.5%: a two-sided 95% interval) of Student's t on `degrees` degrees of freedom."""
    from scipy.stats import t  # a heavy import, made where an interval is wanted

    return float(t.ppf(level, degrees))


@dataclass(frozen=True)
class Interval:
    """A figure's mean, its 95% interval (None where it cannot be had: fewer than two clusters), its records and
    its clusters."""

    mean: float
    low: float | None
    high: float | None
    n: int
    clusters: int


def clustered_variance(values: Sequence[float], clusters: Sequence[Hashable]) -> float | None:
    """The cluster-robust variance of the mean of `values`: G / (G - 1) x the sum over clusters of the squared sum
    of their residuals, over n squared; None with fewer than two clusters."""
    n = len(values)
    sums: dict[Hashable, float] = defaultdict(float)
    mean = sum(values) / n
    for value, cluster in zip(values, clusters, strict=True):
        sums[cluster] += value - mean
    groups = len(sums)
    if groups < 2:
        return None
    return groups / (groups - 1) * sum(total**2 for total in sums.values()) / n**2


def mean_interval(
    values: Sequence[float], clusters: Sequence[Hashable], bounds: tuple[float, float] | None = None
) -> Interval:
    """The mean of per-record numbers with its cluster-robust 95% interval (t on G - 1 degrees of freedom), kept
    within `bounds` where the numbers have them (a recall cannot pass 1)."""
    n, groups = len(values), len(set(clusters))
    mean = sum(values) / n
    variance = clustered_variance(values, clusters)
    if variance is None:
        return Interval(mean, None, None, n, groups)
    half = t_quantile(groups - 1) * math.sqrt(variance)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return Interval(mean, low, high, n, groups)


def design_effect(values: Sequence[float], clusters: Sequence[Hashable]) -> float:
    """How much the clusters widen the variance of a mean: the clustered variance over the independent one, at
    least 1 (1 where either cannot be had)."""
    n = len(values)
    mean = sum(values) / n
    independent = sum((value - mean) ** 2 for value in values) / (n - 1) / n if n > 1 else 0.0
    clustered = clustered_variance(values, clusters)
    if clustered is None or independent <= 0:
        return 1.0
    return max(1.0, clustered / independent)


def share_interval(outcomes: Sequence[float], clusters: Sequence[Hashable]) -> Interval:
    """The share of yes outcomes (true, or 1) with its Wilson 95% interval, on the records over the clusters'
    design effect."""
    values = [1.0 if outcome else 0.0 for outcome in outcomes]
    n, groups = len(values), len(set(clusters))
    share = sum(values) / n
    effective = n / design_effect(values, clusters)
    low, high = wilson(share * effective, effective)
    return Interval(share, low, high, n, groups)


def paired_interval(differences: Sequence[float], clusters: Sequence[Hashable]) -> Interval:
    """The mean of per-record differences between two setups (each record scored by both) with its cluster-robust
    95% interval: the records' pairing takes out what the questions share, the clusters what a document does.

    Records of one document alone have no clustered interval; theirs takes the records as independent (t on
    n - 1), and `Interval.clusters` stays 1 to say so."""
    interval = mean_interval(differences, clusters)
    if interval.low is None and interval.clusters == 1 and len(differences) > 1:
        alone = mean_interval(differences, range(len(differences)))
        return Interval(alone.mean, alone.low, alone.high, alone.n, 1)
    return interval


#: The normal quantile of 80% power.
Z80 = 0.8416212335729143


@dataclass(frozen=True)
class QuestionsNeeded:
    """How many questions (and documents) would detect a difference of `effect` at 80% power with a two-sided 95%
    test, from the paired differences seen; `questions` is None where they did not vary at all."""

    effect: float
    questions: int | None
    clusters: int | None
    design_effect: float
    constant: float | None = None
    """Where the differences did not vary: their one value (None: there were fewer than two)."""

    def line(self) -> str:
        if self.questions is None:
            if self.constant is None:
                return "too few questions to estimate how many a difference needs"
            if self.constant == 0:
                return "identical on every question (no variance): there is no difference to detect"
            return f"differs by {self.constant:+.3f} on every question (no variance): no noise to see it through"
        return (
            f"to detect {self.effect:g} at 80% power: about {self.questions} questions in {self.clusters} documents"
            + (f" (design effect {self.design_effect:.2f})" if self.design_effect > 1 else "")
        )


def questions_needed(differences: Sequence[float], clusters: Sequence[Hashable], effect: float) -> QuestionsNeeded:
    """n = ((t 0.975 + t 0.8) x sd / effect)^2 x the design effect, the sd of the paired differences seen, the t
    quantiles on the degrees of freedom the n itself leaves (G - 1 documents at the questions per document seen),
    solved by iteration from the normal's answer; at least 2 questions in 2 documents."""
    n = len(differences)
    if n < 2:
        return QuestionsNeeded(effect, None, None, 1.0)
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    if variance <= 1e-18:
        return QuestionsNeeded(effect, None, None, 1.0, round(mean, 12))
    deff = design_effect(differences, clusters)
    per_cluster = n / len(set(clusters))

    def needed(z: float) -> int:
        return max(2, math.ceil(z**2 * variance / effect**2 * deff), math.ceil(2 * per_cluster))

    questions = needed(Z95 + Z80)
    for _ in range(50):
        degrees = max(1, math.ceil(questions / per_cluster) - 1)
        again = needed(t_quantile(degrees) + t_quantile(degrees, 0.8))
        if again == questions:
            break
        questions = again
    return QuestionsNeeded(effect, questions, max(2, math.ceil(questions / per_cluster)), deff)
