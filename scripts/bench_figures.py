"""The arithmetic of `bench_run.py`'s figures: time with a call in flight, samples in flight, busy lanes."""

from __future__ import annotations

import os
import statistics
from pathlib import Path


def busy_seconds(spans: list[tuple[float, float]]) -> float:
    """Length of the union of the call intervals."""
    total, end = 0.0, float("-inf")
    for start, stop in sorted(spans):
        if start > end:
            total += stop - start
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total


def mean_in_flight(events: list[tuple[float, int]], wall: float) -> float:
    """Time-weighted number of samples running, over the whole run's wall time."""
    area, running, last = 0.0, 0, None
    for moment, change in sorted(events):
        if last is not None:
            area += running * (moment - last)
        running, last = running + change, moment
    return area / wall if wall else 0.0


def samples_wall(events: list[tuple[float, int]]) -> float:
    """From the first sample's start to the last sample's end: the run without its start-up and end."""
    moments = [moment for moment, _ in events]
    return max(moments) - min(moments) if moments else 0.0


def busy_lanes_rate(events: list[tuple[float, int]], lanes: int) -> tuple[float, float, float] | None:
    """Samples finished per second while every lane had one running, how long that lasted, and the drain.

    The window runs from the first moment `lanes` samples were in flight to the last moment the run
    fell below that for good; the drain, from then to the end of its last sample, is the run's last
    samples, fewer than the lanes. None when the lanes were never all busy.
    """
    first = last = None
    running = 0
    for moment, change in sorted(events):
        was_full = running >= lanes
        running += change
        if running >= lanes and first is None:
            first = moment
        elif was_full and running < lanes:
            last = moment
    if first is None or last is None or last <= first:
        return None
    finished = sum(1 for moment, change in events if change < 0 and first < moment <= last)
    return finished / (last - first), last - first, max(moment for moment, _ in events) - last


def system_cpu_seconds() -> float | None:
    """CPU seconds all processes of this machine have used (Linux), or None where unknown."""
    try:
        fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + fields[4]  # idle and iowait
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


def spread(values: list[float], form: str) -> str:
    """One run's figure, or the median of several followed by every run's value."""
    if len(values) == 1:
        return format(values[0], form)
    return f"{format(statistics.median(values), form)} (runs: {', '.join(format(v, form) for v in values)})"
