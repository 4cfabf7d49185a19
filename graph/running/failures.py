"""A run that cannot work: its first samples that reached a model all failed on the same error.

A model that is not served under its name, a context window too small for triad's prompts, a server that
answers every request with the same error: samples would fail one after another until every cell's
attempt cap is spent. When the first `FAILED_ALIKE` samples a worker started that reached a model all
failed on one error, the run stops starting samples, for every worker, and says why. The first samples
are taken in the order they started, not the order they ended: a failure on a sample's first call ends
sooner than a success, so a few fast failures among good samples do not stop a run that works. The
samples that failed on the error are released, as if they never ran, so `--resume` after the fix does
their work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from state.sample import SampleState

#: Samples that must fail alike, with no other outcome among them, before a run is stopped.
FAILED_ALIKE = 5

#: Numbers, and hexadecimal ids with a digit in them (request ids), which differ between two failures alike.
_VARYING = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-fA-F-]*\d)[0-9a-fA-F-]{6,}(?![0-9A-Za-z])|\d+")

#: A sample that reached no model: it says nothing of the models.
NO_MODEL = "no model"


def failure_kind(reason: str) -> str:
    """What two failures must share to be the same error: the reason with its numbers and ids left out, and the
    node that met it."""
    _, colon, rest = reason.partition(": ")
    return _VARYING.sub("N", rest if colon else reason).strip()


@dataclass
class ReleasedSample:
    """A sample that failed on the run-wide error: its slot, thread and the seeds it drew."""

    slot: int
    thread_id: str
    seeds: list[str]


@dataclass
class SameFailure:
    """Watches a worker's samples, in the order they started, for the first ones that reached a model."""

    order: list[int] = field(default_factory=list)
    """Slots in the order they started."""
    ended: dict[int, str | None] = field(default_factory=dict)
    """How each ended: its failure kind, None for another outcome, `NO_MODEL` when it reached no model."""
    failed: dict[int, ReleasedSample] = field(default_factory=dict)
    settled: bool = False
    """One of the first samples ended otherwise, or they failed on different errors: the models can work."""
    reason: str | None = None
    """The error every one of the first samples failed on: the run cannot work."""
    _reasons: dict[int, str] = field(default_factory=dict)

    def started(self, slot: int) -> None:
        if slot not in self.ended:
            self.order.append(slot)

    def note(self, slot: int, thread_id: str, outcome: str, state: SampleState) -> None:
        if not state.get("llm_calls"):
            self.ended[slot] = NO_MODEL
        elif outcome != "failed":
            self.ended[slot] = None
        else:
            reason = str(state.get("end_reason") or "")
            self.ended[slot] = failure_kind(reason)
            self._reasons[slot] = reason
            self.failed[slot] = released_sample(slot, thread_id, state)
        if not self.settled and self.reason is None:
            self._decide()

    def _decide(self) -> None:
        first: list[int] = []
        for slot in self.order:
            if slot not in self.ended:
                return  # a sample started earlier is still running: its outcome counts first
            kind = self.ended[slot]
            if kind == NO_MODEL:
                continue
            if kind is None:  # it reached a model and did not fail: the models can work
                self.settled = True
                return
            first.append(slot)
            if len(first) == FAILED_ALIKE:
                break
        if len({self.ended[slot] for slot in first}) > 1:
            self.settled = True
        elif len(first) == FAILED_ALIKE:
            self.reason = self._reasons[first[0]]

    @property
    def released(self) -> list[ReleasedSample]:
        """The samples that failed on the run-wide error: the first ones and those in flight when it was found."""
        if self.reason is None:
            return []
        kind = failure_kind(self.reason)
        return [sample for slot, sample in self.failed.items() if self.ended.get(slot) == kind]


def released_sample(slot: int, thread_id: str, state: SampleState) -> ReleasedSample:
    seeds = {str(attempt["seed_id"]) for attempt in state.get("bridge_attempts") or [] if attempt.get("seed_id")}
    if (seed := state.get("seed")) and seed.get("id"):
        seeds.add(str(seed["id"]))
    return ReleasedSample(slot, thread_id, sorted(seeds))
