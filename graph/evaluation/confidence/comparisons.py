"""Paired comparisons of setups (SPEC 20): for every pair of setups scored on the same records, every metric and
group, the mean of the per-record differences with its clustered 95% interval, in words a reader can act on.

A pair is compared over the records both setups have the metric for, each record's cluster its seed's document.
The words say "B higher than A" only when the interval lies wholly above 0 ("lower" wholly below); otherwise the
pair is not distinguishable on that many questions, and the questions needed to detect a difference of the size
the user names is estimated from the differences seen. A group of fewer than `MIN_QUESTIONS` is flagged as too
small to compare. At 95%, one comparison in twenty of setups that do not differ looks real by chance: the summary
says how many were made.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from graph.evaluation.scoring.rows import EvalRow, Group, Metric
from graph.statistics.intervals import Interval, QuestionsNeeded, paired_interval, questions_needed

#: Fewer questions than this in a group and a comparison on it is flagged as too small.
MIN_QUESTIONS = 10

#: The difference the questions-needed estimate is made for, unless `--detect` names another.
DEFAULT_DETECT = 0.05

#: The group every record is in.
OVERALL = "all"


@dataclass(frozen=True)
class Comparison:
    """`second` minus `first` on one metric and group, over the records both scored."""

    first: str
    second: str
    metric: str
    group: str
    """`all`, or a breakdown's `field=value`."""
    interval: Interval
    needed: QuestionsNeeded | None
    """For a pair that is not distinguishable (or too small to compare): the questions a difference needs."""

    @property
    def difference(self) -> float:
        return self.interval.mean

    @property
    def small(self) -> bool:
        return self.interval.n < MIN_QUESTIONS

    @property
    def distinguishable(self) -> bool:
        low, high = self.interval.low, self.interval.high
        return not self.small and low is not None and high is not None and (low > 0 or high < 0)

    def words(self) -> str:
        n = self.interval.n
        if self.small:
            return f"too few questions to compare ({n}, fewer than {MIN_QUESTIONS})"
        if self.distinguishable:
            return f"{self.second} {'higher' if self.difference > 0 else 'lower'} than {self.first}"
        return f"not distinguishable on {n} questions"

    def interval_text(self) -> str:
        low, high = self.interval.low, self.interval.high
        if low is None or high is None:
            return "no interval (one question)"
        one = " (one document: questions taken as independent)" if self.interval.clusters == 1 else ""
        return f"[{low:+.3f}, {high:+.3f}]{one}"

    def line(self) -> str:
        """One line: the pair, the metric, the difference with its interval, n, clusters, the words."""
        where = "" if self.group == OVERALL else f" ({self.group})"
        return (
            f"{self.second} - {self.first}  {self.metric}{where}  {self.difference:+.3f} {self.interval_text()} "
            f"n={self.interval.n} documents={self.interval.clusters}: {self.words()}"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "setups": [self.first, self.second],
            "metric": self.metric,
            "group": self.group,
            "difference": round(self.difference, 6),
            "low": None if self.interval.low is None else round(self.interval.low, 6),
            "high": None if self.interval.high is None else round(self.interval.high, 6),
            "n": self.interval.n,
            "clusters": self.interval.clusters,
            "verdict": self.words(),
            "too_small": self.small,
            "questions_needed": None
            if self.needed is None
            else {
                "effect": self.needed.effect,
                "questions": self.needed.questions,
                "clusters": self.needed.clusters,
                "design_effect": round(self.needed.design_effect, 4),
            },
        }


def record_key(row: EvalRow) -> tuple[str, int]:
    """A row's record: its id and version (rows keep `sample_version` from the second version on)."""
    return (str(row["sample_id"]), int(row.get("sample_version") or 1))


def pair_rows(first: Sequence[EvalRow], second: Sequence[EvalRow], metric: Metric) -> tuple[list[float], list[str]]:
    """The per-record differences (second minus first) of the records both have the metric for, and their
    clusters; a record is paired with the same version of itself (a refreshed record is another question)."""
    before = {record_key(row): (row, value) for row in first if (value := row.get(metric)) is not None}
    differences, clusters = [], []
    for row in second:
        earlier = before.get(record_key(row))
        if earlier is None or (now := row.get(metric)) is None:
            continue
        then, was = earlier
        differences.append(float(now) - float(was))
        clusters.append(str(row.get("cluster") or then.get("cluster") or row["sample_id"]))
    return differences, clusters


def compare_rows(
    first: str,
    second: str,
    rows: tuple[Sequence[EvalRow], Sequence[EvalRow]],
    metric: Metric,
    group: str,
    detect: float,
) -> Comparison | None:
    """One comparison; None where no record has the metric in both."""
    differences, clusters = pair_rows(*rows, metric)
    if not differences:
        return None
    interval = paired_interval(differences, clusters)
    comparison = Comparison(first, second, metric, group, interval, None)
    if comparison.distinguishable:
        return comparison
    return Comparison(first, second, metric, group, interval, questions_needed(differences, clusters, detect))


def compare_setups(
    rows: Mapping[str, Sequence[EvalRow]],
    metrics: Sequence[Metric],
    groups: Sequence[Group],
    detect: float = DEFAULT_DETECT,
) -> list[Comparison]:
    """Every pair of setups (in the order given: the later minus the earlier), every metric, overall and for every
    value of every breakdown field."""
    found = []
    for first, second in combinations(rows, 2):
        pair = (rows[first], rows[second])
        slices: list[tuple[str, tuple[list[EvalRow], list[EvalRow]]]] = [(OVERALL, (list(pair[0]), list(pair[1])))]
        for field in groups:
            values = sorted({str(value) for row in pair[1] if (value := row.get(field)) is not None})
            slices += [
                (
                    f"{field}={value}",
                    (
                        [r for r in pair[0] if str(r.get(field)) == value],
                        [r for r in pair[1] if str(r.get(field)) == value],
                    ),
                )
                for value in values
            ]
        for metric in metrics:
            for group, members in slices:
                comparison = compare_rows(first, second, members, metric, group, detect)
                if comparison is not None:
                    found.append(comparison)
    return found


def comparisons_json(comparisons: Sequence[Comparison], detect: float) -> dict[str, Any]:
    """The `comparisons` section of eval-summary.json."""
    return {
        "made": len(comparisons),
        "by_chance": chance_line(comparisons),
        "detect": detect,
        "differences": [comparison.as_json() for comparison in comparisons],
    }


def chance_line(comparisons: Sequence[Comparison]) -> str:
    made = len(comparisons)
    real = sum(c.distinguishable for c in comparisons)
    expected = math.floor(made * 0.05 + 0.5)
    return (
        f"{made} comparisons made (every pair, metric and group), {real} of them distinguishable; at 95%, about one "
        f"in twenty looks real by chance where nothing differs (here about {expected})"
    )


def comparison_lines(comparisons: Sequence[Comparison]) -> list[str]:
    """What the terminal shows: every overall comparison, with the questions needed where a pair is not
    distinguishable; the groups where a pair is distinguishable; how many comparisons were made and flagged."""
    if not comparisons:
        return []
    lines = ["paired differences (later minus earlier setup; 95% interval, clustered by document):"]
    overall = {(c.first, c.second, c.metric): c.interval.n for c in comparisons if c.group == OVERALL}
    for comparison in comparisons:
        if comparison.group == OVERALL:
            needed = "" if comparison.needed is None else f"; {comparison.needed.line()}"
            lines.append(f"  {comparison.line()}{needed}")
    # A group that holds every record the pair shares says what the overall line says.
    grouped = [
        c
        for c in comparisons
        if c.group != OVERALL and c.distinguishable and c.interval.n < overall.get((c.first, c.second, c.metric), 0)
    ]
    if grouped:
        lines.append("  where a group differs:")
        lines += [f"    {comparison.line()}" for comparison in grouped]
    small = sum(c.small for c in comparisons)
    if small:
        lines.append(
            f"  {small} comparisons are of groups with fewer than {MIN_QUESTIONS} questions: flagged too small"
        )
    lines.append(f"  {chance_line(comparisons)}")
    return lines
